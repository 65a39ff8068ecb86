"""The ``expect`` check of the numbered edits, and the line saying how numbers moved.

Paragraph numbers move (the model's own insert above, a line the user typed
meanwhile), so the numbered edits take ``expect``: the first words of
paragraph ``start`` as the model read them. They are compared ignoring case,
spacing and punctuation (models re-type quotes and dashes), and against the
paragraph as read_document shows it too ("# Title", "2. Second step").
Pure Python: the Writer side hands in the texts.
"""

from typing import Iterable, List, Optional, Tuple


def fold(text: str) -> str:
    """Letters and digits only, lower case: what ``expect`` compares."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def begins(expect: str, shown: Iterable[str]) -> bool:
    """True when one of the forms ``shown`` of a paragraph begins with ``expect``."""
    want = fold(expect)
    forms = [fold(form) for form in shown]
    if not want:
        # Only punctuation or nothing: it can stand for an empty paragraph only.
        return any(not form for form in forms)
    return any(form.startswith(want) for form in forms)


def where(expect: str, paragraphs: Iterable[Tuple[int, str]],
          limit: int = 5) -> Tuple[List[int], bool]:
    """(numbers, containing): the paragraphs beginning with ``expect``, else (containing
    True) those that contain it somewhere."""
    want = fold(expect)
    if not want:
        return [], False
    starting, containing = [], []
    for number, text in paragraphs:
        form = fold(text)
        if form.startswith(want):
            starting.append(number)
        elif want in form:
            containing.append(number)
    if starting:
        return starting[:limit], False
    return containing[:limit], bool(containing)


def mismatch(start: int, holds: str, found: List[int], expect: str,
             containing: bool = False) -> str:
    """The refusal: what paragraph ``start`` holds now and where the expected text went."""
    said = "Paragraph %d does not begin with \u201c%s\u201d; it now reads \u201c%s\u201d." % (
        start, _cut(expect, 60), _cut(holds, 100))
    if not found:
        # The words are nowhere: a stale read, or (small models do this) not words the
        # model read at all. The way on is spelled out; it still has to choose it.
        return ("%s That text is no longer in the document. Nothing was changed. If "
                "paragraph %d as it reads now is the one you mean, call again with expect="
                "\"%s\"; otherwise read the document again (read_document) for the right "
                "number." % (said, start, _first_words(holds)))
    numbers = ", ".join(str(n) for n in found)
    verb = "contains" if containing and len(found) == 1 else \
        "contain" if containing else "begins with" if len(found) == 1 else "begin with"
    where_now = "Paragraph%s %s %s it now." % ("" if len(found) == 1 else "s", numbers, verb)
    return "%s %s Nothing was changed; check the numbers (read_document) and try again." % (
        said, where_now)


def _first_words(text: str, count: int = 5) -> str:
    return " ".join(text.split()[:count]).replace('"', "'")


def moved(first_old: Optional[int], first_new: Optional[int]) -> str:
    """One line for the model: how later paragraph numbers changed.

    ``first_old`` is the number the first paragraph after the edit had before
    it, ``first_new`` the number it has now; None when nothing follows.
    """
    if first_old is None or first_new is None:
        return "No paragraphs follow, so no other numbers changed."
    if first_old == first_new:
        return "Paragraphs %d and after keep their numbers." % first_old
    return "Paragraphs %d and after are now %d and after." % (first_old, first_new)


def _cut(text: str, size: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[:size - 1].rstrip() + "\u2026"

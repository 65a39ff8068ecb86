"""The user's lines that more than one document tool writes, as phrases (pure).

A tool's own line ("Deleted paragraphs 2–3") sits in the tool; the lines here are
shared: a read's range, and the refusals the guards give (kept out, a tracked change
in the way, the document changed), which the panel shows in the user's language
(i18n.phrase) while the model reads the guard's English sentence.
"""

from typing import Optional

from marginalia.i18n.phrase import Phrase, phrase


def read_line(first: int, last: int, count: int) -> Phrase:
    """A read of paragraphs ``first``–``last`` of ``count``."""
    return phrase("Read paragraphs %(first)d\u2013%(last)d of %(count)d",
                  first=first, last=last, count=count)


def place(first: Optional[int], last: Optional[int] = None) -> Phrase:
    """A passage by its paragraph numbers; "a marked passage" when they are not known."""
    if first is None:
        return phrase("a marked passage")
    if last is None or last == first:
        return phrase("paragraph %(n)d", n=first)
    return phrase("paragraphs %(first)d\u2013%(last)d", first=first, last=last)


def kept_out(where: Phrase) -> Phrase:
    """An edit refused because the user keeps Marginalia out of ``where``."""
    return phrase("Left %(where)s alone: you keep Marginalia out of it \u2014 nothing changed",
                  where=where)


def in_tracked(where: Optional[Phrase]) -> Phrase:
    """An edit refused because another reviewer's tracked change is in the way."""
    if where is None:
        return phrase("Left that text alone: it holds a tracked change not yet accepted or "
                      "rejected \u2014 nothing changed")
    return phrase("Left %(where)s alone: it holds a tracked change not yet accepted or "
                  "rejected \u2014 nothing changed", where=where)


def unsure() -> Phrase:
    """An edit refused because its place could not be checked against the keep-out marks."""
    return phrase("Couldn't tell which part of the document the edit would change \u2014 "
                  "nothing changed")


def changed(action: Optional[str] = None) -> Phrase:
    """An edit refused because the document changed under the model's read; ``action``
    the tool's words for what it does (ToolSpec.words.action, a msgid)."""
    if action:
        return phrase("Couldn't %(action)s: the document changed since the model read it "
                      "\u2014 nothing changed", action=Phrase(action))
    return phrase("The document changed since the model read it \u2014 nothing changed")


def not_found(what: str) -> Phrase:
    """An edit refused because its words are not in the document."""
    return phrase("Couldn't find \u201c%(what)s\u201d \u2014 nothing changed", what=what)


def not_read() -> Phrase:
    """An edit of paragraphs the model had not read: it is shown them and asked again."""
    return phrase("Showed the model paragraphs it had not read \u2014 nothing changed yet")


def did_not_fit() -> Phrase:
    """An edit whose lines do not fit the document (empty, past the end, lines not in it)."""
    return phrase("Couldn't edit: the model's lines did not match the document \u2014 "
                  "nothing changed")

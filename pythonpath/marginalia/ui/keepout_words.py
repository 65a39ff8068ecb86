"""The Keep out menu's wording (pure): the card's Keep out button, once marks exist.

With no mark in the document the button marks the selection at once. Once
there are marks it opens a small menu: first what the button would do to the
selection ("Keep out the selection", or "Let Marginalia in here" when the
selection is in a mark), then one entry per kept-out passage
("Go to ¶3–5 “Sales grew in…”", as the card's Go to selects a change), in
document order; choosing one selects that passage in the document (the view
scrolls there), so the user sees it, and the menu's first entry then removes
its mark. No title line: a disabled menu entry is not shown at all unless
the user turned on showing inactive menu entries. The menu opens below the
button, so its width is not the panel's; entries stay short all the same
(a long list scrolls, as LibreOffice's menus do).
"""

from typing import List, Optional, Sequence, Tuple

from marginalia.document import docview
from marginalia.i18n.catalog import N_, tr

KEEP = "keep"           # mark the selection
LET_IN = "let_in"       # remove the mark the selection is in
SHOW = "show"           # select a mark's passage

KEEP_LABEL = N_("Keep out the selection")
LET_IN_LABEL = N_("Let Marginalia in here")
WORDS = 26              # characters of a passage's first words

# The status line holds about two short lines: the menu's first entry, now "Let
# Marginalia in here", says the rest.
GONE = N_("That passage is no longer marked.")

# (name, first paragraph, last paragraph, first words) of one mark.
Mark = Tuple[str, Optional[int], Optional[int], str]
# (action, mark name or "", label) of one menu entry.
Entry = Tuple[str, str, str]


def where(first: Optional[int], last: Optional[int]) -> str:
    """"¶3" or "¶3–5" ("" when the paragraphs are not known)."""
    if first is None:
        return ""
    if last is None or last == first:
        return "\u00b6%d" % first
    return "\u00b6%d\u2013%d" % (first, last)


def _first_words(words: str) -> str:
    # Whole words where there are any: "Sales grew in every…", not "Sales grew in ev…".
    shown = docview.short(words, WORDS)
    if not shown.endswith("\u2026"):
        return shown
    cut = shown[:-1]
    space = cut.rfind(" ")
    return (cut[:space] if space >= WORDS // 2 else cut).rstrip(" ,;:") + "\u2026"


def label(first: Optional[int], last: Optional[int], words: str) -> str:
    """A passage's menu entry: Go to ¶3–5 “Sales grew in every…”."""
    shown = _first_words(words)
    place = where(first, last)
    if not shown:
        return tr("Go to %s") % place if place else tr("Go to a marked passage")
    if not place:
        return tr("Go to \u201c%s\u201d") % shown
    return tr("Go to %(place)s \u201c%(words)s\u201d") % {"place": place, "words": shown}


def _order(mark: Mark) -> Tuple[int, int]:
    # Marks whose place is not known go last.
    return (0, mark[1]) if mark[1] is not None else (1, 0)


def entries(marks: Sequence[Mark], here: Optional[str]) -> List[Entry]:
    """The menu: the selection's action first (``here``: the mark the selection is in),
    then the passages in document order; ("", "", "") is a separator."""
    out = [(LET_IN, here, tr(LET_IN_LABEL)) if here else (KEEP, "", tr(KEEP_LABEL))]
    if not marks:
        return out
    out.append(("", "", ""))
    for name, first, last, words in sorted(marks, key=_order):
        out.append((SHOW, name, label(first, last, words)))
    return out


def shown(first: Optional[int], last: Optional[int]) -> str:
    """The status line once a passage is selected from the menu."""
    place = where(first, last)
    if not place:
        return tr("A marked passage selected: kept out.")
    return tr("%s selected: kept out.") % place

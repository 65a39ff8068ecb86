"""The user's lines that more than one document tool writes, as phrases (pure).

A tool's own line ("Deleted paragraphs 2–3") sits in the tool; the lines here are
shared: a read's range, and the refusals the guards give (kept out, a tracked change
in the way, the document changed), which the panel shows in the user's language
(i18n.phrase) while the model reads the guard's English sentence.
"""

from typing import Optional

from marginalia.i18n.catalog import N_
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


# -- a call's line whatever the tool ---------------------------------------------------
# ``%(action)s`` is what the tool does ("rewrite the paragraphs"): a refusal raised deep
# in a tool (writer.args) does not know which tool it refuses for, so it says DO_THAT and
# the registry that ran the call puts the tool's own words there (chat.tools.said).
ACTION = "action"
DO_THAT = N_("do that")


def _any() -> Phrase:
    return Phrase(DO_THAT)


def no_longer_reads(where: Phrase) -> Phrase:
    """An edit refused because ``where`` does not begin with the words the model expected."""
    return phrase("Couldn't %(action)s: %(where)s no longer reads as the model expected "
                  "\u2014 nothing changed", where=where, action=_any())


def did_not_fit_request() -> Phrase:
    """Arguments the tool cannot take (out of range, not a number, markup in plain text)."""
    return phrase("Couldn't %(action)s: the model's request did not fit \u2014 nothing changed",
                  action=_any())


def incomplete_request() -> Phrase:
    """Arguments missing, or ones the tool does not have."""
    return phrase("Couldn't %(action)s: the model's request was incomplete \u2014 nothing "
                  "changed", action=_any())


def unknown_tool() -> Phrase:
    """A call of a tool there is none of."""
    return phrase("The model asked for something Marginalia cannot do")


def stopped() -> Phrase:
    """A call the user stopped (Stop) before it ran or while it ran."""
    return phrase("Stopped before it could %(action)s", action=_any())


def failed() -> Phrase:
    """A fault inside Marginalia: the line says what did not happen, the log says why."""
    return phrase("Couldn't %(action)s", action=_any())


def read_only() -> Phrase:
    """An edit in a document opened read-only."""
    return phrase("Couldn't %(action)s: the document is read-only \u2014 nothing changed",
                  action=_any())


def writer_refused() -> Phrase:
    """Writer failed to make an edit it was asked for; nothing of it was made."""
    return phrase("Couldn't %(action)s: Writer could not make it there \u2014 nothing changed",
                  action=_any())


def partly_made() -> Phrase:
    """Writer failed halfway through an edit that could not be taken back alone."""
    return phrase("Couldn't %(action)s: Writer stopped halfway \u2014 Undo takes back this "
                  "turn's edits", action=_any())


def table_only() -> Phrase:
    """A document whose body is one table with no paragraph after it."""
    return phrase("Couldn't work on this document: its text is only a table. Add a "
                  "paragraph after it (Alt+Enter in its last cell) and ask again")


def style_not_recorded() -> Phrase:
    """A paragraph style Writer cannot record as a suggestion there."""
    return phrase("Couldn't suggest that style here: Writer cannot record it as a "
                  "suggestion \u2014 nothing changed")


def nothing_selected() -> Phrase:
    """An edit of the selection with nothing selected."""
    return phrase("Couldn't %(action)s: nothing is selected", action=_any())


def protected() -> Phrase:
    """An edit in a section the document protects."""
    return phrase("Couldn't %(action)s: that text is in a protected section \u2014 nothing "
                  "changed", action=_any())


def no_such_style(name: str) -> Phrase:
    """A paragraph style the document does not have."""
    return phrase("Couldn't %(action)s: the document has no paragraph style \u201c%(name)s\u201d "
                  "\u2014 nothing changed", name=name, action=_any())


def reads_so_already() -> Phrase:
    """An edit that would leave the text as it is."""
    return phrase("The text already reads that way \u2014 nothing changed")


def table_not_suggested() -> Phrase:
    """A whole table's deletion, which Writer cannot record as a suggestion."""
    return phrase("Couldn't %(action)s: Writer cannot suggest deleting a whole table "
                  "\u2014 nothing changed", action=_any())

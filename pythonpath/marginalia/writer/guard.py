"""Keeping numbered edits on the paragraphs the model meant.

``check_expect``: the model may give ``expect``, the first words of paragraph
``start`` as it read them; when the paragraph there begins otherwise, the
edit is refused before anything changes, saying what the paragraph holds now
and where the expected text went (writer.document.expect words it).

``Follow``: how the numbers after an edit moved, measured rather than
computed: the first block after the edited range is remembered before the
edit (a cursor at its start, or its table) and found again after it. A
computed shift would be wrong where Writer decides: with change tracking a
deleted paragraph stays (numbered, as read_document shows it) until the
change is accepted, but deleting text the same author inserted under
tracking removes it outright. Main thread only.
"""

from typing import Any, Callable, List, Optional, Tuple

from marginalia.document import expect as words, tool_lines
from marginalia.errors import ToolError
from marginalia.writer import changes, read
from marginalia.writer.args import as_text
from marginalia.writer.bodymap import para_props, table_rows
from marginalia.writer.locate import Locator


def _forms(loc: Locator, number: int) -> Tuple[str, List[str]]:
    """(text, forms): block ``number``'s text and the ways a model may have copied it."""
    table, cursor = loc.block(number)
    if table is not None:
        text = "\n".join("\t".join(row) for row in table_rows(table))
        return text, [text]
    if cursor is None:
        return "", [""]
    label = para_props(cursor)[3] or ""
    cursor.gotoEndOfParagraph(True)
    text = cursor.getString()
    # As read_document shows it: "7: 2. Second step" (the fold drops "#", "-", ":").
    return text, [text, label + text, "%d %s%s" % (number, label, text)]


def check_expect(doc: Any, loc: Locator, start: int, expect: Any) -> None:
    """Raise a ToolError unless paragraph ``start`` begins with ``expect`` (None: no check)."""
    if expect is None:
        return
    expect = as_text(expect, "expect", allow_empty=True)
    text, forms = _forms(loc, start)
    if words.begins(expect, forms):
        return
    bmap = read.body_map(doc)
    found, containing = words.where(
        expect, ((n, bmap.para_text(n)) for n in range(1, len(bmap) + 1)))
    raise ToolError(words.mismatch(start, text, found, expect, containing),
                    tool_lines.no_longer_reads(tool_lines.place(start)))


class Follow:
    """The block after an edited range, to tell afterwards which number it has."""

    def __init__(self, loc: Locator, number: int):
        self.old = number
        self.table, self.cursor = loc.block(number)
        # (old, new) once line() found the block elsewhere: for the change records.
        self.moved: Optional[Tuple[int, int]] = None

    def _is_it(self, loc, table, cursor):
        if self.table is not None:
            return table is not None and table == self.table
        return cursor is not None and loc.body.compareRegionStarts(cursor, self.cursor) == 0

    def now(self, loc: Locator, first: int, last: int) -> Optional[int]:
        """Its number now, looked for among blocks first..last; None if it is gone."""
        if self.table is None and self.cursor is None:
            return None
        for number, table, cursor in loc.walk(first, last):
            if self._is_it(loc, table, cursor):
                return number
        return None

    def line(self, loc: Locator, first: int, last: int) -> str:
        """The sentence for the tool result: how the later paragraph numbers moved."""
        if self.table is None and self.cursor is None:
            return words.moved(None, None)
        number = self.now(loc, first, last)
        if number is None:
            return "Paragraph numbers after paragraph %d may have changed; read the " \
                   "document again before using them." % (first - 1)
        if number != self.old:
            self.moved = (self.old, number)
        return words.moved(self.old, number)


class Known:
    """The document as the model last knew it: its change count and its text.

    Writer also moves the change counter when nobody edits (fields and layout
    settling after a large edit, and in a window), so the count only says to
    look; the text, which is all paragraph numbers depend on, decides. The text
    itself is kept, not a digest: it is usually the read map's own string
    (read.body_text), so the comparison is often an identity check.
    """

    def __init__(self) -> None:
        self._count: Optional[int] = None
        self._text: Optional[str] = None

    def forget(self) -> None:
        self._count = self._text = None

    def mark(self, doc: Any) -> None:
        """Remember the document as it is now, text and all (the turn's start)."""
        try:
            self._count = changes.change_count(doc)
            self._text = read.body_text(doc)
        except Exception:
            self.forget()       # closed: the next call says so

    def seen(self, doc: Any, later: Callable[[Callable[[], None]], None]) -> None:
        """After a read or the toolbox's own edit: remember the document as it is now.

        The text comes free when a read built the map; else (an edit, or a
        search that read only the text before its matches) ``later`` runs the
        getString as a main-thread callback just after the answer, and only
        if nothing changed meanwhile. Until then, or if something did, any
        change counts (changed() is True): never a change missed.
        """
        try:
            count = self._count = changes.change_count(doc)
            self._text = read.cached_text(doc)
        except Exception:
            self.forget()
            return
        if self._text is not None:
            return

        def settle():
            try:
                if self._count == count and self._text is None and \
                        changes.change_count(doc) == count:
                    self._text = read.body_text(doc)
            except Exception:
                pass        # closed meanwhile: the next call says so
        later(settle)

    def text_now(self, doc: Any) -> Optional[str]:
        """The body text if the document is still as last remembered, else None."""
        try:
            if self._text is not None and changes.change_count(doc) == self._count:
                return self._text
        except Exception:
            pass
        return None

    def changed(self, doc: Any) -> bool:
        """True when someone else changed the text since mark() or seen()."""
        if self._count is None:
            return False
        count = changes.change_count(doc)
        if count == self._count:
            return False
        if self._text is not None and read.body_text(doc) == self._text:
            self._count = count
            return False
        return True

"""Finding numbered block N for the edit tools without an object per paragraph.

Why: enumerating the body makes one UNO object per paragraph (~1 ms each),
so the first edit after any change froze Writer for 5-9 s on 300 pages.
A Locator walks ONE text cursor forward with gotoNextParagraph, which costs
one bridge call per paragraph and no object, and stops at the block asked.

Numbering is the read tools' (writer.bodymap): every body paragraph is a
block and every body text table is one block. gotoNextParagraph steps over
tables (and gotoStart skips a leading one), so a table is counted when the
cursor has passed its anchor (compareRegionStarts, the map's own test).
Only forward moves are used: gotoPreviousParagraph across a table lands at
the end of the paragraph before it, which would need more calls to correct.

Going back costs little: every CHECKPOINT paragraphs the walk keeps a copy
of its cursor, and a later request restarts from the nearest one. After an
edit, ``edited_from(n)`` forgets what lies at or after block n, so the same
Locator serves the next step of a tool (replace = insert, then delete).
Main thread only; nothing is written into the document.
"""

import bisect
import contextlib
from typing import Any, Iterator, List, Optional, Tuple

from marginalia.writer import doc_state
from marginalia.writer.bodymap import before, body_tables, start_cursor

CHECKPOINT = 128


class Locator:
    """Blocks of ``doc``'s body numbered from 1, located on demand."""

    def __init__(self, doc: Any):
        self.doc = doc
        self.body = doc.getText()
        self._count = None
        self._load_tables()
        # (paragraph number, cursor copy, tables passed before it), ascending.
        self._marks = []
        self._start()

    def _load_tables(self):
        self._all = [table for _anchor, table in body_tables(self.doc, self.body)]
        self._anchors = [table.getAnchor() for table in self._all]
        self._tables_at = {}     # block number -> table, for the tables passed so far

    # -- walking ------------------------------------------------------------------
    def _start(self):
        cursor = start_cursor(self.body)
        self._cursor = cursor
        self._number = 0
        self._passed = 0
        self._ended = False
        self._settle()

    def _settle(self):
        """Number the paragraph the cursor just reached, counting the tables passed."""
        while self._passed < len(self._all) and \
                before(self.body, self._anchors[self._passed], self._cursor):
            self._number += 1
            self._tables_at[self._number] = self._all[self._passed]
            self._passed += 1
        self._number += 1
        if self._number % CHECKPOINT == 0 and \
                (not self._marks or self._marks[-1][0] < self._number):
            copy = self.body.createTextCursorByRange(self._cursor)
            self._marks.append((self._number, copy, self._passed))

    def _next(self):
        if self._ended or not self._cursor.gotoNextParagraph(False):
            self._ended = True
            # Writer always ends the body with a paragraph: no table follows the last.
            self._count = self._number
            return False
        self._settle()
        return True

    def _rewind(self, number):
        """Restart from the nearest known paragraph at or before block ``number``."""
        i = bisect.bisect_right([m[0] for m in self._marks], number) - 1
        if i < 0:
            self._start()
            return
        mark_number, mark, passed = self._marks[i]
        self._cursor = self.body.createTextCursorByRange(mark)
        self._number, self._passed, self._ended = mark_number, passed, False

    def _reach(self, number):
        """Walk until the cursor's paragraph is ``number`` or later; False past the end."""
        if number < self._number and not all(
                k in self._tables_at for k in range(number, self._number)):
            self._rewind(number)
        while self._number < number:
            if not self._next():
                return False
        return True

    def walk(self, first: int, last: int) -> Iterator[Tuple[int, Any, Any]]:
        """(number, table, cursor) for blocks first..last that exist, in order.

        ``table`` is the table object of a table block, else None; ``cursor`` is
        the walking cursor at the start of a paragraph block (None for tables):
        read it, copy it with ``copy()``, but do not move it.
        """
        number = max(1, first)
        while number <= last:
            if not self._reach(number):
                return
            while number < self._number and number <= last:
                yield number, self._tables_at[number], None
                number += 1
            if number == self._number and number <= last:
                yield number, None, self._cursor
                number += 1

    def copy(self, cursor: Any = None) -> Any:
        """A new text cursor at ``cursor`` (default: where the walk is)."""
        return self.body.createTextCursorByRange(cursor or self._cursor)

    def block(self, number: int) -> Tuple[Any, Any]:
        """(table, cursor copy at the paragraph's start) of block ``number``; (None, None)
        when it does not exist."""
        for _n, table, cursor in self.walk(number, number):
            return table, (None if cursor is None else self.copy(cursor))
        return None, None

    def count(self) -> int:
        """The number of blocks (walks to the end the first time)."""
        while self._count is None:
            self._next()
        return self._count

    def bound(self, number: int) -> int:
        """``number`` if block ``number`` exists, else the real count (smaller)."""
        if number < 1:
            return self.count()
        return number if self._reach(number) else self.count()

    def edited_from(self, number: int) -> None:
        """The document changed at block ``number`` or later: forget what lies there."""
        self._count = None
        self._marks = [m for m in self._marks if m[0] < number]
        kept = dict((k, t) for k, t in self._tables_at.items() if k < number)
        # Tables before ``number`` are unchanged and sort first in the new list,
        # so the marks' counts of tables passed stay right.
        self._load_tables()
        self._tables_at = kept
        self._rewind(number - 1)


@contextlib.contextmanager
def lent(doc: Any, loc: Optional[Locator]) -> Iterator[None]:
    """Inside, for_doc(doc) gives ``loc`` (the turn's walk, writer.walk) if there is one."""
    if loc is None:
        yield
        return
    state = doc_state.of(doc)
    state.lent = loc
    try:
        yield
    finally:
        state.lent = None


def for_doc(doc: Any) -> Locator:
    """The Locator a block tool walks with: the turn's, when lent, else a new one.

    A tool given the turn's walk keeps it right (edited_from after each change),
    so the next numbered call starts from where this one left off.
    """
    return doc_state.of(doc).lent or Locator(doc)


def runs(loc: Locator, first: int, last: int) -> Tuple[List[Any], int]:
    """(spans, paragraphs): a cursor over each run of consecutive paragraphs in
    blocks first..last, and how many paragraphs they cover.

    A run's cursor is stretched along the walk (a call per paragraph, no new
    object), so a whole range costs one object per run of text between tables.
    """
    spans = []
    span = None
    count = 0
    for _n, table, cursor in loc.walk(first, last):
        if table is not None:
            span = None
            continue
        count += 1
        if span is None:
            span = loc.copy(cursor)
            spans.append(span)
        else:
            span.gotoRange(cursor, True)
    for span in spans:
        span.gotoEndOfParagraph(True)
    return spans, count

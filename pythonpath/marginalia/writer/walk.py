"""The turn's one forward walk through the body (writer.locate), kept across its calls.

The change records need a block's start before each numbered edit and a
number for each found text; a fresh Locator per call would walk the document
again each time (on 300 pages that doubled the numbered edits' cost), so one
Walker serves a whole turn and forgets only what an edit moved. Main thread.
"""

import contextlib
from typing import Any, Dict, Iterator, Optional

from marginalia.document import expect as words
from marginalia.document.tool_specs import ToolSpec
from marginalia.writer import locate
from marginalia.writer.bodymap import start_cursor
from marginalia.writer.locate import Locator


class Walker:
    """The turn's one Locator, walked forward across the turn's calls.

    After the turn's own edits ``edited`` forgets what moved. When the change
    counter says someone else changed the document (``suspect``; in a window
    Writer also counts changes nobody made), the walk is checked against the
    call's ``expect`` before it is trusted, and made again when it is off.
    """

    def __init__(self, doc):
        self.doc = doc
        self._loc = None
        self.suspect = False

    def get(self) -> Locator:
        if self._loc is None:
            self._loc = Locator(self.doc)
            self.suspect = False
        return self._loc

    @contextlib.contextmanager
    def lending(self, spec: ToolSpec, arguments: Dict[str, Any]) -> Iterator[None]:
        """Around one edit call: a numbered tool walks with the turn's walk (lent, it
        keeps it right: locate.for_doc); after any other edit that moves paragraphs,
        or a failed call, the walk starts over; so it does first if someone else may
        have changed the document (``suspect``)."""
        lent = None
        if spec.numbered:
            if self.suspect:
                self._loc = None
            lent = self.get()
        kept = False
        try:
            with locate.lent(self.doc, lent):
                yield
            kept = lent is not None or spec.keeps_paragraphs(arguments)
        finally:
            if not kept:
                self.edited(None)

    def edited(self, number: Optional[int]) -> None:
        if self._loc is not None:
            if number is None:
                self._loc = None
            else:
                self._loc.edited_from(max(1, number))

    def block_cursor(self, number: int, expect: Any = None):
        """A fresh cursor at the start of block ``number`` (None for a table or past the end)."""
        if self.suspect and expect is None:
            self._loc = None
        loc = self.get()
        # A number found for a text edit may have left the walk far back: start
        # again from the nearest checkpoint instead of walking on from there.
        nearest = [m[0] for m in loc._marks if m[0] <= number]
        if nearest and loc._number < max(nearest):
            loc._rewind(number)
        table, cursor = loc.block(number)
        if self.suspect:
            self.suspect = False
            text = ""
            if cursor is not None:
                probe = self.doc.getText().createTextCursorByRange(cursor.getStart())
                probe.gotoEndOfParagraph(True)
                text = probe.getString()
            if table is not None or not words.begins(str(expect), [text]):
                self._loc = None
                table, cursor = self.get().block(number)
        if cursor is None:
            return None, table
        fresh = self.doc.getText().createTextCursorByRange(cursor.getStart())
        fresh.gotoStartOfParagraph(False)
        return fresh, table

    def _guess(self, loc, body, start, mark, point) -> Optional[int]:
        """The number of ``point``'s paragraph counted from the text since block ``start``
        (each "\\n" one paragraph end), checked with one comparison; None when the
        count is off (a manual break, a field's text) or tables are about.

        Comparing at every paragraph of the walk costs ~20 us a step; counting
        and walking there without comparing, ~4 us.
        """
        if loc._all:
            return None
        try:
            probe = body.createTextCursorByRange(mark) if mark is not None else \
                start_cursor(body)
            probe.gotoRange(point, True)
            guess = start + probe.getString().count("\n")
            _table, cursor = loc.block(guess)
            if cursor is None:
                return None
            para = body.createTextCursorByRange(point)
            para.gotoStartOfParagraph(False)
            return guess if body.compareRegionStarts(cursor, para) == 0 else None
        except Exception:
            return None

    def number_of(self, point: Any) -> Optional[int]:
        """The block number holding ``point`` (a text position), walking from the
        nearest checkpoint the Locator has passed; None when it is not in the body."""
        body = self.doc.getText()
        try:
            body.compareRegionStarts(point, point)      # raises outside the body
        except Exception:
            try:
                point = point.getPropertyValue("TextTable").getAnchor()
            except Exception:
                return None
        loc = self.get()
        start = 1
        # The Locator's checkpoints (private to writer.locate, read only here), in
        # document order: the last one at or before the point, by halving.
        marks = loc._marks
        low, high = 0, len(marks)
        mark = None
        while low < high:
            mid = (low + high) // 2
            if body.compareRegionStarts(marks[mid][1], point) >= 0:
                start, mark = marks[mid][0], marks[mid][1]
                low = mid + 1
            else:
                high = mid
        guessed = self._guess(loc, body, start, mark, point)
        if guessed is not None:
            return guessed
        last = None
        for number, table, cursor in loc.walk(start, 10 ** 9):
            at = table.getAnchor() if table is not None else cursor
            if body.compareRegionStarts(at, point) < 0:
                return last if last is not None else number
            last = number
        return last

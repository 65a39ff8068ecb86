"""A cheap map of the body's numbered blocks, for the reading tools.

Why: every UNO object handed to Python costs a pyuno wrapper (an Invocation
adapter) and every call a bridge round, so enumerating a 300-page body
(one SwXParagraph per paragraph, then a property read and a getString each)
froze Writer for 5-7 s. This map needs no object per paragraph:

- the text of all blocks comes from ONE ``body.getString()``; Writer joins
  paragraphs (and table cell paragraphs) with "\\n" there, exactly as each
  paragraph's own getString would render it;
- one text cursor walks the body with ``gotoNextParagraph`` (which steps over
  tables) and reads the paragraph's properties in one ``getPropertyValues``;
- the few things that break the "one line = one paragraph" rule are located
  individually: manual line breaks (also "\\n" in the text; found with a regex
  search) and tables (sorted by anchor and placed with compareRegionStarts;
  their cell lines measured by one getString up to the next paragraph).

writer.mapbuild builds the map (in slices, numbering first, attributes
after); whatever it cannot explain (line counts that do not add up, a table
it cannot place) gives the enumerated ``ElementMap`` instead, slow but exact.
Nothing here caches: writer.read keeps the last map while the document's
change count says it is unchanged, so a restyle without a text change is
never missed. Main thread only.
"""

import bisect
import functools
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from marginalia.document.docview import Para


def start_cursor(body: Any) -> Any:
    """A cursor at the body's first paragraph, where createTextCursor() and gotoStart()
    put one, found by enumerating the body instead: on a body that starts with a table
    whose first row has a grid offset (Word's w:gridBefore), createTextCursor() kills
    LibreOffice 7.4."""
    elements = body.createEnumeration()
    while elements.hasMoreElements():
        element = elements.nextElement()
        if element.supportsService("com.sun.star.text.Paragraph"):
            return body.createTextCursorByRange(element.getStart())
    raise ValueError("a body without a paragraph")


def has_paragraph(body: Any) -> bool:
    """Whether the body holds a paragraph (most answer at the first element). A .docx
    whose body is only a table, with no paragraph after it (Word always writes one; some
    generators do not), opens in LibreOffice 25.2 with none, and then the body's
    getString(), getStart() and createTextCursor() kill the office (7.4 adds one)."""
    elements = body.createEnumeration()
    while elements.hasMoreElements():
        if elements.nextElement().supportsService("com.sun.star.text.Paragraph"):
            return True
    return False

# Read for every paragraph; the list details only for list items (each property
# costs, and most paragraphs are body text).
CURSOR_PROPS = ("OutlineLevel", "ListId", "ParaStyleName")
LIST_PROPS = ("NumberingLevel", "ListLabelString")
_NEWLINE = re.compile("\n")
# All of a paragraph's block attributes, in the order of Block.props.
PARA_PROPS = ("OutlineLevel", "ListId", "NumberingLevel", "ListLabelString", "ParaStyleName")
# com.sun.star.style.NumberingType: CHAR_SPECIAL and BITMAP are bullets.
_BULLET_TYPES = (6, 8)
TABLE_SERVICE = "com.sun.star.text.TextTable"


def is_table(element: Any) -> bool:
    """True for a text table among the body's enumerated elements."""
    return element.supportsService(TABLE_SERVICE)


def para_props(para: Any) -> Tuple:
    """(outline level, list id, list level, list label, style) of a paragraph or cursor."""
    return para.getPropertyValues(PARA_PROPS)


@dataclass
class Block:
    """Lines ``first_line``.. of the map's text; ``props`` as PARA_PROPS; a table's object."""
    first_line: int
    lines: int
    props: Optional[Tuple] = None
    kind: Optional[str] = None
    table: Any = None


class BodyMap:
    """Blocks numbered from 1: text, heading and list attributes, table objects."""

    def __init__(self, text: str, blocks: List[Block], has_props: bool = True):
        self.text = text
        self.blocks = blocks
        # False while only the numbering is known (writer.mapbuild's first level):
        # record() and headings() need the attributes.
        self.has_props = has_props
        # What other readers derive from this map, valid as long as it is.
        self.extras: Dict[str, Any] = {}
        # Offsets of every line start in ``text``, for offset -> block lookups.
        starts = [0]
        starts.extend(match.end() for match in _NEWLINE.finditer(text))
        self._line_starts = starts
        self._para_starts = [starts[b.first_line] for b in blocks]

    def __len__(self) -> int:
        return len(self.blocks)

    def with_props(self) -> "BodyMap":
        """This map, its attributes now read (writer.mapbuild filled the blocks in)."""
        self.has_props = True
        return self

    def is_table(self, number: int) -> bool:
        return self.blocks[number - 1].table is not None

    def para_text(self, number: int) -> str:
        block = self.blocks[number - 1]
        start = self._line_starts[block.first_line]
        end_line = block.first_line + block.lines
        end = (self._line_starts[end_line] - 1) if end_line < len(self._line_starts) \
            else len(self.text)
        return self.text[start:end]

    def record(self, number: int) -> Para:
        """Para record of block ``number`` (a table reads its cells now)."""
        block = self.blocks[number - 1]
        if block.table is not None:
            return Para(number, rows=table_rows(block.table), style="table")
        outline, list_id, level, label, style = block.props
        text = self.para_text(number)
        if outline:
            return Para(number, text, heading=outline, style=style)
        if list_id:
            return Para(number, text, list_level=level + 1, list_kind=block.kind,
                        label=label, style=style)
        return Para(number, text, style=style)

    def headings(self) -> List[Para]:
        out = []
        for number, block in enumerate(self.blocks, 1):
            if block.table is None and block.props[0]:
                out.append(Para(number, self.para_text(number), heading=block.props[0]))
        return out

    def start_of(self, number: int) -> int:
        """The body text offset where block ``number`` starts."""
        return self._para_starts[number - 1]

    def block_at(self, offset: int) -> Tuple[Optional[int], int]:
        """(block number, offset inside it) of a body text offset; tables never match."""
        i = bisect.bisect_right(self._para_starts, offset) - 1
        while i >= 0 and self.blocks[i].table is not None:
            i -= 1
        if i < 0:
            return None, 0
        return i + 1, offset - self._para_starts[i]

    def block_holding(self, offset: int) -> Optional[int]:
        """The number of the block whose text holds body text ``offset`` (a table's
        cells too: their lines are the table's)."""
        i = bisect.bisect_right(self._para_starts, offset) - 1
        return i + 1 if i >= 0 else None

    def block_of(self, position: Any, offsets: "Offsets") -> Tuple[Optional[int], int]:
        """(block number, offset inside it) of a position in the body text."""
        return self.block_at(offsets.of(position))

    def table_number(self, name: str) -> Optional[int]:
        """The block number of the body table called ``name``."""
        for number, block in enumerate(self.blocks, 1):
            if block.table is not None and block.table.getName() == name:
                return number
        return None


def span(text: Any, ranges: List[Any]) -> Any:
    """A cursor of ``text`` from the earliest start of ``ranges`` to their latest end,
    compared rather than assumed in order; the ones not in ``text`` are left out
    (None when none is in it)."""
    inside = []
    for rng in ranges:
        try:
            text.compareRegionStarts(rng, rng)      # raises for a range elsewhere
            inside.append(rng)
        except Exception:
            continue
    if not inside:
        return None
    first = last = inside[0]
    for rng in inside[1:]:
        if text.compareRegionStarts(rng, first) > 0:
            first = rng
        if text.compareRegionEnds(last, rng) > 0:
            last = rng
    cursor = text.createTextCursorByRange(first.getStart())
    cursor.gotoRange(last.getEnd(), True)
    return cursor


def before(body: Any, a: Any, b: Any) -> bool:
    """True when range ``a`` starts before range ``b``."""
    return body.compareRegionStarts(a, b) == 1


def body_tables(doc: Any, body: Any) -> List[Tuple[Any, Any]]:
    """(anchor, table) of the body's own tables in document order.

    Tables in headers, footers and frames are left out: their anchors cannot
    be compared with the body. Every body table lookup goes through here.
    """
    tables = doc.getTextTables()
    out = []
    for i in range(tables.getCount()):
        table = tables.getByIndex(i)
        anchor = table.getAnchor()
        try:
            # Tables in headers, footers or frames cannot be compared with the body.
            # Not with body.getStart(): a body that starts with a table whose first row
            # has a grid offset (w:gridBefore) crashed 7.4 there.
            body.compareRegionStarts(anchor, anchor)
        except Exception:
            continue
        out.append((anchor, table))

    def order(x, y):
        return body.compareRegionStarts(y[0], x[0])
    out.sort(key=functools.cmp_to_key(order))
    return out


def line_breaks(doc: Any, body: Any) -> List[Any]:
    """Ranges of the manual line breaks in the body text, in document order."""
    sd = doc.createSearchDescriptor()
    sd.setSearchString("\\n")
    sd.setPropertyValue("SearchRegularExpression", True)
    found = doc.findAll(sd)
    out = []
    for i in range(found.getCount() if found is not None else 0):
        rng = found.getByIndex(i)
        if rng.getText() == body:
            out.append(rng)
    return out


class ListKinds:
    """Bullet or number for (list, level), asked once per list: rules objects are costly."""

    def __init__(self):
        self._cache: Dict[Tuple[str, int], str] = {}

    def kind(self, para: Any, list_id: str, level: int) -> str:
        """The kind of list ``para`` (a paragraph or cursor) is in: bullet or number."""
        key = (list_id, level)
        if key not in self._cache:
            kind = "number"
            try:
                rules = para.getPropertyValue("NumberingRules")
                if rules is not None:
                    props = dict((p.Name, p.Value) for p in rules.getByIndex(level))
                    if props.get("NumberingType") in _BULLET_TYPES:
                        kind = "bullet"
            except Exception:
                # Some imported lists refuse the rules query; a number is the safe guess.
                pass
            self._cache[key] = kind
        return self._cache[key]


_CELL_NAME = re.compile(r"^([A-Za-z]+)(\d+)")


def _column_index(letters):
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n


def table_rows(table: Any) -> List[List[str]]:
    """Cell texts row by row; merged or split cells keep their own names' order."""
    rows = {}
    for name in table.getCellNames():
        m = _CELL_NAME.match(name)
        if not m:
            continue
        key = (_column_index(m.group(1)), name)
        rows.setdefault(int(m.group(2)), []).append((key, table.getCellByName(name).getString()))
    return [[text for _key, text in sorted(cells)] for _row, cells in sorted(rows.items())]


class ElementMap(BodyMap):
    """The same interface over an enumerated element list (the exact, slow fallback).

    Table blocks get one empty line of placeholder text, so offsets into this
    text are not body offsets: positions are located among the elements instead.
    """

    def __init__(self, elements: List[Any], body: Any):
        lines, blocks = [], []
        kinds = ListKinds()
        for element in elements:
            if is_table(element):
                blocks.append(Block(len(lines), 1, table=element))
                lines.append("")
                continue
            props = para_props(element)
            outline, list_id, level, label, style = props
            kind = kinds.kind(element, list_id, level) if list_id else None
            para = element.getString().split("\n")
            blocks.append(Block(len(lines), len(para), props, kind))
            lines.extend(para)
        super().__init__("\n".join(lines), blocks)
        self.elements = elements
        self._body = body

    def block_of(self, position: Any, offsets: "Offsets") -> Tuple[Optional[int], int]:
        i = self._index_of_paragraph(position)
        if i < 0:
            return None, 0
        cursor = self._body.createTextCursorByRange(self.elements[i].getStart())
        cursor.gotoRange(position, True)
        return i + 1, len(cursor.getString())

    def _index_of_paragraph(self, position):
        """Binary search the paragraph holding ``position`` (a body text range); -1 if none."""
        elements, text = self.elements, self._body
        lo, hi = 0, len(elements) - 1
        found = -1
        while lo <= hi:
            mid = (lo + hi) // 2
            probe = mid
            # Tables cannot be compared with body ranges: step to a neighbouring paragraph.
            while probe <= hi and is_table(elements[probe]):
                probe += 1
            if probe > hi:
                hi = mid - 1
                continue
            # compareRegionStarts(a, b) is 1 when a starts before b.
            if text.compareRegionStarts(elements[probe], position) >= 0:
                found = probe
                lo = probe + 1
            else:
                hi = mid - 1
        return found


class Offsets:
    """Body text offsets of positions, measured by getString of the text before them.

    Positions asked in document order cost only the text between them: a
    trailing cursor remembers the last one. ``anchors``, (offset, range) pairs
    in document order (the outline's headings), let a first position start
    from the nearest one before it instead of the body's start. With ``keep``
    the measured pieces are kept: ``text`` is then the body text up to the
    last position, while ``restarts`` stays 1 (positions came in order).
    """

    def __init__(self, body: Any, anchors: Sequence[Tuple[int, Any]] = (), keep: bool = False):
        self.body = body
        self._anchors = anchors
        self._cursor = None
        self._offset = 0
        self._pieces: Optional[List[str]] = [] if keep else None
        self.restarts = 0

    @property
    def text(self) -> str:
        return "".join(self._pieces or ())

    def _restart(self, position):
        body = self.body
        self.restarts += 1
        if self._pieces is not None:
            del self._pieces[:]
        lo, hi = 0, len(self._anchors)
        # The last anchor at or before ``position``: a binary search by comparison.
        while lo < hi:
            mid = (lo + hi) // 2
            if body.compareRegionStarts(self._anchors[mid][1], position) >= 0:
                lo = mid + 1
            else:
                hi = mid
        if lo:
            offset, rng = self._anchors[lo - 1]
            self._cursor = body.createTextCursorByRange(rng.getStart())
            self._offset = offset
        else:
            self._cursor = start_cursor(body)
            self._offset = 0

    def of(self, position: Any) -> int:
        """The offset of ``position`` (a range in the body) in the body's getString()."""
        body = self.body
        if self._cursor is not None:
            self._cursor.collapseToEnd()
        if self._cursor is None or body.compareRegionStarts(self._cursor, position) == -1:
            self._restart(position)
        self._cursor.gotoRange(position, True)
        piece = self._cursor.getString()
        if self._pieces is not None:
            self._pieces.append(piece)
        self._offset += len(piece)
        return self._offset

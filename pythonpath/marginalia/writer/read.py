"""Reading a Writer document into docview.Para records.

The numbered blocks are the body text's top-level elements in document order:
each paragraph is one block and each text table is one block (its cells are
not numbered separately), so paragraph N is exactly what the edit tools can
address, replace or delete. Headers, footers, frames and footnotes are not
part of the numbering. Call only on the main thread.
"""

import re

from marginalia.writer import changes

TABLE_SERVICE = "com.sun.star.text.TextTable"
_PARA_PROPS = ("OutlineLevel", "ListId", "NumberingLevel", "ListLabelString", "ParaStyleName")
_CELL_NAME = re.compile(r"^([A-Za-z]+)(\d+)")


def is_table(element):
    return element.supportsService(TABLE_SERVICE)


class _Cache(object):
    """The last document's element list and block map, reused while it is unchanged.

    Enumerating a 300-page body costs seconds (each element is a new UNO
    object), a BodyMap about a second. The key is the document's change count
    (writer.changes) plus the body text and the table count, and the edit
    tools also call invalidate(). One slot per kind: (doc, key, value).
    """

    slots = {}


def _key(doc):
    # The change counter catches restyles and attribute changes; the text
    # and table count are a cheap second check.
    text = doc.getText().getString()
    return (changes.change_count(doc), len(text), hash(text),
            doc.getTextTables().getCount())


def invalidate():
    _Cache.slots.clear()


def _cached(slot, doc, build):
    key = _key(doc)
    entry = _Cache.slots.get(slot)
    # == compares UNO identity: each job call brings a new proxy of the same model.
    if entry is None or entry[0] != doc or entry[1] != key:
        entry = _Cache.slots[slot] = (doc, key, build(doc))
    return entry[2]


def _enumerate(doc):
    out = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement())
    return out


def body_elements(doc):
    """The body's top-level paragraphs and tables, in order (index 0 is paragraph 1)."""
    return _cached("elements", doc, _enumerate)


def body_map(doc):
    """The numbered blocks for reading (building one costs ~1 s for 300 pages)."""
    return _cached("map", doc, _build_map)


def _build_map(doc):
    from marginalia.writer import bodymap
    try:
        found = bodymap.build(doc)
    except Exception:
        # An unusual body (a shape of tables the walk cannot place); the slow path is exact.
        found = None
    if found is not None:
        return found
    kinds = _ListKinds()
    return bodymap.ElementMap(body_elements(doc), _para_props, kinds.kind)


def _para_props(element):
    return element.getPropertyValues(_PARA_PROPS)


def _column_index(letters):
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n


def table_rows(table):
    """Cell texts row by row; merged or split cells keep their own names' order."""
    rows = {}
    for name in table.getCellNames():
        m = _CELL_NAME.match(name)
        if not m:
            continue
        key = (_column_index(m.group(1)), name)
        rows.setdefault(int(m.group(2)), []).append((key, table.getCellByName(name).getString()))
    return [[text for _key, text in sorted(cells)] for _row, cells in sorted(rows.items())]


class _ListKinds(object):
    """Bullet or number for (list, level), asked once per list: rules objects are costly."""

    def __init__(self):
        self._cache = {}

    def kind(self, para, list_id, level):
        from marginalia.writer.bodymap import list_kind
        return list_kind(para, self._cache, list_id, level)


# ---------------------------------------------------------------- selection

class Selection(object):
    """Where the user's selection is: block numbers and code point offsets.

    ``start``/``end`` are 1-based block numbers, ``start_offset``/``end_offset``
    offsets into the first and last block's text; ``text`` the selected text;
    ``in_table`` when the selection or cursor sits inside a table cell.
    """

    __slots__ = ("start", "end", "start_offset", "end_offset", "text", "in_table", "ranges")

    def __init__(self):
        self.start = self.end = None
        self.start_offset = self.end_offset = 0
        self.text = ""
        self.in_table = False
        self.ranges = []

    @property
    def empty(self):
        return not self.text


def _text_ranges(doc):
    controller = doc.getCurrentController()
    if controller is None:
        return []
    sel = controller.getSelection()
    if sel is None or not sel.supportsService("com.sun.star.text.TextRanges"):
        return []
    return [sel.getByIndex(i) for i in range(sel.getCount())]


def _index_of_paragraph(text, elements, position):
    """Binary search the paragraph holding ``position`` (a body text range); -1 if none."""
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


def _offset_in(doc_text, element, position):
    cursor = doc_text.createTextCursorByRange(element.getStart())
    cursor.gotoRange(position, True)
    return len(cursor.getString())


def _table_index(elements, name):
    for i, element in enumerate(elements):
        if is_table(element) and element.getName() == name:
            return i
    return -1


def _first_range(doc):
    """A Selection holding the selected ranges and the first one's text, and that range."""
    out = Selection()
    out.ranges = _text_ranges(doc)
    if not out.ranges:
        return out, None
    rng = out.ranges[0]
    out.text = rng.getString()
    return out, rng


def selection(doc, elements):
    """The current selection (first range of a multi-selection) located in ``elements``."""
    out, rng = _first_range(doc)
    if rng is None:
        return out
    body = doc.getText()
    if rng.getText() != body:
        cursor = rng.getText().createTextCursorByRange(rng.getStart())
        table = None
        try:
            table = cursor.getPropertyValue("TextTable")
        except Exception:
            table = None
        if table is not None:
            index = _table_index(elements, table.getName())
            if index >= 0:
                out.start = out.end = index + 1
                out.in_table = True
        return out
    # The selection may have been made backwards: order its ends first.
    first, second = rng.getStart(), rng.getEnd()
    if body.compareRegionStarts(first, second) < 0:
        first, second = second, first
    a = _index_of_paragraph(body, elements, first)
    b = _index_of_paragraph(body, elements, second)
    if a < 0 or b < 0:
        return out
    out.start, out.end = a + 1, b + 1
    out.start_offset = _offset_in(body, elements[a], first)
    out.end_offset = _offset_in(body, elements[b], second)
    return out


def mark(paras, sel):
    """Set the selection fields of the records ``sel`` covers."""
    if sel.start is None or sel.empty:
        return
    for para in paras:
        if para.number < sel.start or para.number > sel.end:
            continue
        if para.rows is not None or sel.in_table:
            para.sel_start, para.sel_end = 0, 0
            continue
        para.sel_start = sel.start_offset if para.number == sel.start else 0
        para.sel_end = sel.end_offset if para.number == sel.end else len(para.text)


# ---------------------------------------------------------------- statistics

def title(doc):
    """The document's title, else its file name, else the window title."""
    try:
        value = doc.getDocumentProperties().Title
        if value:
            return value
    except Exception:
        pass
    try:
        value = doc.getTitle()     # XTitle: "Untitled 1" or the file name
        if value:
            return value
    except Exception:
        pass
    url = doc.getURL()
    if url:
        import urllib.parse
        return urllib.parse.unquote(url.rstrip("/").rsplit("/", 1)[-1])
    controller = doc.getCurrentController()
    if controller is not None:
        return controller.getFrame().getTitle()
    return "Untitled"


def statistics(doc):
    """Word, character and page counts as Writer computes them."""
    out = {}
    for name, key in (("WordCount", "words"), ("CharacterCount", "characters")):
        try:
            out[key] = int(doc.getPropertyValue(name))
        except Exception:
            out[key] = None
    pages = None
    controller = doc.getCurrentController()
    if controller is not None:
        try:
            pages = int(controller.getPropertyValue("PageCount"))
        except Exception:
            pages = None
    out["pages"] = pages
    return out


# ---------------------------------------------------------------- over a BodyMap

def map_selection(doc, bmap):
    """The current selection located in a BodyMap (see selection())."""
    if bmap.elements is not None:
        return selection(doc, bmap.elements)
    out, rng = _first_range(doc)
    if rng is None:
        return out
    body = doc.getText()
    if rng.getText() != body:
        number = _table_number(bmap, rng)
        if number is not None:
            out.start = out.end = number
            out.in_table = True
        return out
    first, second = rng.getStart(), rng.getEnd()
    if body.compareRegionStarts(first, second) < 0:
        first, second = second, first
    from marginalia.writer.bodymap import Offsets
    offsets = Offsets(body)
    a, out.start_offset = bmap.block_at(offsets.of(first))
    b, out.end_offset = bmap.block_at(offsets.of(second))
    if a is None or b is None:
        out.start_offset = out.end_offset = 0
        return out
    out.start, out.end = a, b
    return out


def _table_number(bmap, rng):
    try:
        table = rng.getText().createTextCursorByRange(rng.getStart()).getPropertyValue("TextTable")
    except Exception:
        table = None
    return bmap.table_number(table.getName()) if table is not None else None


def map_locate(doc, bmap, rng, offsets):
    """(block number, code point offset) of a found range, or (None, 0) outside the body."""
    if bmap.elements is not None:
        from marginalia.writer.text_tools import locate
        return locate(doc, bmap.elements, rng)
    if rng.getText() == doc.getText():
        return bmap.block_at(offsets.of(rng.getStart()))
    number = _table_number(bmap, rng)
    return (number, 0) if number is not None else (None, 0)


def Offsets(body):
    from marginalia.writer.bodymap import Offsets as _Offsets
    return _Offsets(body)


def map_record(bmap, number):
    return bmap.record(number, table_rows)

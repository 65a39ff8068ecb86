"""Reading a Writer document: its numbered blocks, the selection, found ranges.

The numbered blocks are the body text's top-level elements in document order:
each paragraph is one block and each text table is one block (its cells are
not numbered separately), so paragraph N is exactly what the edit tools can
address, replace or delete. Headers, footers, frames and footnotes are not
part of the numbering. The blocks come as a writer.bodymap map, kept here
while the document is unchanged. Call only on the main thread.
"""

import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from marginalia.document.docview import Para
from marginalia.writer import bodymap, changes
from marginalia.writer.bodymap import BodyMap, ElementMap, Offsets

# ---------------------------------------------------------------- the cached map
# Enumerating a 300-page body costs seconds (each element is a new UNO object),
# a BodyMap about a second, so the last document's element list and map are
# reused while it is unchanged. The key is the document's change count
# (writer.changes) plus the body text and the table count; the edit tools also
# call invalidate(). One slot per kind.


class _Entry(NamedTuple):
    doc: Any
    key: Tuple
    value: Any


_slots: Dict[str, _Entry] = {}


def _key(doc):
    # The change counter catches restyles and attribute changes; the text
    # and table count are a cheap second check.
    text = doc.getText().getString()
    return (changes.change_count(doc), len(text), hash(text),
            doc.getTextTables().getCount())


def invalidate() -> None:
    """Forget the cached map: the document was just edited."""
    _slots.clear()


def _cached(slot: str, doc: Any, build: Callable[[Any], Any]) -> Any:
    key = _key(doc)
    entry = _slots.get(slot)
    # == compares UNO identity: each job call brings a new proxy of the same model.
    if entry is None or entry.doc != doc or entry.key != key:
        entry = _slots[slot] = _Entry(doc, key, build(doc))
    return entry.value


def _enumerate(doc):
    out = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement())
    return out


def body_elements(doc: Any) -> List[Any]:
    """The body's top-level paragraphs and tables, in order (index 0 is paragraph 1)."""
    return _cached("elements", doc, _enumerate)


def body_map(doc: Any) -> BodyMap:
    """The numbered blocks for reading (building one costs ~1 s for 300 pages)."""
    return _cached("map", doc, _build_map)


def element_map(doc: Any) -> ElementMap:
    """The numbered blocks from the enumerated body: slow, but exact for any body."""
    return ElementMap(body_elements(doc), doc.getText())


def _build_map(doc):
    try:
        found = bodymap.build(doc)
    except Exception:
        # An unusual body (a shape of tables the walk cannot place); the slow path is exact.
        found = None
    return found if found is not None else element_map(doc)


# ---------------------------------------------------------------- locating ranges

def _table_number(bmap, rng):
    """The block number of the table a range lies in, else None."""
    try:
        table = rng.getText().createTextCursorByRange(rng.getStart()).getPropertyValue("TextTable")
    except Exception:
        table = None
    return bmap.table_number(table.getName()) if table is not None else None


def locate(doc: Any, bmap: BodyMap, rng: Any, offsets: Offsets) -> Tuple[Optional[int], int]:
    """(block number, code point offset) of a found range, or (None, 0) outside the body.

    A range in a table cell gives the table's block and offset 0. ``offsets``
    is shared by the ranges of one search, asked in document order.
    """
    if rng.getText() == doc.getText():
        return bmap.block_of(rng.getStart(), offsets)
    number = _table_number(bmap, rng)
    return (number, 0) if number is not None else (None, 0)


# ---------------------------------------------------------------- selection

@dataclass
class Selection:
    """Where the user's selection is: block numbers and code point offsets.

    ``start``/``end`` are 1-based block numbers, ``start_offset``/``end_offset``
    offsets into the first and last block's text; ``text`` the selected text;
    ``in_table`` when the selection or cursor sits inside a table cell;
    ``ranges`` the selected ranges (the fields describe the first).
    """
    start: Optional[int] = None
    end: Optional[int] = None
    start_offset: int = 0
    end_offset: int = 0
    text: str = ""
    in_table: bool = False
    ranges: List[Any] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.text


def _text_ranges(doc):
    controller = doc.getCurrentController()
    if controller is None:
        return []
    sel = controller.getSelection()
    if sel is None or not sel.supportsService("com.sun.star.text.TextRanges"):
        return []
    return [sel.getByIndex(i) for i in range(sel.getCount())]


def selection(doc: Any, bmap: BodyMap) -> Selection:
    """The current selection (first range of a multi-selection) located in ``bmap``."""
    out = Selection(ranges=_text_ranges(doc))
    if not out.ranges:
        return out
    rng = out.ranges[0]
    out.text = rng.getString()
    body = doc.getText()
    if rng.getText() != body:
        number = _table_number(bmap, rng)
        if number is not None:
            out.start = out.end = number
            out.in_table = True
        return out
    # The selection may have been made backwards: order its ends first.
    first, second = rng.getStart(), rng.getEnd()
    if body.compareRegionStarts(first, second) < 0:
        first, second = second, first
    offsets = Offsets(body)
    a, start_offset = bmap.block_of(first, offsets)
    b, end_offset = bmap.block_of(second, offsets)
    if a is None or b is None:
        return out
    out.start, out.end = a, b
    out.start_offset, out.end_offset = start_offset, end_offset
    return out


def mark(paras: List[Para], sel: Selection) -> None:
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

def title(doc: Any) -> str:
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
        return urllib.parse.unquote(url.rstrip("/").rsplit("/", 1)[-1])
    controller = doc.getCurrentController()
    if controller is not None:
        return controller.getFrame().getTitle()
    return "Untitled"


def statistics(doc: Any) -> Dict[str, Optional[int]]:
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

"""Reading a Writer document: its numbered blocks, the selection, found ranges.

The numbered blocks are the body text's top-level elements in document order:
each paragraph is one block and each text table is one block (its cells are
not numbered separately), so paragraph N is exactly what the edit tools can
address, replace or delete. Headers, footers, frames and footnotes are not
part of the numbering. The blocks come as a writer.bodymap map (built by
writer.mapbuild, in slices through prepare()), kept here while the document
is unchanged. Call only on the main thread.
"""

import re
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from marginalia.document.docview import Para
from marginalia.writer import bodymap, changes, doc_state, mapbuild
from marginalia.writer.bodymap import BodyMap, ElementMap, Offsets

# ---------------------------------------------------------------- the cached map
# A document's map is kept in its state (writer.doc_state) while it is unchanged:
# the key is the document's change count (writer.changes: every edit, restyle or
# undo bumps it) and its table count; the edit tools also call invalidate().
# Reading the body text for the key would cost as much as a search, so it is
# not. A map being built in slices (prepare) waits in the state between slices.


class _Entry(NamedTuple):
    key: Tuple
    value: Any


def _key(doc):
    return (changes.change_count(doc), doc.getTextTables().getCount())


def invalidate() -> None:
    """Forget the cached maps: a document was just edited."""
    for state in doc_state.known():
        state.map = state.pending = None


def _fresh(state, key, props):
    entry = state.map
    if entry is None or entry.key != key:
        return None, None
    if props and not entry.value.has_props:
        return None, entry.value
    return entry.value, None


def prepare(doc: Any, props: bool = True, budget: float = 0.04) -> bool:
    """Build the map for about ``budget`` seconds; True once body_map needs no more work.

    Called once per main-thread slice (writer.toolbox). A slice that finds
    the document changed since the last one starts over on the new text.
    """
    key = _key(doc)
    state = doc_state.of(doc)
    found, base = _fresh(state, key, props)
    if found is not None:
        return True
    job = state.pending
    if job is None or job.key != key or (props and not job.value.props):
        job = state.pending = _Entry(key, mapbuild.Build(doc, props, base))
    if not job.value.run(budget):
        return False
    state.pending = None
    state.map = _Entry(key, job.value.result)
    return True


def body_map(doc: Any, props: bool = True) -> BodyMap:
    """The numbered blocks; with ``props`` also their attributes (headings, lists).

    Cheap when prepare() has just finished or nothing changed since the last
    call; otherwise built here in one go.
    """
    while not prepare(doc, props, budget=None):
        pass
    return doc_state.of(doc).map.value


def cached_text(doc: Any) -> Optional[str]:
    """The body's getString() if a current map holds it, else None."""
    return doc_state.of(doc).map.value.text if _map_is_fresh(doc) else None


def body_text(doc: Any) -> str:
    """The body's getString(): the cached map's text while the document is unchanged.

    The guards ask for it around every tool call (has someone else edited?);
    a read tool has just built the map, so the text costs nothing then.
    """
    text = cached_text(doc)
    return doc.getText().getString() if text is None else text


def element_map(doc: Any) -> ElementMap:
    """The numbered blocks from the enumerated body: slow, but exact for any body."""
    out = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement())
    return ElementMap(out, doc.getText())


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
    if rng.getText() == offsets.body:
        return bmap.block_of(rng.getStart(), offsets)
    number = _table_number(bmap, rng)
    return (number, 0) if number is not None else (None, 0)


# Where a found range is: (block number, offset in its paragraph, the
# paragraph's text); a table's block gives (number, 0, None), a range outside
# the body (header, frame, note) (None, 0, None).
Place = Tuple[Optional[int], int, Optional[str]]


def plain_body(doc: Any, body: Any) -> bool:
    """True when every "\\n" of the body text ends a paragraph: no table, no
    text field (its text may hold one), no manual line break. Asked twice per
    search (search_map, then places): the answer is kept for the same key."""
    key = _key(doc)
    state = doc_state.of(doc)
    if state.plain is None or state.plain[0] != key:
        state.plain = (key, not doc.getTextTables().getCount()
                       and not mapbuild.has_fields(doc) and not bodymap.line_breaks(doc, body))
    return state.plain[1]


def _map_is_fresh(doc):
    entry = doc_state.of(doc).map
    return entry is not None and entry.key == _key(doc)


def search_map(doc: Any) -> Optional[bool]:
    """The map a search needs built first (writer.toolbox): the numbering
    (False), or none (None) when places() can read a changed plain body."""
    if not _map_is_fresh(doc) and plain_body(doc, doc.getText()):
        return None
    return False


def places_by_text(body: Any, ranges: List[Any]) -> Optional[List[Place]]:
    """Places from the body text up to the last range (measured on the way),
    or None when the ranges were not in document order. places()' text path;
    public so that the writer.map_check job can hold it against the map's."""
    offsets = Offsets(body, keep=True)
    located, last = [], None
    for rng in ranges:
        if rng.getText() == body:
            located.append(offsets.of(rng.getStart()))
            last = rng
        else:
            located.append(None)
    if last is not None:
        # The text goes on to the end of the last match's paragraph (its context).
        tail = body.createTextCursorByRange(last.getEnd())
        tail.gotoEndOfParagraph(False)
        offsets.of(tail)
        if offsets.restarts != 1:
            return None
    text = offsets.text
    out: List[Place] = []
    number, counted = 1, 0
    for offset in located:
        if offset is None:
            out.append((None, 0, None))
            continue
        number += text.count("\n", counted, offset)
        counted = offset
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        out.append((number, offset - start, text[start:] if end < 0 else text[start:end]))
    return out


def places(doc: Any, ranges: List[Any]) -> List[Place]:
    """Where each found range is, in the order given (document order).

    With a current map, from the map; on a changed plain body, from the text
    up to the last range only: a search's listed matches then cost what lies
    before them, not a map of the whole document.
    """
    body = doc.getText()
    if ranges and not _map_is_fresh(doc) and plain_body(doc, body):
        found = places_by_text(body, ranges)
        if found is not None:
            return found
    return places_in(doc, body_map(doc, props=False), ranges)


def match_numbers(doc: Any, search: str, match_case: bool, count: int) -> Optional[List[int]]:
    """The block number of each of the ``count`` matches Writer finds for a plain
    ``search``, from the map's text without a call per match (a replace-all's record:
    read.places costs ~0.15 ms a match); None when the text's matches are not
    Writer's (their count differs: matches in tables, fields, other casings)."""
    if not search or "\n" in search:
        return None
    bmap = body_map(doc, props=False)
    flags = 0 if match_case else re.IGNORECASE
    numbers = []
    for match in re.finditer(re.escape(search), bmap.text, flags):
        numbers.append(bmap.block_holding(match.start()))
        if len(numbers) > count:
            return None
    if len(numbers) != count or None in numbers:
        return None
    return numbers


def places_in(doc: Any, bmap: BodyMap, ranges: List[Any]) -> List[Place]:
    """Where each found range is, located in ``bmap`` (the map path of places())."""
    offsets = Offsets(doc.getText())
    out = []
    for rng in ranges:
        number, offset = locate(doc, bmap, rng, offsets)
        if number is None:
            out.append((None, 0, None))
        elif bmap.is_table(number):
            out.append((number, 0, None))
        else:
            out.append((number, offset, bmap.para_text(number)))
    return out


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


def selection(doc: Any, bmap: BodyMap, anchors: Sequence[Tuple[int, Any]] = ()) -> Selection:
    """The current selection (first range of a multi-selection) located in ``bmap``.

    ``anchors`` as for bodymap.Offsets: known positions to measure from.
    """
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
    offsets = Offsets(body, anchors)
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

def title_property(doc: Any) -> str:
    """The title the document's properties give it ("" when none: not the file name)."""
    try:
        return doc.getDocumentProperties().Title or ""
    except Exception:
        return ""


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


def language(doc: Any) -> Optional[str]:
    """The language of the text where the user works, as a tag ("de-DE"): the selection's
    start, else the body's; None when it is unset ("zxx": no language) or unreadable."""
    try:
        controller = doc.getCurrentController()
        cursor = controller.getViewCursor() if controller is not None else None
        where = cursor.getStart() if cursor is not None else doc.getText().getStart()
        locale = where.getPropertyValue("CharLocale")
    except Exception:                 # a selection of frames or shapes: no text to ask
        try:
            locale = doc.getText().getStart().getPropertyValue("CharLocale")
        except Exception:
            return None
    if not locale.Language or locale.Language == "zxx":
        return None
    return locale.Language + ("-" + locale.Country if locale.Country else "")

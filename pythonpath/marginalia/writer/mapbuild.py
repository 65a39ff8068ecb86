"""Building a writer.bodymap BodyMap in slices, structure first and properties after.

Why slices: on a long document the map costs tens of milliseconds (seconds
for the exact enumeration), all on LibreOffice's main thread; run in one go
the window neither repaints nor takes keys meanwhile. Every builder here is
a generator that yields every few dozen paragraphs, so ``Build.run(budget)``
can stop after ``budget`` seconds and go on in the next main-thread call;
writer.read restarts a build whose document changed in between (its change
counter), so no slice ever continues on text that is gone.

Why two levels: numbering blocks (what search_document and get_selection
need) comes from the body text and few calls; the per-paragraph attributes
(headings, lists, styles: get_document_info, read_document) need a call per
paragraph. ``props=False`` stops after the first level; ``Build(doc, base=map)``
adds the attributes to such a map later.

Numbering without a walk: in the body's getString every paragraph ends in
"\n", and so does every manual line break (found with one regex search,
measured with writer.bodymap.Offsets) and any "\n" in a text field's text.
When the attributes are read anyway, a walk finding as many paragraphs as
lines proves there is nothing else, and the search is skipped. Numbering
alone checks the paragraph count only when the body has text fields. With
tables, the cursor walk of the original map places them and reads the
attributes on the way. Whatever does not add up gives None and the exact
(slow, also sliced) enumeration.
"""

import time
from typing import Any, Iterator, List, Optional

from marginalia.writer import bodymap
from marginalia.writer.bodymap import (CURSOR_PROPS, LIST_PROPS, Block, BodyMap, ElementMap,
                                       ListKinds, Offsets, before, body_tables)

# Paragraphs handled between two looks at the clock.
STRIDE = 48


def has_fields(doc: Any) -> bool:
    """True when the document has text fields (their text may hold a \\n)."""
    try:
        return doc.getTextFields().createEnumeration().hasMoreElements()
    except Exception:
        return True


def _break_offsets(doc, body):
    """Body text offsets of the manual line breaks, in document order."""
    offsets = Offsets(body)
    return [offsets.of(rng.getStart()) for rng in bodymap.line_breaks(doc, body)]


def _blocks_from_lines(text, breaks):
    """Blocks of consecutive lines joined by manual breaks; None if a break is no "\\n"."""
    if not breaks:
        return [Block(index, 1) for index in range(text.count("\n") + 1)]
    joined = set(breaks)
    for offset in joined:
        if offset >= len(text) or text[offset] != "\n":
            return None
    blocks, pos, first = [], 0, 0
    lines = text.split("\n")
    for index, line in enumerate(lines):
        pos += len(line)
        if pos not in joined or index == len(lines) - 1:
            blocks.append(Block(first, index - first + 1))
            first = index + 1
        pos += 1
    return blocks


def _read_props(cursor, get, kinds):
    """(PARA_PROPS values, list kind) of the cursor's paragraph; ``get`` is its
    getPropertyValues, looked up once per walk (each lookup is a bridge call)."""
    outline, list_id, style = get(CURSOR_PROPS)
    level, label, kind = 0, "", None
    if list_id:
        level, label = get(LIST_PROPS)
        kind = kinds.kind(cursor, list_id, level)
    return (outline, list_id, level, label, style), kind


def _props(doc, limit) -> Iterator[None]:
    """Every paragraph's (attributes, list kind) in order; None past ``limit`` paragraphs."""
    cursor = bodymap.start_cursor(doc.getText())
    step, get = cursor.gotoNextParagraph, cursor.getPropertyValues
    kinds = ListKinds()
    out = []
    while True:
        if len(out) >= limit:
            return None
        out.append(_read_props(cursor, get, kinds))
        if len(out) % STRIDE == 0:
            yield
        if not step(False):
            return out


def _filled(bmap, read):
    """``bmap`` with the attributes ``read`` by _props, or None if the counts differ."""
    if read is None or len(read) != len(bmap.blocks):
        return None
    for block, (props, kind) in zip(bmap.blocks, read):
        block.props, block.kind = props, kind
    return bmap.with_props()


def _count_paragraphs(doc) -> Iterator[None]:
    cursor = bodymap.start_cursor(doc.getText())
    step = cursor.gotoNextParagraph
    count = 1
    while step(False):
        count += 1
        if count % (4 * STRIDE) == 0:
            yield
    return count


def _first_line(table):
    """The first line a table adds to the body text (its first cell's), or None."""
    try:
        names = table.getCellNames()
        return table.getCellByName(names[0]).getString().split("\n")[0] if names else None
    except Exception:
        return None


def _walk(doc, body, text, guess) -> Iterator[None]:
    """The original map: one cursor walk placing tables and breaks, reading attributes.

    Asking "is the next table before this paragraph?" costs a compareRegionStarts
    (~20 us, more than the rest of a paragraph). With ``guess`` it is asked only
    where the text shows the table's first line, and the few manual breaks are
    placed by their offsets; a guess gone wrong leaves lines unexplained, so the
    map is None and the caller walks again with ``guess`` off, asking everywhere.
    """
    tables = body_tables(doc, body)
    lines = text.split("\n")
    line_at, ends = {}, []
    pos = 0
    for index, line in enumerate(lines):
        line_at[pos] = index
        pos += len(line) + 1
        ends.append(pos - 1)
    breaks = bodymap.line_breaks(doc, body)
    joined = None
    heads = [None] * len(tables)
    if guess:
        heads = [_first_line(table) for _anchor, table in tables]
        if len(breaks) <= max(8, len(lines) // 8):
            offsets = Offsets(body)
            joined = set(offsets.of(rng.getStart()) for rng in breaks)
            if any(text[o:o + 1] != "\n" for o in joined):
                return None
            breaks = []
    cursor = bodymap.start_cursor(body)
    step, get = cursor.gotoNextParagraph, cursor.getPropertyValues
    # ``mark`` trails the walk to measure body text offsets after each table.
    mark = body.createTextCursorByRange(cursor)
    offset = 0
    kinds = ListKinds()
    blocks = []
    line = 0
    while True:
        if tables and (heads[0] is None or line >= len(lines) or lines[line] == heads[0]) \
                and before(body, tables[0][0], cursor):
            # Tables sit between the previous paragraph and this one: their
            # cell lines end where this paragraph's text starts.
            mark.gotoRange(cursor, True)
            offset += len(mark.getString())
            mark.collapseToEnd()
            next_line = line_at.get(offset)
            placed = []
            while tables and before(body, tables[0][0], cursor):
                placed.append(tables.pop(0)[1])
                heads.pop(0)
            if next_line is None or len(placed) != 1 or next_line <= line:
                # Two tables back to back cannot be told apart by line count.
                return None
            blocks.append(Block(line, next_line - line, table=placed[0]))
            line = next_line
        props, kind = _read_props(cursor, get, kinds)
        block = Block(line, 1, props, kind)
        blocks.append(block)
        if joined:
            while line + block.lines - 1 < len(ends) and ends[line + block.lines - 1] in joined:
                block.lines += 1
        if len(blocks) % STRIDE == 0:
            yield
        if not step(False):
            block.lines += len(breaks)
            line += block.lines
            break
        while breaks and before(body, breaks[0], cursor):
            breaks.pop(0)
            block.lines += 1
        line += block.lines
    if tables or line != len(lines):
        return None
    return BodyMap(text, blocks)


def _enumerate(doc) -> Iterator[None]:
    """The exact map from the enumerated body (slow: an object per paragraph)."""
    elements = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        elements.append(enum.nextElement())
        if len(elements) % STRIDE == 0:
            yield
    return ElementMap(elements, doc.getText())


def _fast(doc, props, base) -> Iterator[None]:
    """The cheap map, or None when the body needs the enumeration."""
    if base is not None:
        return _filled(base, (yield from _props(doc, len(base.blocks))))
    body = doc.getText()
    text = body.getString()
    yield
    if body_tables(doc, body):
        found = yield from _walk(doc, body, text, True)
        if found is None:
            found = yield from _walk(doc, body, text, False)
        return found
    lines = text.count("\n") + 1
    read = None
    if props:
        read = yield from _props(doc, lines)
        if read is not None and len(read) == lines:
            # As many paragraphs as lines: every "\n" ends a paragraph.
            return BodyMap(text, [Block(i, 1, p, k) for i, (p, k) in enumerate(read)])
    blocks = _blocks_from_lines(text, _break_offsets(doc, body))
    if blocks is None:
        return None
    bmap = BodyMap(text, blocks, has_props=False)
    if props:
        return _filled(bmap, read)
    yield
    if has_fields(doc):
        # A field's text may hold "\n": only the paragraph count tells.
        count = yield from _count_paragraphs(doc)
        if count != len(blocks):
            return None
    return bmap


def _stages(doc, props, base) -> Iterator[None]:
    try:
        found = yield from _fast(doc, props, base)
    except Exception:
        # An unusual body (a shape of tables the walk cannot place); the slow path is exact.
        found = None
    if found is None:
        found = yield from _enumerate(doc)
    return found


class Build:
    """One map being built; ``run`` advances it on the main thread."""

    def __init__(self, doc: Any, props: bool = True, base: Optional[BodyMap] = None):
        self.props = props or base is not None
        self._steps = _stages(doc, props, base)
        self.result = None      # type: Optional[BodyMap]

    def run(self, budget: Optional[float] = None) -> bool:
        """Work for about ``budget`` seconds (None: to the end); True when finished."""
        deadline = None if budget is None else time.perf_counter() + budget
        while self.result is None:
            try:
                next(self._steps)
            except StopIteration as stop:
                self.result = stop.value
                return True
            if deadline is not None and time.perf_counter() >= deadline:
                return False
        return True


def build(doc: Any, props: bool = True) -> BodyMap:
    """The map of ``doc`` in one go (the cheap one when the body allows)."""
    job = Build(doc, props)
    job.run()
    return job.result


def cheap(doc: Any) -> Optional[BodyMap]:
    """The cheap map, or None where the enumeration would be used (tests compare them)."""
    steps = _fast(doc, True, None)
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def walked(doc: Any, guess: bool) -> Optional[BodyMap]:
    """The table walk alone, guessing or asking at every paragraph (tests, bench)."""
    body = doc.getText()
    steps = _walk(doc, body, body.getString(), guess)
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


__all__: List[str] = ["Build", "build", "cheap", "walked"]

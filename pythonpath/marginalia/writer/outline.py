"""The body's headings without reading every paragraph's attributes.

Why: get_document_info needs the outline, and reading each paragraph's
outline level walks the whole body (a cursor step and a property read per
paragraph: 25 ms on 300 pages, five times the body's getString). Writer can
find the paragraphs of a style natively instead (findAll with SearchStyles,
about 1 ms), which gives the headings exactly when both hold:

- no paragraph sets its outline level directly: every set of direct
  paragraph attributes in use is one of the document's automatic paragraph
  styles, so one look at those few tells (a direct level 0 on a heading
  counts too);
- every found range is a body paragraph: Writer keeps frames, headers,
  footers and notes before the body in its node order, so a style's ranges
  in them come first; the first range of each style being the body's own
  proves there are none. Table cells sit inside the body, so a document
  with tables takes the walk.

Anything else gives None, and the caller reads the attributes the slow,
exact way (writer.read.body_map with props). Only the headings the outline
shows are turned into objects and placed: by their text where it is unique
in the body, else measured (bodymap.Offsets). Main thread only.
"""

import functools
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from marginalia.document import docview
from marginalia.document.docview import Para
from marginalia.writer import doc_state
from marginalia.writer.bodymap import BodyMap, Offsets


class Outline(NamedTuple):
    """Headings (levels up to the outline's depth; the first ``limit`` when one style
    has them all) as Para records, how many headings those levels hold, and
    (body offset, range) of each located heading, for locating other positions."""
    heads: List[Para]
    total: int
    anchors: List[Tuple[int, Any]]


def _direct_levels(doc):
    """True when some paragraph sets its outline level directly."""
    family = doc.getAutoStyles().getByName("ParagraphStyles")
    enum = family.createEnumeration()
    while enum.hasMoreElements():
        if enum.nextElement().getPropertyStates(("OutlineLevel",))[0].value == "DIRECT_VALUE":
            return True
    return False


def _heading_styles(doc):
    """(name, outline level) of the paragraph styles in use that have one."""
    family = doc.getStyleFamilies().getByName("ParagraphStyles")
    out = []
    for name in family.getElementNames():
        style = family.getByName(name)
        if style.isInUse():
            level = style.getPropertyValue("OutlineLevel")
            if level:
                out.append((name, level))
    return out


def _outline_count(doc):
    """How many outline paragraphs Writer lists (its hyperlink targets), or None."""
    try:
        return len(doc.getLinks().getByName("Headings").getElementNames())
    except Exception:
        return None


# The heading styles last seen per document: reading every style costs ~2 ms
# on each call, so a known list is reused while Writer's own count of outline
# paragraphs equals what the list's styles find (a style that gained or lost
# its level changes that count; a changed level is read again each time);
# otherwise every style is read again.


def _find_levels(doc, pairs):
    """({level: [findAll results]}, how many paragraphs they hold) for (style, level) pairs."""
    by_level: Dict[int, List[Any]] = {}
    total = 0
    for name, level in pairs:
        found = _found(doc, name) if level else None
        if found is not None and found.getCount():
            by_level.setdefault(level, []).append(found)
            total += found.getCount()
    return by_level, total


def _searched(doc):
    """{level: [findAll results]} of the heading styles."""
    expected = _outline_count(doc)
    state = doc_state.of(doc)
    known = state.heading_styles
    if known is not None and expected is not None:
        family = doc.getStyleFamilies().getByName("ParagraphStyles")
        pairs = [(name, family.getByName(name).getPropertyValue("OutlineLevel"))
                 for name in known if family.hasByName(name)]
        by_level, total = _find_levels(doc, pairs)
        if total == expected:
            return by_level
    pairs = _heading_styles(doc)
    state.heading_styles = [name for name, _level in pairs]
    # Read afresh, the styles' levels are the truth. (Writer's own count lists only
    # headings already laid out: a long document still being formatted in the
    # background shows fewer; it only says when the remembered list is stale.)
    return _find_levels(doc, pairs)[0]


def _found(doc, style):
    sd = doc.createSearchDescriptor()
    sd.setPropertyValue("SearchStyles", True)
    sd.setSearchString(style)
    return doc.findAll(sd)


def _numbers_by_text(bmap, wanted):
    """{text: [block numbers]} of the body paragraphs whose text is in ``wanted``."""
    out: Dict[str, List[int]] = {}
    lines = bmap.text.split("\n")
    if len(lines) == len(bmap.blocks):
        # One line per paragraph (no tables here, and no manual breaks).
        for number, line in enumerate(lines, 1):
            if line in wanted:
                out.setdefault(line, []).append(number)
        return out
    for number in range(1, len(bmap) + 1):
        text = bmap.para_text(number)
        if text in wanted:
            out.setdefault(text, []).append(number)
    return out


def needs_walk(doc: Any) -> bool:
    """True when headings() would give None for what it can see at once (tables,
    direct levels): the tools then build the attributes' map in slices."""
    return bool(doc.getTextTables().getCount()) or _direct_levels(doc)


def headings(doc: Any, bmap: BodyMap, limit: int) -> Optional[Outline]:
    """The outline's headings found by style, or None when only the walk is exact."""
    if needs_walk(doc):
        return None
    body = doc.getText()
    by_level = _searched(doc)
    for founds in by_level.values():
        for found in founds:
            if found.getByIndex(0).getText() != body:
                return None     # a heading outside the body (frame, header, note)
    counts = {level: sum(f.getCount() for f in founds) for level, founds in by_level.items()}
    deepest = docview.outline_depth(counts, limit)
    shown = [f for level in sorted(by_level) if level <= deepest for f in by_level[level]]
    levels = [level for level in sorted(by_level) if level <= deepest for _f in by_level[level]]
    total = sum(f.getCount() for f in shown)
    # One style: its ranges come in document order, so the first ``limit`` are
    # the outline's. Several: all are placed, then ordered by number.
    take = limit if len(shown) == 1 else None
    ranges = []
    for found, level in zip(shown, levels):
        count = found.getCount() if take is None else min(take, found.getCount())
        for i in range(count):
            rng = found.getByIndex(i)
            ranges.append((rng, rng.getString(), level))
    numbers = _numbers_by_text(bmap, {text for _rng, text, _level in ranges})
    heads, anchors, unsure = [], [], []
    for rng, text, level in ranges:
        where = numbers.get(text, [])
        if len(where) == 1:
            heads.append(Para(where[0], text, heading=level))
            anchors.append((bmap.start_of(where[0]), rng))
        else:
            unsure.append((rng, text, level))
    if unsure:
        # Texts that several paragraphs share: measured, in document order.
        unsure.sort(key=functools.cmp_to_key(
            lambda a, b: body.compareRegionStarts(b[0], a[0])))
        offsets = Offsets(body)
        for rng, text, level in unsure:
            number, _inside = bmap.block_of(rng.getStart(), offsets)
            if number is None:
                return None
            heads.append(Para(number, text, heading=level))
            anchors.append((bmap.start_of(number), rng))
    heads.sort(key=lambda para: para.number)
    anchors.sort(key=lambda anchor: anchor[0])
    return Outline(heads, total, anchors)


__all__: List[str] = ["Outline", "headings", "needs_walk"]

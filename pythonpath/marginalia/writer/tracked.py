"""The document's tracked changes (redlines): which there are, and the text each covers.

Each is fetched once and used at once: a proxy of a tracked change that Writer has
let go since (accepted, rejected, merged) reads as empty, and reading one again over
the bridge crashed 7.4 now and then. Main thread.
"""

from typing import Any, List, Set, Tuple


def redline_ids(doc: Any) -> List[str]:
    """The identifiers of the document's tracked changes."""
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement().getPropertyValue("RedlineIdentifier"))
    return out


def _table_of(point: Any) -> Any:
    """The table ``point`` is (or lies in a cell of), or None."""
    if point.supportsService("com.sun.star.text.TextTable"):
        return point
    try:
        cursor = point.getText().createTextCursorByRange(point.getStart())
        return cursor.getPropertyValue("TextTable")
    except Exception:
        return None


def redline_range(doc: Any, red: Any) -> Any:
    """What selects a tracked change: a text cursor over it in the text it lies in (the
    body or one cell), or, for a change that reaches into a table from outside it (a
    table inserted tracked), the table: no cursor goes from a paragraph into a cell, and
    a table at the start of the body has no text position before it."""
    start = red.getPropertyValue("RedlineStart")
    end = red.getPropertyValue("RedlineEnd")
    for point in (start, end):
        if point.supportsService("com.sun.star.text.TextTable"):
            return point
    try:
        cursor = start.getText().createTextCursorByRange(start.getStart())
        cursor.gotoRange(end.getEnd(), True)
        return cursor
    except Exception:
        table = _table_of(end) or _table_of(start)
        if table is None:
            raise
        return table


def redlines(doc: Any, ids: List[str]) -> List[Any]:
    """The tracked changes of ``doc`` among ``ids`` that still exist."""
    wanted = set(ids)
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        red = enum.nextElement()
        if red.getPropertyValue("RedlineIdentifier") in wanted:
            out.append(red)
    return out


def others(doc: Any, own: Set[str]) -> List[Any]:
    """The ranges of the tracked changes not among ``own`` (none when there are none):
    text cursors, or a table a change begins with."""
    reds = doc.getRedlines()
    if not reds.getCount():
        return []
    out = []
    enum = reds.createEnumeration()
    while enum.hasMoreElements():
        red = enum.nextElement()
        if red.getPropertyValue("RedlineIdentifier") not in own:
            out.append(redline_range(doc, red))
    return out


def _signature(doc: Any, red: Any) -> Tuple:
    when = red.getPropertyValue("RedlineDateTime")
    try:
        text = redline_range(doc, red).getString()
    except Exception:
        text = ""
    return (red.getPropertyValue("RedlineType"), red.getPropertyValue("RedlineAuthor"),
            (when.Year, when.Month, when.Day, when.Hours, when.Minutes, when.Seconds,
             when.NanoSeconds), text)


def signatures(doc: Any, ids: List[str]) -> List[Tuple]:
    """What tells these tracked changes apart when Writer makes them anew: an Undo of
    their Accept brings them back with new identifiers (the old ones were addresses),
    the same type, author, time and text."""
    return [_signature(doc, red) for red in redlines(doc, ids)]


def find_again(doc: Any, wanted: List[Tuple], taken: Set[str]) -> List[str]:
    """The identifiers of tracked changes with these signatures (none of ``taken``)."""
    left = list(wanted)
    out = []
    enum = doc.getRedlines().createEnumeration()
    while left and enum.hasMoreElements():
        red = enum.nextElement()
        ident = red.getPropertyValue("RedlineIdentifier")
        if ident in taken:
            continue
        signature = _signature(doc, red)
        if signature in left:
            left.remove(signature)
            out.append(ident)
    return out


def inside_insertion(doc: Any, rng: Any) -> bool:
    """Whether ``rng`` (a range of the body) lies wholly inside one tracked insertion."""
    reds = doc.getRedlines()
    if not reds.getCount():
        return False
    text = rng.getText()
    enum = reds.createEnumeration()
    while enum.hasMoreElements():
        red = enum.nextElement()
        if red.getPropertyValue("RedlineType") != "Insert":
            continue
        one, other = red.getPropertyValue("RedlineStart"), red.getPropertyValue("RedlineEnd")
        try:
            # compareRegion*(a, b) is 1 when a comes first, 0 when they meet, and raises
            # for a range of another text (a cell, a note). A change's two ends come in
            # either order: an insertion's "start" is where the typing stopped.
            if text.compareRegionStarts(one, other) < 0:
                one, other = other, one
            if (text.compareRegionStarts(one, rng) >= 0 and
                    text.compareRegionEnds(rng, other) >= 0):
                return True
        except Exception:
            continue
    return False

"""The document's tracked changes (redlines): which there are, and the text each covers.

Each is fetched once and used at once: a proxy of a tracked change that Writer has
let go since (accepted, rejected, merged) reads as empty, and reading one again over
the bridge crashed 7.4 now and then. Main thread.
"""

from typing import Any, List, Set


def redline_ids(doc: Any) -> List[str]:
    """The identifiers of the document's tracked changes."""
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement().getPropertyValue("RedlineIdentifier"))
    return out


def _in_body(text: Any, point: Any) -> Any:
    """``point`` as a range of the body text: a position in a table's cell gives the
    table's anchor."""
    try:
        text.compareRegionStarts(point, text.getStart())
        return point
    except Exception:
        return point.getPropertyValue("TextTable").getAnchor()


def redline_range(doc: Any, red: Any) -> Any:
    """What selects a tracked change: a text cursor over it, or the table a change begins
    with (a table inserted tracked at the start of the body: no text position is before
    it, and its anchor makes no cursor there)."""
    start = red.getPropertyValue("RedlineStart")
    if start.supportsService("com.sun.star.text.TextTable"):
        return start
    text = doc.getText()
    first = _in_body(text, start)
    last = _in_body(text, red.getPropertyValue("RedlineEnd"))
    cursor = text.createTextCursorByRange(first.getStart())
    cursor.gotoRange(last.getEnd(), True)
    return cursor


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

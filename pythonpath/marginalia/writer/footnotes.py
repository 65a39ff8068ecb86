"""An answer's citation keys turned into real footnotes as the answer is inserted.

Insert writes the answer with its [n] keys as the model wrote them; each key
that names a passage shown to the model (sources.citations) becomes a Writer
footnote (com.sun.star.text.Footnote, numbered by Writer) holding the source's
file, heading or page, and the passage quoted. Only the inserted text is
searched: a "[2]" the document had before is left alone. Runs on the main
thread inside Insert's undo step.
"""

import logging
from typing import Any, Dict, Optional

log = logging.getLogger("marginalia.writer")

MARKER = r"\[[0-9]{1,4}\]"


def notes_for(answer: str, library: Any) -> Optional[Dict[int, str]]:
    """{key: footnote text} for the keys the answer cites, or None when it cites none."""
    from marginalia.sources import citations
    numbered, checks = citations.cite(answer, library)
    notes = {c.key: citations.footnote(c, checks) for c in numbered.citations}
    return notes or None


def _inside(body: Any, rng: Any, start: Any, end: Any) -> bool:
    try:
        # compareRegion*: 1 when the first range lies before the second, -1 after.
        return (body.compareRegionStarts(rng, start) <= 0
                and body.compareRegionEnds(rng, end) >= 0)
    except Exception:
        return False       # another text (a table cell, a frame): no footnote there


def place(doc: Any, body: Any, start: Any, end: Any, notes: Dict[int, str],
          service: str = "com.sun.star.text.Footnote") -> int:
    """Replace each key marker between ``start`` and ``end`` by a footnote; how many."""
    search = doc.createSearchDescriptor()
    search.SearchString = MARKER
    search.SearchRegularExpression = True
    found = doc.findAll(search)
    marks = []
    for index in range(found.getCount()):
        rng = found.getByIndex(index)
        text = notes.get(int(rng.getString()[1:-1]))
        if text and _inside(body, rng, start, end):
            marks.append((rng, text))
    # From the last: a footnote put in never moves a range still to be replaced.
    for rng, text in reversed(marks):
        note = doc.createInstance(service)
        rng.setString("")
        body.insertTextContent(rng, note, True)
        note.setString(text)
    return len(marks)

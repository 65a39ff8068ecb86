"""An answer's citation keys turned into real footnotes as the answer is inserted.

Insert writes the answer with its [n] keys as sources.citations.for_insert left
them; each key that names a passage shown to the model becomes a Writer
footnote (com.sun.star.text.Footnote, numbered by Writer) holding the source's
file, heading or page, and the passage quoted. A grouped key "[1, 2]" becomes
one footnote per key. Only the inserted text is searched: a "[2]" the document
had before is left alone, and so is a key inside a code span (``x[1]`` is code,
not a citation). Runs on the main thread inside Insert's undo step.
"""

import logging
import re
from typing import Any, Dict, List, Tuple

log = logging.getLogger("marginalia.writer")

# The same keys sources.citations._KEYS reads: "[1]", "[1, 2]", "[1; 3]" (ICU syntax).
MARKER = r"\[[0-9]{1,4}(\s*[,;]\s*[0-9]{1,4})*\]"
_NUMBER = re.compile(r"\d{1,4}")


def _inside(body: Any, rng: Any, start: Any, end: Any) -> bool:
    try:
        # compareRegion*: 1 when the first range lies before the second, -1 after.
        return (body.compareRegionStarts(rng, start) <= 0
                and body.compareRegionEnds(rng, end) >= 0)
    except Exception:
        return False       # another text (a frame, a header): no footnote there


def _is_code(rng: Any) -> bool:
    from marginalia.writer.edit import CODE_FONT
    try:
        return rng.getPropertyValue("CharFontName") == CODE_FONT
    except Exception:
        return False


def _marks(doc: Any, body: Any, start: Any, end: Any,
           notes: Dict[int, str]) -> List[Tuple[Any, List[str]]]:
    search = doc.createSearchDescriptor()
    search.SearchString = MARKER
    search.SearchRegularExpression = True
    found = doc.findAll(search)
    marks = []
    for index in range(found.getCount()):
        rng = found.getByIndex(index)
        texts = [notes[int(k)] for k in _NUMBER.findall(rng.getString()) if int(k) in notes]
        if texts and _inside(body, rng, start, end) and not _is_code(rng):
            marks.append((rng, texts))
    return marks


def place(doc: Any, body: Any, start: Any, end: Any, notes: Dict[int, str],
          service: str = "com.sun.star.text.Footnote") -> int:
    """Replace each key marker between ``start`` and ``end`` by footnotes; how many markers.

    Every marker is found before any is touched, and a footnote goes in through
    the marker's own text (the body, or a table cell of the answer), replacing
    the marker as it is attached: a marker is gone only once its footnote is in.
    One that cannot take a footnote keeps its "[n]" and the rest go on.
    """
    marks = _marks(doc, body, start, end, notes)
    made = 0
    # From the last: a footnote put in never moves a range still to be replaced.
    for rng, texts in reversed(marks):
        marker = rng.getString()
        try:
            _replace(doc, rng, texts, service)
            made += 1
        except Exception:
            log.warning("a citation key could not become a footnote", exc_info=True)
            if rng.getString() != marker:
                rng.setString(marker)
    return made


def _replace(doc: Any, rng: Any, texts: List[str], service: str) -> None:
    text = rng.getText()
    first = doc.createInstance(service)
    # A footnote attached over a range replaces the range's text (the marker).
    text.insertTextContent(rng, first, True)
    first.setString(texts[0])
    at = first.getAnchor().getEnd()
    for extra in texts[1:]:
        note = doc.createInstance(service)
        text.insertTextContent(at, note, False)
        note.setString(extra)
        at = note.getAnchor().getEnd()

"""A PDF's text lines, as LibreOffice's PDF import gives them, put back into Blocks.

``writer_pdf_import`` turns a PDF into a Writer document holding one text
shape per line (sometimes per run of a line), anchored to its page, with its
position, size and font height. No paragraph survives, so here (no UNO, plain
values) lines are joined again:

* on each page, lines are taken top to bottom; lines at the same height are
  one row; pieces of a row that nearly touch are one line (a word in small
  caps or another font size comes as a piece of its own), while pieces apart
  by more than TABLE_GAP ems (table cells, columns of a form) make the row a
  "cell | cell" table row;
* a line continues the paragraph above when it has the same font size, sits
  right below it (a gap under half a line), and the line above reached near
  the right edge of the text (a short line ends its paragraph);
* the body's font size is the one most text is set in; a line in a font
  clearly larger is a heading, the largest size being level 1.

Units are LibreOffice's 1/100 mm for positions, points for font heights.
"""

from collections import Counter
from typing import Dict, Iterable, List, NamedTuple

from marginalia.sources.model import Block


class Line(NamedTuple):
    page: int
    x: int
    y: int
    width: int
    height: int
    font: float      # points
    text: str


# Two lines whose tops differ by less than this share a row (1/100 mm).
SAME_ROW = 120
# A font this many points above the body's is a heading's.
HEADING_STEP = 1.5
# A line ending before this share of the page's text width ends its paragraph.
FULL_LINE = 0.85
# Pieces of a row further apart than this many ems are cells; nearer, one line.
TABLE_GAP = 1.5
MM100_PER_POINT = 2540.0 / 72.0


def _rows(lines: List[Line]) -> List[List[Line]]:
    """Lines grouped into rows (same page, about the same top), in reading order."""
    ordered = sorted(lines, key=lambda line: (line.page, line.y, line.x))
    rows: List[List[Line]] = []
    for line in ordered:
        last = rows[-1] if rows else None
        if last is not None and last[0].page == line.page and abs(last[0].y - line.y) < SAME_ROW:
            last.append(line)
        else:
            rows.append([line])
    for row in rows:
        row.sort(key=lambda line: line.x)
    return [_joined(row) for row in rows]


def _joined(row: List[Line]) -> List[Line]:
    """The row with the pieces that nearly touch joined into one line each."""
    out = [row[0]]
    for piece in row[1:]:
        last = out[-1]
        em = max(last.font, piece.font, 1.0) * MM100_PER_POINT
        gap = piece.x - (last.x + last.width)
        if gap > TABLE_GAP * em:
            out.append(piece)
            continue
        glue = "" if gap < 0.15 * em or piece.text[:1] in ",.;:!?)" else " "
        font = last.font if len(last.text) >= len(piece.text) else piece.font
        out[-1] = Line(last.page, last.x, min(last.y, piece.y),
                       max(last.width, piece.x + piece.width - last.x), max(last.height,
                                                                          piece.height),
                       font, last.text + glue + piece.text)
    return out


def _levels(lines: List[Line]) -> Dict[float, int]:
    """Heading level per font size larger than the body's."""
    weight = Counter()
    for line in lines:
        weight[round(line.font, 1)] += len(line.text)
    if not weight:
        return {}
    body = weight.most_common(1)[0][0]
    larger = sorted((size for size in weight if size >= body + HEADING_STEP), reverse=True)
    return {size: index + 1 for index, size in enumerate(larger[:6])}


def _join(texts: Iterable[str]) -> str:
    out = ""
    for text in texts:
        text = " ".join(text.split())
        if not text:
            continue
        if out.endswith("-") and text[:1].islower() and out[-2:-1].isalpha():
            out = out[:-1] + text       # a word hyphenated at the line's end
        else:
            out = (out + " " + text) if out else text
    return out


def blocks(lines: List[Line]) -> List[Block]:
    """The Blocks of a PDF's lines (see the module docstring)."""
    levels = _levels(lines)
    right: Dict[int, int] = {}
    left: Dict[int, int] = {}
    for line in lines:
        right[line.page] = max(right.get(line.page, 0), line.x + line.width)
        left[line.page] = min(left.get(line.page, line.x), line.x)
    out: List[Block] = []
    heading = ""
    para: List[Line] = []
    table: List[str] = []

    def flush():
        nonlocal para, table
        if para:
            out.append(Block("paragraph", _join(line.text for line in para), heading,
                             para[0].page, 0))
        if table:
            out.append(Block("table", "\n".join(table), heading, table_page[0], 0))
        para, table = [], []

    table_page = [None]
    for row in _rows(lines):
        first = row[0]
        if len(row) > 1:
            if para:
                out.append(Block("paragraph", _join(line.text for line in para), heading,
                                 para[0].page, 0))
                para = []
            if not table:
                table_page[0] = first.page
            table.append(" | ".join(_join([line.text]) for line in row))
            continue
        level = levels.get(round(first.font, 1), 0)
        if level:
            flush()
            heading = _join([first.text])
            out.append(Block("heading", heading, heading, first.page, level))
            continue
        if table:
            flush()
        if para:
            above = para[-1]
            width = right[above.page] - left[above.page]
            ends = above.x + above.width < left[above.page] + FULL_LINE * width
            gap = first.y - (above.y + above.height)
            if (above.page != first.page and ends) or (above.page == first.page and (
                    ends or gap > above.height / 2 or abs(above.font - first.font) > 0.5)):
                flush()
        para.append(first)
    flush()
    return out

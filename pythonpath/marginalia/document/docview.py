"""The model's view of a document: a compact, numbered text form.

The Writer adapter reads a document into a list of ``Para`` records (one per
paragraph or table, numbered from 1 in document order); this module renders
them without knowing about UNO::

    1: # Annual report
    2: Sales grew by ⟦12 %⟧ this year.
    3: - first point
    4:   - nested point
    5: 1. numbered item
    6: | Region | Sales |
       | North | 12 |

A table is one numbered block, so "paragraph N" always means one thing the
tools can replace or delete as a whole. ⟦ and ⟧ mark the user's selection.
The overhead over plain text is the number and a few marker characters per
paragraph.

Writer counts positions in UTF-16 code units, Python in code points;
``utf16_len`` (the package's one) counts the way Writer does, so characters above
U+FFFF (emoji, CJK extension ideographs, mathematical letters) do not shift offsets.
"""

import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Tuple

from marginalia.document.inline import Run, render as render_runs

SEL_OPEN = "\u27e6"
SEL_CLOSE = "\u27e7"
LINE_BREAK = "\u21b5"

LEGEND = ("Each line starts with the paragraph number and a colon. '#' marks heading "
          "levels, '- ' bullet items and '1. ' numbered items (indented two spaces per "
          "nesting level), '| a | b |' table rows (a table is one numbered paragraph), "
          "%s and %s enclose the user's selection, %s is a line break inside a paragraph."
          % (SEL_OPEN, SEL_CLOSE, LINE_BREAK))

_NEEDS_ESCAPE = re.compile(r"^(#{1,6}\s|[-*+]\s|\d{1,9}[.)]\s|\||\\)")
# What render_para puts before a block's text: its number, then a heading or item
# marker (indented for nesting) or the escape of text that looks like one.
_MARKERS = re.compile(r"^(?:\d{1,6}:[ \t]+)?[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,9}[.)][ \t]+|\\)?")


def unmarked(text: str) -> str:
    """``text`` without the view's own additions a model may copy into a search: the
    paragraph number, a heading or item marker, the selection brackets."""
    return _MARKERS.sub("", text, count=1).replace(SEL_OPEN, "").replace(SEL_CLOSE, "")


@dataclass
class Para:
    """One numbered block of the document.

    ``heading`` is the outline level (0 for body text); ``list_level`` is 1 for
    a top-level list item, 0 outside lists; ``list_kind`` is "bullet" or
    "number"; ``label`` is Writer's rendered number ("3.", "iv)"); ``rows`` is
    a list of rows of cell strings for a table, else None. ``sel_start`` and
    ``sel_end`` (code points into ``text``) mark the selected part, or None.
    """

    number: int
    text: str = ""
    heading: int = 0
    list_level: int = 0
    list_kind: Optional[str] = None
    label: str = ""
    rows: Optional[List[List[str]]] = None
    sel_start: Optional[int] = None
    sel_end: Optional[int] = None
    style: str = ""
    # The text's bold and italic runs (writer.marks), when read: the rewrite protocol's
    # view shows them as **bold** and *italic* (body(marks=True)).
    runs: Optional[List[Run]] = None

    @property
    def selected(self) -> bool:
        return self.sel_start is not None

    def plain(self) -> str:
        """The block's plain text (table cells joined by tabs and newlines)."""
        if self.rows is not None:
            return "\n".join("\t".join(row) for row in self.rows)
        return self.text

    def __repr__(self) -> str:
        return "Para(%d, %r)" % (self.number, self.plain()[:40])


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", LINE_BREAK)


def _marked(text: str, start: Optional[int], end: Optional[int]) -> str:
    if start is None:
        return text
    return text[:start] + SEL_OPEN + text[start:end] + SEL_CLOSE + text[end:]


def body(para: Para, marks: bool = False) -> List[str]:
    """The rendered block without its number (several lines for a table). With ``marks``
    the text shows its bold and italic (its runs) and no selection brackets."""
    if para.rows is not None:
        lines = ["| " + " | ".join(_cell(c) for c in row) + " |" for row in para.rows]
        if not lines:
            lines = ["| |"]
        if para.selected:
            lines[0] = SEL_OPEN + lines[0]
            lines[-1] = lines[-1] + SEL_CLOSE
        return lines
    if marks:
        text = (render_runs(para.runs) if para.runs else para.text).replace("\n", LINE_BREAK)
    else:
        text = _marked(para.text, para.sel_start, para.sel_end).replace("\n", LINE_BREAK)
    if para.heading:
        return ["#" * min(para.heading, 6) + " " + text]
    if para.list_level:
        indent = "  " * (para.list_level - 1)
        if para.list_kind == "number":
            marker = (para.label or "1.").strip() + " "
        else:
            marker = "- "
        return [indent + marker + text]
    if _NEEDS_ESCAPE.match(text):
        text = "\\" + text
    return [text]


def shown(para: Para) -> str:
    """A block's line as the rewrite protocol shows it, without its number (a table's
    rows one per line, not indented): what the model saw of it, to compare with."""
    return "\n".join(line.strip() if i else line for i, line in enumerate(body(para, True)))


def render_para(para: Para, marks: bool = False) -> str:
    """One block in the numbered form; continuation lines of a table are indented."""
    lines = body(para, marks)
    head = "%d: " % para.number
    pad = " " * len(head)
    return head + ("\n" + pad).join(lines)


def fitting(records: Iterable[Para], limit: int) -> Optional[List[Para]]:
    """All of ``records`` when their numbered form fits in ``limit`` characters, else None.

    ``records`` may be lazy: a long document is read only as far as the limit.
    """
    out: List[Para] = []
    size = 0
    for para in records:
        size += len(render_para(para)) + 1
        if size > limit:
            return None
        out.append(para)
    return out


def render(paras: List[Para], budget: int, total: Optional[int] = None,
           end: Optional[int] = None) -> Tuple[str, Optional[int]]:
    """Render ``paras`` until ``budget`` characters; returns (text, last_number_shown).

    At least one block is always shown (truncated if alone it exceeds the
    budget). When not everything fits, a last line tells which call continues.
    """
    out = []
    used = 0
    last = None
    for para in paras:
        piece = render_para(para)
        if out and used + len(piece) + 1 > budget:
            break
        if not out and len(piece) > budget:
            more = len(piece) - budget
            piece = piece[:budget] + "\u2026 [%d more characters of this paragraph not shown; " \
                "use search_document to find text in it]" % more
        out.append(piece)
        used += len(piece) + 1
        last = para.number
    stop = end if end is not None else (paras[-1].number if paras else None)
    # ``end`` may lie beyond the records given: callers build only what fits.
    if last is not None and stop is not None and last < stop:
        out.append("[Stopped at paragraph %d to keep the answer short%s. Continue with "
                   "read_document(start=%d, end=%d).]"
                   % (last, (" (the document has %d)" % total) if total else "", last + 1, stop))
    return "\n".join(out), last


def outline_depth(counts: Dict[int, int], limit: int) -> int:
    """The deepest heading level an outline shows, given how many headings each
    level has: deeper levels are dropped first while more than ``limit`` remain."""
    deepest = max(counts or [0])
    while deepest > 1 and sum(n for level, n in counts.items() if level <= deepest) > limit:
        deepest -= 1
    return deepest


def outline(paras: List[Para], limit: int = 40, total: Optional[int] = None) -> List[str]:
    """Heading lines "N: ## Title"; deeper levels are dropped first to stay within ``limit``.

    With ``total``, ``paras`` are already the shown levels' headings (at least
    the first ``limit``) and ``total`` how many those levels hold.
    """
    heads = [p for p in paras if p.heading and p.rows is None]
    if total is None:
        counts: Dict[int, int] = {}
        for p in heads:
            counts[p.heading] = counts.get(p.heading, 0) + 1
        deepest = outline_depth(counts, limit)
        heads = [p for p in heads if p.heading <= deepest]
        total = len(heads)
    lines = ["%d: %s %s" % (p.number, "#" * min(p.heading, 6), short(p.text, 80))
             for p in heads[:limit]]
    if total > limit:
        lines.append("\u2026 and %d more headings" % (total - limit))
    return lines


def short(text: str, size: int = 60) -> str:
    """Text for one line of a summary: whitespace folded, cut to ``size`` with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= size else text[:size - 1].rstrip() + "\u2026"


# ---------------------------------------------------------------- UTF-16

def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, as Writer counts it."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)

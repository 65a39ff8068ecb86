"""The model's edit text read line by line: numbers, new lines, tables, struck lines (pure).

The rewrite protocol's edit is text in the form the document is shown (docview): one
line a paragraph, "N: " before the ones the model names. Reading it is lenient with what
small models write: a table's rows numbered one by one or without their edge pipes,
"N: ..." for a line only named as a place, a fence around the whole, a number named
twice. What the lines mean for the document is document.revision's.
"""

import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

from marginalia.document import markdown as md

NUMBERED = re.compile(r"^[ \t]*(?:paragraph[ \t]+|\u00b6[ \t]*)?(\d{1,6})[ \t]*:(?:[ \t]+(.*))?$",
                       re.I)
ANCHOR_ONLY = ("...", "\u2026", "[unchanged]", "(unchanged)", "unchanged")


@dataclass(frozen=True)
class Line:
    """One block of the model's text: ``number`` None for a new block (0: the start)."""

    number: Optional[int]
    body: str
    anchor: bool = False        # "N: ...": where, not what
    struck: str = ""            # "N: ~~old text~~": delete the paragraph that reads so
    comment: str = ""           # "N: text <!-- a note -->": a comment on the paragraph


def is_row(line: str) -> bool:
    return line.lstrip().startswith("|")


_STRUCK = re.compile(r"^~~(.+)~~$")


def _cells(content: str) -> int:
    """How many cells a table row written with pipes has (0: not a row)."""
    text = content.strip()
    if "|" not in text or not (text.startswith("|") or " | " in text):
        return 0
    return len(md.split_row(text))


def _row(content: str) -> str:
    text = content.strip()
    return text if text.startswith("|") else "| %s |" % text


def read(text: str) -> List[Line]:
    """The model's text as Lines: one per non-blank line, a table's rows kept together
    (rows after a numbered row, or two or more rows of as many cells, numbered or not:
    small models number each row, or leave out the edge pipes)."""
    parsed: List[Tuple[Optional[int], str]] = []
    for raw in (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not raw.strip():
            parsed.append((None, ""))
            continue
        if raw.strip().startswith("```"):
            parsed.append((None, ""))   # a fence the model wrapped its text in
            continue
        m = NUMBERED.match(raw)
        if m:
            parsed.extend(_joined(int(m.group(1)), (m.group(2) or "").strip()))
        else:
            parsed.append((None, raw.strip()))
    out: List[Line] = []
    i = 0
    while i < len(parsed):
        number, content = parsed[i]
        end = _rows_end(parsed, i)
        if end > i + 1:
            # One table, numbered as its first row (the rows may be numbered each).
            out.append(Line(number, "\n".join(_row(c) for _n, c in parsed[i:end])))
            i = end
            continue
        if content or number is not None:
            out.append(_line(number, content))
        i += 1
    return out


def _joined(number: int, content: str) -> List[Tuple[Optional[int], str]]:
    """Numbered lines a model ran together on one line ("2: A. 3: # B 4: C."), split where
    the next numbers follow in order, each after a space: (number, content) each."""
    out: List[Tuple[Optional[int], str]] = []
    while True:
        found = re.search(r"\s%d:\s" % (number + 1), content)
        if found is None:
            out.append((number, content))
            return out
        out.append((number, content[:found.start()].strip()))
        number, content = number + 1, content[found.end():].strip()


def _rows_end(parsed: List[Tuple[Optional[int], str]], i: int) -> int:
    """Where the table rows starting at ``i`` end: rows with edge pipes, or rows of as
    many cells (two or more) without them; ``i`` itself when none start there."""
    content = parsed[i][1]
    width = _cells(content)
    if width < 2:
        return i
    end = i + 1
    # A row of other cells (a sentence the model put after the table) ends it; so does
    # anything else. The delimiter row ("|---|---|") counts as a row.
    while end < len(parsed) and parsed[end][1] and _cells(parsed[end][1]) == width:
        end += 1
    return end


_COMMENT = re.compile(r"<!--(.*?)-->", re.S)


def _line(number: Optional[int], content: str) -> Line:
    notes = [n.strip() for n in _COMMENT.findall(content) if n.strip()]
    if notes:
        # "N: <!-- a note -->" comments on paragraph N as it is; with its text, on the
        # paragraph that text stands for (a line that changes and gets a note).
        body = _COMMENT.sub("", content).strip()
        found = _line(number, body) if body else Line(number, "", True)
        return Line(found.number, found.body, found.anchor, found.struck, " ".join(notes))
    if content.startswith("|") and _cells(content) <= 1:
        content = content.strip("| ").strip()   # a one-cell "row": a table of nothing
    if content in ANCHOR_ONLY and number is not None:
        return Line(number, "", True)
    struck = _STRUCK.match(content)
    if struck:
        return Line(number, "", struck=struck.group(1).strip())
    return Line(number, content)


def normalised(lines: List[Line]) -> List[Line]:
    """A number named twice is a new line the second time; "0: text" is the start and a
    new line."""
    out: List[Line] = []
    named = set()
    for line in lines:
        if line.number is None and line.comment and not (line.body or line.struck):
            if out:     # a note on a line of its own belongs to the line above
                last = out[-1]
                out[-1] = Line(last.number, last.body, last.anchor, last.struck,
                               (last.comment + " " + line.comment).strip())
            continue
        if line.number == 0:
            out.append(Line(0, "", True))
            if line.body:
                out.append(Line(None, line.body))
        elif line.number is not None and line.number in named:
            if line.body:
                out.append(Line(None, line.body))
        else:
            if line.number is not None:
                named.add(line.number)
            out.append(line)
    return out

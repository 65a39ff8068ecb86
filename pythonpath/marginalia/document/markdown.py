"""Markdown -> a flat block structure the Writer adapter turns into real structure.

Only what a model writes into a document is covered: ATX and setext headings,
paragraphs, bullet and numbered lists (nested by indentation), pipe tables,
fenced code, block quotes, and inline bold, italic, strikethrough, code and
links. Lists are flattened into one block per item with a nesting level, since
Writer has no list container either: an item is a paragraph with a list style
and a level. Anything unrecognised stays literal text; parsing never fails.
"""

import re
from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional

# Run, parse_inline and plain_text are part of this module's interface: the
# Writer adapter builds blocks and table cells from them.
from marginalia.document.inline import Run, parse_inline, plain_text, run_length

HEADING = "heading"
PARAGRAPH = "paragraph"
BULLET = "bullet"
NUMBER = "number"
TABLE = "table"
CODE = "code"
QUOTE = "quote"

__all__ = ["HEADING", "PARAGRAPH", "BULLET", "NUMBER", "TABLE", "CODE", "QUOTE",
           "Run", "Block", "parse", "parse_inline", "plain_text", "split_row"]


@dataclass
class Block:
    """One paragraph-level unit.

    ``level`` is the heading level (1-6) for headings and the list nesting
    level (1 = top) for list items; ``rows`` holds a table's cells, each a list
    of runs, with ``header`` telling whether the first row is a header row.
    """

    kind: str
    runs: List[Run] = field(default_factory=list)
    level: int = 0
    rows: Optional[List[List[List[Run]]]] = None
    header: bool = False

    @property
    def text(self) -> str:
        return plain_text(self.runs)

    def __repr__(self) -> str:
        if self.kind == TABLE:
            return "Block(table, %r)" % ([[plain_text(c) for c in r] for r in self.rows],)
        return "Block(%s, %d, %r)" % (self.kind, self.level, self.text)


_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_QUOTE = re.compile(r"^ {0,3}> ?(.*)$")
_DELIM_CELL = re.compile(r"^:?-+:?$")


def _indent_width(prefix: str) -> int:
    return len(prefix.expandtabs(4))


def split_row(line: str) -> List[str]:
    """Split a pipe-table row into raw cell strings (escaped pipes and code spans respected)."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells = []
    cur = []
    i = 0
    in_code = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if ch == "`":
            ticks = run_length(s, i, "`")
            if in_code == 0:
                in_code = ticks
            elif in_code == ticks:
                in_code = 0
            cur.append(s[i:i + ticks])
            i += ticks
            continue
        if ch == "|" and not in_code:
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur).strip())
    return cells


def _is_delimiter_row(line: str) -> bool:
    if "-" not in line:
        return False
    cells = split_row(line)
    return bool(cells) and all(_DELIM_CELL.match(c.replace(" ", "")) for c in cells)


class _Read(NamedTuple):
    """Blocks read from a construct that spans whole lines, and the line after it."""

    blocks: List[Block]
    end: int


def _read_fence(lines: List[str], i: int) -> Optional[_Read]:
    """Fenced code: one CODE block per line, up to the closing fence or the end of the text."""
    m = _FENCE.match(lines[i])
    if not m:
        return None
    marker = m.group(1)
    blocks = []
    i += 1
    while i < len(lines) and not lines[i].strip().startswith(marker):
        blocks.append(Block(CODE, [Run(lines[i].rstrip(), code=True)]))
        i += 1
    return _Read(blocks, i + 1)


def _read_atx(lines: List[str], i: int) -> Optional[_Read]:
    m = _ATX.match(lines[i])
    if not m:
        return None
    heading = Block(HEADING, parse_inline((m.group(2) or "").strip()), level=len(m.group(1)))
    return _Read([heading], i + 1)


def _read_rule(lines: List[str], i: int) -> Optional[_Read]:
    # A thematic break has no block of its own; it only ends what is open.
    return _Read([], i + 1) if _RULE.match(lines[i]) else None


def _read_table(lines: List[str], i: int) -> Optional[_Read]:
    """A pipe table: a header row, a delimiter row, then rows up to a line without a pipe."""
    if "|" not in lines[i] or i + 1 >= len(lines) or not _is_delimiter_row(lines[i + 1]):
        return None
    rows = [split_row(lines[i])]
    i += 2
    while i < len(lines) and lines[i].strip() and "|" in lines[i]:
        rows.append(split_row(lines[i]))
        i += 1
    width = max(len(r) for r in rows)
    cells = [[parse_inline(c) for c in r + [""] * (width - len(r))] for r in rows]
    return _Read([Block(TABLE, rows=cells, header=True)], i)


def _read_quote(lines: List[str], i: int) -> Optional[_Read]:
    """Consecutive quoted lines; an empty quoted line starts a new QUOTE block."""
    if not _QUOTE.match(lines[i]):
        return None
    blocks = []
    quoted: List[str] = []
    while i < len(lines) and _QUOTE.match(lines[i]):
        body = _QUOTE.match(lines[i]).group(1).strip()
        if not body and quoted:
            blocks.append(Block(QUOTE, parse_inline(" ".join(quoted))))
            quoted = []
        elif body:
            quoted.append(body)
        i += 1
    if quoted:
        blocks.append(Block(QUOTE, parse_inline(" ".join(quoted))))
    return _Read(blocks, i)


# Constructs that end any open paragraph, list item and list nesting, in the
# order they are tried (a rule before a list item: "- - -" is a rule).
_WHOLE_LINE_READERS = (_read_fence, _read_atx, _read_rule, _read_table, _read_quote)


@dataclass
class _ListItem:
    """The open list item: lazy continuation lines may still join it."""

    kind: str
    level: int
    lines: List[str]


@dataclass
class _Open:
    """The blocks read so far and what is still open at the current line."""

    blocks: List[Block] = field(default_factory=list)
    para: List[str] = field(default_factory=list)
    item: Optional[_ListItem] = None
    indents: List[int] = field(default_factory=list)   # one per open list level

    def close(self) -> None:
        """End the open paragraph or list item (list nesting stays open)."""
        if self.para:
            self.blocks.append(Block(PARAGRAPH, _joined(self.para)))
            self.para = []
        if self.item:
            self.blocks.append(Block(self.item.kind, _joined(self.item.lines),
                                     level=self.item.level))
            self.item = None

    def end_lists(self) -> None:
        self.close()
        self.indents = []

    def setext_heading(self, underline: str) -> None:
        level = 1 if underline.strip().startswith("=") else 2
        self.blocks.append(Block(HEADING, _joined(self.para), level=level))
        self.para = []

    def open_item(self, m: "re.Match[str]") -> None:
        self.close()
        kind = BULLET if m.group(2) in "-*+" else NUMBER
        level = _nest(self.indents, _indent_width(m.group(1)))
        self.item = _ListItem(kind, level, [m.group(3) or ""])

    def add_line(self, line: str) -> None:
        if self.item:
            # Lazy continuation of the open list item.
            self.item.lines.append(line.strip())
        else:
            self.indents = []
            self.para.append(line)


def _joined(lines: List[str]) -> List[Run]:
    return parse_inline(" ".join(line.strip() for line in lines))


def _nest(indents: List[int], indent: int) -> int:
    """The list level of an item at ``indent``; updates the open levels' indents.

    Shallower indents close levels; two more columns than the open level open a
    nested one (covers 2-, 3- and 4-space styles).
    """
    while indents and indent < indents[-1]:
        indents.pop()
    if not indents or indent >= indents[-1] + 2:
        indents.append(indent)
    return len(indents)


def _is_setext_underline(line: str, state: _Open) -> bool:
    # A lone "-" is a list marker, not an underline.
    return bool(state.para and not state.item and _SETEXT.match(line)
                and not _ITEM.match(line.strip() + " x"))


def _step(lines: List[str], i: int, state: _Open) -> int:
    """Read the construct starting at line i into ``state``; returns the next line to read."""
    line = lines[i]
    if not line.strip():
        state.close()
        return i + 1
    if _is_setext_underline(line, state):
        state.setext_heading(line)
        return i + 1
    for reader in _WHOLE_LINE_READERS:
        read = reader(lines, i)
        if read is not None:
            state.end_lists()
            state.blocks.extend(read.blocks)
            return read.end
    m = _ITEM.match(line)
    # A bare marker inside a paragraph ("1." wrapped to a new line) is text.
    if m and (m.group(3) or state.item or not state.para):
        state.open_item(m)
    else:
        state.add_line(line)
    return i + 1


def parse(text: str) -> List[Block]:
    """Markdown text -> list of Blocks."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    state = _Open()
    i = 0
    while i < len(lines):
        i = _step(lines, i, state)
    state.close()
    return state.blocks


def readable(text: str) -> str:
    """Markdown as a person reads it in plain text: no markup signs, a bullet "•" and the
    item's number for list items (indented two spaces a level), a table's rows with its
    cells between " | ". Where only plain text fits, as in a comment that proposes an
    insertion, the markup's signs ("**Summary:**") would read as noise."""
    lines = []
    counts = {}                       # list level -> the last number said at that level
    for block in parse(text):
        if block.kind == TABLE:
            lines.extend(" | ".join(plain_text(cell) for cell in row) for row in block.rows)
        elif block.kind in (BULLET, NUMBER):
            indent = "  " * (block.level - 1)
            counts = {lvl: n for lvl, n in counts.items() if lvl <= block.level}
            if block.kind == NUMBER:
                counts[block.level] = counts.get(block.level, 0) + 1
                lines.append("%s%d. %s" % (indent, counts[block.level], block.text))
            else:
                counts.pop(block.level, None)
                lines.append("%s\u2022 %s" % (indent, block.text))
            continue
        else:
            lines.append(block.text)
        counts = {}
    return "\n".join(lines)

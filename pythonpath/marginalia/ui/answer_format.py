"""An answer's markdown shown as readable plain text while it streams (pure).

The conversation pane is a plain multi-line Edit (docs/ARCHITECTURE.md "The panel":
the rich-text control costs 2.3-3.2x per formatted update at 200 KB, 3-13x once
it holds a chat drawn formatted, and 10x to fill), so formatting is made of
characters: headings underlined, bullets, numbered items and quotes indented,
code marked with a bar, table cells separated by a thin rule, rules drawn, and
inline ``**bold**``, ``*italic*``, `` `code` `` and links shown as their text
(a link keeps its address in brackets). No raw markdown symbols.

The pane is narrow (about 26 characters at the sidebar's default width), so
``columns``, the characters one of its lines holds, bounds what would wrap
badly: rules and underlines are never longer than a line, and a table whose
rows do not fit is shown as records of stacked "header: value" lines.

Streaming rules, so the first words show at once and an update costs what
its new text costs:
- Only the current line is ever redrawn. A line's block kind is decided by
  its first characters; the few that could still be a marker ("-", "#", "|",
  "`") wait for the next character.
- An unclosed inline marker near the end (``**bol``) holds the text from the
  marker on for up to HOLD characters, so ``**`` never flashes; further back
  it is shown as typed and redrawn when it closes (``retract``).
- Everything before the last point where no marker was open is final and
  never looked at again, so a long paragraph costs per piece, not per line.

``feed`` and ``finish`` return ``(retract, add)``: text to remove from the end
of what this formatter produced so far, then text to add. Output goes through
the pane's SoftWrap (ui.transcript), whose state is restored before a redraw.
"""

import re
import unicodedata
from typing import Optional, Tuple

from marginalia.document.inline import parse_inline

HOLD = 80                 # how far back an unclosed inline marker still holds text
SETTLE = 120              # a line's tail longer than this, all markers closed, becomes final
BULLET = "\u2022 "
QUOTE = "\u2502 "
CODE = "\u2503 "
CELL = "\u2502"
RULE = "\u2500" * 16
HEADING_RULE = {1: "\u2550", 2: "\u2500"}     # h1 double, h2 single underline
UNDERLINE_MAX = 40
# Characters a line of the pane holds at the sidebar's default width (180 px of
# content); office.panel_view tells the renderer the pane's own count.
DEFAULT_COLUMNS = 26
# Box-drawing characters are wider than an average letter: a rule takes this
# share of a line's characters, so it never wraps.
RULE_SHARE = 0.8
# Rows are mostly wider than their header: a header row longer than this share
# of a line makes the table records from the start, not rows then records.
HEADER_SHARE = 0.6

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:\s+|$)")
_BULLET = re.compile(r"^( *)([-*+])\s+")
_NUMBER = re.compile(r"^( *)(\d{1,9})([.)])\s+")
_QUOTE = re.compile(r"^ {0,3}>\s?")
_RULE_LINE = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
# A line start that could still turn into a block marker: wait for one more character.
_UNDECIDED = re.compile(r"^ {0,3}(#{1,6}|[-*+_]|[-*_]{2,}|`{1,2}|~{1,2}|\d{1,9}[.)]?|>)$|^ *$")
_ESCAPED_PIPE = "\x00"
# What a line holds while it streams that could still become a table's delimiter row.
_DELIMITER_SO_FAR = re.compile(r"^\s*(\|[\s|:-]*)?$")


# What a multi-line edit's width holds besides text: its border, the vertical
# scroll bar and the text's margins (VCL gen and gtk3 at the sidebar's font).
PANE_CHROME = 24
USUAL_CHAR = 6.5          # pixels per character at the sidebar's font, if none is measured


def pane_columns(width: int, char_width: float) -> Optional[int]:
    """Characters one line of a pane ``width`` pixels wide holds; None when it holds
    8 or fewer: the panel's first layout or a collapsed deck, not a width to lay out at."""
    if not char_width or char_width <= 0:
        char_width = USUAL_CHAR
    columns = int((width - PANE_CHROME) / char_width)
    return columns if columns > 8 else None


def width(text: str) -> int:
    """Columns ``text`` takes in the pane: a wide (CJK) character two, a combining mark none."""
    if text.isascii():
        return len(text)
    total = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return total


def inline_text(text: str) -> str:
    """``**bold** and [a link](url)`` -> ``bold and a link (url)``."""
    if not any(c in text for c in "*_`[\\~<"):
        return text
    out = []
    for run in parse_inline(text):
        out.append(run.text)
        if run.link and run.link != run.text and not run.link.startswith("mailto:"):
            out.append(" (%s)" % run.link)
    return "".join(out)


def _open_marker(text: str) -> int:
    """Where the last inline marker still open starts (len(text) when none is)."""
    best = len(text)
    if text.count("`") % 2:
        best = min(best, text.rfind("`"))
    stars = text.count("**")
    if stars % 2:
        best = min(best, text.rfind("**"))
    singles = text.replace("**", "").count("*")
    if singles % 2:
        at = text.rfind("*")
        if at + 1 < len(text) and not text[at + 1].isspace():
            best = min(best, at)
        elif at + 1 == len(text):
            best = min(best, at)
    bracket = text.rfind("[")
    if bracket >= 0 and ")" not in text[bracket:]:
        best = min(best, bracket)
    if text.endswith("\\") or text.endswith("!"):
        best = min(best, len(text) - 1)
    return best


class LineFormatter:
    """One answer's markdown, fed in pieces; see the module docstring."""

    def __init__(self, wrap, columns: int = DEFAULT_COLUMNS):
        self.wrap = wrap              # the pane's SoftWrap, shared with the renderer
        self.columns = max(8, columns)
        self.in_code = False
        self._table = None            # the table being shown: its Table, else None
        # A table's first line hidden until the next one tells whether it is one (GFM:
        # only a delimiter row under it makes it a header); else it shows as text.
        self._pending = None
        self._finishing = False
        self._new_line()

    def _rule(self, width: int) -> str:
        """A rule of about ``width`` characters that still fits one line of the pane."""
        return RULE[0] * max(3, min(width, int(self.columns * RULE_SHARE)))

    def _new_line(self) -> None:
        self.line = ""                # raw markdown of the current line since the final part
        self.kind = None              # None (undecided) or the block kind
        self.prefix = ""              # the display of the line's marker (shown with the text)
        self.body_start = 0           # where the line's text starts after its marker
        self.shown = ""               # wrapped display of line[:], as the pane has it
        self.mid_line = False         # part of this line was settled (shown, final)
        self.hidden = False           # the line shows as nothing, not even its line break
        self.lead = ""                # shown before the line (a blank line after records)
        self._snapshot = self._wrap_state()

    def _wrap_state(self):
        return self.wrap.state()

    def _restore(self, state) -> None:
        self.wrap.restore(state)

    @property
    def at_line_start(self) -> bool:
        """Whether the pane's text (as this formatter left it) ends with a line break."""
        return not self.mid_line and not self.shown

    # -- input ---------------------------------------------------------------
    def feed(self, text: str) -> Tuple[str, str]:
        retract, add = "", ""
        while text:
            cut = text.find("\n")
            piece, text = (text, "") if cut < 0 else (text[:cut], text[cut + 1:])
            self.line += piece
            r, a = self._redraw(final=cut >= 0)
            retract, add = combine(retract, add, r, a)
            if cut >= 0:
                retract, add = combine(retract, add, "", self._end_line())
        return retract, add

    def finish(self) -> Tuple[str, str]:
        """The answer block ends (a tool line, an error, the turn's end): draw the line whole."""
        if not self.line and not self.shown:
            return "", self._show_pending()
        self._finishing = True
        out = self._redraw(final=True)
        self._finishing = False
        self.kind = None
        mid_line = bool(self.shown) or self.mid_line
        self._new_line()
        self.mid_line = mid_line
        self.in_code = False
        return out

    # -- drawing -------------------------------------------------------------
    def _redraw(self, final: bool) -> Tuple[str, str]:
        before = ""
        if self._pending is not None and not self._may_be_delimiter(final):
            # The hidden first line was no table's header: it shows as text, and this
            # line is decided again (it may start a table of its own).
            before = self._show_pending()
            self._table, self.kind, self.hidden = None, None, False
        display = self._display(final)
        # Wrapping the line again from its start gives the same breaks as before.
        self._restore(self._snapshot)
        wrapped = self.wrap.feed(display)
        if wrapped.startswith(self.shown):
            add, retract = wrapped[len(self.shown):], ""
        else:
            add, retract = wrapped, self.shown
        self.shown = wrapped
        self._settle()
        return combine("", before, retract, add)

    def _may_be_delimiter(self, final: bool) -> bool:
        """Whether the current line is, or may still become, the delimiter row."""
        line = self.line
        if final:
            return bool(line.lstrip().startswith("|") and _TABLE_SEPARATOR.match(line)
                        and "-" in line)
        return bool(_DELIMITER_SO_FAR.match(line))

    def _show_pending(self) -> str:
        """The hidden first line, shown as the text it turned out to be (nothing is shown
        of the current line while it is pending)."""
        if self._pending is None:
            return ""
        text, self._pending = self._pending, None
        self._restore(self._snapshot)
        out = self.wrap.feed(inline_text(text.strip()) + "\n")
        self._snapshot = self._wrap_state()
        return out

    def _settle(self) -> None:
        """A long tail with every marker closed becomes final: later pieces skip it."""
        if self.kind in ("text", "item") and len(self.line) - self.body_start > SETTLE:
            body = self.line[self.body_start:]
            hold = _open_marker(body)
            # At a space, or anywhere once long (text without spaces: CJK, URLs).
            settled = body.endswith(" ") or len(body) > 4 * SETTLE
            if (hold == len(body) or len(body) - hold > HOLD) and settled:
                self.line, self.body_start, self.prefix, self.shown = "", 0, "", ""
                self.mid_line = True
                self._snapshot = self._wrap_state()

    def _end_line(self) -> str:
        """The newline after a line (and a heading's underline)."""
        extra = ""
        if self.kind == "heading" and self.level in HEADING_RULE:
            across = min(UNDERLINE_MAX, max(4, width(self.line[self.body_start:])))
            extra = HEADING_RULE[self.level] * len(self._rule(across)) + "\n"
        hidden = self.kind == "fence-hidden" or self.hidden
        if self.kind == "table":
            if hidden and not self._table.rows:
                self._pending = self.line     # a stacked header: shown if no delimiter follows
            elif self._table.rows == 1:
                self._pending = None          # the delimiter row: it was a table
            self._table.rows += 1
            self._table.shown += not hidden
        lead = self.lead if hidden else ""
        self._new_line()
        if hidden:
            self.lead = lead   # a blank line after records goes before the code instead
            return ""          # a fence without a language shows as nothing, not a blank line
        out = self.wrap.feed("\n" + extra)
        self._snapshot = self._wrap_state()
        return out

    def _display(self, final: bool) -> str:
        line = self.line
        if self.kind is None:
            if not final and (_UNDECIDED.match(line) or _FENCE.match(line)):
                return ""      # a marker still to be told from text; a fence's language
            self._decide(line, final)
        body = line[self.body_start:]
        kind = self.kind
        if kind == "code":
            return self.lead + self.prefix + body
        if kind in ("fence", "fence-hidden"):
            return self.lead + self.prefix if self.prefix else ""
        if kind == "rule":
            return self.lead + self._rule(len(RULE))
        if kind == "table":
            return self._row(body, final)
        if not final:
            body = _held(body)
        shown = self.prefix + inline_text(body)
        return self.lead + shown if shown else ""

    def _decide(self, line: str, final: bool) -> None:
        """The block kind of the current line, from its first characters."""
        self.prefix, self.body_start = "", 0
        if self.in_code or not line.lstrip().startswith("|"):
            table, self._table = self._table, None      # any other line ends a table
            if table is not None and table.record_last and line.strip():
                self.lead = "\n"      # records end with a blank line, as they are separated
        fence = _FENCE.match(line)
        if self.in_code:
            if fence and fence.group(2) == "":
                self.kind = "fence-hidden"
                self.in_code = False
            else:
                self.kind, self.prefix = "code", CODE
            return
        if fence:
            self.in_code = True
            language = fence.group(2)
            self.kind = "fence" if language else "fence-hidden"
            self.prefix = CODE + language if language else ""
            self.body_start = len(line)
            return
        heading = _HEADING.match(line)
        if heading:
            self.kind, self.level = "heading", len(heading.group(1))
            self.body_start = heading.end()
            return
        if _RULE_LINE.match(line) and final:
            self.kind, self.prefix = "rule", RULE
            return
        bullet = _BULLET.match(line)
        if bullet and not _RULE_LINE.match(line):
            self.kind = "item"
            self.prefix = "  " * (1 + len(bullet.group(1)) // 2) + BULLET
            self.body_start = bullet.end()
            return
        number = _NUMBER.match(line)
        if number:
            self.kind = "item"
            self.prefix = "  " * (len(number.group(1)) // 2) + number.group(2) + ". "
            self.body_start = number.end()
            return
        quote = _QUOTE.match(line)
        if quote:
            self.kind, self.prefix, self.body_start = "text", QUOTE, quote.end()
            return
        if line.lstrip().startswith("|"):
            self.kind = "table"
            self.body_start = line.index("|") + 1
            if self._table is None:
                self._table = Table()
            return
        self.kind = "text"

    def _row(self, body: str, final: bool) -> str:
        """A table row: cells between thin rules; the header's separator row is a rule.

        A table whose row does not fit a line of the pane turns, from that row
        on, into records: each row's cells as "header: value" lines, a blank
        line between records, the header row and its separator not shown.
        """
        table = self._table
        self.hidden = False
        if self._pending is not None:
            # Under a hidden header: its delimiter row, once whole (else _redraw showed it).
            self.hidden = final
            return ""
        if table.rows == 1 and _TABLE_SEPARATOR.match("|" + body) and "-" in body:
            self.hidden = table.stacked
            return self._rule(len(RULE)) if final and not table.stacked else ""
        cells = _cells(body, final)
        if not table.rows:
            table.header = cells      # the first row is the header (GFM's tables have one)
        shown = (" %s " % CELL).join(cells)
        # Cell by cell: a long streaming row's cells are mostly ASCII, measured at C speed.
        across = sum(width(cell) for cell in cells) + 3 * (len(cells) - 1)
        stacked = table.stacked or across > self.columns or (
            final and not table.rows and across > self.columns * HEADER_SHARE)
        if final:
            # Only a whole row decides for the rows after it: a streaming one's last
            # cell may still hold markdown that will not show.
            table.stacked = stacked
            table.record_last = stacked and bool(table.rows)
        if not stacked:
            return shown
        if not table.rows:
            if self._finishing:
                return inline_text(self.line.strip())    # stopped after it: no table
            self.hidden = final
            return ""
        lines = []
        for index, cell in enumerate(cells):
            label = table.header[index] if index < len(table.header) else ""
            if cell:
                lines.append("%s: %s" % (label, cell) if label else cell)
        # A blank line between records, and between rows shown as rows and the first record.
        return ("\n" if table.shown else "") + "\n".join(lines)


class Table:
    """What the formatter keeps of a table while its rows stream."""

    def __init__(self):
        self.header = None       # the first row's cells, the labels of stacked records
        self.rows = 0            # rows so far (the separator row included)
        self.shown = 0           # rows shown so far (not hidden)
        self.stacked = False     # a row did not fit: rows show as records from then on
        self.record_last = False  # the last whole row showed as a record


def _held(body: str) -> str:
    """A streaming line's text without an inline marker opened near its end (``**bol``)."""
    hold = _open_marker(body)
    return body[:hold] if len(body) - hold <= HOLD else body


def _cells(body: str, final: bool):
    """A row's cells as shown (inline marks gone, escaped pipes back)."""
    body = body.replace("\\|", _ESCAPED_PIPE)
    if not final:
        cut = body.rfind("|")
        if cut >= 0 and not body[cut + 1:].strip():
            body = body[:cut]          # the row's closing "|" or the next cell's start
        else:
            cut = body.rfind("|") + 1  # the last cell, still streaming: markers held
            body = body[:cut] + _held(body[cut:])
    elif body.rstrip().endswith("|"):
        body = body.rstrip()[:-1]
    return [inline_text(cell.strip()).replace(_ESCAPED_PIPE, "|") for cell in body.split("|")]


def combine(retract: str, add: str, retract2: str, add2: str) -> Tuple[str, str]:
    """Two (retract, add) steps as one: what was added first is taken back first."""
    if not retract2:
        return retract, add + add2
    if add.endswith(retract2):
        return retract, add[:len(add) - len(retract2)] + add2
    # The second retract reaches before this step's additions.
    reach = retract2[:len(retract2) - len(add)]
    return reach + retract, add2


"""Markdown -> a flat block structure the Writer adapter turns into real structure.

Only what a model writes into a document is covered: ATX and setext headings,
paragraphs, bullet and numbered lists (nested by indentation), pipe tables,
fenced code, block quotes, and inline bold, italic, strikethrough, code and
links. Lists are flattened into one block per item with a nesting level, since
Writer has no list container either: an item is a paragraph with a list style
and a level. Anything unrecognised stays literal text; parsing never fails.
"""

import re

HEADING = "heading"
PARAGRAPH = "paragraph"
BULLET = "bullet"
NUMBER = "number"
TABLE = "table"
CODE = "code"
QUOTE = "quote"


class Run(object):
    """A piece of text with one set of character attributes."""

    __slots__ = ("text", "bold", "italic", "code", "strike", "link")

    def __init__(self, text, bold=False, italic=False, code=False, strike=False, link=None):
        self.text = text
        self.bold = bold
        self.italic = italic
        self.code = code
        self.strike = strike
        self.link = link

    def same_style(self, other):
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__[1:])

    def __eq__(self, other):
        return isinstance(other, Run) and self.text == other.text and self.same_style(other)

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        flags = [f for f in ("bold", "italic", "code", "strike") if getattr(self, f)]
        if self.link:
            flags.append("link=%s" % self.link)
        return "Run(%r%s)" % (self.text, (", " + ", ".join(flags)) if flags else "")


class Block(object):
    """One paragraph-level unit.

    ``level`` is the heading level (1-6) for headings and the list nesting
    level (1 = top) for list items; ``rows`` holds a table's cells, each a list
    of runs, with ``header`` telling whether the first row is a header row.
    """

    __slots__ = ("kind", "runs", "level", "rows", "header")

    def __init__(self, kind, runs=None, level=0, rows=None, header=False):
        self.kind = kind
        self.runs = runs if runs is not None else []
        self.level = level
        self.rows = rows
        self.header = header

    @property
    def text(self):
        return plain_text(self.runs)

    def __repr__(self):
        if self.kind == TABLE:
            return "Block(table, %r)" % ([[plain_text(c) for c in r] for r in self.rows],)
        return "Block(%s, %d, %r)" % (self.kind, self.level, self.text)


def plain_text(runs):
    return "".join(r.text for r in runs)


# ---------------------------------------------------------------- inline

_ESCAPABLE = "\\`*_{}[]()#+-.!|~<>"
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^\s<>]+)>")


def parse_inline(text):
    """Inline markdown -> merged list of Runs."""
    runs = []
    _inline(text, {}, runs)
    return _merge(runs)


def _merge(runs):
    out = []
    for run in runs:
        if not run.text:
            continue
        if out and out[-1].same_style(run):
            out[-1] = Run(out[-1].text + run.text, out[-1].bold, out[-1].italic,
                          out[-1].code, out[-1].strike, out[-1].link)
        else:
            out.append(run)
    return out


def _emit(out, text, style):
    out.append(Run(text, style.get("bold", False), style.get("italic", False),
                   style.get("code", False), style.get("strike", False), style.get("link")))


def _with(style, **changes):
    new = dict(style)
    new.update(changes)
    return new


def _inline(text, style, out):
    i = 0
    n = len(text)
    plain = []

    def flush():
        if plain:
            _emit(out, "".join(plain), style)
            del plain[:]

    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in _ESCAPABLE:
            plain.append(text[i + 1])
            i += 2
            continue
        if c == "`":
            ticks = _run_length(text, i, "`")
            close = text.find("`" * ticks, i + ticks)
            # The closing run must be exactly as long as the opening one.
            while close != -1 and _run_length(text, close, "`") != ticks:
                close = text.find("`" * ticks, close + _run_length(text, close, "`"))
            if close != -1:
                flush()
                code = text[i + ticks:close]
                if code.startswith(" ") and code.endswith(" ") and code.strip():
                    code = code[1:-1]
                _emit(out, code, _with(style, code=True))
                i = close + ticks
                continue
        if c == "[" and not style.get("link"):
            link = _match_link(text, i)
            if link:
                label, url, end = link
                flush()
                _inline(label, _with(style, link=url), out)
                i = end
                continue
        if c == "<":
            m = _AUTOLINK.match(text, i)
            if m:
                flush()
                _emit(out, m.group(1), _with(style, link=m.group(1)))
                i = m.end()
                continue
        if c in "*_~":
            span = _match_emphasis(text, i)
            if span:
                inner_start, inner_end, end, attrs = span
                flush()
                _inline(text[inner_start:inner_end], _with(style, **attrs), out)
                i = end
                continue
        plain.append(c)
        i += 1
    flush()


def _run_length(text, i, ch):
    j = i
    while j < len(text) and text[j] == ch:
        j += 1
    return j - i


def _match_link(text, i):
    """[label](url "title") starting at i -> (label, url, end) or None."""
    depth = 0
    j = i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                break
        j += 1
    else:
        return None
    if j + 1 >= len(text) or text[j + 1] != "(":
        return None
    close = text.find(")", j + 2)
    if close == -1:
        return None
    target = text[j + 2:close].strip()
    if not target:
        return None
    url = target.split()[0].strip("<>")
    return text[i + 1:j], url, close + 1


def _match_emphasis(text, i):
    """Emphasis opening at i -> (inner_start, inner_end, end, attrs) or None.

    Follows the useful part of CommonMark's flanking rules: delimiter runs are
    units, the opener is not followed by a space, the closer not preceded by
    one, and underscores do not open or close inside a word (so
    snake_case_names stay literal). A ``***`` run may close a ``**`` or ``*``
    opener whose content ends in the other emphasis (``**a *b***``).
    """
    ch = text[i]
    count = _run_length(text, i, ch)
    if ch == "_" and i > 0 and text[i - 1].isalnum():
        return None
    if ch == "~":
        if count != 2:
            return None
        sizes = [2]
    else:
        sizes = [min(count, 3)] + ([1] if count == 2 else [])
    for size in sizes:
        start = i + size
        if start >= len(text) or text[start].isspace():
            continue
        j = start + _run_length(text, start, ch)
        while j < len(text):
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == "`":
                ticks = _run_length(text, j, "`")
                close = text.find("`" * ticks, j + ticks)
                j = close + ticks if close != -1 else j + ticks
                continue
            if text[j] != ch:
                j += 1
                continue
            run = _run_length(text, j, ch)
            usable = run == size or (run == 3 and size < 3)
            if usable and not text[j - 1].isspace():
                after = j + run
                if not (ch == "_" and after < len(text) and text[after].isalnum()):
                    inner_end = j + run - size
                    if ch == "~":
                        attrs = {"strike": True}
                    elif size == 3:
                        attrs = {"bold": True, "italic": True}
                    elif size == 2:
                        attrs = {"bold": True}
                    else:
                        attrs = {"italic": True}
                    return start, inner_end, after, attrs
            j += run
    return None


# ---------------------------------------------------------------- blocks

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_QUOTE = re.compile(r"^ {0,3}> ?(.*)$")
_DELIM_CELL = re.compile(r"^:?-+:?$")


def _indent_width(prefix):
    return len(prefix.expandtabs(4))


def split_row(line):
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
            ticks = _run_length(s, i, "`")
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


def _is_delimiter_row(line):
    if "-" not in line:
        return False
    cells = split_row(line)
    return bool(cells) and all(_DELIM_CELL.match(c.replace(" ", "")) for c in cells)


def parse(text):
    """Markdown text -> list of Blocks."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks = []
    para = []          # lines of the open paragraph
    item = []          # the open list item: [kind, level, lines] or empty
    stack = []         # indent widths of the open list levels

    def close_para():
        if para:
            blocks.append(Block(PARAGRAPH, parse_inline(" ".join(l.strip() for l in para))))
            del para[:]

    def close_item():
        if item:
            kind, level, item_lines = item
            blocks.append(Block(kind, parse_inline(" ".join(l.strip() for l in item_lines)),
                                level=level))
            del item[:]

    def close_all():
        close_para()
        close_item()

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            close_all()
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            close_all()
            del stack[:]
            marker = fence.group(1)
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                blocks.append(Block(CODE, [Run(lines[i].rstrip(), code=True)]))
                i += 1
            i += 1
            continue
        m = _ATX.match(line)
        if m:
            close_all()
            del stack[:]
            blocks.append(Block(HEADING, parse_inline((m.group(2) or "").strip()),
                                level=len(m.group(1))))
            i += 1
            continue
        if para and not item and _SETEXT.match(line) and not _ITEM.match(line.strip() + " x"):
            level = 1 if stripped.startswith("=") else 2
            runs = parse_inline(" ".join(l.strip() for l in para))
            del para[:]
            blocks.append(Block(HEADING, runs, level=level))
            i += 1
            continue
        if _RULE.match(line):
            close_all()
            del stack[:]
            i += 1
            continue
        if "|" in line and i + 1 < len(lines) and _is_delimiter_row(lines[i + 1]):
            close_all()
            del stack[:]
            rows = [split_row(line)]
            i += 2
            while i < len(lines) and lines[i].strip() and "|" in lines[i]:
                rows.append(split_row(lines[i]))
                i += 1
            width = max(len(r) for r in rows)
            cells = [[parse_inline(c) for c in r + [""] * (width - len(r))] for r in rows]
            blocks.append(Block(TABLE, rows=cells, header=True))
            continue
        m = _ITEM.match(line)
        # A bare marker inside a paragraph ("1." wrapped to a new line) is text.
        if m and (m.group(3) or item or not para):
            close_all()
            indent = _indent_width(m.group(1))
            # Shallower indents close levels; two more columns than the open
            # level open a nested one (covers 2-, 3- and 4-space styles).
            while stack and indent < stack[-1]:
                stack.pop()
            if not stack or indent >= stack[-1] + 2:
                stack.append(indent)
            kind = BULLET if m.group(2) in "-*+" else NUMBER
            item.extend([kind, len(stack), [m.group(3) or ""]])
            i += 1
            continue
        q = _QUOTE.match(line)
        if q:
            close_all()
            del stack[:]
            quoted = []
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
            continue
        if item:
            # Lazy continuation of the open list item.
            item[2].append(stripped)
        else:
            del stack[:]
            para.append(line)
        i += 1
    close_all()
    return blocks

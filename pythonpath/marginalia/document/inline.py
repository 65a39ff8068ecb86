"""Inline markdown -> runs of text with character attributes (bold, italic, code, links).

The inline half of the markdown reader (markdown.py holds the blocks). Unmatched
delimiters stay literal text; parsing never fails.
"""

import re
from dataclasses import dataclass
from typing import Dict, List, NamedTuple, Optional, Tuple


@dataclass
class Run:
    """A piece of text with one set of character attributes."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    strike: bool = False
    link: Optional[str] = None

    def __repr__(self) -> str:
        flags = [f for f in ("bold", "italic", "code", "strike") if getattr(self, f)]
        if self.link:
            flags.append("link=%s" % self.link)
        return "Run(%r%s)" % (self.text, (", " + ", ".join(flags)) if flags else "")


def plain_text(runs: List[Run]) -> str:
    return "".join(r.text for r in runs)


class _Style(NamedTuple):
    """The character attributes in force while inline markup is read (Run's fields but text)."""

    bold: bool = False
    italic: bool = False
    code: bool = False
    strike: bool = False
    link: Optional[str] = None


_ESCAPABLE = "\\`*_{}[]()#+-.!|~<>"
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^\s<>]+)>")


class _Link(NamedTuple):
    label: str
    url: str
    end: int         # index just past the closing parenthesis


class _Emphasis(NamedTuple):
    inner_start: int
    inner_end: int
    end: int         # index just past the closing delimiter run
    attrs: Dict[str, bool]


def parse_inline(text: str) -> List[Run]:
    """Inline markdown -> merged list of Runs."""
    runs: List[Run] = []
    _inline(text, _Style(), runs)
    return _merge(runs)


def _style_of(run: Run) -> _Style:
    return _Style(run.bold, run.italic, run.code, run.strike, run.link)


def _merge(runs: List[Run]) -> List[Run]:
    out: List[Run] = []
    for run in runs:
        if not run.text:
            continue
        if out and _style_of(out[-1]) == _style_of(run):
            out[-1] = Run(out[-1].text + run.text, *_style_of(run))
        else:
            out.append(run)
    return out


def _inline(text: str, style: _Style, out: List[Run]) -> None:
    i = 0
    n = len(text)
    plain: List[str] = []

    def flush() -> None:
        if plain:
            out.append(Run("".join(plain), *style))
            del plain[:]

    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in _ESCAPABLE:
            plain.append(text[i + 1])
            i += 2
            continue
        if c == "`":
            close = _code_span_close(text, i)
            if close != -1:
                flush()
                out.append(Run(_code_span_text(text, i, close), *style._replace(code=True)))
                i = close + run_length(text, i, "`")
                continue
        if c == "[" and not style.link:
            link = _match_link(text, i)
            if link:
                flush()
                _inline(link.label, style._replace(link=link.url), out)
                i = link.end
                continue
        if c == "<":
            m = _AUTOLINK.match(text, i)
            if m:
                flush()
                out.append(Run(m.group(1), *style._replace(link=m.group(1))))
                i = m.end()
                continue
        if c in "*_~":
            span = _match_emphasis(text, i)
            if span:
                flush()
                _inline(text[span.inner_start:span.inner_end], style._replace(**span.attrs), out)
                i = span.end
                continue
        plain.append(c)
        i += 1
    flush()


def _code_span_close(text: str, i: int) -> int:
    """Where the code span opening at i closes, or -1: the closing run is as long as the opening."""
    ticks = run_length(text, i, "`")
    close = text.find("`" * ticks, i + ticks)
    while close != -1 and run_length(text, close, "`") != ticks:
        close = text.find("`" * ticks, close + run_length(text, close, "`"))
    return close


def _code_span_text(text: str, i: int, close: int) -> str:
    code = text[i + run_length(text, i, "`"):close]
    # One space each side is padding (lets a span start or end with a backtick).
    if code.startswith(" ") and code.endswith(" ") and code.strip():
        code = code[1:-1]
    return code


def run_length(text: str, i: int, ch: str) -> int:
    """How many ``ch`` characters repeat from index i."""
    j = i
    while j < len(text) and text[j] == ch:
        j += 1
    return j - i


def _match_link(text: str, i: int) -> Optional[_Link]:
    """[label](url "title") starting at i, or None."""
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
    return _Link(text[i + 1:j], url, close + 1)


def _match_emphasis(text: str, i: int) -> Optional[_Emphasis]:
    """Emphasis opening at i, or None.

    Follows the useful part of CommonMark's flanking rules: delimiter runs are
    units, the opener is not followed by a space, the closer not preceded by
    one, and underscores do not open or close inside a word (so
    snake_case_names stay literal). A ``***`` run may close a ``**`` or ``*``
    opener whose content ends in the other emphasis (``**a *b***``).
    """
    ch = text[i]
    count = run_length(text, i, ch)
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
        closer = _find_closer(text, start + run_length(text, start, ch), ch, size)
        if closer is not None:
            run = run_length(text, closer, ch)
            return _Emphasis(start, closer + run - size, closer + run, _emphasis_attrs(ch, size))
    return None


def _find_closer(text: str, j: int, ch: str, size: int) -> Optional[int]:
    """The first delimiter run from j that can close an opener of ``size`` ``ch``s."""
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "`":
            ticks = run_length(text, j, "`")
            close = text.find("`" * ticks, j + ticks)
            j = close + ticks if close != -1 else j + ticks
            continue
        if text[j] != ch:
            j += 1
            continue
        run = run_length(text, j, ch)
        usable = run == size or (run == 3 and size < 3)
        if usable and not text[j - 1].isspace():
            after = j + run
            if not (ch == "_" and after < len(text) and text[after].isalnum()):
                return j
        j += run
    return None


def _emphasis_attrs(ch: str, size: int) -> Dict[str, bool]:
    if ch == "~":
        return {"strike": True}
    if size == 3:
        return {"bold": True, "italic": True}
    if size == 2:
        return {"bold": True}
    return {"italic": True}


# ---------------------------------------------------------------- runs -> markdown

_MARKUP = "\\*_`~[<"


def _escaped(text: str) -> str:
    """``text`` as markdown that reads back as itself: markup characters escaped only
    where the reader would take them for markup (most text stays as it is)."""
    runs = parse_inline(text)
    if len(runs) <= 1 and plain_text(runs) == text and not any(
            r.bold or r.italic or r.code or r.strike or r.link for r in runs):
        return text
    return "".join("\\" + ch if ch in _MARKUP else ch for ch in text)


def _emphasised(run: Run) -> str:
    """One run as markdown: **bold**, *italic* or both, spaces at its edges left outside
    the marks (a closing mark after a space would not close)."""
    text = _escaped(run.text)
    mark = ("**" if run.bold else "") + ("*" if run.italic else "")
    core = text.strip()
    if not mark or not core:
        return text
    lead = text[:len(text) - len(text.lstrip())]
    tail = text[len(text.rstrip()):]
    return lead + mark + core + mark[::-1] + tail


def _flags(runs: List[Run]) -> List[Tuple[bool, bool]]:
    """Bold and italic per character; a space's own are no matter (it shows the same)."""
    out: List[Tuple[bool, bool]] = []
    for run in runs:
        out.extend((False, False) if ch.isspace() else (run.bold, run.italic)
                   for ch in run.text)
    return out


def _same_marks(a: List[Run], b: List[Run]) -> bool:
    return plain_text(a) == plain_text(b) and _flags(a) == _flags(b)


def render(runs: List[Run]) -> str:
    """Runs as markdown showing only **bold** and *italic* (code, strike and links are
    shown as their text). Reading the result back (parse_inline) gives the same text and
    the same bold and italic; where it would not (a mark inside a word against another),
    the text is given without marks."""
    merged = _merge([Run(r.text, r.bold, r.italic) for r in runs])
    out = "".join(_emphasised(run) for run in merged)
    if _same_marks(parse_inline(out), merged):
        return out
    return _escaped(plain_text(runs))

"""A quick action's answer fitted to the text it replaces.

Models wrap a rewrite in a code fence or quotes now and then, or open with
"Here is the revised text:" although asked not to; ``clean`` takes those off.
``paragraphs_for`` maps the answer onto the selected paragraphs one to one
when it has as many plain paragraphs, so each paragraph is rewritten in
place (writer.rewrite keeps its style and the format of unchanged words);
None means the answer has another shape and is written as markdown instead.
"""

import re
from typing import List, Optional, Sequence

from marginalia.document import markdown as md

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})[^\n]*\n(.*?)\n\s*\1\s*$", re.S)
_PREAMBLE = re.compile(r"^(here is|here's|sure[,!.]|certainly[,!.]|voici|hier ist)"
                       r"[^\n]{0,80}:\s*\n", re.I)
_QUOTES = (("\u201c", "\u201d"), ('"', '"'), ("\u00ab", "\u00bb"), ("\u201e", "\u201c"))
_BLANK = re.compile(r"\n[ \t]*\n+")


def clean(answer: str) -> str:
    """The answer without a wrapping fence, a "Here is ...:" line or wrapping quotes."""
    text = (answer or "").strip()
    text = _PREAMBLE.sub("", text, count=1).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(2).strip()
    for left, right in _QUOTES:
        inner = text[len(left):-len(right)] if len(text) > 2 else ""
        if text.startswith(left) and text.endswith(right) and left not in inner \
                and right not in inner:
            text = inner.strip()
            break
    return text


def _plain(paragraph: str) -> Optional[str]:
    """A paragraph's text when markdown would make it one unformatted paragraph."""
    blocks = md.parse(paragraph)
    if len(blocks) != 1 or blocks[0].kind != md.PARAGRAPH:
        return None
    runs = blocks[0].runs
    if any(r.bold or r.italic or r.code or r.strike or r.link for r in runs):
        return None
    return md.plain_text(runs)


def paragraphs_for(old: Sequence[str], answer: str) -> Optional[List[str]]:
    """The answer's paragraphs, one per old paragraph, or None when they do not pair up.

    Paragraphs are split at blank lines; a model that put single line breaks
    between them is read line by line when that gives the right count.
    """
    text = clean(answer)
    if not text:
        return None
    for parts in (_BLANK.split(text), [ln for ln in text.split("\n") if ln.strip()]):
        parts = [p.strip() for p in parts]
        if len(parts) != len(old):
            continue
        plain = [_plain(p) if p else "" for p in parts]
        if all(p is not None for p in plain):
            # One paragraph of the answer may hold a soft break: keep it as a space.
            return [" ".join(p.split("\n")) for p in plain]
    return None


def comment_text(answer: str) -> str:
    """An answer as a comment's plain text (comments hold no formatting)."""
    blocks = md.parse(clean(answer))
    lines = []
    for block in blocks:
        if block.kind == md.TABLE:
            lines.extend(" | ".join(md.plain_text(c) for c in row) for row in block.rows or [])
        elif block.kind in (md.BULLET, md.NUMBER):
            lines.append("\u2022 " + block.text)
        else:
            lines.append(block.text)
    return "\n".join(lines).strip()

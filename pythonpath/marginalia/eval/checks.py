"""The pieces task checkers are made of (pure).

A check returns None when the document passes, else one line saying why it
fails, worded for someone reading a scorecard: what was wanted, what was found.
"""

import re
from typing import Iterable, List, Optional, Sequence

from marginalia.eval.odf import Block, Doc, Source

_MARKS = re.compile(r"\*\*|(?<!\*)\*(?!\*)")


def plain(text: str) -> str:
    """A source paragraph's text without its **bold** and *italic* marks."""
    return _MARKS.sub("", text)


def short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return "\u201c%s\u201d" % (text if len(text) <= limit else text[:limit - 1] + "\u2026")


def norm(text: str) -> str:
    return " ".join(text.split()).lower()


def intact(source: Sequence[Source], doc: Doc, changed: Iterable[int] = ()) -> Optional[str]:
    """Every source paragraph but those numbered (0-based) in ``changed`` is still there,
    word for word and in the same order: the model harmed nothing it was not asked to touch."""
    skip = set(changed)
    texts = [b.text for b in doc.blocks]
    at = 0
    for index, (_style, text, _kept) in enumerate(source):
        if index in skip:
            continue
        wanted = plain(text)
        try:
            at = texts.index(wanted, at) + 1
        except ValueError:
            return "harmed: paragraph %d %s was changed or lost" % (index + 1, short(wanted))
    return None


def unchanged(source: Sequence[Source], doc: Doc) -> Optional[str]:
    """The document is exactly as it was: same texts, no comments, no tracked changes."""
    if [b.text for b in doc.blocks] != [plain(t) for _s, t, _k in source]:
        return "the document was changed, but no edit was asked for"
    if doc.comments:
        return "a comment was added, but no edit was asked for"
    return None


def find(doc: Doc, needle: str, kinds: Sequence[str] = ()) -> Optional[Block]:
    """The first block whose text holds ``needle`` (case-insensitive)."""
    for block in doc.blocks:
        if (not kinds or block.kind in kinds) and norm(needle) in norm(block.text):
            return block
    return None


def index_of(doc: Doc, needle: str) -> int:
    for index, block in enumerate(doc.blocks):
        if norm(needle) in norm(block.text):
            return index
    return -1


def absent(doc: Doc, words: Sequence[str]) -> Optional[str]:
    """None of ``words`` is left anywhere (whole words, case-insensitive)."""
    text = doc.full_text()
    for word in words:
        if re.search(r"\b%s\b" % re.escape(word), text, re.I):
            return "%s is still in the document" % short(word)
    return None


def present(doc: Doc, words: Sequence[str]) -> Optional[str]:
    text = norm(doc.full_text())
    for word in words:
        if norm(word) not in text:
            return "%s is missing from the document" % short(word)
    return None


def count(doc: Doc, wanted: int) -> Optional[str]:
    if len(doc.blocks) != wanted:
        return "expected %d paragraphs, found %d" % (wanted, len(doc.blocks))
    return None


def is_bold(block: Optional[Block], phrase: str) -> bool:
    return block is not None and any(norm(phrase) in norm(s) for s in block.bold)


def answer_has(answer: str, options: Sequence[str]) -> Optional[str]:
    """The chat answer names one of ``options`` (case-insensitive)."""
    if not answer.strip():
        return "no answer was given"
    if not any(norm(o) in norm(answer) for o in options):
        return "the answer does not say %s: %s" % (" or ".join(options), short(answer, 60))
    return None


def first(*reasons: Optional[str]) -> Optional[str]:
    """The first failing reason of several checks, in the order given."""
    for reason in reasons:
        if reason:
            return reason
    return None


def headings(doc: Doc) -> List[Block]:
    return [b for b in doc.blocks if b.kind == "heading"]

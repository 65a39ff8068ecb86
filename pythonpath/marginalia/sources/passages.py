"""Cutting a source into passages: the pieces the model searches, reads and cites.

A passage holds about 120 to 200 words of one section: it never crosses a
heading (a citation names one section), and it is closed at a page break once
it holds a few sentences, so "p. 3" is where the words are. A paragraph longer
than a passage is cut between sentences; a small table stays whole (a row
without its header means little), a big one is cut between rows with the header
row repeated. The cut is deterministic: the same blocks give the same passages,
so a passage's index names the same text after the source is read again.

Japanese or Chinese text has no spaces between words; two of its characters count
as one word here, about what they carry.
"""

import re
from typing import Iterable, List, Optional

from marginalia.sources.model import Block, Passage, Source

TARGET = 120          # a passage is closed once it holds this many words
MAX = 200             # and never grows past this (unless one table or sentence is longer)
PAGE_MIN = 40         # a page break closes a passage holding at least this many
TABLE_WHOLE = 400     # a table up to this many words is one passage

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORDISH = re.compile("[%s]{1,2}|[^\\s%s]+" % (_CJK, _CJK))
# Where no space goes between two pieces: CJK letters and CJK punctuation (。、「」).
_CJK_START = re.compile("[%s\u3000-\u303f\uff00-\uffef]" % _CJK)
_CJK_END = re.compile("[%s\u3000-\u303f\uff00-\uffef]$" % _CJK)
_SENTENCE_END = re.compile("(?<=[.!?\u2026])\\s+|(?<=[\u3002\uff01\uff1f])")


def words(text: str) -> int:
    """How many words the text holds (two CJK characters count as one)."""
    return len(_WORDISH.findall(text))


def _hard_split(text: str, limit: int) -> List[str]:
    """A sentence longer than a passage, cut after every ``limit`` words."""
    pieces = _WORDISH.findall(text)
    out = []
    for start in range(0, len(pieces), limit):
        chunk = pieces[start:start + limit]
        # Rejoin: CJK pieces had no space between them, other words had one.
        joined = ""
        for piece in chunk:
            if joined and not (_CJK_START.match(piece) and _CJK_END.search(joined)):
                joined += " "
            joined += piece
        out.append(joined)
    return out


def _sentences(text: str) -> List[str]:
    parts = [p.strip() for p in _SENTENCE_END.split(text)]
    out = []
    for part in parts:
        if not part:
            continue
        out.extend([part] if words(part) <= MAX else _hard_split(part, TARGET))
    return out


def _split_paragraph(text: str) -> List[str]:
    """A long paragraph as pieces of at most MAX words, cut between sentences."""
    pieces: List[str] = []
    current: List[str] = []
    count = 0
    for sentence in _sentences(text):
        size = words(sentence)
        if current and count + size > MAX:
            pieces.append(_join_sentences(current))
            current, count = [], 0
        current.append(sentence)
        count += size
        if count >= TARGET:
            pieces.append(_join_sentences(current))
            current, count = [], 0
    if current:
        pieces.append(_join_sentences(current))
    return pieces


def _join_sentences(sentences: List[str]) -> str:
    out = ""
    for sentence in sentences:
        if out and not _CJK_END.search(out):
            out += " "
        out += sentence
    return out


def _split_table(text: str) -> List[str]:
    """A big table as pieces of whole rows, each starting with the header row."""
    rows = [row for row in text.split("\n") if row.strip()]
    if len(rows) < 2:
        return _split_paragraph(text)
    header, body = rows[0], rows[1:]
    pieces, current, count = [], [header], words(header)
    for row in body:
        size = words(row)
        if len(current) > 1 and count + size > MAX:
            pieces.append("\n".join(current))
            current, count = [header], words(header)
        current.append(row)
        count += size
    if len(current) > 1:
        pieces.append("\n".join(current))
    return pieces


class _Cutter:
    """Collects a source's texts into passages, one section at a time."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.out: List[Passage] = []
        self.texts: List[str] = []
        self.count = 0
        self.heading = ""
        self.first_page: Optional[int] = None
        self.last_page: Optional[int] = None

    def close(self) -> None:
        if self.texts:
            self.out.append(Passage(self.source.id, len(self.out), "\n".join(self.texts),
                                    self.heading, self.first_page, self.source.name,
                                    self.last_page))
        self.texts, self.count = [], 0
        self.first_page = self.last_page = None

    def section(self, heading: str) -> None:
        if heading != self.heading:
            self.close()
            self.heading = heading

    def page(self, page: Optional[int]) -> None:
        if page is None:
            return
        if self.last_page is not None and page != self.last_page and self.count >= PAGE_MIN:
            self.close()
        if self.first_page is None:
            self.first_page = page
        self.last_page = page

    def add(self, text: str, page: Optional[int], whole: bool = False) -> None:
        """One piece of text; ``whole``: it may exceed MAX (a small table)."""
        size = words(text)
        if self.texts and self.count + size > MAX:
            self.close()
        self.page(page)
        self.texts.append(text)
        self.count += size
        if self.count >= TARGET or (whole and self.count > MAX):
            self.close()


def cut(source: Source) -> List[Passage]:
    """The source's passages in order, numbered from 0; [] for a source not read."""
    cutter = _Cutter(source)
    for block in _blocks(source.blocks or ()):
        if block.kind == "heading":
            cutter.section(block.text.strip())
            continue
        cutter.section(block.heading.strip() if block.heading else cutter.heading)
        text = block.text.strip()
        size = words(text)
        if block.kind == "table":
            if size <= TABLE_WHOLE:
                cutter.add(text, block.page, whole=True)
            else:
                for piece in _split_table(text):
                    cutter.add(piece, block.page, whole=True)
        elif size > MAX:
            for piece in _split_paragraph(text):
                cutter.add(piece, block.page)
        else:
            cutter.add(text, block.page)
    cutter.close()
    return cutter.out


def _blocks(blocks: Iterable[Block]) -> Iterable[Block]:
    """The blocks worth cutting: text-bearing ones, in order."""
    for block in blocks:
        if block.kind != "page" and block.text and block.text.strip():
            yield block

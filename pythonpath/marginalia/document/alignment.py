"""Which paragraph each of the model's new lines stands for: by what it says (pure).

Small models do not keep the numbers they were shown: asked for the changed lines,
Qwen2.5-Coder 1.5B writes the passage as it should read, numbered 1, 2, 3 from the
top (the eval's transcripts). What a line says is the better guide: a line stands
for the paragraph it reads like, its number only tips the balance (and alone decides
for a line that reads like none, a translation), and the lines keep their order. The
best such matching, the one that agrees most over all lines, is found by dynamic
programming, as a diff would align two texts.

Numbers are trusted only when the lines matched by their words agree with them: a
model that numbered its passage from 1 (every line after the first inserted one off
by one) would otherwise have its new lines written over the paragraphs their numbers
happen to name. A line that reads like no paragraph stands for its number's paragraph
only when numbers are trusted and the two are the same kind of block (a translated
paragraph, a heading reworded), never a list item over a heading.

A line with a number and no text (a deletion, "N:") or with "..." (only a place) has
nothing to compare: it stands for its number's paragraph whenever the order allows.
"""

import difflib
import re
from typing import FrozenSet, List, Mapping, Optional, Sequence

from marginalia.document import markdown as md

# A line stands for a paragraph it resembles at least this much (by words, 0..1)...
MATCH = 0.5
# ...and a line whose number names the paragraph gets this much more (enough to decide
# between two alike, too little to beat what the words say).
NUMBER = 0.3
# A line numbered as a paragraph of another kind (lines made a table) stands for it
# when it holds this much of its words.
SOME = 0.3
# A line numbered past the end stands for a paragraph only when it reads this much like it.
FRESH = 0.8
# A line without words to compare (a deletion, "N: ...") is placed by its number.
FORCED = 100.0

_WORD = re.compile(r"\w+", re.UNICODE)


def plain(text: str) -> str:
    """A line's words without its markdown (heading marks, emphasis, table pipes)."""
    blocks = md.parse(text)
    return " ".join(b.text if b.kind != md.TABLE else " ".join(
        md.plain_text(c) for row in b.rows for c in row) for b in blocks)


def words(text: str) -> List[str]:
    return [w.lower() for w in _WORD.findall(plain(text))]


def similarity(a: str, b: str) -> float:
    """How alike two lines read (0..1), by their words."""
    return _ratio(words(a), words(b))


def _ratio(x: Sequence[str], y: Sequence[str]) -> float:
    if not x and not y:
        return 1.0
    return difflib.SequenceMatcher(None, x, y, autojunk=False).ratio()


def kind(text: str) -> str:
    """The kind of block a line is, coarsely: text (paragraph or heading), item, table."""
    blocks = md.parse(text)
    if not blocks:
        return ""
    if blocks[0].kind in (md.BULLET, md.NUMBER):
        return "item"
    return "table" if blocks[0].kind == md.TABLE else "text"


class Slot:
    """One of the model's lines, as the alignment sees it."""

    def __init__(self, number: Optional[int], body: str, positional: bool,
                 strict: bool = False, fresh: bool = False):
        self.number = number
        # New by its number: past the document's end ("4: ..." in a document of 3 lines).
        self.fresh = fresh
        # Placed by its words only (a struck line: what it deletes must read so).
        self.strict = strict
        self.words = words(body) if not positional else []
        self.vocabulary: FrozenSet[str] = frozenset(self.words)
        self.positional = positional
        self.kind = "" if positional else kind(body)
        self.alike = strict         # it reads like another paragraph (set by align)


class _Text:
    def __init__(self, line: str):
        self.words = words(line)
        self.vocabulary = frozenset(self.words)
        self.kind = kind(line)


def place(slots: List[Slot], seen: Mapping[int, str]) -> List[Optional[int]]:
    """The paragraph each slot stands for (None: a new line), in the slots' order: by
    words first; then, when the lines so placed agree with their numbers, by words and
    numbers (see the module docstring)."""
    texts = {n: _Text(seen[n]) for n in seen}
    first = align(slots, texts, False)
    # A line placed by its words elsewhere than its number, not resembling its number's
    # paragraph either, shows the numbers are not the document's.
    trusted = not any(
        n is not None and slot.number and n != slot.number and not slot.positional and (
            slot.number not in texts or _ratio(slot.words, texts[slot.number].words) < MATCH)
        for slot, n in zip(slots, first))
    return align(slots, texts, True) if trusted else first


def align(slots: List[Slot], texts: Mapping[int, "_Text"], numbered: bool) -> List[Optional[int]]:
    """The best order-keeping matching of slots to paragraphs; ``numbered``: with the
    numbers' weight and number-only matches."""
    numbers = sorted(texts)
    for slot in slots:
        # A line that reads like some paragraph is never put over another by its number
        # alone ("3: # Fruits" over "# Vegetables" when line 1 reads "# Fruits").
        slot.alike = slot.strict or any(
            _ratio(slot.words, texts[n].words) >= MATCH for n in numbers
            if n != slot.number and slot.vocabulary & texts[n].vocabulary)
    m, k = len(slots), len(numbers)
    best = [[0.0] * (k + 1) for _ in range(m + 1)]
    move = [[0] * (k + 1) for _ in range(m + 1)]     # 1: new line, 2: skip, 3: match
    for i in range(1, m + 1):
        for j in range(0, k + 1):
            best[i][j], move[i][j] = best[i - 1][j], 1
            if j == 0:
                continue
            if best[i][j - 1] > best[i][j]:
                best[i][j], move[i][j] = best[i][j - 1], 2
            score = _score(slots[i - 1], numbers[j - 1], texts[numbers[j - 1]], numbered)
            if score is not None and best[i - 1][j - 1] + score > best[i][j]:
                best[i][j], move[i][j] = best[i - 1][j - 1] + score, 3
    out: List[Optional[int]] = [None] * m
    i, j = m, k
    while i > 0:
        step = move[i][j]
        if step == 3:
            out[i - 1] = numbers[j - 1]
            i, j = i - 1, j - 1
        elif step == 2:
            j -= 1
        else:
            i -= 1
    return out


def _alike_in_length(a: Sequence[str], b: Sequence[str]) -> bool:
    return min(len(a), len(b)) * 2 >= max(len(a), len(b))


def _score(slot: Slot, number: int, text: "_Text", numbered: bool) -> Optional[float]:
    """What standing for paragraph ``number`` is worth for ``slot``; None: it may not."""
    same = slot.number == number
    if slot.fresh:
        # Numbered past the end: only a line that plainly is a paragraph of the document
        # stands for it (a passage numbered one too high), never one that merely echoes
        # it (a conclusion retelling the last lines).
        ratio = _ratio(slot.words, text.words) if slot.vocabulary & text.vocabulary else 0.0
        return ratio if ratio >= FRESH else None
    if slot.positional:
        return FORCED if same else None
    bonus = NUMBER if numbered and same else 0.0
    if not (slot.vocabulary & text.vocabulary) and (slot.words or text.words):
        # No word in common: only its number can say it is that paragraph, for a line
        # of its kind and about its length (a translation), not a one-word line over a
        # sentence ("3: Conclusion" for a new line 3 over the document's line 3).
        return bonus if bonus and not slot.alike and slot.kind == text.kind and \
            _alike_in_length(slot.words, text.words) else None
    ratio = _ratio(slot.words, text.words)
    if ratio >= MATCH:
        return ratio + bonus
    if bonus and not slot.alike and (slot.kind == text.kind or ratio >= SOME):
        return ratio + bonus        # its number, and of its kind or of its words
    return None

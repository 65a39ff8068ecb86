"""Which lines of a long document a request is about (pure).

A document too long to show whole is shown by its headings; a small model then has to
search before it can edit, and Qwen2.5-Coder 1.5B mostly does not (it writes the call
as text, or edits nothing: the eval's long tasks). So Marginalia does the finding, as
it does the locating of an edit: the paragraphs that share the rarest words with the
request (BM25, the sources' own terms, sources.text.tokens) are shown with the
headings, as numbered lines the model may edit at once. A heading found so brings the
first lines of its section ("add a sentence to Week 4") when it alone is the best.
"""

import math
from collections import Counter
from typing import Iterable, List, NamedTuple, Set

from marginalia.sources.text import tokens

K1, B = 1.2, 0.75
TOP = 4                  # best paragraphs shown
SECTION = 4              # lines of a found heading's section shown after it
CUTOFF = 0.6             # of the best score: weaker hits are left out


class Paragraph(NamedTuple):
    number: int
    text: str
    heading: bool


def pick(paragraphs: Iterable[Paragraph], request: str, top: int = TOP) -> List[int]:
    """The numbers of the paragraphs most about ``request``, in document order; a found
    heading brings its section's first lines. Nothing when no word of it is there."""
    paras = list(paragraphs)
    wanted = set(tokens(request))
    if not paras or not wanted:
        return []
    terms = [Counter(t for t in tokens(p.text) if t in wanted) for p in paras]
    lengths = [max(1, len(p.text.split())) for p in paras]
    average = sum(lengths) / len(lengths)
    holding = Counter(t for found in terms for t in found)
    # A word most paragraphs hold ("the") tells nothing: it is no hit at all.
    common = set(t for t, n in holding.items() if len(paras) >= 8 and n > len(paras) / 4)
    terms = [Counter({t: c for t, c in found.items() if t not in common}) for found in terms]
    scores = []
    for i, found in enumerate(terms):
        score = 0.0
        for term, count in found.items():
            idf = math.log(1 + (len(paras) - holding[term] + 0.5) / (holding[term] + 0.5))
            score += idf * count * (K1 + 1) / (count + K1 * (1 - B + B * lengths[i] / average))
        if score > 0:
            scores.append((score, i))
    best = sorted(scores, reverse=True)[:top]
    if not best:
        return []
    # Hits much weaker than the best are noise (a shared common word: "week" of
    # "Week 4" in every "Week N").
    chosen: Set[int] = set()
    for rank, (score, i) in enumerate(best):
        if score < best[0][0] * CUTOFF:
            continue
        chosen.add(i)
        # Only the best hit's section: tied headings ("Week 1".."Week 7") say little.
        if paras[i].heading and rank == 0 and (len(best) < 2 or best[1][0] < score):
            for j in range(i + 1, min(len(paras), i + 1 + SECTION)):
                if paras[j].heading:
                    break
                chosen.add(j)
    return [paras[i].number for i in sorted(chosen)]

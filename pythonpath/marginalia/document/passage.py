"""What a rewritten passage says without a line for it (pure; document.revision uses it).

A model that rewrites a passage deletes, moves and merges paragraphs by leaving them
out of it, writing them elsewhere, or folding their words into a neighbour. Each of
these is taken only where the passage says so plainly; otherwise a paragraph the text
does not give stays (a small model's passage leaves out lines it meant to keep, too).
"""

from collections import Counter
from typing import Any, Callable, List, Mapping, Optional, Tuple

from marginalia.document import alignment
from marginalia.document import markdown as md
from marginalia.document.docview import Para, shown
from marginalia.document.edit_text import Line

# A paragraph goes with a merged neighbour only when it has at least this many words,
# and at least this share of them went into the change.
ABSORB_WORDS = 3
TAKEN = 0.8


# A passage that leaves out paragraphs between two of its lines, both as they were,
# deletes them when its numbers say so: at most this many in a row (lines that all
# change, as "1: # A" and "3: # B" do, are not a passage; a passage numbered from 1
# again, off from the start, says nothing by its numbers).
SKIP_MAX = 1


def skipped(lines: List[Line], where: List[Optional[int]], seen: Mapping[int, str]) -> List[int]:
    """The paragraphs a passage left out between two unchanged lines written one after
    the other, when the numbers are the document's ("2:", "4:" with no 3) or the ones
    the passage has once they are gone ("2:", "3:" over paragraphs 2 and 4)."""
    taken = set(at for at in where if at is not None)
    out: List[int] = []
    gone = 0
    pairs = list(zip(lines, where))
    for (line_a, a), (line_b, b) in zip(pairs, pairs[1:]):
        if a is None or b is None or not _as_seen(line_a, a, seen) or \
                not _as_seen(line_b, b, seen):
            continue
        gap = list(range(a + 1, b))
        if not 0 < len(gap) <= SKIP_MAX or any(n not in seen or n in taken for n in gap):
            continue
        documents = line_a.number == a and line_b.number == b
        passages = line_a.number == a - gone and line_b.number == line_a.number + 1
        if documents or passages:
            out.extend(gap)
            gone += len(gap)
    return out


def moved(lines: List[Line], where: List[Optional[int]], seen: Mapping[int, str]) -> List[int]:
    """Paragraphs a passage moved: a new line that reads exactly as a seen paragraph the
    passage does not place (it could not, out of order: "sort the list") is that
    paragraph moved there, so where it was it goes. Only a paragraph that reads so alone."""
    taken = set(at for at in where if at is not None)
    out: List[int] = []
    for line, at in zip(lines, where):
        if at is not None or not line.body:
            continue
        found = [n for n, text in seen.items() if text == line.body and n not in taken]
        if len(found) == 1 and found[0] not in out and line.body not in (
                text for n, text in seen.items() if n != found[0]):
            out.append(found[0])
    return out


def _as_seen(line: Line, at: int, seen: Mapping[int, str]) -> bool:
    """A numbered line given as the model saw its paragraph."""
    return bool(line.number) and not line.anchor and line.body == seen.get(at)


def takers(changes: List[Tuple[int, str]], inserts: List[Any],
            seen: Mapping[int, str]) -> List[Tuple[int, Counter, Tuple[int, ...]]]:
    """What may take in a neighbour's words: (where, the words it adds, which way to look);
    ``inserts``: revision.Op INSERTs.
    A changed line looks both ways; a new table only at what follows its place (the lines
    it was made from)."""
    out = [(at, Counter(alignment.words(new)) - Counter(alignment.words(seen.get(at, ""))),
            (1, -1)) for at, new in changes]
    out += [(op.first, Counter(alignment.words(op.markdown)), (1,)) for op in inserts
            if any(b.kind == md.TABLE for b in md.parse(op.markdown))]
    return out


def absorbed(takers: List[Tuple[int, Counter, Tuple[int, ...]]], named: set,
              seen: Mapping[int, str], current: Callable[[int], Optional[Para]]) -> List[int]:
    """Paragraphs next to a change (or a new table) whose every word went into it."""
    out: List[int] = []
    for where, added, steps in takers:
        for step in steps:
            k = where + step
            while k in seen and k not in named and k not in out:
                neighbour = current(k)
                if neighbour is None or neighbour.rows is not None or \
                        shown(neighbour) != seen[k]:
                    break
                words = Counter(alignment.words(seen[k]))
                size = sum(words.values())
                # Merged, a sentence loses a word or two ("It did not stop" -> "and did
                # not stop"): most of its words are enough.
                if size < ABSORB_WORDS or sum((words - added).values()) > size * (1 - TAKEN):
                    break
                added = added - words
                out.append(k)
                k += step
    return out

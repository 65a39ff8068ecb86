"""Which parts of a replaced text really change: the words that differ, each one whole.

Why: Writer's own Replace gives the whole replacement the format of the
match's first character, so replacing "quick **brown** fox" by "quick brown
cat" loses the bold on "brown". Replacing only the pieces that differ keeps
every unchanged word as it is (its bold, its link, a comment anchored on it),
and with change tracking only the changed words show as changed. A changed
word is one piece, never letters inside it: tracked, "recieve" -> "receive"
must read as one replacement of the word (letter pieces showed "e|all|very"
marks, and their passes went wrong when the deleted letters stayed in the text).

``pieces(old, new)`` lists the edits, each (start, end, text): replace
``old[start:end]`` by ``text``; offsets count code points of ``old`` and the
pieces are in ascending order, never touching, so applying them from the last
to the first keeps the earlier offsets valid. Pure Python.
"""

import difflib
import re
from typing import List, NamedTuple

# A word, a run of spaces, or one other character (punctuation, an emoji).
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


class Piece(NamedTuple):
    start: int
    end: int
    text: str


def tokens(text: str) -> List[str]:
    """``text`` cut into words, space runs and single other characters (joined, it is text)."""
    return _TOKEN.findall(text)


def _slide(a: List[str], i: int, inserted: List[str]):
    """Move an insertion that starts with the space already after it one token on.

    "brown fox" -> "brown red fox" can be read as inserting " red" after
    "brown" or "red " before "fox"; inserted text takes the format of the
    character before it, so after the space is the neutral place (not the
    end of a bold word).
    """
    while inserted and i < len(a) and not inserted[0].strip() and a[i] == inserted[0]:
        inserted = inserted[1:] + inserted[:1]
        i += 1
    return i, inserted


def _merge(found: List[Piece]) -> List[Piece]:
    out: List[Piece] = []
    for piece in found:
        if out and out[-1].end == piece.start:
            last = out.pop()
            piece = Piece(last.start, piece.end, last.text + piece.text)
        out.append(piece)
    return out


def pieces(old: str, new: str) -> List[Piece]:
    """The edits that turn ``old`` into ``new`` while leaving equal words alone."""
    if old == new:
        return []
    a, b = tokens(old), tokens(new)
    starts = [0]
    for token in a:
        starts.append(starts[-1] + len(token))
    found: List[Piece] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op == "insert":
            i, inserted = _slide(a, i1, b[j1:j2])
            found.append(Piece(starts[i], starts[i], "".join(inserted)))
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            # Token by token: spaces that stayed keep their place.
            for k in range(i2 - i1):
                x, y = a[i1 + k], b[j1 + k]
                if x != y:
                    found.append(Piece(starts[i1 + k], starts[i1 + k + 1], y))
            continue
        found.append(Piece(starts[i1], starts[i2], "".join(b[j1:j2])))
    found.sort(key=lambda p: (p.start, p.end))
    return _merge(found)


def whole(old: str, new: str) -> bool:
    """True when the only piece is the whole text: a plain replacement is just as good."""
    found = pieces(old, new)
    return len(found) == 1 and found[0].start == 0 and found[0].end == len(old)


def apply(old: str, found: List[Piece]) -> str:
    """``old`` with ``found`` applied (what the document will read afterwards)."""
    out = old
    for piece in reversed(found):
        out = out[:piece.start] + piece.text + out[piece.end:]
    return out

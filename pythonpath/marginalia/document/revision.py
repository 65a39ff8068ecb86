"""The model's new version of numbered lines -> the edits that make it (pure).

The rewrite protocol shows the model the document as numbered lines (docview, with
**bold** and *italic*) and lets it answer with the new version of the lines that
change, in the same form. Marginalia, not the model, works out the edit:

* ``N: text`` is the new version of paragraph N; ``N:`` alone deletes it; ``N: ...``
  (or the line as it was) only says where the lines around it go.
* A line without a number is a new paragraph, inserted after the numbered line above
  it (before the numbered line below it when it comes first; ``0:`` is the start).
* Paragraphs the text does not name stay as they are. One exception keeps merges and
  "turn these lines into a table" from duplicating text: a paragraph next to a changed
  one whose every word went into that change (and nowhere else) is deleted with it;
  its words are in the new text, so nothing is lost.
* A text without any number is matched to the paragraphs it resembles; if it resembles
  none, it cannot be placed and is refused.

Every named paragraph must be one the model saw (``seen``: number -> its line as
shown) and must still read so; when the user changed the document since, a
paragraph found again unchanged elsewhere (unique) is edited there, anything else is
refused with what the paragraph says now. Refusals are ``Refusal``s: a kind, the
paragraphs, and the sentence for the model; nothing is changed by a refused edit.
``plan`` returns ``Op``s in the order to make them: last paragraph first, so the
numbers of the ones before stay right.
"""

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from marginalia.document import markdown as md
from marginalia.document.docview import LINE_BREAK, Para, body
from marginalia.errors import ToolError

# What an Op does (Op.kind).
REVISE = "revise"        # the paragraph's words, bold/italic and heading level, in place
RESTYLE = "restyle"      # only its kind: a heading of another level, or body text
REPLACE = "replace"      # a whole block anew (a list item made text, a table...)
DELETE = "delete"
INSERT = "insert"        # new blocks after paragraph ``first`` (0: at the start)

# Why a rewrite was refused (Refusal.kind).
EMPTY, UNPLACED, UNKNOWN, NOT_SEEN, CHANGED = (
    "empty", "unplaced", "unknown", "not seen", "changed")

_NUMBERED = re.compile(r"^[ \t]*(?:paragraph[ \t]+|\u00b6[ \t]*)?(\d{1,6})[ \t]*:(?:[ \t]+(.*))?$",
                       re.I)
_ANCHOR_ONLY = ("...", "\u2026", "[unchanged]", "(unchanged)", "unchanged")
_WORD = re.compile(r"\w+", re.UNICODE)
# A numbered line reads like another paragraph, not its own, when it resembles its own
# less than LOW and another (one not named) at least HIGH: the model mistook the number.
LOW, HIGH = 0.5, 0.8
# Matching a text without numbers: a line stands for the paragraph it resembles this much.
MATCH = 0.6
# A paragraph goes with a merged neighbour only when it has at least this many words.
ABSORB_WORDS = 3


class Refusal(ToolError):
    """A rewrite that cannot be made as it stands; ``str()`` is the sentence for the model."""

    def __init__(self, kind: str, sentence: str, paragraphs: Sequence[int] = ()):
        super().__init__(sentence)
        self.kind = kind
        self.paragraphs = list(paragraphs)


@dataclass(frozen=True)
class Line:
    """One block of the model's text: ``number`` None for a new block (0: the start)."""

    number: Optional[int]
    body: str
    anchor: bool = False        # "N: ...": where, not what


@dataclass
class Op:
    kind: str
    first: int
    last: int
    markdown: str = ""
    level: Optional[int] = None          # RESTYLE / REVISE: heading level, 0 body text
    expect: str = ""                     # the paragraph's first words, as shown

    @property
    def position(self) -> float:
        """Where it acts, for ordering: an insertion after N sits between N and N+1."""
        return self.first + 0.5 if self.kind == INSERT else float(self.first)


@dataclass
class Plan:
    ops: List[Op] = field(default_factory=list)
    absorbed: List[int] = field(default_factory=list)   # deleted as merged into a neighbour
    renumbered: Dict[int, int] = field(default_factory=dict)   # the model's N -> the edit's

    @property
    def empty(self) -> bool:
        return not self.ops


# ---------------------------------------------------------------- reading the text

def _is_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def read(text: str) -> List[Line]:
    """The model's text as Lines: one per non-blank line, a table's rows kept together."""
    out: List[Line] = []
    table = False                       # the previous line is a table row
    for raw in (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not raw.strip():
            table = False
            continue
        if raw.strip().startswith("```"):
            table = False
            continue                    # a fence the model wrapped its text in
        m = _NUMBERED.match(raw)
        if m:
            content = (m.group(2) or "").strip()
            number = int(m.group(1))
            anchor = content in _ANCHOR_ONLY
            out.append(Line(number, "" if anchor else content, anchor))
            table = _is_row(content)
            continue
        if table and _is_row(raw) and out:
            last = out[-1]
            out[-1] = Line(last.number, last.body + "\n" + raw.strip(), last.anchor)
            continue
        table = _is_row(raw)
        out.append(Line(None, raw.strip()))
    return out


# ---------------------------------------------------------------- comparing blocks

def as_markdown(body: str) -> str:
    """A line's markdown: a table written as the view shows one (rows only) gets the
    delimiter row markdown wants after its first row, which is then its header."""
    rows = body.split("\n")
    if len(rows) < 2 or not all(_is_row(row) for row in rows) or md.parse(body)[0].kind == \
            md.TABLE:
        return body
    width = max(len(md.split_row(row)) for row in rows)
    return "\n".join([rows[0], "|" + " --- |" * width] + rows[1:])


def shown(para: Para) -> str:
    """A paragraph's line as the rewrite protocol shows it (without its number)."""
    return "\n".join(line.strip() if i else line for i, line in enumerate(body(para, True)))


def _plain(text: str) -> str:
    blocks = md.parse(text)
    return " ".join(b.text if b.kind != md.TABLE else " ".join(
        md.plain_text(c) for row in b.rows for c in row) for b in blocks)


def _words(text: str) -> List[str]:
    return [w.lower() for w in _WORD.findall(_plain(text))]


def similarity(a: str, b: str) -> float:
    """How alike two lines read (0..1), by their words."""
    x, y = _words(a), _words(b)
    if not x and not y:
        return 1.0
    return difflib.SequenceMatcher(None, x, y, autojunk=False).ratio()


def _kind_of(para: Para) -> Tuple[str, int]:
    """(block kind, level) of a paragraph as markdown would read its line."""
    if para.rows is not None:
        return md.TABLE, 0
    if para.heading:
        return md.HEADING, min(para.heading, 6)
    if para.list_level:
        return (md.NUMBER if para.list_kind == "number" else md.BULLET), para.list_level
    return md.PARAGRAPH, 0


def _flags(runs: List[md.Run]) -> List[Tuple[str, bool, bool]]:
    out = []
    for run in runs:
        out.extend((ch, run.bold, run.italic) for ch in run.text
                   if not ch.isspace() and ch != LINE_BREAK)
    return out


def _change(number: int, para: Para, new: str) -> Optional[Op]:
    """The Op that makes paragraph ``number`` read ``new``; None when it already does."""
    old_line = shown(para)
    expect = _first_words(para)
    if new == old_line:
        return None
    new = as_markdown(new)
    blocks = md.parse(new)
    if len(blocks) != 1:
        return Op(REPLACE, number, number, new, expect=expect)
    block = blocks[0]
    kind, level = _kind_of(para)
    if kind == md.TABLE and block.kind == md.TABLE and para.rows == [
            [md.plain_text(cell) for cell in row] for row in block.rows]:
        return None             # the same cells (the model added a delimiter row)
    text_like = (md.PARAGRAPH, md.HEADING)
    if kind in text_like and block.kind in text_like:
        new_level = block.level if block.kind == md.HEADING else 0
        old_runs = md.parse_inline(old_line.lstrip("#").strip()) if para.runs is None else \
            para.runs
        if md.plain_text(block.runs) == para.text.replace("\n", LINE_BREAK) and \
                _flags(block.runs) == _flags(old_runs):
            if new_level == level:
                return None
            return Op(RESTYLE, number, number, new, level=new_level, expect=expect)
        return Op(REVISE, number, number, new, level=new_level, expect=expect)
    if kind in (md.BULLET, md.NUMBER) and block.kind == kind and block.level == level:
        return Op(REVISE, number, number, new, level=None, expect=expect)
    return Op(REPLACE, number, number, new, expect=expect)


# ---------------------------------------------------------------- placing the lines

def _without_numbers(lines: List[Line], seen: Mapping[int, str]) -> List[Line]:
    """A text with no numbers matched to the paragraphs it resembles, in order: each line
    that resembles a seen paragraph (at least MATCH, the best after the last matched) is
    its new version; the others stay new lines placed between them."""
    numbers = sorted(seen)
    out: List[Line] = []
    after = 0
    for line in lines:
        best, score = None, MATCH
        for n in numbers:
            if n <= after:
                continue
            s = similarity(line.body, seen[n])
            if s >= score:
                best, score = n, s
        if best is None:
            out.append(line)
        else:
            out.append(Line(best, line.body))
            after = best
    return out


def _renumber(lines: List[Line], seen: Mapping[int, str]) -> Dict[int, int]:
    """The numbered lines that read like another seen paragraph, not their own, when that
    other one is not named in the text: N -> the paragraph meant."""
    named = {line.number for line in lines if line.number}
    out: Dict[int, int] = {}
    for line in lines:
        n = line.number
        if not n or line.anchor or not line.body or n not in seen:
            continue
        if similarity(line.body, seen[n]) >= LOW:
            continue
        scores = sorted(((similarity(line.body, text), m) for m, text in seen.items()
                         if m not in named and m not in out.values()), reverse=True)
        if scores and scores[0][0] >= HIGH and (len(scores) == 1 or scores[1][0] < HIGH):
            out[n] = scores[0][1]
    return out


def _absorbed(changes: List[Tuple[int, str]], named: set, seen: Mapping[int, str],
              current: Callable[[int], Optional[Para]]) -> List[int]:
    """Paragraphs next to a changed one whose every word went into that change."""
    out: List[int] = []
    for number, new in changes:
        para = current(number)
        if para is None:
            continue
        added = Counter(_words(new)) - Counter(_words(seen.get(number, "")))
        for step in (1, -1):
            k = number + step
            while k in seen and k not in named and k not in out:
                neighbour = current(k)
                if neighbour is None or neighbour.rows is not None or \
                        shown(neighbour) != seen[k]:
                    break
                words = Counter(_words(seen[k]))
                if sum(words.values()) < ABSORB_WORDS or words - added:
                    break
                added -= words
                out.append(k)
                k += step
    return out


# ---------------------------------------------------------------- the plan

def _normalised(lines: List[Line]) -> List[Line]:
    """A number named twice is a new line the second time; "0: text" is the start and a
    new line."""
    out: List[Line] = []
    named = set()
    for line in lines:
        if line.number == 0:
            out.append(Line(0, "", True))
            if line.body:
                out.append(Line(None, line.body))
        elif line.number is not None and line.number in named:
            if line.body:
                out.append(Line(None, line.body))
        else:
            if line.number is not None:
                named.add(line.number)
            out.append(line)
    return out


def plan(text: str, seen: Mapping[int, str], current: Callable[[int], Optional[Para]],
         count: int, locate: Optional[Callable[[str], List[int]]] = None) -> Plan:
    """The edits that make the document read as ``text`` says (see the module docstring).

    ``seen``: what the model was shown, by paragraph number; ``current(n)``: paragraph n
    as it is now (None past the end); ``count``: how many there are; ``locate(line)``:
    the paragraphs that read ``line`` now (to find one the user moved). Raises Refusal.
    """
    lines = _normalised(read(text))
    if not any(line.body for line in lines) and not any(
            line.number and not line.anchor for line in lines):
        raise Refusal(EMPTY, "The edit was empty, so nothing was changed. Give the new "
                             "version of the lines that change, each starting with its "
                             "number as the document shows it (3: ...).")
    if not any(line.number is not None for line in lines):
        lines = _without_numbers(lines, seen)
        if not any(line.number is not None for line in lines):
            raise Refusal(UNPLACED, "Nothing was changed: the new text has no paragraph "
                                    "number, so it is not clear where it goes. Start each "
                                    "changed line with its number as the document shows it "
                                    "(3: ...); put new paragraphs after the numbered line "
                                    "they follow, or after a line 0: for the very start.")
    out = Plan()
    out.renumbered = _renumber(lines, seen)
    lines = [Line(out.renumbered.get(line.number, line.number), line.body, line.anchor)
             for line in lines]
    numbers = [line.number for line in lines if line.number]
    beyond = sorted(n for n in numbers if n > count)
    if beyond:
        raise Refusal(UNKNOWN, "Nothing was changed: the document has %d paragraphs, so "
                               "there is no paragraph %s." % (count, _listed(beyond)), beyond)
    where = _where(numbers, seen, current, locate)
    if any(where[n] != n for n in where):
        lines = [Line(where.get(line.number, line.number), line.body, line.anchor)
                 for line in lines]
        seen = {where.get(n, n): text for n, text in seen.items() if n in where}
        numbers = [line.number for line in lines if line.number]
    changes: List[Tuple[int, str]] = []
    deletes: List[int] = []
    for line in lines:
        if not line.number or line.anchor:
            continue
        if not line.body:
            deletes.append(line.number)
        else:
            changes.append((line.number, line.body))
    for number, new in changes:
        op = _change(number, current(number), new)
        if op is not None:
            out.ops.append(op)
    out.absorbed = _absorbed(changes, set(numbers), seen, current)
    for first, last in _runs(sorted(set(deletes + out.absorbed))):
        out.ops.append(Op(DELETE, first, last, expect=_first_words(current(first))))
    out.ops.extend(_insertions(lines))
    out.ops.sort(key=lambda op: op.position, reverse=True)
    return out


def _first_words(para: Para) -> str:
    return " ".join(para.plain().split()[:8])


def _where(numbers: List[int], seen: Mapping[int, str],
           current: Callable[[int], Optional[Para]],
           locate: Optional[Callable[[str], List[int]]]) -> Dict[int, int]:
    """Each named paragraph's number now: its own while it still reads as the model saw
    it; else the one paragraph that does, when the user only moved it (found by
    ``locate``, the order of the named ones kept). Refuses what cannot be found."""
    unseen = sorted(set(n for n in numbers if n not in seen))
    if unseen:
        lines = ["%d: %s" % (n, shown(current(n))) for n in unseen[:20]]
        raise Refusal(NOT_SEEN, "Nothing was changed: you had not read paragraph%s %s. "
                                "%s now, as they are; send the edit again:\n%s" % (
                                    "s" if len(unseen) > 1 else "", _listed(unseen),
                                    "Here they are" if len(unseen) > 1 else "Here it is",
                                    "\n".join(lines)), unseen)
    where = {n: n for n in numbers}
    moved = sorted(set(n for n in numbers if shown(current(n)) != seen[n]))
    lost = []
    for n in moved:
        found = locate(seen[n]) if locate is not None else []
        if len(found) == 1:
            where[n] = found[0]
        else:
            lost.append(n)
    order = [where[n] for n in sorted(where)]
    if not lost and order != sorted(order):
        lost = moved
    if lost:
        lines = ["%d: %s" % (n, shown(current(n))) for n in lost[:20]]
        raise Refusal(CHANGED, "Nothing was changed: the document changed since you read "
                               "it (the user edited it). Paragraph%s %s now read%s as below; "
                               "send the edit again for the text as it is:\n%s" % (
                                   "s" if len(lost) > 1 else "", _listed(lost),
                                   "" if len(lost) > 1 else "s", "\n".join(lines)), lost)
    return where


def _insertions(lines: List[Line]) -> List[Op]:
    """Runs of new lines, each as one INSERT after the numbered line above it (or, when
    they come first, before the numbered line below it)."""
    out: List[Op] = []
    pending: List[str] = []
    after: Optional[int] = None
    for line in lines:
        if line.number is None:
            pending.append(line.body)
            continue
        if pending:
            at = after if after is not None else max(0, line.number - 1)
            out.append(Op(INSERT, at, at, "\n\n".join(as_markdown(p) for p in pending)))
            pending = []
        after = line.number
    if pending and after is not None:
        out.append(Op(INSERT, after, after, "\n\n".join(as_markdown(p) for p in pending)))
    return out


def _runs(numbers: List[int]) -> List[Tuple[int, int]]:
    out: List[List[int]] = []
    for n in numbers:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return [(a, b) for a, b in out]


def _listed(numbers: Sequence[int]) -> str:
    shown_ = [str(n) for n in numbers]
    return shown_[0] if len(shown_) == 1 else ", ".join(shown_[:-1]) + " and " + shown_[-1]

"""The model's new version of numbered lines -> the edits that make it (pure).

The rewrite protocol shows the model the document as numbered lines (docview, with
**bold** and *italic*) and lets it answer with the new version of the lines that
change, in the same form. Marginalia, not the model, works out the edit:

* ``N: text`` is the new version of paragraph N; ``N:`` alone deletes it; ``N: ...``
  only says where the lines around it go. Which paragraph a line stands for is
  decided by what it says, its number only helping (document.alignment): small
  models renumber the passage they write.
* A line that stands for no paragraph is new: inserted after the line above it
  (before the line below it when it comes first; ``0:`` is the start; a number past
  the end, at the end).
* ``N: ~~the line~~`` deletes the paragraph that reads so (its words place it, as a
  changed line's do); ``N:`` alone deletes paragraph N.
* Paragraphs the text does not give stay, even between the lines it gives (a small
  model's passage leaves out lines it did not mean to delete). One exception keeps
  merges and "turn these lines into a table" from duplicating text: a paragraph next
  to a changed line (or after a new table) whose every word went into it is deleted
  with it; its words are in the new text, so nothing is lost.

Every named paragraph must be one the model saw (``seen``: number -> its line as
shown) and must still read so; when the user changed the document since, a
paragraph found again unchanged elsewhere (unique) is edited there, anything else is
refused with what the paragraph says now. Refusals are ``Refusal``s: a kind, the
paragraphs, and the sentence for the model; nothing is changed by a refused edit.
``plan`` returns ``Op``s in the order to make them: last paragraph first, so the
numbers of the ones before stay right.
"""

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from marginalia.document import alignment, change_log, edit_text, passage, tool_lines
from marginalia.document.edit_text import Line, read  # noqa: F401 (read: the tests')
from marginalia.document import markdown as md
from marginalia.document import docview
from marginalia.document.docview import LINE_BREAK, Para
from marginalia.document.inline import render as render_runs
from marginalia.document.tool_specs import EXAMPLES
from marginalia.errors import ToolError

# What an Op does (Op.kind).
REVISE = "revise"        # the paragraph's words, bold/italic and heading level, in place
RESTYLE = "restyle"      # only its kind: a heading of another level, or body text
REPLACE = "replace"      # a whole block anew (a list item made text, a table...)
DELETE = "delete"
INSERT = "insert"        # new blocks after paragraph ``first`` (0: at the start)
COMMENT = "comment"      # a comment (``markdown``) on paragraph ``first``, after its change

# Why a rewrite was refused (Refusal.kind).
EMPTY, UNPLACED, UNKNOWN, NOT_SEEN, CHANGED = (
    "empty", "unplaced", "unknown", "not seen", "changed")



class Refusal(ToolError):
    """A rewrite that cannot be made as it stands; ``str()`` is the sentence for the model."""

    def __init__(self, kind: str, sentence: str, paragraphs: Sequence[int] = ()):
        super().__init__(sentence, tool_lines.changed() if kind == CHANGED
                         else tool_lines.not_read() if kind == NOT_SEEN
                         else tool_lines.did_not_fit())
        self.kind = kind
        self.paragraphs = list(paragraphs)


@dataclass
class Op:
    kind: str
    first: int
    last: int
    markdown: str = ""
    level: Optional[int] = None          # RESTYLE / REVISE: heading level, 0 body text
    expect: str = ""                     # the paragraph's first words, as shown
    was: str = ""                        # REVISE: the line as shown before

    @property
    def position(self) -> float:
        """Where it acts, for ordering: an insertion after N sits between N and N+1, a
        comment on N just before N (so it is made after N's own change)."""
        if self.kind == INSERT:
            return self.first + 0.5
        return self.first - 0.25 if self.kind == COMMENT else float(self.first)


@dataclass
class Plan:
    ops: List[Op] = field(default_factory=list)
    absorbed: List[int] = field(default_factory=list)   # deleted as merged into a neighbour
    renumbered: Dict[int, int] = field(default_factory=dict)   # the model's N -> the edit's

    @property
    def empty(self) -> bool:
        return not self.ops


# ---------------------------------------------------------------- comparing blocks

def as_markdown(body: str) -> str:
    """A line's markdown: a table written as the view shows one (rows only) gets the
    delimiter row markdown wants after its first row, which is then its header."""
    rows = body.split("\n")
    if len(rows) < 2 or not all(edit_text.is_row(row) for row in rows) or md.parse(body)[0].kind == \
            md.TABLE:
        return body
    width = max(len(md.split_row(row)) for row in rows)
    return "\n".join([rows[0], "|" + " --- |" * width] + rows[1:])


shown = docview.shown      # a paragraph's line as the model saw it (revision.shown)


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
        piece = _piece(para.text.replace("\n", LINE_BREAK), old_runs, block.runs)
        if piece is not None:
            # A piece of the line with a new look (small models write just the words to
            # make bold or italic): that look on that piece, the rest of the line kept.
            if _flags(piece) == _flags(old_runs) and new_level == level:
                return None
            new = ("#" * new_level + " " if new_level else "") + render_runs(piece)
        return Op(REVISE, number, number, new, level=new_level, expect=expect, was=old_line)
    if kind in (md.BULLET, md.NUMBER) and block.kind == kind and block.level == level:
        return Op(REVISE, number, number, new, level=None, expect=expect, was=old_line)
    return Op(REPLACE, number, number, new, expect=expect)


def _piece(old: str, old_runs: List[md.Run], new_runs: List[md.Run]) -> Optional[List[md.Run]]:
    """``old_runs`` with the look of ``new_runs`` on the stretch they spell, when they
    are bold or italic somewhere and spell a shorter stretch of ``old`` that starts and
    ends at word edges; else None (a shorter line without a look is a shortened line)."""
    if not any(r.bold or r.italic for r in new_runs):
        return None
    fragment = md.plain_text(new_runs).strip()
    at = old.find(fragment) if fragment and len(fragment) < len(old) else -1
    end = at + len(fragment)
    if at < 0 or (at and old[at - 1].isalnum()) or (end < len(old) and old[end].isalnum()):
        return None
    looks = [(r.bold, r.italic) for r in old_runs for _ch in r.text]
    if len(looks) != len(old):
        return None
    lead = len(md.plain_text(new_runs)) - len(md.plain_text(new_runs).lstrip())
    wanted = [(r.bold, r.italic) for r in new_runs for _ch in r.text][lead:lead + len(fragment)]
    looks[at:end] = wanted
    out: List[md.Run] = []
    for ch, (bold, italic) in zip(old, looks):
        if out and (out[-1].bold, out[-1].italic) == (bold, italic):
            out[-1].text += ch
        else:
            out.append(md.Run(ch, bold=bold, italic=italic))
    return out


# ---------------------------------------------------------------- the plan

def _positional(line: Line) -> bool:
    """A line that only says where (a deletion "N:", a place "N: ...", the start "0:")."""
    return bool(line.number is not None and (line.anchor or not (line.body or line.struck)))


def plan(text: str, seen: Mapping[int, str], current: Callable[[int], Optional[Para]],
         count: int, locate: Optional[Callable[[str], List[int]]] = None) -> Plan:
    """The edits that make the document read as ``text`` says (see the module docstring).

    ``seen``: what the model was shown, by paragraph number; ``current(n)``: paragraph n
    as it is now (None past the end); ``count``: how many there are; ``locate(line)``:
    the paragraphs that read ``line`` now (to find one the user moved). Raises Refusal.
    """
    lines = edit_text.normalised(edit_text.read(text))
    if not any(line.body or line.struck or line.comment for line in lines) and not any(
            line.number and not line.anchor for line in lines):
        raise Refusal(EMPTY, "The edit was empty, so nothing was changed. Give the new "
                             "version of the lines that change, each starting with its "
                             "number as the document shows it (3: ...).")
    copied = [line for line in lines if line.body in EXAMPLES or
              "~~%s~~" % line.struck in EXAMPLES or "<!-- %s -->" % line.comment in EXAMPLES]
    if copied:
        raise Refusal(EMPTY, "Nothing was changed: \u201c%s\u201d is the example from the "
                             "instructions, not a line of this document. Write the document's "
                             "own lines." % (copied[0].body or copied[0].struck or
                                             copied[0].comment))
    named = [line.number for line in lines if _positional(line) and line.number]
    beyond = sorted(n for n in named if n > count)
    if beyond:
        raise Refusal(UNKNOWN, "Nothing was changed: the document has %d paragraphs, so "
                               "there is no paragraph %s." % (count, _listed(beyond)), beyond)
    where = alignment.place([alignment.Slot(
        line.number, line.struck or line.body, _positional(line), bool(line.struck),
        bool(line.number and line.number > count and line.body)) for line in lines], seen)
    unseen = sorted(set(n for n in named if n not in seen) | set(
        line.number for line, at in zip(lines, where) if at is None and line.body and
        line.number and line.number <= count and line.number not in seen))
    if unseen:
        _refuse_unseen(unseen, current)
    lost = [line.struck for line, at in zip(lines, where) if line.struck and at is None]
    if lost:
        raise Refusal(UNPLACED, "Nothing was changed: no line of the document reads "
                                "\u201c%s\u201d, so there is nothing to delete there. Copy the "
                                "line to delete as the document shows it." % lost[0])
    where = _rebased(where, seen, current, locate)
    out = Plan()
    out.renumbered = {line.number: at for line, at in zip(lines, where)
                      if at is not None and line.number and line.number != at}
    placed = [(line, at) for line, at in zip(lines, where) if at is not None]
    changes: List[Tuple[int, str]] = []
    deletes: List[int] = []
    for line, at in placed:
        if line.comment:
            out.ops.append(Op(COMMENT, at, at, line.comment))
        if line.anchor:
            continue
        if not line.body:
            deletes.append(at)              # "N:" or "N: ~~the line~~"
            continue
        op = _change(at, current(at), line.body)
        if op is not None:
            out.ops.append(op)
            changes.append((at, line.body))
    deletes += passage.skipped(lines, where, seen)
    deletes += passage.moved(lines, where, seen)
    inserts = _insertions(lines, where, count)
    named_now = set(at for _line, at in placed)
    out.absorbed = [n for n in passage.absorbed(passage.takers(changes, inserts, seen), named_now, seen,
                                         current) if n not in deletes]
    for first, last in change_log.spans(sorted(set(deletes + out.absorbed))):
        out.ops.append(Op(DELETE, first, last, expect=_first_words(current(first))))
    out.ops.extend(inserts)
    out.ops.sort(key=lambda op: op.position, reverse=True)
    return out


def _refuse_unseen(unseen: List[int], current: Callable[[int], Optional[Para]]) -> None:
    lines = ["%d: %s" % (n, shown(current(n))) for n in unseen[:20]]
    raise Refusal(NOT_SEEN, "Nothing was changed: you had not read paragraph%s %s. "
                            "%s now, as they are; send the edit again:\n%s" % (
                                "s" if len(unseen) > 1 else "", _listed(unseen),
                                "Here they are" if len(unseen) > 1 else "Here it is",
                                "\n".join(lines)), unseen)


def _rebased(where: List[Optional[int]], seen: Mapping[int, str],
             current: Callable[[int], Optional[Para]],
             locate: Optional[Callable[[str], List[int]]]) -> List[Optional[int]]:
    """Each placed paragraph's number now: its own while it still reads as the model saw
    it; else the one paragraph that does, when the user only moved it (found by
    ``locate``, the order kept). Refuses what cannot be found."""
    numbers = sorted(set(n for n in where if n is not None))
    now = {n: n for n in numbers}
    moved = [n for n in numbers if current(n) is None or shown(current(n)) != seen[n]]
    lost = []
    for n in moved:
        found = locate(seen[n]) if locate is not None else []
        if len(found) == 1:
            now[n] = found[0]
        else:
            lost.append(n)
    order = [now[n] for n in numbers]
    if not lost and order != sorted(order):
        lost = moved
    if lost:
        lines = ["%d: %s" % (n, shown(current(n))) for n in lost[:20] if current(n)]
        raise Refusal(CHANGED, "Nothing was changed: the document changed since you read "
                               "it (the user edited it). Paragraph%s %s now read%s as below; "
                               "send the edit again for the text as it is:\n%s" % (
                                   "s" if len(lost) > 1 else "", _listed(lost),
                                   "" if len(lost) > 1 else "s", "\n".join(lines)), lost)
    return [None if n is None else now[n] for n in where]


def _insertions(lines: List[Line], where: List[Optional[int]], count: int) -> List[Op]:
    """Runs of new lines, each as one INSERT: after the placed line above it, before the
    placed line below it when it comes first, else where its number says (a number past
    the end: at the end). Refuses new lines with nothing to place them by."""
    out: List[Op] = []
    pending: List[Line] = []
    after: Optional[int] = None

    def flush(at: Optional[int]) -> None:
        if at is None:
            numbers = [line.number for line in pending if line.number]
            if not numbers:
                raise Refusal(UNPLACED, UNPLACED_SENTENCE)
            # Numbered past the end somewhere: the run goes at the end (the model counted
            # the document short: "3: # Conclusion", "4: ..." for a document of 3 lines).
            at = count if max(numbers) > count else numbers[0] - 1
        out.append(Op(INSERT, at, at, "\n\n".join(as_markdown(line.body) for line in pending)))
        del pending[:]
    for line, at in zip(lines, where):
        if line.number == 0:
            after = 0
        elif at is None:
            pending.append(line)
        else:
            if pending:
                flush(after if after is not None else at - 1)
            after = at
    if pending:
        flush(after)
    return out


# An edit whose every line already reads so (``plan`` returns no ops): a small model copies
# the lines it was asked to change. Told only that, Qwen2.5-Coder 1.5B sent the same copy
# again; told how each kind of change is written, it made the change (issue 36).
UNCHANGED_SENTENCE = ("Nothing was changed: every line you wrote already reads so in the "
                      "document. Write the lines again with the user's change made in them. "
                      "Spelling: the word spelled right. Heading: '## ' (heading 2) or '# ' "
                      "(heading 1) before the line. Bold: **words**. Italic: *words*.")

UNPLACED_SENTENCE = ("Nothing was changed: the new text has no paragraph number, so it is not "
                     "clear where it goes. Start each changed line with its number as the "
                     "document shows it (3: ...); put new paragraphs after the numbered line "
                     "they follow, or after a line 0: for the very start.")


def _first_words(para: Para) -> str:
    return " ".join(para.plain().split()[:8])


def _listed(numbers: Sequence[int]) -> str:
    shown_ = [str(n) for n in numbers]
    return shown_[0] if len(shown_) == 1 else ", ".join(shown_[:-1]) + " and " + shown_[-1]

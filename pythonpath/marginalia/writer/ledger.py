"""The change records of a document's turns, with the live handles that find each change.

One Ledger per open document (in its writer.doc_state, dropped on close): each
turn that edits gets a TurnLog holding its Change records (document.change_log),
its undo steps, the change count around it and the text it started from (so a
restore can prove it got back there). ``handles`` keeps, per change, what finds
it again in the document after later edits:

* ``mark``: a text cursor in the changed paragraph (Writer moves a cursor's
  position with every later edit, like a bookmark, and saves nothing of it in
  the file), with how to widen it into the change (``skip``, ``paras``, ``find``);
* ``redlines``: the tracked changes' identifiers the call made (Suggest);
* ``note``: the comment that proposes the edit (Comment only).

CallRecord wraps one edit call: ``before`` looks at the target before the
edit (one search, or the turn's one cursor walk, writer.locate), ``after``
makes the record. Its paragraph numbers are the call's own, moved as later
numbered edits of the turn say they moved numbers; Review settles them again
from the handles (``finish``) when the user may have edited since. Nothing
here reads the whole document: on 300 pages a body map costs seconds.
Main thread only.
"""

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from marginalia.document import change_log as cl
from marginalia.document.docview import utf16_len
from marginalia.document.tool_specs import AFTER, DELETE, FOUND, REPLACE, RESTYLE, SELECTION
from marginalia.writer import doc_state
from marginalia.writer.bodymap import span, start_cursor
from marginalia.writer.tracked import redline_ids, redline_range, redlines
from marginalia.writer.plan import Plan
from marginalia.writer.walk import Walker
from marginalia.writer.turn import AI_AUTHOR


@dataclass
class TurnLog:
    number: int
    mode: str
    changes: List[cl.Change] = field(default_factory=list)
    steps: int = 0                    # undo steps the turn left (more if the user typed)
    start_count: Optional[int] = None
    end_count: Optional[int] = None
    fingerprint: Optional[str] = None  # the body text before the turn's first edit
    end_fingerprint: Optional[str] = None  # and after its last
    undone: bool = False
    started: float = field(default_factory=time.time)
    title: Optional[str] = None       # the title of its undo steps
    depth: int = 0                    # how many undo actions there were after it
    # A step of the change card's own (Accept, Reject, Apply), not a chat turn: the
    # changes it settled and their states before, for when a restore undoes it.
    settled: Optional[List[Tuple[int, str]]] = None
    # And the signatures of their tracked changes (writer.tracked), found again after
    # an undo makes them anew.
    signatures: Dict[int, List[Tuple]] = field(default_factory=dict)

    @property
    def card(self) -> bool:
        return self.settled is not None


class Ledger:
    def __init__(self):
        self.turns: Dict[int, TurnLog] = {}
        # The change card's own undo steps, numbered in the turns' sequence: a restore
        # takes back the ones after its turn with them, and does not count them as the
        # user's edits.
        self.card_steps: Dict[int, TurnLog] = {}
        self.handles: Dict[int, Dict[str, Any]] = {}
        # Numbers unique beyond this office session: a kept chat's CHANGE events
        # from an earlier session must never name one of this session's turns.
        base = int(time.time() * 1000) % 10 ** 12 * 1000
        self._next_change = base + 1
        self._next_turn = base + 1

    def new_turn(self, mode: str) -> TurnLog:
        log = TurnLog(self._next_turn, mode)
        self._next_turn += 1
        self.turns[log.number] = log
        return log

    def new_card_step(self, settled: List[cl.Change]) -> TurnLog:
        step = TurnLog(self._next_turn, "card", settled=[(c.id, c.state) for c in settled])
        self._next_turn += 1
        self.card_steps[step.number] = step
        return step

    def next_id(self) -> int:
        self._next_change += 1
        return self._next_change - 1

    def change(self, change_id: int) -> Optional[cl.Change]:
        for log in self.turns.values():
            for change in log.changes:
                if change.id == change_id:
                    return change
        return None

    def turn_of(self, change: cl.Change) -> Optional[TurnLog]:
        return self.turns.get(change.turn)

    def later(self, number: int) -> List[TurnLog]:
        """Turns and card steps from ``number`` on that left undo steps and are not
        undone, oldest first: what a restore to before turn ``number`` undoes."""
        return [step for step in self.timeline() if step.number >= number]

    def timeline(self) -> List[TurnLog]:
        """Every turn and card step that left undo steps not undone, oldest first."""
        steps = list(self.turns.values()) + list(self.card_steps.values())
        return sorted((s for s in steps if s.steps and not s.undone), key=lambda s: s.number)


def ledger_for(doc: Any) -> Ledger:
    """The document's ledger, kept in its state (dropped when the document closes)."""
    state = doc_state.of(doc)
    if state.ledger is None:
        state.ledger = Ledger()
    return state.ledger


def fingerprint(doc: Any, text: Optional[str] = None) -> str:
    """A digest of the body text (``text`` when the caller has it): where a restore
    must arrive."""
    if text is None:
        from marginalia.writer import read     # read -> mapbuild -> ... never back here
        text = read.body_text(doc)
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _para_start(text, rng):
    cursor = text.createTextCursorByRange(rng.getStart())
    cursor.gotoStartOfParagraph(False)
    return cursor


def _shift(changes: List[cl.Change], moved: Any) -> None:
    """Move the numbers of the turn's earlier records as a numbered edit moved them."""
    if not moved:
        return
    old, new = int(moved[0]), int(moved[1])
    for change in changes:
        change.paragraphs = [n + new - old if n >= old else n for n in change.paragraphs]
        change.places = [n + new - old if n >= old else n for n in change.places]


class CallRecord:
    """One edit call: what its plan aimed at before, and its Change after."""

    def __init__(self, doc: Any, walker: Walker, plan: Plan):
        self.doc = doc
        self.walker = walker
        self.plan = plan
        self.handle: Dict[str, Any] = {}
        self.before_text = ""
        self.ids_before = None
        self.kept: List[Any] = []   # writer.mark_keeper's notes: a Reject puts them back

    def before(self, recording: bool) -> None:
        """Look at the target before the edit (after keep-out and before the change)."""
        if recording:
            self.ids_before = set(redline_ids(self.doc))
        text = self.doc.getText()
        plan = self.plan
        if plan.spec.target == AFTER:
            if plan.at_start:
                self.handle = {"start": True, "paras": 1}
            elif plan.anchor is not None:
                try:
                    self.handle = {"mark": _para_start(text, plan.anchor), "skip": 1, "paras": 1}
                except Exception:
                    self.handle = {}      # after a table: found by its number only
            return
        rng = plan.anchor
        if rng is None:
            return
        try:
            self.before_text = rng.getString()
        except Exception:
            self.before_text = ""
        try:
            mark = _para_start(text, rng)
        except Exception:
            return          # a target outside the body: no mark
        self.handle = {"mark": mark, "skip": 0, "paras": 1}
        if plan.spec.kind == RESTYLE:
            self.handle["paras"] = max(1, self.before_text.count("\n") + 1)

    def paragraphs(self, facts: Dict[str, Any]) -> List[int]:
        """Where the change is, in the numbers right after the call."""
        if facts.get("paragraphs"):
            return [int(n) for n in facts["paragraphs"]]
        plan = self.plan
        if plan.at_start:
            return [1, max(1, int(facts.get("made", 1)))]
        if plan.first is None:
            return []
        return [plan.first, plan.last if plan.last is not None else plan.first]

    def after(self, ledger: Ledger, turn: TurnLog, mode: str, output: Any) -> cl.Change:
        """The record of the call that just ran."""
        plan = self.plan
        args = plan.arguments
        facts = getattr(output, "record", None) or {}
        if "made" in facts:
            self.handle["paras"] = max(1, int(facts["made"]))
        if plan.spec.kind == DELETE:
            self.handle["paras"] = 0
        elif plan.spec.kind == REPLACE and plan.spec.target in (FOUND, SELECTION) and \
                not args.get("regex"):
            self.handle["find"] = plan.spec.after(args)
        _shift(turn.changes, facts.get("moved"))
        change = cl.make(ledger.next_id(), turn.number, plan.spec.name, mode, args,
                         self.before_text, self.paragraphs(facts))
        if plan.places and not facts.get("paragraphs"):
            change.places = cl.spread(plan.places)
            # The handle finds the first match only: Review moves the rest with it.
            self.handle["every"] = True
        if self.ids_before is not None:
            ids = [i for i in redline_ids(self.doc) if i not in self.ids_before]
            if ids:
                change.handle["redlines"] = ids
        if self.handle:
            change.handle["mark"] = True
        if self.kept:
            self.handle["kept"] = self.kept
        ledger.handles[change.id] = self.handle
        turn.changes.append(change)
        # Numbered edits move the numbers after them; text edits keep paragraphs.
        if not plan.spec.keeps_paragraphs(args):
            self.walker.edited(plan.first)
        return change


def spot(doc: Any, ledger: Ledger, change: cl.Change, by_mark: bool = False) -> Any:
    """A text range over the change as the document is now (None when nothing finds it).

    Tracked changes are found by their redlines (an inserted paragraph's starts
    at the break before it); ``by_mark`` goes by the paragraphs instead.
    """
    handle = ledger.handles.get(change.id) or {}
    text = doc.getText()
    if change.handle.get("redlines") and not (by_mark and handle.get("mark") is not None):
        reds = redlines(doc, change.handle["redlines"])
        if reds:
            spans = [redline_range(doc, red) for red in reds]
            odd = [piece for piece in spans
                   if piece.supportsService("com.sun.star.text.TextTable") or
                   piece.getText() != text]
            if odd:
                return odd[0]       # a table, or a change in a cell: that is where to go
            return span(text, spans)
    note = handle.get("note")
    if note is not None:
        try:
            return note.getAnchor()
        except Exception:
            return None
    if handle.get("start"):
        cursor = start_cursor(text)
    elif handle.get("mark") is not None:
        cursor = text.createTextCursorByRange(handle["mark"].getStart())
        cursor.gotoStartOfParagraph(False)
        for _ in range(handle.get("skip", 0)):
            if not cursor.gotoNextParagraph(False):
                break
    else:
        return None
    find = handle.get("find")
    if find:
        probe = text.createTextCursorByRange(cursor.getStart())
        probe.gotoEndOfParagraph(True)
        at = probe.getString().find(find)
        if at >= 0:
            cursor.goRight(utf16_len(probe.getString()[:at]), False)
            cursor.goRight(utf16_len(find), True)
            return cursor
    paras = handle.get("paras", 1)
    if paras:
        for _ in range(paras - 1):
            if not cursor.gotoNextParagraph(True):
                break
        cursor.gotoEndOfParagraph(True)
    return cursor


def finish(doc: Any, ledger: Ledger, turn: TurnLog) -> None:
    """Paragraph numbers from the handles as the document is now (Review, after the
    user edited): one forward walk for the whole turn."""
    walker = Walker(doc)
    for change in turn.changes:
        try:
            rng = spot(doc, ledger, change, by_mark=True)
            if rng is None:
                continue
            first = walker.number_of(rng.getStart())
            last = walker.number_of(rng.getEnd())
        except Exception:
            continue
        if first is None:
            continue
        if (change.places or (ledger.handles.get(change.id) or {}).get("every")) and \
                change.paragraphs:
            # A change of several places is found by its first match: the others are
            # moved as far (a paragraph the user added between them is not counted).
            delta = first - change.paragraphs[0]
            change.places = [n + delta for n in change.places]
            change.paragraphs = [n + delta for n in change.paragraphs]
        else:
            change.paragraphs = [first, last if last is not None else first]


def is_ai(red: Any) -> bool:
    return red.getPropertyValue("RedlineAuthor") == AI_AUTHOR

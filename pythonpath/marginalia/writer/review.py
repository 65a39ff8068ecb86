"""Reviewing a turn's changes: go to one, accept or reject, apply, undo, restore.

Accept and Reject act on exactly the tracked changes a call of that turn made
(their identifiers are in its records): each one's own range is selected and
Writer's Accept/Reject Tracked Change runs on that selection, so the user's own
tracked changes and other turns' are never touched. A batch is one undo step.

Restore takes the document back to before a turn: every later turn's undo
steps are undone one by one (each stays its own step, so Redo brings them
back). The change counter tells whether anything else happened since those
turns; then the caller must ask the user first (UserEdited), and the undo
goes on, through the user's own steps, until the body text is the one the
turn started from. Any failure redoes what was undone: never half-restored.
Main thread only.
"""

from typing import Any, List, Optional

from marginalia.document import change_log as cl
from marginalia.errors import MarginaliaError, ToolError
from marginalia.writer import changes, mark_keeper, read
from marginalia.writer.ledger import Ledger, TurnLog, fingerprint, spot
from marginalia.writer.tracked import redline_range, redlines

MORE_STEPS = 200          # user steps a confirmed restore may also undo
CANNOT = ("The document could not be taken back to before that message (its undo history "
          "does not reach it); nothing was changed.")
NOT_FOUND = "That change can no longer be found in the document."
NOT_LATEST = ("Later edits came after this turn; use Restore on its message to take them "
              "back too.")
NOTHING = "There is nothing of this turn left to undo."


class UserEdited(MarginaliaError):
    """The document changed after the turn in other ways: ask before restoring."""


def _dispatch(ctx, doc, command):
    helper = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.frame.DispatchHelper", ctx)
    frame = doc.getCurrentController().getFrame()
    helper.executeDispatch(frame, command, "", 0, ())


def select(doc: Any, ledger: Ledger, change: cl.Change) -> None:
    """Select the change in the document; the view scrolls to it."""
    rng = spot(doc, ledger, change)
    if rng is None:
        raise ToolError(NOT_FOUND)
    doc.getCurrentController().select(rng)


def _judge_one(ctx, doc, ledger, change, accept):
    """Accept (or reject) the change's own tracked changes, one by one.

    Each is fetched afresh before it is judged: judging one can merge or end another,
    and a proxy of a tracked change Writer has let go reads as empty (7.4 crashed on
    one now and then).
    """
    ids = change.handle.get("redlines") or []
    controller = doc.getCurrentController()
    judged = 0
    for _round in range(len(ids) + 1):
        reds = redlines(doc, ids)
        if not reds:
            break
        before = len(reds)
        target = redline_range(doc, reds[0])
        del reds
        controller.select(target)
        _dispatch(ctx, doc, ".uno:AcceptTrackedChange" if accept else
                  ".uno:RejectTrackedChange")
        judged += 1
        if len(redlines(doc, ids)) >= before:
            break       # Writer did not take it: do not ask again
    kept = (ledger.handles.get(change.id) or {}).get("kept") or []
    if judged and not accept:
        # What Writer's Reject leaves off (a comment's anchor, an edge bookmark, a list).
        mark_keeper.restore(doc, kept)
    elif judged and change.kind == cl.RESTYLE:
        mark_keeper.relist(doc, kept)
    return bool(judged)


def judge(ctx: Any, doc: Any, ledger: Ledger, targets: List[cl.Change], accept: bool) -> int:
    """Accept (or reject) these tracked changes; how many were still there. One undo step."""
    pending = [c for c in targets if c.state == cl.PENDING]
    if not pending:
        return 0
    manager = doc.getUndoManager()
    manager.enterUndoContext("Marginalia: %s changes" % ("accept" if accept else "reject"))
    done = 0
    try:
        for change in pending:
            if _judge_one(ctx, doc, ledger, change, accept):
                done += 1
                change.state = cl.ACCEPTED if accept else cl.REJECTED
            else:
                change.state = cl.REVIEWED
    finally:
        manager.leaveUndoContext()
        read.invalidate()
    return done


def refresh(doc: Any, ledger: Ledger, turn: TurnLog) -> List[cl.Change]:
    """The turn's changes with the ones the user settled in Writer marked so."""
    for change in turn.changes:
        if change.state == cl.PENDING and change.handle.get("redlines") and \
                not redlines(doc, change.handle["redlines"]):
            change.state = cl.REVIEWED
        elif change.state == cl.PROPOSED:
            note = (ledger.handles.get(change.id) or {}).get("note")
            try:
                note.getAnchor()
            except Exception:
                change.state = cl.REVIEWED
    return list(turn.changes)


def edited_since(doc: Any, turns: List[TurnLog]) -> bool:
    """Whether anything but these turns changed the document since the first began.

    The change counter says nothing happened; when it moved, the body text
    decides: in a window Writer also broadcasts changes nobody made (layout,
    the modified flag), so a moved counter alone would ask the user every time.
    """
    for before, after in zip(turns, turns[1:]):
        if after.start_count != before.end_count and \
                after.fingerprint != before.end_fingerprint:
            return True
    last = turns[-1]
    return changes.change_count(doc) != last.end_count and \
        fingerprint(doc) != last.end_fingerprint


def restore(doc: Any, ledger: Ledger, first: int, confirmed: bool = False,
            only_latest: bool = False) -> int:
    """Undo turn ``first`` and every later turn; how many turns were taken back.

    Raises UserEdited (nothing done) when the user changed the document since
    and ``confirmed`` is False; ToolError (nothing changed) when it cannot.
    """
    turns = ledger.later(first)
    if not turns:
        return 0
    if only_latest and turns[0].number != first:
        raise ToolError(NOTHING)
    if only_latest and len(turns) > 1:
        raise ToolError(NOT_LATEST)
    clean = not edited_since(doc, turns)
    if not clean and not confirmed:
        raise UserEdited("You edited the document after that message.")
    target = turns[0].fingerprint
    need = sum(t.steps for t in turns)
    manager = doc.getUndoManager()
    undone = 0
    try:
        while undone < need or (not clean and fingerprint(doc) != target):
            if undone >= need + MORE_STEPS or not manager.isUndoPossible():
                raise ToolError(CANNOT)
            manager.undo()
            undone += 1
        if target is not None and fingerprint(doc) != target:
            raise ToolError(CANNOT)
    except Exception:
        for _ in range(undone):
            try:
                manager.redo()
            except Exception:
                break
        read.invalidate()
        raise
    read.invalidate()
    for turn in turns:
        turn.undone = True
        for change in turn.changes:
            change.state = cl.UNDONE
    _settle_before(doc, ledger, turns[0], clean)
    return len(turns)


def _settle_before(doc, ledger, first, clean):
    """The turn before a clean restore is on top of the document again: its end
    count becomes today's, so restoring it next needs no question."""
    earlier = [t for n, t in sorted(ledger.turns.items())
               if n < first.number and t.steps and not t.undone]
    if clean and earlier and (earlier[-1].end_count == first.start_count or
                              earlier[-1].end_fingerprint == first.fingerprint):
        earlier[-1].end_count = changes.change_count(doc)
        earlier[-1].end_fingerprint = fingerprint(doc)


def find(ledger: Ledger, change_id: int) -> cl.Change:
    change = ledger.change(int(change_id))
    if change is None:
        raise ToolError(NOT_FOUND)
    return change


def latest(ledger: Ledger, numbers: Optional[List[int]] = None) -> Optional[TurnLog]:
    """The newest turn with changes (among ``numbers`` when given) that is not undone."""
    for number in sorted(ledger.turns, reverse=True):
        turn = ledger.turns[number]
        if turn.changes and not turn.undone and (numbers is None or number in numbers):
            return turn
    return None

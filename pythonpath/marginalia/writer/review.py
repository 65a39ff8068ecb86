"""Reviewing a turn's changes: go to one, accept or reject, apply, undo, restore.

Accept and Reject act on exactly the tracked changes a call of that turn made
(their identifiers are in its records): each one's own range is selected and
Writer's Accept/Reject Tracked Change runs on that selection, so the user's own
tracked changes and other turns' are never touched. A batch is one undo step.

The card's own actions (Accept, Reject, Apply) are steps of the ledger too
(``card_step``): they are not the user's edits, so Undo turn and Restore take
them back with the turns before them without asking.

Restore takes the document back to before a turn: every later turn's and
card step's undo steps are undone one by one (each stays its own step, so
Redo brings them back). The change counter tells whether anything else
happened since; then the caller must ask the user first (UserEdited), and the
undo goes on, through the user's own steps, until the body text is the one
the turn started from. Any failure redoes what was undone: never
half-restored. Main thread only.
"""

import contextlib
from typing import Any, Iterator, List, NamedTuple, Optional

from marginalia.document import change_log as cl
from marginalia.errors import MarginaliaError, ToolError
from marginalia.writer import changes, mark_keeper, read, selection
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


@contextlib.contextmanager
def card_step(doc: Any, ledger: Ledger, settling: List[cl.Change]) -> Iterator[TurnLog]:
    """Around one card action that settles ``settling``: when it changed the document
    (one undo step), the ledger keeps it as a card step, with where it started and
    ended, so a restore knows it is no edit of the user's."""
    step = ledger.new_card_step(settling)
    step.start_count = changes.change_count(doc)
    step.fingerprint = fingerprint(doc)
    done = False
    try:
        yield step
        done = True
    finally:
        count = changes.change_count(doc)
        if done and count != step.start_count:
            step.steps = 1
            step.title = _top_title(doc)
            step.end_count = count
            step.end_fingerprint = fingerprint(doc)
        else:
            del ledger.card_steps[step.number]


def _top_title(doc):
    try:
        return doc.getUndoManager().getCurrentUndoActionTitle()
    except Exception:
        return None     # no undo action at all


def judge(ctx: Any, doc: Any, ledger: Ledger, targets: List[cl.Change], accept: bool,
          home: Optional[selection.Kept] = None) -> int:
    """Accept (or reject) these tracked changes; how many were still there. One undo step.
    The selection is ``home`` after (by default the one before: writer.selection)."""
    pending = [c for c in targets if c.state == cl.PENDING]
    if not pending:
        return 0
    with selection.around(doc, home), card_step(doc, ledger, pending):
        return _judge(ctx, doc, ledger, pending, accept)


def apply(doc: Any, ledger: Ledger, change: cl.Change,
          home: Optional[selection.Kept] = None) -> None:
    """Make a proposal real (writer.proposals.apply) as a card step."""
    from marginalia.writer import proposals
    with selection.around(doc, home), card_step(doc, ledger, [change]):
        proposals.apply(doc, ledger, change)


def _judge(ctx, doc, ledger, pending, accept):
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
    """Whether anything but these turns (and card steps) changed the document since the
    first began.

    The change counter says nothing happened; when it moved, the body text
    decides: in a window Writer also broadcasts changes nobody made (layout,
    the modified flag), so a moved counter alone would ask the user every time.
    """
    for before, after in zip(turns, turns[1:]):
        if after.start_count != before.end_count and \
                after.fingerprint != before.end_fingerprint:
            return True
    if not _ours_on_top(doc, turns):
        return True
    last = turns[-1]
    return changes.change_count(doc) != last.end_count and \
        fingerprint(doc) != last.end_fingerprint


class Restored(NamedTuple):
    turns: int              # the chat turns taken back
    yours: bool = False     # the user's own edits since then went too


def _ours_on_top(doc, steps):
    """Whether the newest undo steps are exactly these steps' own. An edit that leaves the
    text as it was (formatting, a bookmark) moves the counter but not the text: without
    this the restore would undo it in place of a turn's step (and then fail)."""
    if any(step.title is None for step in steps):
        return True         # not known: the counter and the text decide
    expected = [step.title for step in reversed(steps) for _ in range(step.steps)]
    try:
        titles = list(doc.getUndoManager().getAllUndoActionTitles())
    except Exception:
        return True
    return titles[:len(expected)] == expected


def restore(doc: Any, ledger: Ledger, first: int, confirmed: bool = False,
            only_latest: bool = False, home: Optional[selection.Kept] = None) -> Restored:
    """Undo turn ``first`` and every later turn and card step; the selection is ``home``
    after (by default the one before, or the cursor at its start: writer.selection).

    Raises UserEdited (nothing done) when the user changed the document since
    and ``confirmed`` is False; ToolError (nothing changed) when it cannot.
    """
    steps = ledger.later(first)
    turns = [step for step in steps if not step.card]
    if not turns:
        return Restored(0)
    if only_latest and turns[0].number != first:
        raise ToolError(NOTHING)
    if only_latest and len(turns) > 1:
        raise ToolError(NOT_LATEST)
    clean = not edited_since(doc, steps)
    if not clean and not confirmed:
        raise UserEdited("You edited the document after that message.")
    with selection.around(doc, home):
        _undo(doc, steps, clean)
    read.invalidate()
    for step in steps:
        step.undone = True
        for change in step.changes:
            change.state = cl.UNDONE
    # An undone card step gives the changes it settled their states back (the newest
    # first, so the oldest state wins); a change of an undone turn stays undone.
    for step in reversed(steps):
        for change_id, state in step.settled or ():
            change = ledger.change(change_id)
            if change is not None and change.state != cl.UNDONE:
                change.state = state
    _settle_before(doc, ledger, steps[0], clean)
    return Restored(len(turns), not clean)


def _undo(doc, steps, clean):
    """Undo the steps (and, not ``clean``, the user's since, until the body text is the
    one the first step started from); all redone again when that cannot be done."""
    target = steps[0].fingerprint
    need = sum(step.steps for step in steps)
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


def _settle_before(doc, ledger, first, clean):
    """The step before a clean restore is on top of the document again: its end
    count becomes today's, so restoring it next needs no question."""
    earlier = [t for t in ledger.timeline() if t.number < first.number]
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

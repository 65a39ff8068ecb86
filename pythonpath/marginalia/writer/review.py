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
from marginalia.writer import changes, mark_keeper, proposals, read, selection, tracked
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
def card_step(doc: Any, ledger: Ledger, settling: List[cl.Change],
              title: str) -> Iterator[TurnLog]:
    """Around one card action that settles ``settling`` in an undo step named ``title``.
    When the action says it did something (``step.steps = 1``) and that step is on top
    of the undo stack, the ledger keeps it as a card step, with where it started and
    ended, so a restore knows it is no edit of the user's. (Not the change counter:
    Writer also moves it with nobody editing.)"""
    step = ledger.new_card_step(settling)
    step.title = title
    for change in settling:
        if change.handle.get("redlines"):
            step.signatures[change.id] = tracked.signatures(doc, change.handle["redlines"])
        note = (ledger.handles.get(change.id) or {}).get("note")
        if note is not None:
            try:
                step.signatures[change.id] = [proposals.note_signature(note)]
            except Exception:
                pass        # the comment is gone: Apply says so
    step.start_count = changes.change_count(doc)
    step.fingerprint = fingerprint(doc)
    depth = len(_titles(doc, undo=True))
    done = False
    try:
        yield step
        done = True
    finally:
        titles = _titles(doc, undo=True)
        if done and step.steps and titles and titles[0] == title and \
                (len(titles) > depth or changes.change_count(doc) != step.start_count):
            step.end_count = changes.change_count(doc)
            step.end_fingerprint = fingerprint(doc)
            step.depth = len(titles)
        else:
            del ledger.card_steps[step.number]


JUDGE_TITLE = "Marginalia: %s changes"


def judge(ctx: Any, doc: Any, ledger: Ledger, targets: List[cl.Change], accept: bool) -> int:
    """Accept (or reject) these tracked changes; how many were still there. One undo step;
    the selection is given back after (writer.selection)."""
    pending = [c for c in targets if c.state == cl.PENDING]
    if not pending:
        return 0
    title = JUDGE_TITLE % ("accept" if accept else "reject")
    with selection.around(doc), card_step(doc, ledger, pending, title) as step:
        done = _judge(ctx, doc, ledger, pending, accept, title)
        step.steps = 1 if done else 0
        return done


def apply(doc: Any, ledger: Ledger, change: cl.Change) -> None:
    """Make a proposal real (writer.proposals.apply) as a card step."""
    with selection.around(doc), \
            card_step(doc, ledger, [change], proposals.APPLY_TITLE) as step:
        proposals.apply(doc, ledger, change)
        step.steps = 1


def _judge(ctx, doc, ledger, pending, accept, title):
    manager = doc.getUndoManager()
    manager.enterUndoContext(title)
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
    return _titles(doc, undo=True)[:len(expected)] == expected


def restore(doc: Any, ledger: Ledger, first: int, confirmed: bool = False,
            only_latest: bool = False) -> Restored:
    """Undo turn ``first`` and every later turn and card step; the selection is given
    back after (or the cursor at its start: writer.selection).

    Raises UserEdited (nothing done) when the user changed the document since
    and ``confirmed`` is False; ToolError (nothing changed) when it cannot.
    """
    undone_in_writer(doc, ledger)
    steps = ledger.later(first)
    turns = [step for step in steps if not step.card]
    if not turns:
        return Restored(0)
    if len(_titles(doc, undo=True)) < sum(step.steps for step in steps):
        raise ToolError(CANNOT)     # the undo history no longer reaches back so far
    if only_latest and turns[0].number != first:
        raise ToolError(NOTHING)
    if only_latest and len(turns) > 1:
        raise ToolError(NOT_LATEST)
    clean = not edited_since(doc, steps)
    if not clean and not confirmed:
        raise UserEdited("You edited the document after that message.")
    with selection.around(doc):
        _undo(doc, steps, clean)
    read.invalidate()
    _mark_undone(doc, ledger, steps)
    _settle_before(doc, ledger, steps[0], clean)
    return Restored(len(turns), not clean)


def _mark_undone(doc, ledger, steps):
    """The ledger after these steps were undone (in Writer or by a restore)."""
    for step in steps:
        step.undone = True
        for change in step.changes:
            change.state = cl.UNDONE
    # An undone card step gives the changes it settled their states back (the newest
    # first, so the oldest state wins), and their tracked changes, made anew by the
    # undo, their identifiers; a change of an undone turn stays undone.
    taken, notes = set(), []
    for step in reversed(steps):
        for change_id, state in step.settled or ():
            change = ledger.change(change_id)
            if change is None or change.state == cl.UNDONE:
                continue
            change.state = state
            wanted = step.signatures.get(change_id)
            if wanted and state == cl.PENDING:
                found = tracked.find_again(doc, wanted, taken)
                if found:
                    change.handle["redlines"] = found
                    taken.update(found)
            elif wanted and state == cl.PROPOSED:
                note = proposals.find_note(doc, wanted[0], notes)
                if note is not None:
                    ledger.handles.setdefault(change_id, {})["note"] = note
                    notes.append(note)


def _titles(doc, undo):
    try:
        manager = doc.getUndoManager()
        return list(manager.getAllUndoActionTitles() if undo else
                    manager.getAllRedoActionTitles())
    except Exception:
        return []


def undone_in_writer(doc: Any, ledger: Ledger) -> None:
    """Steps the user took back with Writer's own Undo (the card's Accept, say) are
    undone already; without this the restore would undo one step too many. The newest
    steps are when the newest is no longer on top of the undo stack, their titles top
    the redo stack (the last undone first) and the text is the one they started from."""
    steps = list(reversed(ledger.timeline()))
    undo, redo = _titles(doc, undo=True), _titles(doc, undo=False)
    if not steps or not redo or \
            (undo and undo[0] == steps[0].title and len(undo) >= steps[0].depth):
        return
    text = fingerprint(doc)
    gone = 0
    for count in range(1, len(steps) + 1):
        expected = [step.title for step in reversed(steps[:count]) for _ in range(step.steps)]
        if len(expected) > len(redo):
            break
        if None not in expected and redo[:len(expected)] == expected and \
                text == steps[count - 1].fingerprint:
            gone = count
    if gone:
        _mark_undone(doc, ledger, steps[:gone])


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

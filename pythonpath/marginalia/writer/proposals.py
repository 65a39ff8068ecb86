"""Comment only: edits proposed in comments, and made real one by one.

In Comment only the edit tools change no text: each call becomes a Writer
comment by the AI author anchored where its plan (writer.plan) aims, holding
the proposed edit ("Replace with: ..."), and a Change in the PROPOSED state.
``apply`` makes one proposal real later (the card's Apply): the tool runs for
real where the comment's anchor now is, and the comment goes, in one undo step.
Main thread only.
"""

import logging
from typing import Any, Dict, List, Tuple

from marginalia.chat.tools import ToolOutput
from marginalia.document import change_log as cl
from marginalia.errors import ToolError
from marginalia.i18n.phrase import phrase
from marginalia.document import tool_specs
from marginalia.document.tool_specs import AFTER, BLOCKS, FOUND, SELECTION
# The tool modules bind their functions as they are imported: Apply runs them.
from marginalia.writer import binding, keepout, mark_keeper, read, text_tools
# Imported for what they do: their tools bind to their declarations, and Apply runs them.
from marginalia.writer import block_tools, revise  # noqa: F401
from marginalia.writer.ledger import Ledger, TurnLog
from marginalia.writer.tracked import redlines
from marginalia.writer.plan import Plan
from marginalia.writer.walk import Walker

log = logging.getLogger("marginalia.writer")

MODE_NOTE = ("Comment only: the user wants a reviewer. Your edit tools do not change the "
             "text; each call leaves a comment with the proposed edit for the user to apply.")
PROPOSED = ("Proposed as a comment on %s (the text is unchanged until the user applies it). "
            "Paragraph numbers did not change.")
APPLY_TITLE = "Marginalia: apply a suggestion"
NO_TARGET = "Nothing was found to attach the proposal to; nothing was changed."
GONE = "That suggestion's comment is no longer in the document; nothing was changed."


def _anchor_range(doc, rng):
    """A range a comment can absorb: findFirst ranges as they are, others as a cursor."""
    try:
        text = rng.getText()
        cursor = text.createTextCursorByRange(rng.getStart())
        cursor.gotoRange(rng.getEnd(), True)
        return text, cursor
    except Exception:
        return None, None


def propose(doc: Any, ledger: Ledger, turn: TurnLog, plan: Plan) -> ToolOutput:
    """Comment only: a comment holding the edit, anchored where its plan aims."""
    rng = plan.proposal_anchor(doc)
    if rng is None:
        raise ToolError(NO_TARGET)
    _text, cursor = _anchor_range(doc, rng)
    if cursor is None:
        raise ToolError(NO_TARGET)
    before = cursor.getString()
    # A proposal is a comment, not a change: with the document recording changes, a
    # comment at a point (after a paragraph) was recorded as an insertion of its anchor.
    recording = bool(doc.getPropertyValue("RecordChanges"))
    if recording:
        doc.setPropertyValue("RecordChanges", False)
    try:
        note = text_tools.insert_comment(doc, cursor, plan.spec.proposal(plan.arguments))
    finally:
        if recording:
            doc.setPropertyValue("RecordChanges", True)
    paragraphs = [] if plan.first is None else [
        max(1, plan.first), plan.last if plan.last is not None else max(1, plan.first)]
    change = cl.make(ledger.next_id(), turn.number, plan.spec.name, cl.COMMENTS,
                     plan.arguments, before if plan.spec.target != AFTER else "", paragraphs)
    change.places = cl.spread(plan.places)
    change.handle["comment"] = True
    ledger.handles[change.id] = {"note": note, "first": plan.proposal_block}
    turn.changes.append(change)
    where = "paragraph %d" % paragraphs[0] if paragraphs else "the text"
    said = phrase("Suggested in a comment on paragraph %(n)d", n=paragraphs[0]) if paragraphs \
        else phrase("Suggested in a comment on the text")
    return ToolOutput(PROPOSED % where, said)


def _shifted(arguments: Dict[str, Any], first: Any, now: int) -> Dict[str, Any]:
    """The numbered arguments moved to where the comment's paragraph is now."""
    args = dict(arguments)
    args.pop("expect", None)
    if first is None:
        return args
    delta = now - int(first)
    for key in ("start", "end", "after_paragraph"):
        value = args.get(key)
        if isinstance(value, int) and value > 0:
            args[key] = value + delta
    return args


def apply(doc: Any, ledger: Ledger, change: cl.Change) -> None:
    """Make a proposed edit real and remove its comment: one undo step."""
    handle = ledger.handles.get(change.id) or {}
    note = handle.get("note")
    try:
        anchor = note.getAnchor() if note is not None else None
    except Exception:
        anchor = None
    if anchor is None:
        raise ToolError(GONE)
    args = dict(change.arguments)
    declared = tool_specs.spec(change.tool)
    if declared is None:
        raise ToolError(GONE)
    if declared.target in (AFTER, BLOCKS):
        number = Walker(doc).number_of(anchor.getStart())
        if number is None:
            raise ToolError(GONE)
        args = _shifted(args, handle.get("first"), number)
    found = keepout.marks(doc)
    if found:
        keepout.check_ranges(doc, [anchor], found)
    if declared.target == SELECTION:
        doc.getCurrentController().select(anchor)
    where = _anchor_range(doc, anchor)[1]
    manager = doc.getUndoManager()
    manager.enterUndoContext(APPLY_TITLE)
    refused = False
    try:
        # The comment goes first, so the edit meets the text as the direct edit would;
        # a refusal takes the whole step back, so then nothing has changed.
        _remove(doc, note)
        call = Plan(declared, args, anchor=where) if declared.target == FOUND else None
        binding.function(change.tool)(doc, plan=call, **args)
    except Exception:
        refused = True
        raise
    finally:
        read.invalidate()
        manager.leaveUndoContext()
        if refused:
            # A refusal or a failure: the step (the comment removed, maybe more) goes.
            try:
                manager.undo()
                manager.clearRedo()
            except Exception:
                log.exception("could not take a failed Apply back")
    change.state = cl.APPLIED


def _remove(doc: Any, note: Any) -> None:
    """Remove a proposal's comment; a bookmark at the end of the paragraph it covers,
    which the removal takes along, is put back."""
    kept = []
    try:
        kept = mark_keeper.note(doc, mark_keeper.starts_of(doc, note.getAnchor()))
    except Exception:
        log.exception("could not note the marks under a proposal")
    note.getAnchor().getText().removeTextContent(note)
    mark_keeper.restore(doc, kept, bookmarks_only=True)


def note_signature(note: Any) -> Tuple[str, str, str]:
    """What finds a proposal's comment again once an Undo made it anew (the old object
    is gone): its author, content and the text it is anchored on."""
    return (note.getPropertyValue("Author"), note.getPropertyValue("Content"),
            note.getAnchor().getString())


def find_note(doc: Any, wanted: Tuple[str, str, str], taken: List[Any]) -> Any:
    """The comment with this signature (none of ``taken``), or None."""
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        field = enum.nextElement()
        if field.supportsService("com.sun.star.text.textfield.Annotation") and \
                not any(field == other for other in taken):
            try:
                if note_signature(field) == wanted:
                    return field
            except Exception:
                continue
    return None


def settled(doc: Any, ledger: Ledger, change: cl.Change) -> bool:
    """Whether a tracked change's redlines are all gone (accepted or rejected elsewhere)."""
    ids = change.handle.get("redlines")
    return bool(ids) and not redlines(doc, ids)

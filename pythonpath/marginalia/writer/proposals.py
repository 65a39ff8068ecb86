"""Comment only, and keep-out checks per tool.

In Comment only the edit tools change no text: each call becomes a Writer
comment by the AI author anchored on its target, holding the proposed edit
("Replace with: ..."), and a Change in the PROPOSED state. ``apply`` makes
one proposal real later (the card's Apply): the tool runs for real where the
comment's anchor now is, and the comment goes, in one undo step.

``check_keep_out`` finds what a call would touch and refuses it when that
overlaps a passage the user marked (writer.keepout), before anything changes.
Main thread only.
"""

from datetime import datetime
from typing import Any, Dict, List

from marginalia.chat.tools import ToolOutput
from marginalia.document import change_log as cl
from marginalia.errors import ToolError
from marginalia.writer import keepout, read
from marginalia.writer.ledger import INSERT_TOOLS, CallRecord, Ledger, TurnLog, redlines
from marginalia.writer.walk import Walker
from marginalia.writer.turn import AI_AUTHOR

MODE_NOTE = ("Comment only: the user wants a reviewer. Your edit tools do not change the "
             "text; each call leaves a comment with the proposed edit for the user to apply.")
PROPOSED = ("Proposed as a comment on %s (the text is unchanged until the user applies it). "
            "Paragraph numbers did not change.")
NO_TARGET = "Nothing was found to attach the proposal to; nothing was changed."
GONE = "That suggestion's comment is no longer in the document; nothing was changed."


def check_keep_out(doc: Any, record: CallRecord, found: List) -> None:
    """Raise a ToolError when the call would touch a kept-out passage."""
    from marginalia.writer.text_tools import find_all, find_forgiving
    tool, args = record.tool, record.arguments
    if tool in INSERT_TOOLS:
        try:
            after = int(args.get("after_paragraph"))
        except (TypeError, ValueError):
            return       # the tool itself refuses it
        if after == 0:
            return
        rng = record.target()
        if rng is not None:
            keepout.check_point(doc, rng.getEnd(), found)
        return
    if tool == "replace_text" and args.get("all") in (True, "true"):
        try:
            ranges = find_all(doc, str(args.get("search", "")), bool(args.get("regex")),
                              args.get("match_case", True) is not False)
        except ToolError:
            return
    elif tool == "format_text" and args.get("all") in (True, "true"):
        ranges = find_forgiving(doc, str(args.get("search", "")))
    else:
        try:
            rng = record.target()
        except Exception:
            rng = None
        ranges = [rng] if rng is not None else []
    keepout.check_ranges(doc, ranges, found)


def _stamp():
    import uno
    now = datetime.now()
    stamp = uno.createUnoStruct("com.sun.star.util.DateTime")
    stamp.Year, stamp.Month, stamp.Day = now.year, now.month, now.day
    stamp.Hours, stamp.Minutes, stamp.Seconds = now.hour, now.minute, now.second
    return stamp


def _anchor_range(doc, rng):
    """A range a comment can absorb: findFirst ranges as they are, others as a cursor."""
    try:
        text = rng.getText()
        cursor = text.createTextCursorByRange(rng.getStart())
        cursor.gotoRange(rng.getEnd(), True)
        return text, cursor
    except Exception:
        return None, None


def propose(doc: Any, ledger: Ledger, turn: TurnLog, record: CallRecord) -> ToolOutput:
    """Comment only: a comment holding the edit, anchored on its target."""
    rng = record.target()
    if rng is None:
        raise ToolError(NO_TARGET)
    text, cursor = _anchor_range(doc, rng)
    if cursor is None:
        raise ToolError(NO_TARGET)
    before = cursor.getString()
    note = doc.createInstance("com.sun.star.text.textfield.Annotation")
    note.setPropertyValue("Author", AI_AUTHOR)
    note.setPropertyValue("Initials", "AI")
    note.setPropertyValue("Content", cl.proposal(record.tool, record.arguments))
    note.setPropertyValue("DateTimeValue", _stamp())
    text.insertTextContent(cursor, note, True)
    paragraphs = [] if record.first is None else [
        max(1, record.first), record.last if record.last is not None else max(1, record.first)]
    change = cl.make(ledger.next_id(), turn.number, record.tool, cl.COMMENTS, record.arguments,
                     before if record.tool not in INSERT_TOOLS else "", paragraphs)
    change.handle["comment"] = True
    ledger.handles[change.id] = {"note": note, "first": record.first}
    turn.changes.append(change)
    where = "paragraph %d" % paragraphs[0] if paragraphs else "the text"
    return ToolOutput(PROPOSED % where, "Suggested in a comment on %s" % where)


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


def apply(doc: Any, ledger: Ledger, change: cl.Change, functions: Dict[str, Any]) -> None:
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
    if change.tool not in ("replace_text", "format_text", "replace_selection"):
        number = Walker(doc).number_of(anchor.getStart())
        if number is None:
            raise ToolError(GONE)
        args = _shifted(args, handle.get("first"), number)
    found = keepout.marks(doc)
    if found:
        keepout.check_ranges(doc, [anchor], found)
    if change.tool == "replace_selection":
        doc.getCurrentController().select(anchor)
    manager = doc.getUndoManager()
    manager.enterUndoContext("Marginalia: apply a suggestion")
    try:
        # The tool first: it refuses before changing anything, and then the comment stays.
        functions[change.tool](doc, **args)
        try:
            note.getAnchor().getText().removeTextContent(note)
        except Exception:
            pass      # the edit replaced the commented text, and the comment with it
    finally:
        read.invalidate()
        manager.leaveUndoContext()
    change.state = cl.APPLIED


def settled(doc: Any, ledger: Ledger, change: cl.Change) -> bool:
    """Whether a tracked change's redlines are all gone (accepted or rejected elsewhere)."""
    ids = change.handle.get("redlines")
    return bool(ids) and not redlines(doc, ids)

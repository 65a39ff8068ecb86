"""``writer.*`` job commands: the Writer tools driven in process, for tests and bench.

org.marginalia.TestJob hands these over on a UNO socket thread; the toolbox routes
all document work to the main thread through office.mainthread.run_sync, just as
the sidebar's worker thread does.
"""

import time
from typing import Any, Dict

from marginalia.config import Settings
from marginalia.errors import Cancelled
from marginalia.writer.toolbox import WriterToolbox


def toolbox_for(ctx: Any, document: Any, payload: Dict[str, Any]) -> WriterToolbox:
    """The toolbox a job command runs a turn with: the mode from ``apply`` (or track_changes),
    the protocol from ``protocol`` (the tools protocol unless it says "rewrite")."""
    from marginalia.office.mainthread import post, run_sync
    if document is None:
        raise ValueError("this command needs a Document")
    from marginalia.document import change_log as cl
    mode = payload.get("apply") or (cl.TRACKED if payload.get("track_changes") else cl.DIRECT)
    from marginalia.office import settings_store
    settings = Settings(edit_protocol=payload.get("protocol") or "tools", **cl.mode_fields(mode))
    # The administrator's policy holds for the runners' turns as for the panel's.
    return WriterToolbox(ctx, document, settings, lambda fn: run_sync(ctx, fn),
                         run_sync(ctx, lambda: settings_store.load_policy(ctx)),
                         post=lambda fn: post(ctx, fn))


def _call_tools(ctx, document, payload):
    """begin_turn(title), each call in turn, end_turn(); results with timings.

    A call ``{"user_types": "text"}`` is no tool call: the user types a line
    there (``_user_types``), to test a turn the user edits in the middle of.
    """
    from marginalia.office.mainthread import longest_stretch
    box = toolbox_for(ctx, document, payload)
    box.record_changes = bool(payload.get("record", True))
    results = []
    started_turn = time.perf_counter()
    box.begin_turn(payload.get("title", "test"))
    if payload.get("shown") is not None:
        # The rewrite protocol's turn start: the model is shown the document (or its
        # outline) as a chat turn shows it, so its edit calls have lines to go by.
        box.attachments(int(payload["shown"]))
    try:
        for call in payload.get("calls", []):
            if "user_types" in call:
                _user_types(ctx, document, call["user_types"])
                continue
            started = time.perf_counter()
            longest_stretch()
            try:
                result = box.registry.call(call["name"], call.get("arguments", {}))
            except Cancelled as exc:
                results.append({"ok": False, "cancelled": True, "content": str(exc),
                                "seconds": time.perf_counter() - started})
                break
            results.append({"ok": result.ok, "content": result.content,
                            "summary": result.summary,
                            "phrase": result.phrase.to_dict() if result.phrase else None,
                            "seconds": time.perf_counter() - started,
                            "longest_main": longest_stretch()})
    finally:
        ended = time.perf_counter()
        box.end_turn()
        if payload.get("timing"):
            # The bench's whole-turn numbers: every call, then the turn's end on its own.
            results.append({"turn_seconds": time.perf_counter() - started_turn,
                            "end_seconds": time.perf_counter() - ended})
    return results


def _user_types(ctx, document, line):
    """The user types ``line`` as a new first paragraph between two tool calls (tests).

    It runs on the main thread outside the toolbox, as a keystroke would, with
    its own undo action.
    """
    from marginalia.office.mainthread import post, run_sync

    def type_line():
        from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK
        text = document.getText()
        cursor = text.createTextCursorByRange(text.getStart())
        text.insertString(cursor, line, False)
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
    run_sync(ctx, type_line)


def _context(ctx, document, payload):
    box = toolbox_for(ctx, document, payload)
    started = time.perf_counter()
    if box.protocol == "rewrite":
        parts = box.attachments(int(payload.get("inline") or 0), payload.get("request", ""))
        return {"document": parts.document, "note": parts.note,
                "seconds": time.perf_counter() - started}
    text = box.context(inline=int(payload.get("inline") or 0))
    return {"context": text, "seconds": time.perf_counter() - started}


def _schemas(ctx, document, payload):
    box = toolbox_for(ctx, document, payload)
    return box.registry.schemas()


_COMMANDS = {
    "writer.call_tools": _call_tools,
    "writer.context": _context,
    "writer.schemas": _schemas,
}


def handle(ctx: Any, command: str, document: Any, payload: Dict[str, Any]) -> Any:
    """Run one ``writer.*`` job command; ValueError for an unknown one."""
    handler = _COMMANDS.get(command)
    if handler is None:
        raise ValueError("unknown writer command %r" % (command,))
    return handler(ctx, document, payload)


"""``writer.*`` job commands: the Writer tools driven in process, for tests and bench.

office.jobs.execute hands these over on a UNO socket thread; the toolbox routes
all document work to the main thread through office.mainthread.run_sync, just as
the sidebar's worker thread does.
"""

import time
from typing import Any, Dict

from marginalia.config import Settings
from marginalia.errors import Cancelled
from marginalia.writer.toolbox import WriterToolbox


def _toolbox(ctx, document, payload):
    from marginalia.office.mainthread import run_sync
    if document is None:
        raise ValueError("this command needs a Document")
    from marginalia.document import change_log as cl
    mode = payload.get("apply") or (cl.TRACKED if payload.get("track_changes") else cl.DIRECT)
    settings = Settings(**cl.mode_fields(mode))
    return WriterToolbox(ctx, document, settings, lambda fn: run_sync(ctx, fn))


def _call_tools(ctx, document, payload):
    """begin_turn(title), each call in turn, end_turn(); results with timings.

    A call ``{"user_types": "text"}`` is no tool call: the user types a line
    there (``_user_types``), to test a turn the user edits in the middle of.
    """
    from marginalia.office.mainthread import longest_stretch
    box = _toolbox(ctx, document, payload)
    box.record_changes = bool(payload.get("record", True))
    results = []
    started_turn = time.perf_counter()
    box.begin_turn(payload.get("title", "test"))
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
    from marginalia.office.mainthread import run_sync

    def type_line():
        from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK
        text = document.getText()
        cursor = text.createTextCursorByRange(text.getStart())
        text.insertString(cursor, line, False)
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
    run_sync(ctx, type_line)


def _context(ctx, document, payload):
    box = _toolbox(ctx, document, payload)
    started = time.perf_counter()
    text = box.context()
    return {"context": text, "seconds": time.perf_counter() - started}


def _schemas(ctx, document, payload):
    box = _toolbox(ctx, document, payload)
    return box.registry.schemas()


def _generate(ctx, document, payload):
    """Fill ``document`` with a long synthetic report (bench): chapters, sections, lists."""
    from marginalia.office.mainthread import run_sync
    return run_sync(ctx, lambda: _fill(document, payload))


def _fill(doc, payload):
    from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK
    chapters = int(payload.get("chapters", 30))
    sections = int(payload.get("sections", 5))
    paragraphs = int(payload.get("paragraphs", 6))
    sentence = payload.get("sentence", "The quarterly figures show steady growth in every "
                                       "region, and the marker word appears here. ")
    rare = int(payload.get("rare", 0))       # this many body paragraphs get " zephyr"
    text = doc.getText()
    cursor = text.createTextCursorByRange(text.getEnd())
    started = time.perf_counter()
    doc.lockControllers()
    try:
        first = True
        for c in range(1, chapters + 1):
            items = [("Heading 1", "Chapter %d" % c)]
            for s in range(1, sections + 1):
                items.append(("Heading 2", "Section %d.%d" % (c, s)))
                for p in range(paragraphs):
                    body = sentence * 4
                    if rare > 0:
                        body += " zephyr"
                        rare -= 1
                    items.append(("Text body", body))
            for style, content in items:
                if not first:
                    text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
                first = False
                cursor.setPropertyValue("ParaStyleName", style)
                text.insertString(cursor, content, False)
    finally:
        doc.unlockControllers()
    # Generated text is not the user's work: no undo history for it.
    doc.getUndoManager().clear()
    return {"seconds": time.perf_counter() - started, "plain_chars": len(text.getString())}


def _map_check(ctx, document, payload):
    """The cheap maps against the exact enumeration (tests): the full map's records,
    the numbering-only map's texts, and where each match of ``queries`` is found."""
    from marginalia.office.mainthread import run_sync
    from marginalia.document import docview
    from marginalia.writer import mapbuild, outline, read
    from marginalia.writer.bodymap import ElementMap, Offsets
    from marginalia.writer.text_tools import find_all

    def blocks(bmap):
        return [None if bmap.is_table(n) else bmap.para_text(n)
                for n in range(1, len(bmap) + 1)]

    def places(bmap):
        out = []
        for query in payload.get("queries", ()):
            offsets = Offsets(document.getText())
            out.append([list(read.locate(document, bmap, rng, offsets))
                        for rng in find_all(document, query, False, False)])
        return out

    def by_text(bmap):
        # read.places' own path on a plain body: the text before the matches only.
        body = document.getText()
        if not read.plain_body(document, body):
            return None
        out = []
        for query in payload.get("queries", ()):
            ranges = find_all(document, query, False, False)
            found = read.places_by_text(body, ranges) if ranges else []
            out.append(found)
        mapped = [read.places_in(document, bmap, find_all(document, query, False, False))
                  for query in payload.get("queries", ())]
        return out == mapped

    def outlines(numbering, slow):
        limit = int(payload.get("limit", 60))
        found = outline.headings(document, numbering, limit)
        want = docview.outline(slow.headings(), limit=limit)
        if found is None:
            return {"outline_fast": False, "same_outline": True, "outline": want}
        got = docview.outline(found.heads, limit=limit, total=found.total)
        sel = [read.selection(document, slow, anchors) for anchors in (found.anchors, ())]
        fields = [(x.start, x.end, x.start_offset, x.end_offset, x.text) for x in sel]
        return {"outline_fast": True, "same_outline": got == want, "outline": got,
                "want_outline": want, "same_selection": fields[0] == fields[1]}

    def check():
        fast = mapbuild.cheap(document)
        numbering = mapbuild.build(document, props=False)
        guessed = mapbuild.walked(document, True)
        read.invalidate()
        slow = read.element_map(document)
        full = mapbuild.build(document)
        extra = outlines(mapbuild.build(document, props=False), full)
        extra["same_text_places"] = by_text(slow)

        def rows(bmap):
            # Para is a dataclass: equal records have equal fields.
            return [bmap.record(n) for n in range(1, len(bmap) + 1)]
        return {"fast": fast is not None, "same": fast is None or rows(fast) == rows(slow),
                "blocks": len(slow), "numbering_fast": not isinstance(numbering, ElementMap),
                "same_numbering": blocks(numbering) == blocks(slow),
                "same_places": places(numbering) == places(slow), "places": places(slow),
                "guessed": guessed is not None,
                "same_guessed": guessed is None or rows(guessed) == rows(slow), **extra}
    return run_sync(ctx, check)


def _edit_between_slices(ctx, document, payload):
    """get_document_info built in the smallest slices, a heading inserted at the start
    after the first slice (tests): does the answer show the heading?"""
    from marginalia.office.mainthread import run_sync
    from marginalia.writer import read
    from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

    def edit():
        text = document.getText()
        cursor = text.createTextCursorByRange(text.getStart())
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
        cursor.gotoPreviousParagraph(False)
        cursor.setPropertyValue("ParaStyleName", "Heading 1")
        text.insertString(cursor, payload.get("heading", "Inserted between slices"), False)

    calls = []

    def runner(fn):
        calls.append(fn)
        if len(calls) == 2:
            run_sync(ctx, edit)
        return run_sync(ctx, fn)
    run_sync(ctx, read.invalidate)
    box = WriterToolbox(ctx, document, Settings(), runner)
    box.slice = 0.0
    result = box.registry.call("get_document_info", {})
    return {"ok": result.ok, "content": result.content, "runner_calls": len(calls)}


_COMMANDS = {
    "writer.edit_between_slices": _edit_between_slices,
    "writer.map_check": _map_check,
    "writer.call_tools": _call_tools,
    "writer.context": _context,
    "writer.schemas": _schemas,
    "writer.generate": _generate,
}


def handle(ctx: Any, command: str, document: Any, payload: Dict[str, Any]) -> Any:
    """Run one ``writer.*`` job command; ValueError for an unknown one."""
    handler = _COMMANDS.get(command)
    if handler is None:
        raise ValueError("unknown writer command %r" % (command,))
    return handler(ctx, document, payload)


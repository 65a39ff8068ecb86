"""Job commands only the test suite and bench/ use, never the product (a generator, map
checks, Writer's floors, timings), under the names tests and bench/ know (``writer.generate``,
``bench.*``): marginalia_testjobs looks them up here before it routes a prefix."""

import os
import threading
import time
from typing import Any, Callable, Dict


def _load(ctx, document, payload):
    """Open ``url`` on the main thread (tests); the new document's RuntimeUID.

    Under the gtk3 plugin a document loaded from a UNO socket thread can hang
    for good: building its menu asks the clipboard (gtk_clipboard_wait_for_targets)
    on that thread, while the main thread waits for GLib's main context it holds.
    """
    import uno
    from marginalia.office import mainthread

    def load():
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        args = []
        for name, value in payload.get("args", {}).items():
            arg = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
            arg.Name, arg.Value = name, value
            args.append(arg)
        doc = desktop.loadComponentFromURL(payload["url"], "_blank", 0, tuple(args))
        return doc.RuntimeUID if doc is not None else None
    return mainthread.run_sync(ctx, load)


def _collector_state(ctx, document, payload):
    """The collector's state; with full=true, after a full collection on the main thread
    (its milliseconds in full_ms)."""
    from marginalia.office import collector, mainthread
    out = {}
    if payload.get("full"):
        out["full_ms"] = mainthread.run_sync(ctx, lambda: collector.collect(2)) * 1000
    out.update(collector.state())
    return out


def _on_main(handler: Callable) -> Callable:
    """``handler(ctx, doc, payload)`` run on the main thread, for a given Document."""
    def run(ctx, document, payload):
        from marginalia.office.mainthread import run_sync
        if document is None:
            raise ValueError("this command needs a Document")
        return run_sync(ctx, lambda: handler(ctx, document, payload))
    return run


@_on_main
def _generate(ctx, doc, payload):
    """Fill ``doc`` with a long synthetic report (bench): chapters, sections, lists."""
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


@_on_main
def _map_check(ctx, document, payload):
    """The cheap maps against the exact enumeration (tests): the full map's records,
    the numbering-only map's texts, and where each match of ``queries`` is found."""
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


def _edit_between_slices(ctx, document, payload):
    """get_document_info built in the smallest slices, a heading inserted at the start
    after the first slice (tests): does the answer show the heading?"""
    from marginalia.config import Settings
    from marginalia.office.mainthread import post, run_sync
    from marginalia.writer import read
    from marginalia.writer.toolbox import WriterToolbox
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
    box = WriterToolbox(ctx, document, Settings(edit_protocol="tools"), runner,
                        post=lambda fn: post(ctx, fn))
    box.slice = 0.0
    result = box.registry.call("get_document_info", {})
    return {"ok": result.ok, "content": result.content, "runner_calls": len(calls)}


@_on_main
def _card_cost(ctx, doc, payload):
    """What the change card's refresh does for the latest turn, timed (bench)."""
    from marginalia.ui import change_list as wording
    from marginalia.writer import review
    from marginalia.writer.ledger import ledger_for
    started = time.perf_counter()
    ledger = ledger_for(doc)
    turn = review.latest(ledger)
    changes = review.refresh(doc, ledger, turn) if turn else []
    model = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.awt.UnoControlListBoxModel", ctx)
    model.StringItemList = wording.rows(changes)
    headline = wording.headline(changes)
    return {"ms": (time.perf_counter() - started) * 1000, "changes": len(changes),
            "headline": headline}


# bench/ divides the tools' timings by these: on a shared machine they mean
# little alone, next to the same work done with one Writer call (Replace All,
# one getString, one findAll) in the same office, on the main thread, just before.

@_on_main
def _floor(ctx, doc, payload):
    """Seconds of Writer's own calls: getString, findAll, replaceAll (undone again)."""
    search = payload.get("search", "zephyr")
    replacement = payload.get("replacement", "westerly")
    out = {}
    started = time.perf_counter()
    doc.getText().getString()
    out["getString"] = time.perf_counter() - started
    sd = doc.createSearchDescriptor()
    sd.setSearchString(search)
    sd.setPropertyValue("SearchCaseSensitive", True)
    started = time.perf_counter()
    found = doc.findAll(sd)
    out["findAll"] = time.perf_counter() - started
    out["hits"] = found.getCount() if found is not None else 0
    # Found ranges still alive make Writer move each of them at every
    # replacement (Replace All 3-4x slower): Writer's own call runs without.
    del found
    if payload.get("replace", True):
        rd = doc.createReplaceDescriptor()
        rd.setSearchString(search)
        rd.setReplaceString(replacement)
        rd.setPropertyValue("SearchCaseSensitive", True)
        manager = doc.getUndoManager()
        started = time.perf_counter()
        manager.enterUndoContext("bench floor")
        try:
            out["replaced"] = doc.replaceAll(rd)
        finally:
            manager.leaveUndoContext()
        out["replaceAll"] = time.perf_counter() - started
        manager.undo()
    return out


def _process_name():
    try:
        with open("/proc/self/comm") as fh:      # Linux; the bench and tests run there
            return fh.read().strip()
    except OSError:
        return "?"


@_on_main
def _probe(ctx, doc, payload):
    """Does the extension run inside the office? And one call's cost.

    After a live install (addExtension without a restart) its components are
    made in the deployment's helper uno.bin process: every call then crosses a
    pipe, and run_sync's callbacks run on a bridge thread of that process.
    """
    import uno
    calls = int(payload.get("calls", 2000))
    cursor = doc.getText().createTextCursor()
    get = cursor.getPropertyValue
    started = time.perf_counter()
    for _i in range(calls):
        get("ParaStyleName")
    seconds = time.perf_counter() - started
    # run_sync's callback should run on the process's first thread (VCL's main
    # thread) of soffice.bin; after a live install it runs in uno.bin.
    return {"own_context": uno.getComponentContext() == ctx,
            "on_main_thread": threading.get_native_id() == os.getpid(),
            "process": _process_name(),
            "call_us": 1e6 * seconds / calls}


def _roundtrip(ctx, doc, payload):
    """Median seconds of an empty run_sync from this (socket) thread: what a slice waits."""
    from marginalia.office.mainthread import run_sync
    if doc is None:
        raise ValueError("this command needs a Document")
    seconds = []
    for _i in range(int(payload.get("calls", 21))):
        started = time.perf_counter()
        run_sync(ctx, lambda: None)
        seconds.append(time.perf_counter() - started)
    return sorted(seconds)[len(seconds) // 2]


def _doc_states(ctx, document, payload):
    """The RuntimeUIDs of the documents whose state (writer.doc_state) is kept, and what
    ``document``'s holds (tests: a closed document's state must be gone)."""
    from marginalia.office import mainthread
    from marginalia.writer import doc_state

    def look():
        states = doc_state.known()
        mine = [s for s in states if document is not None and s.key == document.RuntimeUID]
        turns = len(mine[0].ledger.turns) if mine and mine[0].ledger is not None else 0
        return {"keys": [s.key for s in states], "turns": turns}
    return mainthread.run_sync(ctx, look)


def _failing_edit(ctx, document, payload):
    """An edit of a turn that fails inside the office after changing the document (tests):
    what the model would be told, with the turn's first edit first when ``after_edit``."""
    from marginalia.errors import ToolError
    from marginalia_testjobs.writer_jobs import toolbox_for

    def half_then_fail():
        text = document.getText()
        text.insertString(text.getEnd(), " half written", False)
        raise RuntimeError("Couldn't convert <traceback object at 0x7f> to a UNO type")
    box = toolbox_for(ctx, document, payload)
    box.begin_turn("failing")
    try:
        if payload.get("after_edit"):
            box.registry.call("replace_text", {"search": payload["after_edit"],
                                               "replacement": "changed"})
        try:
            box.run_edit("half", half_then_fail)
        except ToolError as exc:
            return {"error": str(exc)}
        return {"error": None}
    finally:
        box.end_turn()


@_on_main
def _panel_fit(ctx, doc, payload):
    """Every shown control of the document's panel against the toolkit's measure of it
    (office.fit_probe); with stretch, after making every text ~30% longer and laying out."""
    from marginalia.office import fit_probe, quick_panel
    panel = quick_panel._panel_for(doc)
    if panel is None:
        raise ValueError("no panel is open for this document")
    view = panel.view
    ids = dict(view.controls)
    for part, prefix in ((view.strip, "card_"), (view.banner, "agent_"), (view.card, "setup_")):
        for name, control in (getattr(part, "controls", None) or {}).items():
            ids[prefix + name] = control
    # The longer words stay until the next call (a screenshot shows them), which puts
    # them back first.
    fit_probe.restore(_STRETCHED)
    del _STRETCHED[:]
    if payload.get("stretch"):
        fit_probe.stretch(view.container, _STRETCHED)
    view.relayout()
    size = view.parent.getPosSize()
    return {"parent": (size.Width, size.Height),
            "controls": fit_probe.measure(view.container, "", ids)}


_STRETCHED = []         # (model, property, text) that panel.fit lengthened


# Command -> handler(ctx, document, payload); each hops to the main thread itself.
def _ui_language(ctx, document, payload):
    """The office's UI language as office.ui_language reads it, and the interface's
    language in use; with "set", the user's choice (Linguistic UILocale) is set first."""
    from marginalia.office import ui_language
    from marginalia.office.config_node import node
    if "set" in payload:
        access = node(ctx, "/org.openoffice.Office.Linguistic/General", update=True)
        access.setPropertyValue("UILocale", payload["set"])
        access.commitChanges()
    return {"office": ui_language.office_language(ctx), "in_use": ui_language.ensure(ctx)}


def _office_words(ctx, document, payload):
    """Every concept's word as office.office_words reads it from the office's labels."""
    from marginalia.i18n.office_terms import TERMS
    from marginalia.office import office_words
    return {concept: office_words.word(ctx, concept) for concept in TERMS}


def _locale_formats(ctx, document, payload):
    """The conventions office.locale_formats reads for the locale ``tag``."""
    from marginalia.office import locale_formats
    return locale_formats.read(ctx, payload["tag"])._asdict()


def _panel(ctx, document):
    """The chat panel shown for ``document`` (tests): the session's listener that is one."""
    from marginalia.office import chat_session
    session = chat_session.session_for(ctx, document, recover=False)
    for listener in session._listeners:
        panel = getattr(listener, "__self__", None)
        if panel is not None and hasattr(panel, "renderer"):
            return panel
    raise ValueError("no chat panel shows this document")


@_on_main
def _panel_text(ctx, doc, payload):
    """The conversation pane's text, and the width in characters it is laid out at; with
    ``columns``, first tell the panel its pane has that width (as a resized sidebar does)."""
    panel = _panel(ctx, doc)
    if payload.get("columns"):
        panel.on_columns(int(payload["columns"]))
    return {"text": panel.view.pane_text("transcript"), "columns": panel.renderer.columns}


@_on_main
def _redlines(ctx, doc, payload):
    """Each tracked change's type, author, identifier and text, read on the main thread:
    a SwXRedline let go over the bridge dies without Writer's lock (tests/support/writer)."""
    from marginalia.writer.tracked import redline_range
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        red = enum.nextElement()
        try:
            text = redline_range(doc, red).getString()
        except Exception:
            text = ""       # a tracked table: no text of its own
        out.append({"type": red.getPropertyValue("RedlineType"), "text": text,
                    "author": red.getPropertyValue("RedlineAuthor"),
                    "id": red.getPropertyValue("RedlineIdentifier")})
    return out


COMMANDS: Dict[str, Callable[[Any, Any, Dict[str, Any]], Any]] = {
    "panel.text": _panel_text,
    "i18n.formats": _locale_formats,
    "i18n.language": _ui_language,
    "i18n.words": _office_words,
    "writer.failing_edit": _failing_edit,
    "load": _load,
    "doc.states": _doc_states,
    "collector.state": _collector_state,
    "writer.generate": _generate,
    "writer.map_check": _map_check,
    "writer.edit_between_slices": _edit_between_slices,
    "review.card_cost": _card_cost,
    "bench.floor": _floor,
    "bench.probe": _probe,
    "bench.roundtrip": _roundtrip,
    "panel.fit": _panel_fit,
    "writer.redlines": _redlines,
    # On the main thread: under gtk3 a close from a bridge thread let the main loop run a
    # view's idle work half torn down (SwFEShell::GetObjCntTypeOfSelection, a full run's abort).
    "close": _on_main(lambda ctx, doc, payload: doc.close(True)),
}

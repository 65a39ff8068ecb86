"""``bench.*`` job commands: Writer's own calls timed in process, for bench/ ratios.

The tools' timings mean little alone on a shared machine; the bench divides
them by the same work done with one Writer call (Replace All, one getString,
one findAll) in the same office, on the main thread, just before.
"""

import time
from typing import Any, Dict


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


def _probe(ctx, doc, payload):
    """Is the office's Python bridge bound to the office itself? And one call's cost.

    After a live install (addExtension without a restart) pyuno is bound to the
    deployment's helper uno.bin process: every call then crosses a pipe.
    """
    import uno
    calls = int(payload.get("calls", 2000))
    cursor = doc.getText().createTextCursor()
    get = cursor.getPropertyValue
    started = time.perf_counter()
    for _i in range(calls):
        get("ParaStyleName")
    seconds = time.perf_counter() - started
    return {"own_context": uno.getComponentContext() == ctx,
            "call_us": 1e6 * seconds / calls}


_COMMANDS = {"bench.floor": _floor, "bench.probe": _probe}


def handle(ctx: Any, command: str, document: Any, payload: Dict[str, Any]) -> Any:
    """Run one ``bench.*`` command on the main thread; ValueError for an unknown one."""
    from marginalia.office.mainthread import run_sync
    handler = _COMMANDS.get(command)
    if handler is None and command != "bench.roundtrip":
        raise ValueError("unknown bench command %r" % (command,))
    if document is None:
        raise ValueError("this command needs a Document")
    if command == "bench.roundtrip":
        started = time.perf_counter()
        for _i in range(20):
            run_sync(ctx, lambda: None)
        return (time.perf_counter() - started) / 20
    return run_sync(ctx, lambda: handler(ctx, document, payload))



def _parts(ctx, doc, payload):
    """Seconds of the map's parts in one go, and of a main-thread round trip (diagnosis)."""
    from marginalia.writer import mapbuild
    out = {}
    started = time.perf_counter()
    mapbuild.build(doc, props=False)
    out["structure"] = time.perf_counter() - started
    started = time.perf_counter()
    mapbuild.build(doc, props=True)
    out["full"] = time.perf_counter() - started
    started = time.perf_counter()
    doc.getText().getString()
    out["getString"] = time.perf_counter() - started
    return out


_COMMANDS["bench.parts"] = _parts

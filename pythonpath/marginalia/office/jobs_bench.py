"""``bench.*`` job commands: Writer's own calls timed in process, for bench/ ratios.

The tools' timings mean little alone on a shared machine; the bench divides
them by the same work done with one Writer call (Replace All, one getString,
one findAll) in the same office, on the main thread, just before.
"""

import os
import threading
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
    seconds = []
    for _i in range(int(payload.get("calls", 21))):
        started = time.perf_counter()
        run_sync(ctx, lambda: None)
        seconds.append(time.perf_counter() - started)
    return sorted(seconds)[len(seconds) // 2]


_COMMANDS = {"bench.floor": _floor, "bench.probe": _probe, "bench.roundtrip": _roundtrip}


def handle(ctx: Any, command: str, document: Any, payload: Dict[str, Any]) -> Any:
    """Run one ``bench.*`` command on the main thread; ValueError for an unknown one."""
    from marginalia.office.mainthread import run_sync
    handler = _COMMANDS.get(command)
    if handler is None:
        raise ValueError("unknown bench command %r" % (command,))
    if document is None:
        raise ValueError("this command needs a Document")
    if handler is _roundtrip:
        return handler(ctx, document, payload)
    return run_sync(ctx, lambda: handler(ctx, document, payload))

"""Commands the ``org.marginalia.Job`` service runs inside the office.

The test harness and the headless runner reach the extension's own code this
way: one JSON payload in, one JSON-able result out. ``execute`` runs on a UNO
socket thread, so anything touching documents goes through mainthread.
"""

import importlib
from typing import Any

from marginalia import __version__

# Command prefix -> module with handle(ctx, command, document, payload).
_PREFIXES = {
    "writer.": "marginalia.office.jobs_writer",
    "chat.": "marginalia.office.jobs_chat",
    "quick.": "marginalia.office.jobs_quick",
    "prompts.": "marginalia.office.jobs_quick",
    "review.": "marginalia.office.jobs_review",
    "bench.": "marginalia.office.jobs_bench",
}


def _ping(ctx, document, payload):
    return {"version": __version__}


def _settings_load(ctx, document, payload):
    from marginalia.office import mainthread
    from marginalia.office import settings_store
    # Jobs run on a socket thread; the password container belongs on the main thread.
    settings = mainthread.run_sync(ctx, lambda: settings_store.load(ctx))
    out = dict((name, getattr(settings, name)) for name, _ in settings.FIELDS)
    # Tests check the key reached the container; never hand the key itself back.
    out["api_key"] = bool(out["api_key"])
    return out


def _settings_save(ctx, document, payload):
    from marginalia.office import mainthread
    from marginalia.office import settings_store

    def save():
        current = settings_store.load(ctx)
        settings_store.save(ctx, current.copy(**payload))
    mainthread.run_sync(ctx, save)
    return True


def _collector_state(ctx, document, payload):
    """The collector's state; with full=true, after a full collection on the main thread
    (its milliseconds in full_ms)."""
    from marginalia.office import collector, mainthread
    out = {}
    if payload.get("full"):
        out["full_ms"] = mainthread.run_sync(ctx, lambda: collector.collect(2)) * 1000
    out.update(collector.state())
    return out


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


_COMMANDS = {
    "ping": _ping,
    "load": _load,
    "collector.state": _collector_state,
    "settings.load": _settings_load,
    "settings.save": _settings_save,
}


def execute(ctx, command: str, document, payload: dict) -> Any:
    """Run one command; raises for an unknown one."""
    handler = _COMMANDS.get(command)
    if handler is not None:
        return handler(ctx, document, payload)
    for prefix, module_name in _PREFIXES.items():
        if command.startswith(prefix):
            module = importlib.import_module(module_name)
            return module.handle(ctx, command, document, payload)
    raise ValueError("unknown command %r" % (command,))

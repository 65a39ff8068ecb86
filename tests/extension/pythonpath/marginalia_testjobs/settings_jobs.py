"""The settings, log and ping commands tests use (the product's runners never do)."""

from typing import Any, Dict

from marginalia import __version__


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


def _settings_locked(ctx, document, payload):
    from marginalia.office import mainthread, settings_store
    # The registry read is a UNO call: on the main thread, as every command's here.
    return mainthread.run_sync(ctx, lambda: sorted(settings_store.locked(ctx)))


def _settings_test(ctx, document, payload):
    """Test connection as the panel and the Options page run it, with ``payload`` over
    the saved settings: {"sentence"} when it failed or was refused, else {"reached"}."""
    import threading
    from marginalia.office import mainthread, server_look, settings_store
    done, out = threading.Event(), []

    def show(result):
        out.append(result)
        done.set()

    def start():
        settings = settings_store.load(ctx).copy(**payload)
        server_look.check_later(ctx, settings, show, server_look.Latest())
    mainthread.run_sync(ctx, start)
    if not done.wait(120):
        raise TimeoutError("Test connection gave no answer")
    if isinstance(out[0], Exception):
        return {"sentence": server_look.sentence(out[0])}
    return {"reached": bool(out[0].reached)}


def _log(ctx, document, payload):
    """The log files' paths; with on=true, the debug log turned on as ``/debuglog`` does."""
    from marginalia.office import logfile, mainthread

    def run():
        # log_path asks the office for the profile (a UNO call): on the main thread.
        if payload.get("on"):
            logfile.debug_on()
        path = logfile.log_path(ctx)
        return {"path": path, "debug_path": logfile.debug_path(path)}
    return mainthread.run_sync(ctx, run)


COMMANDS: Dict[str, Any] = {
    "settings.test": _settings_test,
    "log": _log,
    "settings.locked": _settings_locked,
    "ping": _ping,
    "settings.load": _settings_load,
    "settings.save": _settings_save,
}

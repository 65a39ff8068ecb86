"""Running code on LibreOffice's main (VCL) thread.

Every UI and document call belongs on the main thread. Workers post work with
``com.sun.star.awt.AsyncCallback``; ``notify`` then runs on the main thread in
headless, gen and gtk3 alike. Python's ``threading.main_thread()`` is whichever
thread first imported pyuno, so we learn the real main thread from the first
callback that runs, and code known to run there (the panel factory) can say so.
"""

import logging
import threading
import time
from typing import Any, Callable

import unohelper
from com.sun.star.awt import XCallback

from marginalia.errors import MarginaliaError

log = logging.getLogger("marginalia.mainthread")

_main_ident = [None]
# True once a posted callback ran: only VCL runs those, so its thread is the
# main thread for sure. A factory's claim (note_main_thread) is a guess until
# then, and never overrides it: tests and the job service call factories over
# the bridge, from socket threads, and a later claim from one of them made
# run_sync run jobs right there, off the main thread.
_confirmed = [False]
# The longest run_sync call on the main thread since the last longest_stretch().
_longest = [0.0]


def longest_stretch() -> float:
    """Seconds of the longest main-thread call run_sync made since the last ask; resets."""
    value, _longest[0] = _longest[0], 0.0
    return value


def note_main_thread() -> None:
    """Take the calling thread for the VCL main thread until a callback says which it is."""
    if not _confirmed[0]:
        _main_ident[0] = threading.get_ident()


def on_main_thread() -> bool:
    """True on the VCL main thread (once a main-thread callback has said which it is)."""
    return _main_ident[0] is not None and threading.get_ident() == _main_ident[0]


class _Callback(unohelper.Base, XCallback):
    def __init__(self, fn):
        self._fn = fn

    def notify(self, _data):
        _main_ident[0] = threading.get_ident()
        _confirmed[0] = True
        try:
            self._fn()
        except Exception:
            # Nothing may escape into VCL's event loop; the fn reports its own errors.
            log.exception("main-thread callback failed")


def post(ctx, fn: Callable[[], Any]) -> None:
    """Run ``fn()`` later on the main thread; returns at once."""
    cb = ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.AsyncCallback", ctx)
    cb.addCallback(_Callback(fn), None)


class MainThreadTimeout(MarginaliaError):
    pass


def run_sync(ctx, fn: Callable[[], Any], timeout: float = 300.0) -> Any:
    """Run ``fn()`` on the main thread and return its result or raise its exception.

    Called from a worker; on the main thread itself it just calls fn (waiting
    for our own event loop would deadlock).
    """
    if on_main_thread():
        return fn()
    done = threading.Event()
    box = {}

    def call():
        started = time.perf_counter()
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed back to the waiting worker
            box["error"] = exc
        finally:
            _longest[0] = max(_longest[0], time.perf_counter() - started)
            done.set()

    post(ctx, call)
    if not done.wait(timeout):
        raise MainThreadTimeout("LibreOffice did not respond in time; please try again.")
    if "error" in box:
        raise box["error"]
    return box.get("value")

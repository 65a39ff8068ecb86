"""Running code on LibreOffice's main (VCL) thread.

Every UI and document call belongs on the main thread. Workers post work with
``com.sun.star.awt.AsyncCallback``; ``notify`` then runs on the main thread in
headless, gen and gtk3 alike. Python's ``threading.main_thread()`` is whichever
thread first imported pyuno, so we learn the real main thread from the first
callback that runs; code the office calls synchronously (the panel factory,
the Options page handler) runs inside ``called_by_office`` and calls UNO
directly.
"""

import contextlib
import logging
import threading
import time
from typing import Any, Callable, Iterator

import unohelper
from com.sun.star.awt import XCallback

from marginalia.errors import MarginaliaError

log = logging.getLogger("marginalia.mainthread")

_main_ident = [None]
# True once a posted callback ran: only VCL runs those, so its thread is the
# main thread for sure; a guess (called_by_office) never overrides it.
_confirmed = [False]
# Set while the office itself is calling us synchronously (a panel factory, an
# Options page handler): it holds the SolarMutex then, so document and UI calls
# are safe right here, and posting to the main thread and waiting would
# deadlock. This may be a bridge thread (tests open the deck over the socket),
# which is why the permission is per call and not remembered for the thread:
# a later job on a socket thread with the same ident must still post.
_local = threading.local()
# The longest run_sync call on the main thread since the last longest_stretch().
_longest = [0.0]


def longest_stretch() -> float:
    """Seconds of the longest main-thread call run_sync made since the last ask; resets."""
    value, _longest[0] = _longest[0], 0.0
    return value


@contextlib.contextmanager
def called_by_office() -> Iterator[None]:
    """Around code the office calls synchronously: run_sync calls straight through.

    Until a posted callback has shown which thread is the main thread, the
    caller's thread is taken for it (the sidebar calls factories there).
    """
    if not _confirmed[0]:
        _main_ident[0] = threading.get_ident()
    before = getattr(_local, "direct", False)
    _local.direct = True
    try:
        yield
    finally:
        _local.direct = before


def on_main_thread() -> bool:
    """True where UNO calls may be made directly: the main thread, or inside called_by_office."""
    if getattr(_local, "direct", False):
        return True
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

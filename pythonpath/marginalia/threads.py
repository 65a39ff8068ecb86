"""Worker threads that never make the code starting them wait.

Why: ``threading.Thread.start()`` waits until the new thread has begun running
Python. Inside the office that can be forever: the new thread may run the
garbage collector first, and freeing a UNO window object there takes the
SolarMutex, which the starting code holds (every UI callback does, and so does
the bridge thread loading a document that builds our sidebar panel). Seen: the
setup card's model look-up froze Writer while it opened a document. A thread
started here begins on its own time; the caller never waits for it, and
``Worker.join`` waits only for the function's end, with a timeout.
"""

import _thread
import logging
import threading
import time
from typing import Any, Callable, Optional

log = logging.getLogger("marginalia")


class Worker:
    """A started function: whether it still runs, and a bounded wait for its end."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._done = threading.Event()

    def is_alive(self) -> bool:
        return not self._done.is_set()

    def join(self, timeout: Optional[float] = None) -> bool:
        """True when the function has returned (within ``timeout`` seconds)."""
        return self._done.wait(timeout)


def start(target: Callable[..., Any], *args: Any, name: str = "marginalia-worker") -> Worker:
    """Run ``target(*args)`` on a new daemon thread, without waiting for the thread."""
    worker = Worker(name)

    def run() -> None:
        try:
            target(*args)
        except BaseException:
            # The target reports its own errors; this only keeps one from vanishing.
            log.exception("the %s thread stopped with an error", name)
        finally:
            worker._done.set()
    _thread.start_new_thread(run, ())
    return worker


def later(delay: float, target: Callable[..., Any], *args: Any,
          name: str = "marginalia-timer") -> Worker:
    """Run ``target(*args)`` on a new daemon thread after ``delay`` seconds (a Timer that
    does not make its starter wait)."""
    def run() -> None:
        time.sleep(max(0.0, delay))
        target(*args)
    return start(run, name=name)

"""Python's garbage collector, run on LibreOffice's main thread only.

Why: the collector runs on whichever thread happens to allocate. Freeing a UNO
object found in a cycle (a closed panel's window, a text range) takes the
SolarMutex. A worker that collects while it holds a Python lock (a logging
handler's, a new thread's start-up) then waits for the SolarMutex, and the
thread holding the SolarMutex waits for that lock: Writer freezes. Seen twice
in the window tests with py-spy: the panel factory waiting for the log
handler's lock, held by the model look-up worker mid-collection; and a
Thread.start waiting for a new thread mid-collection. So inside the office
automatic collection is off, and a posted callback collects on the main
thread (which may take the SolarMutex at will) every second: the young
objects each time, older ones every tenth time, everything every minute, the
way Python's own schedule goes. It is the one Python of the whole office, so
the schedule stands in for the collector for every extension.
"""

import gc
import threading
import time
from typing import Any, Dict, Optional

from marginalia import threads
from marginalia.office import mainthread

EVERY = 1.0                  # seconds between collections
_lock = threading.Lock()
_state: Dict[str, Any] = {"started": False, "rounds": 0}


def take_over(ctx: Any) -> None:
    """Turn automatic collection off and collect on the main thread from now on (once)."""
    with _lock:
        if _state["started"]:
            return
        _state["started"] = True
    gc.disable()
    threads.start(_tick, ctx, name="marginalia-gc")


def _tick(ctx: Any) -> None:
    while True:
        time.sleep(EVERY)
        try:
            mainthread.post(ctx, collect)
        except Exception:
            # The office is going away: let Python collect on its own again.
            gc.enable()
            return


def collect(generation: Optional[int] = None) -> float:
    """One round on the main thread; its seconds."""
    _state["rounds"] += 1
    rounds = _state["rounds"]
    if generation is None:
        generation = 2 if rounds % 60 == 0 else 1 if rounds % 10 == 0 else 0
    started = time.perf_counter()
    gc.collect(generation)
    return time.perf_counter() - started


def state() -> Dict[str, Any]:
    """For the tests: whether Python collects by itself, and the rounds run so far (only
    a posted callback runs one, and VCL runs those on the main thread)."""
    return {"automatic": gc.isenabled(), "rounds": _state["rounds"]}

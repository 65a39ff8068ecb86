"""marginalia.threads: starting a worker never waits for the new thread."""

import _thread
import threading
import time

from marginalia import threads


def _starting_returns(hold_lock, start):
    """Whether ``start()`` returns within 2 s while another thread holds ``hold_lock``."""
    held, release = threading.Event(), threading.Event()

    def holder():
        with hold_lock:
            held.set()
            release.wait(10)
    # The helpers start the low-level way: a threading.Thread would need the lock too.
    _thread.start_new_thread(holder, ())
    held.wait(5)
    returned = threading.Event()

    def starter():
        start()
        returned.set()
    _thread.start_new_thread(starter, ())
    ok = returned.wait(2)
    release.set()
    returned.wait(10)
    return ok


def test_start_does_not_wait_for_what_a_new_thread_needs_to_begin():
    # A new threading.Thread registers itself under this lock before start()
    # returns; inside the office the equivalent wait (on the SolarMutex) froze Writer.
    ran = threading.Event()
    assert _starting_returns(threading._active_limbo_lock,
                             lambda: threads.start(ran.set, name="t"))
    assert ran.wait(5)
    # What this guards against: the plain way does wait.
    assert not _starting_returns(threading._active_limbo_lock,
                                 lambda: threading.Thread(target=ran.set, daemon=True).start())


def test_worker_join_waits_for_the_end_and_a_failure_does_not_escape(caplog):
    gate = threading.Event()
    worker = threads.start(gate.wait, 5, name="gated")
    assert worker.is_alive() and not worker.join(0.05)
    gate.set()
    assert worker.join(5) and not worker.is_alive()

    def boom():
        raise ValueError("no")
    failed = threads.start(boom, name="boom")
    assert failed.join(5)
    assert "the boom thread stopped with an error" in caplog.text


def test_later_runs_after_the_delay():
    started = time.monotonic()
    seen = []
    worker = threads.later(0.2, seen.append, "done")
    assert worker.join(5)
    assert seen == ["done"] and time.monotonic() - started >= 0.2

"""Inside the office, Python's garbage collector runs on the main thread only (office.collector)."""

import time


def test_collection_is_off_on_other_threads_and_runs_on_the_main_thread(office):
    first = office.job("collector.state")
    assert first["automatic"] is False
    deadline = time.time() + 10
    state = first
    while state["rounds"] < first["rounds"] + 2 and time.time() < deadline:
        time.sleep(0.2)
        state = office.job("collector.state")
    assert state["rounds"] >= first["rounds"] + 2, state


def test_a_full_collection_on_the_main_thread_is_short(office, doc):
    # The schedule collects everything every minute: that must not be a stall the user feels.
    state = office.job("collector.state", full=True)
    print("full collection on the main thread: %.1f ms" % state["full_ms"])
    assert 0 < state["full_ms"] < 100, state

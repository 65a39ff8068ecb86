"""The test harness notices an office that died and starts it again for the tests after."""

import os
import signal
import time


def test_a_dead_office_is_noticed_and_started_again(office):
    assert office.alive()
    process = office.office.process
    os.killpg(process.pid, signal.SIGKILL)        # what a crash looks like from outside
    deadline = time.time() + 20
    while process.poll() is None and time.time() < deadline:
        time.sleep(0.1)
    assert not office.alive()
    office.revive()
    assert office.alive()
    assert office.job("ping") is not None
    doc = office.new_writer()
    try:
        doc.getText().setString("still here")
        assert doc.getText().getString() == "still here"
    finally:
        office.close(doc)

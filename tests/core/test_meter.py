"""The panel's context meter, notices and the /test report, as the pure renderer words them."""

from marginalia.events import CONTEXT, DONE, NOTICE, STATUS, Event
from marginalia.ui import transcript
from marginalia.ui.transcript import READY, TranscriptRenderer


def test_the_meter_follows_every_request_after_whatever_the_status_says():
    renderer = TranscriptRenderer()
    renderer.user("Shorten paragraph 2")
    out = renderer.event(Event(CONTEXT, usage={"tokens": 5210, "window": 32768}))
    assert out.status == "Connecting\u2026 \u00b7 context 5.2k / 32k"
    out = renderer.event(Event(STATUS, text="Writing\u2026"))
    assert out.status == "Writing\u2026 \u00b7 context 5.2k / 32k"
    out = renderer.event(Event(CONTEXT, usage={"tokens": 900, "window": 4096}))
    assert out.status == "Writing\u2026 \u00b7 context 900 / 4k"
    done = renderer.event(Event(DONE, finish_reason="stop"))
    assert done.status == READY + " \u00b7 context 900 / 4k"
    renderer.reset()
    assert renderer.status == READY and renderer.meter == ""


def test_no_meter_without_a_window_and_notices_are_not_errors():
    renderer = TranscriptRenderer()
    renderer.user("Hi")
    assert renderer.event(Event(STATUS, text="Writing\u2026")).status == "Writing\u2026"
    out = renderer.event(Event(NOTICE, message="Edits are unavailable with this model."))
    assert out.chat.endswith("\u2139 Edits are unavailable with this model.\n")
    assert out.status is None


def test_the_test_report_is_a_titled_block_of_lines():
    renderer = TranscriptRenderer()
    renderer.user("Hello")
    out = renderer.report(["Connected to http://localhost:11434/v1.", "streaming \u2714"])
    assert out.chat == ("\nTest connection:\n  \u25b8 Connected to http://localhost:11434/v1.\n"
                        "  \u25b8 streaming \u2714\n")
    assert out.status == READY
    assert transcript.TEST_COMMAND == "/test"

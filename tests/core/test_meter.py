"""Notices and the /test report, as the pure renderer words them (the context meter is
the status line's tooltip: tests/core/test_status.py)."""

from marginalia.events import NOTICE, Event
from marginalia.ui import transcript
from marginalia.ui.transcript import TranscriptRenderer


def test_notices_are_not_errors():
    renderer = TranscriptRenderer()
    renderer.user("Hi")
    out = renderer.event(Event(NOTICE, message="Edits are unavailable with this model."))
    assert out.chat.endswith("\u2139 Edits are unavailable with this model.\n")


def test_the_test_report_is_a_titled_block_of_lines():
    renderer = TranscriptRenderer()
    renderer.user("Hello")
    out = renderer.report(["Connected to http://localhost:11434/v1.", "streaming \u2714"])
    assert out.chat == ("\nTest connection:\n  \u25b8 Connected to http://localhost:11434/v1.\n"
                        "  \u25b8 streaming \u2714\n")
    assert transcript.TEST_COMMAND == "/test"

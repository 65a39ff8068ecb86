"""Fixtures for the real-window tests; the driver itself is tests/support/panel_driver.py.

(Helpers live in tests/support, not in conftest.py: with a conftest in every
tier, a test importing "conftest" could get another tier's.)
"""

import pytest

from tests.support.panel_driver import set_model_answered


@pytest.fixture
def chat_server(gui_office):
    """A scripted model server the office talks to; settings point at it for the test."""
    from tests.support.sse_server import ScriptedServer
    server = ScriptedServer([], models=("test-model",))
    server.start()
    gui_office.job("settings.save", endpoint=server.url, model="test-model", provider="custom",
                   show_thinking=True)
    # A model has answered before: the first-run card (tests/gui/test_first_run.py) stays away.
    set_model_answered(gui_office, True)
    yield server
    server.stop()
    gui_office.job("settings.save", endpoint="http://localhost:11434/v1", model="",
                   provider="ollama")


@pytest.fixture
def gui_doc(gui_office):
    """A visible Writer document in its own window, closed after the test."""
    doc = gui_office.new_writer()
    yield doc
    gui_office.close(doc)

"""Fixtures for the real-window tests; the driver itself is tests/support/panel_driver.py.

(Helpers live in tests/support, not in conftest.py: with a conftest in every
tier, a test importing "conftest" could get another tier's.)
"""

import pytest

from tests.support.panel_driver import scripted_chat


@pytest.fixture
def chat_server(gui_office):
    """A scripted model server the office talks to; settings point at it for the test."""
    yield from scripted_chat(gui_office)


@pytest.fixture
def gui_doc(gui_office):
    """A visible Writer document in its own window, closed after the test."""
    doc = gui_office.new_writer()
    yield doc
    gui_office.close(doc)


GTK3 = {"SAL_USE_VCLPLUGIN": "gtk3", "NO_AT_BRIDGE": "1"}


@pytest.fixture(scope="module")
def gtk3_office():
    """An office with the gtk3 plugin, which pads buttons and boxes more than gen."""
    from tests.conftest import _harness
    harness = _harness(gui=True, env=GTK3)
    yield harness
    harness.stop()


@pytest.fixture(scope="module")
def dark_office():
    """An office with the gtk3 plugin in Adwaita's dark theme."""
    from tests.conftest import _harness
    harness = _harness(gui=True, env=dict(GTK3, GTK_THEME="Adwaita:dark"))
    yield harness
    harness.stop()

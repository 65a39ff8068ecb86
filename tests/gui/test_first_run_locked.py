"""The first-run card when the administrator locked the endpoint (not the model) and
turned Test connection off: the card shows (a model is still to choose) with its
Provider list and Test button greyed, and a save beside the lock keeps the key the user
stored for the administrator's server."""

import pytest

from tests.support.panel_driver import PanelDriver, has_state
from tests.support.shared_install import admin_office
from tests.support.sse_server import ScriptedServer, text_response
from tests.support.writer import chat_turn

USER_KEY = "sk-user-key-for-the-corp-server"


@pytest.fixture(scope="module")
def admin_server():
    with ScriptedServer([text_response("Hello from the corp server.")], models=("m",),
                        repeat_last=True, api_key=USER_KEY) as srv:
        yield srv


@pytest.fixture(scope="module")
def locked_office(admin_server):
    with admin_office({"endpoint": admin_server.url, "allow_test_connection": "false"},
                      ["endpoint", "allow_test_connection"], gui=True) as harness:
        yield harness


def _card(panel):
    """{accessible name: context} of the card's controls."""
    pending = [panel.frame.ContainerWindow.getAccessibleContext()]
    while pending:
        ctx = pending.pop()
        if ctx.getAccessibleName() == "Provider:" and ctx.getAccessibleRole() != 30:
            card = ctx.getAccessibleParent().getAccessibleContext()
            out = {}
            for i in range(card.getAccessibleChildCount()):
                child = card.getAccessibleChild(i).getAccessibleContext()
                out[child.getAccessibleName()] = child
            return out
        if ctx.getAccessibleChildCount() <= 60:
            pending.extend(ctx.getAccessibleChild(i).getAccessibleContext()
                           for i in range(ctx.getAccessibleChildCount())
                           if ctx.getAccessibleChild(i) is not None)
    raise AssertionError("no first-run card")


def test_the_card_greys_the_locked_provider_and_test(locked_office):
    doc = locked_office.new_writer()
    try:
        panel = PanelDriver(locked_office, doc)
        assert panel.card_labels() is not None           # the model is still to choose
        card = _card(panel)
        assert not has_state(card["Provider:"], "ENABLED")
        assert not has_state(card["Test"], "ENABLED")
        assert has_state(card["Model:"], "ENABLED")
    finally:
        locked_office.close(doc)


def test_a_preset_saved_beside_the_locked_endpoint_keeps_the_users_key(locked_office,
                                                                       admin_server):
    locked_office.job("settings.save", api_key=USER_KEY, model="m")
    # What the card's provider list saved before: a preset's endpoint and its key.
    locked_office.job("settings.save", provider="openai",
                      endpoint="https://api.openai.com/v1", api_key="sk-preset-key")
    doc = locked_office.new_writer()
    try:
        chat_turn(locked_office, doc, "Hello")
        assert admin_server.chat_requests[-1].headers["authorization"] == \
            "Bearer " + USER_KEY
    finally:
        locked_office.close(doc)

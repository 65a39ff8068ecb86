"""The administrator's policy on the Options page and the panel, in a real window: the key
from the administrator's environment variable, no chat history, no Test connection; and
the debug log said while it is on.

Marginalia and the administrator's settings are installed for every user
(tests/support/shared_install.py); the page is made as in test_panel_options.py.
"""

import os

import pytest

from marginalia import debuglog, policy
from marginalia.ui import admin_locks
from tests.gui.test_panel_options import _open_page, on_main
from tests.support.panel_driver import PanelDriver, wait_for
from tests.support.shared_install import admin_office
from tests.support.sse_server import ScriptedServer

VARIABLE = "MARGINALIA_TEST_CORP_KEY"
CORP_KEY = "corp-key-from-the-environment"
RULES = {"api_key_env": VARIABLE, "chat_days": "0", "allow_test_connection": "false"}


@pytest.fixture(scope="module")
def corp_server():
    # Answers only with the administrator's key: the page's model list must carry it.
    with ScriptedServer([], models=("corp-model",), api_key=CORP_KEY) as srv:
        yield srv


@pytest.fixture(scope="module")
def policy_office(corp_server):
    os.environ[VARIABLE] = CORP_KEY   # the office's environment
    # The administrator's key goes only to the administrator's server: an allowed list.
    rules = dict(RULES, allowed_endpoints=corp_server.url)
    try:
        with admin_office(dict(rules, endpoint=corp_server.url), list(rules),
                          gui=True) as harness:
            yield harness
    finally:
        os.environ.pop(VARIABLE, None)


def test_the_page_lists_models_with_the_administrators_key_and_never_shows_it(
        policy_office, corp_server):
    doc = policy_office.new_writer()
    try:
        window, handler = _open_page(policy_office, doc)
        try:
            # The page asks for the models as it opens: with the administrator's key.
            wait_for(lambda: any(r.path.endswith("/models") for r in corp_server.requests),
                     what="the page's model list request")
            asked = [r for r in corp_server.requests if r.path.endswith("/models")]
            assert asked[-1].headers.get("authorization") == "Bearer " + CORP_KEY
            # Reset brings the saved values back, never the administrator's key.
            on_main(policy_office,
                    lambda: handler.callHandlerMethod(window, "back", "external_event"))
            assert window.getControl("ApiKeyField").getText() == ""
        finally:
            on_main(policy_office, window.dispose)
    finally:
        policy_office.close(doc)


def _note(window):
    return window.getControl("FieldProblem").getModel().Label


def test_the_page_greys_what_the_policy_rules_out_and_says_why(policy_office):
    rules = policy.Policy(api_key_env=VARIABLE, chat_days=0, allow_test_connection=False,
                          allowed_endpoints=("x",))
    doc = policy_office.new_writer()
    try:
        window, handler = _open_page(policy_office, doc)
        try:
            for name in ("ApiKeyField", "KeepChatsCheck", "TestButton"):
                assert window.getControl(name).getModel().Enabled is False, name
            assert window.getControl("ModelCombo").getModel().Enabled is True
            # The administrator's key is in use but never shown.
            assert policy_office.job("settings.load")["api_key"] is True
            assert window.getControl("ApiKeyField").getText() == ""
            assert _note(window) == admin_locks.options_note([], rules)
            assert window.getControl("TestButton").getModel().HelpText.startswith(
                "Your administrator has turned off Test connection")

            def ok():
                window.getControl("ApiKeyField").setText("typed-by-the-user")
                assert handler.callHandlerMethod(window, "ok", "external_event")
            on_main(policy_office, ok)
            # Storing a key would have turned on the profile's persistent password store.
            container = policy_office.create("com.sun.star.task.PasswordContainer")
            assert not container.isPersistentStoringAllowed()
        finally:
            on_main(policy_office, window.dispose)
    finally:
        policy_office.close(doc)


def test_the_panel_turns_the_debug_log_on_and_the_page_says_it_is(policy_office):
    doc = policy_office.new_writer()
    try:
        panel = PanelDriver(policy_office, doc)
        panel.type("/debuglog")
        panel.key("Return")
        panel.wait_transcript(debuglog.NOTE)
        with open(policy_office.job("log")["path"], encoding="utf-8") as fh:
            assert "debug log on until LibreOffice closes" in fh.read()
        window, _handler = _open_page(policy_office, doc)
        try:
            assert _note(window).endswith(debuglog.NOTE)
        finally:
            on_main(policy_office, window.dispose)
    finally:
        policy_office.close(doc)

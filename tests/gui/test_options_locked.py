"""The Options page in a real window when an administrator locked endpoint and model.

Marginalia and the administrator's configuration extension are installed for every
user (tests/support/shared_install.py); the page is made and driven as in
test_panel_options.py.
"""

import pytest

from tests.gui.test_panel_options import _open_page, on_main
from tests.support.panel_driver import PanelDriver, accessible_tree, has_state, model_answered
from tests.support.shared_install import admin_office
from tests.support.sse_server import ScriptedServer, text_response

NOTE = "Set by your administrator: Provider, Endpoint URL, Model, AI edits."


@pytest.fixture(scope="module")
def admin_server():
    with ScriptedServer([text_response("Hello from the admin's model.")],
                        models=("admin-model",), repeat_last=True) as srv:
        yield srv


@pytest.fixture(scope="module")
def locked_office(admin_server):
    with admin_office({"endpoint": admin_server.url, "model": "admin-model",
                       "apply_mode": "tracked", "track_changes": "true"},
                      ["endpoint", "model", "apply_mode"], gui=True) as harness:
        yield harness


TEXT, LABEL = 60, 30      # com.sun.star.accessibility.AccessibleRole


def _accessible(window, role, name):
    """The page's accessible node of this role and name."""
    for node, _parent in accessible_tree(window.getAccessibleContext(), depth=3):
        if node.getAccessibleRole() == role and node.getAccessibleName() == name:
            return node
    raise AssertionError("no %d named %r on the page" % (role, name))


def test_locked_fields_are_greyed_said_and_not_saved(locked_office, admin_server):
    doc = locked_office.new_writer()
    try:
        window, handler = _open_page(locked_office, doc)
        try:
            for name in ("ProviderList", "EndpointField", "ModelCombo", "ApplyModeList"):
                assert window.getControl(name).getModel().Enabled is False, name
            assert window.getControl("ApplyModeList").getSelectedItem() == \
                "Suggest as tracked changes"
            for name in ("TemperatureField", "ApiKeyField", "KeepChatsCheck"):
                assert window.getControl(name).getModel().Enabled is True, name
            assert window.getControl("EndpointField").getText() == admin_server.url
            assert window.getControl("ModelCombo").getText() == "admin-model"
            problem = window.getControl("FieldProblem").getModel()
            assert problem.Label == NOTE
            assert window.getControl("EndpointField").getModel().HelpText == \
                "Set by your administrator. Endpoint URL"
            # What a screen reader finds: the field not enabled, and the note as text on
            # the page. (On 7.4 a control's tooltip is not its accessible description:
            # every description on the page is empty, locked or not.)
            assert not has_state(_accessible(window, TEXT, "Endpoint URL:"), "ENABLED")
            assert has_state(_accessible(window, TEXT, "Temperature:"), "ENABLED")
            assert _accessible(window, LABEL, NOTE).getAccessibleName() == NOTE

            # A field typed wrong takes the line while it is wrong; the note comes back.
            on_main(locked_office, lambda: window.getControl("TemperatureField").setText("9"))
            assert problem.Label.startswith("Temperature must be")
            on_main(locked_office, lambda: window.getControl("TemperatureField").setText("0.5"))
            assert problem.Label == NOTE

            # Even a value put into a greyed field is not saved; the free one is.
            def ok():
                window.getControl("ModelCombo").setText("user-model")
                assert handler.callHandlerMethod(window, "ok", "external_event")
            on_main(locked_office, ok)
            loaded = locked_office.job("settings.load")
            assert (loaded["endpoint"], loaded["model"]) == (admin_server.url, "admin-model")
            assert loaded["temperature"] == 0.5
        finally:
            on_main(locked_office, window.dispose)
    finally:
        locked_office.close(doc)


def test_no_first_run_card_and_a_locked_mode_switch_on_the_panel(locked_office, admin_server):
    assert not model_answered(locked_office)       # a fresh profile: no model answered yet
    doc = locked_office.new_writer()
    try:
        panel = PanelDriver(locked_office, doc)
        assert panel.card_labels() is None
        assert panel.status() == "Ready"
        # A turn from the panel reaches the administrator's server and model.
        panel.type("Hello")
        panel.key("Return")
        panel.wait_transcript("Hello from the admin's model.")
        panel.wait_idle()
        assert admin_server.chat_requests[-1].json["model"] == "admin-model"
        panel.refresh()
        # The panel's mode switch shows the administrator's mode and cannot change it.
        panel.edit_options()
        assert panel.dropdown_text("How edits are applied") == "Suggest changes"
        assert not has_state(panel.control_now(("How edits are applied",)), "ENABLED")
    finally:
        locked_office.close(doc)

"""What the Options page shows for values an administrator locked (ui/admin_locks.py)."""

import os
from xml.etree import ElementTree

from marginalia import config
from marginalia.cli import admin_config
from marginalia import policy
from marginalia.ui import admin_locks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DLG = "{http://openoffice.org/2000/dialog}"


def test_nothing_locked_leaves_the_page_as_it_is():
    assert admin_locks.locked_controls([]) == []
    assert admin_locks.page_note([]) == ""
    assert admin_locks.held([]) == frozenset()


def test_a_locked_endpoint_and_model_grey_their_controls_and_the_provider_list():
    locked = {"endpoint", "model"}
    assert admin_locks.locked_controls(locked) == ["ProviderList", "EndpointField", "ModelCombo"]
    assert admin_locks.page_note(locked) == \
        "Set by your administrator: Provider, Endpoint URL, Model."
    # A provider is a preset endpoint: saving another would move the endpoint.
    assert admin_locks.held(locked) == {"endpoint", "provider", "model"}


def test_a_locked_mode_also_holds_the_older_tick_box():
    assert admin_locks.held({"apply_mode"}) == {"apply_mode", "track_changes"}
    assert admin_locks.held({"track_changes"}) == {"apply_mode", "track_changes"}
    assert admin_locks.locked_controls({"track_changes"}) == ["ApplyModeList"]


def test_the_help_text_says_who_set_it_first_and_keeps_what_the_field_is():
    assert admin_locks.help_text("Endpoint URL") == "Set by your administrator. Endpoint URL"
    assert admin_locks.help_text("") == "Set by your administrator"
    assert admin_locks.help_text(None) == "Set by your administrator"


def test_every_locked_control_is_on_the_page_and_every_page_setting_can_be_locked():
    root = ElementTree.parse(os.path.join(ROOT, "dialogs", "OptionsPage.xdl")).getroot()
    ids = set(c.get(DLG + "id") for c in root.find(DLG + "bulletinboard"))
    for control, _fields, _label in admin_locks.CONTROLS:
        assert control in ids, control
    shown = set(f for _c, fields, _l in admin_locks.CONTROLS for f in fields)
    with open(os.path.join(ROOT, "extension", "registry", "Marginalia.xcs")) as fh:
        stored = set(f.name for f in admin_config.schema_fields(fh.read()))
    assert shown <= stored
    # Not on the page, so nothing to grey: the timeouts and the policy (policy greys
    # what it rules out). The key is not a registry value.
    # The MCP server's settings have no Options controls yet (issue 27: the panel's part).
    mcp = {"mcp_enabled", "mcp_port", "mcp_apply_mode"}
    # Chosen in the panel's Sources menu, not on the Options page; the answers' language on
    # its own page (Tools > Options > Marginalia > Language).
    mcp.update(("citations_as", "answer_language"))
    # How the model edits: for administrators and the eval, not the Options page.
    mcp.add("edit_protocol")
    assert stored - shown == {"connect_timeout", "read_timeout"} | set(policy.Policy._fields) | mcp
    assert "api_key" not in stored and "api_key" in dict(config.Settings.FIELDS)


def test_a_key_is_stored_only_for_the_server_in_effect():
    # Free endpoint: the key goes with the settings' own server.
    assert admin_locks.key_endpoint("https://a/v1", set(), "https://a/v1") == "https://a/v1"
    # Locked: the settings name the locked server, its key is stored for it...
    held = admin_locks.held({"endpoint"})
    assert admin_locks.key_endpoint("https://corp/v1", held, "https://corp/v1") == \
        "https://corp/v1"
    # ...but a preset chosen beside the lock (the first-run card's list) brings another
    # server's key, which must not overwrite the one stored for the locked server.
    assert admin_locks.key_endpoint("https://api.openai.com/v1", held,
                                    "https://corp/v1") is None

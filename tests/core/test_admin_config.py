"""``build.py admin-config``: the administrator's settings file and extension (pure)."""

import io
import os
import zipfile
from xml.etree import ElementTree

import pytest

from marginalia.cli import admin_config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
XCS = os.path.join(ROOT, "extension", "registry", "Marginalia.xcs")
OOR = admin_config.OOR


def _fields():
    with open(XCS, encoding="utf-8") as fh:
        return admin_config.schema_fields(fh.read())


def _props(xcu):
    """{name: (value or None, finalized)} from the written data."""
    root = ElementTree.fromstring(xcu)
    assert (root.get(OOR + "package"), root.get(OOR + "name")) == ("org.marginalia", "Settings")
    out = {}
    for node in root:
        for prop in node:
            value = prop.find("value")
            out[prop.get(OOR + "name")] = (
                None if value is None else (value.text or ""),
                prop.get(OOR + "finalized") == "true", node.get(OOR + "name"))
    return out


def test_the_schema_gives_every_user_setting_with_its_type_and_default():
    fields = dict((f.name, f) for f in _fields())
    assert fields["endpoint"] == admin_config.Field(
        "Connection", "endpoint", "xs:string", "http://localhost:11434/v1")
    assert fields["max_rounds"].type == "xs:int" and fields["max_rounds"].default == "12"
    assert fields["temperature"].default is None          # nillable: not sent
    assert "model_answered" not in fields and "recent_languages" not in fields


def test_values_are_set_and_only_the_locked_ones_finalized():
    xcu = admin_config.admin_xcu(_fields(), {"endpoint": "https://llm.corp/v1",
                                             "model": "corp-7b", "read_timeout": "90"},
                                 ["endpoint", "model"])
    props = _props(xcu)
    assert props == {"endpoint": ("https://llm.corp/v1", True, "Connection"),
                     "model": ("corp-7b", True, "Connection"),
                     "read_timeout": ("90.0", False, "Connection")}


def test_a_lock_without_a_value_locks_the_schema_default():
    props = _props(admin_config.admin_xcu(_fields(), {}, ["keep_chats", "temperature"]))
    assert props["keep_chats"] == ("true", True, "Chat")
    assert props["temperature"] == (None, True, "Chat")   # nil: locked at "not sent"


def test_text_is_escaped_and_typed_values_are_checked():
    props = _props(admin_config.admin_xcu(
        _fields(), {"extra_instructions": "Use <b> & \"quotes\"", "show_thinking": "False"}, []))
    assert props["extra_instructions"][0] == "Use <b> & \"quotes\""
    assert props["show_thinking"][0] == "false"
    for name, bad in (("max_rounds", "many"), ("allow_http", "yes"), ("read_timeout", "x")):
        with pytest.raises(admin_config.AdminConfigError) as caught:
            admin_config.admin_xcu(_fields(), {name: bad}, [])
        assert name in str(caught.value)
    with pytest.raises(admin_config.AdminConfigError) as caught:
        admin_config.admin_xcu(_fields(), {}, ["api_key"])
    assert "no setting 'api_key'" in str(caught.value)


def test_the_extension_holds_the_data_named_in_its_manifest():
    xcu = admin_config.admin_xcu(_fields(), {"model": "m"}, ["model"])
    data = admin_config.admin_extension(xcu, version="3")
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.read("registry/MarginaliaAdmin.xcu").decode("utf-8") == xcu
        manifest = zf.read("META-INF/manifest.xml").decode("utf-8")
        description = zf.read("description.xml").decode("utf-8")
    assert 'full-path="registry/MarginaliaAdmin.xcu"' in manifest
    assert "application/vnd.sun.star.configuration-data" in manifest
    assert '<identifier value="org.marginalia.admin"/>' in description
    assert '<version value="3"/>' in description
    # Reproducible: the same settings make the same bytes.
    assert admin_config.admin_extension(xcu, version="3") == data


def test_the_command_writes_an_xcu_or_an_extension(tmp_path):
    out = str(tmp_path / "a.xcu")
    assert admin_config.main(["--endpoint", "https://x/v1", "--model", "m", "--lock",
                              "endpoint", "model", "--set", "max_rounds=4", "--out", out],
                             XCS, "unused") == 0
    props = _props(open(out, encoding="utf-8").read())
    assert props["max_rounds"] == ("4", False, "Chat") and props["model"][1] is True
    oxt = str(tmp_path / "a.oxt")
    assert admin_config.main(["--endpoint", "https://x/v1", "--model", "m"], XCS, oxt) == 0
    assert zipfile.is_zipfile(oxt)
    assert admin_config.main(["--endpoint", "https://x/v1", "--model", "m", "--lock", "nope"],
                             XCS, oxt) == 2


def test_the_shipped_template_is_valid_data_for_every_setting():
    with open(os.path.join(ROOT, "docs", "admin", "marginalia-admin.xcu"),
              encoding="utf-8") as fh:
        props = _props(fh.read())
    assert set(props) == set(f.name for f in _fields())
    for name, (value, _final, group) in props.items():
        field = [f for f in _fields() if f.name == name][0]
        assert group == field.group, name
        if value is not None:
            admin_config.check_value(field, value)


def test_the_policy_options_are_written_and_always_locked(tmp_path):
    out = str(tmp_path / "admin.xcu")
    assert admin_config.main(
        ["--endpoint", "https://llm.corp/v1", "--model", "m",
         "--allow-endpoint", "https://llm.corp/v1", "--allow-endpoint", "gpu01:8000",
         "--local-only", "--selection-only", "--chat-days", "0", "--no-test-connection",
         "--key-file", "/etc/marginalia/key", "--allow-outside-agents"], XCS, out) == 0
    with open(out, encoding="utf-8") as fh:
        text = fh.read()
    props = _props(text)
    assert props["allowed_endpoints"] == ("https://llm.corp/v1 gpu01:8000", True, "Policy")
    assert 'oor:separator=" "' in text          # a string-list: one item per URL or host
    assert props["local_only"] == ("true", True, "Policy")
    assert props["selection_only"] == ("true", True, "Policy")
    assert props["chat_days"] == ("0", True, "Policy")
    assert props["allow_test_connection"] == ("false", True, "Policy")
    assert props["api_key_file"] == ("/etc/marginalia/key", True, "Policy")
    assert props["allow_outside_agents"] == ("true", True, "Policy")
    assert "api_key_env" not in props            # not given: the schema's default, unlocked
    assert props["endpoint"][1] is False         # only --lock locks a setting


def test_a_policy_list_given_by_set_is_split_on_commas_and_spaces():
    field = [f for f in _fields() if f.name == "allowed_endpoints"][0]
    assert field.type == "oor:string-list"
    assert admin_config.check_value(field, " a.org, https://b.org/v1  c ") == \
        "a.org https://b.org/v1 c"


@pytest.mark.parametrize("key", [["--key-env", "CORP_KEY"], ["--key-file", "/etc/k"],
                                 ["--set", "api_key_env=CORP_KEY"]])
def test_the_administrators_key_needs_the_administrators_server(tmp_path, key, capsys):
    out = str(tmp_path / "admin.xcu")
    base = ["--endpoint", "https://llm.corp/v1", "--model", "m", "--out", out]
    assert admin_config.main(base + key, XCS, "unused") == 2
    assert "--lock endpoint or --allow-endpoint" in capsys.readouterr().err
    assert not os.path.exists(out)
    assert admin_config.main(base + key + ["--lock", "endpoint"], XCS, "unused") == 0
    assert admin_config.main(base + key + ["--allow-endpoint", "https://llm.corp/v1"],
                             XCS, "unused") == 0


@pytest.mark.parametrize("option, bad, why", [
    (["--endpoint"], "htp//llm example.org", "has a space"),
    (["--endpoint"], "htp//llm.example.org", "does not start with http:// or https://"),
    (["--endpoint"], "ftp://llm.example.org/v1", "starts with ftp://"),
    (["--endpoint"], "https:///v1", "no host name"),
    (["--endpoint"], "https://llm.example.org:99999/v1", "port"),
    (["--endpoint"], "https://me:secret@llm.example.org/v1", "user name or password"),
    (["--set"], "endpoint=https://llm example.org/v1", "has a space"),
    (["--allow-endpoint"], "ftp://bad", "starts with ftp://"),
    (["--allow-endpoint"], "gpu01/v1", "does not start with http:// or https://"),
    (["--set"], "allowed_endpoints=https://ok.org,htp//x", "does not start with http"),
])
def test_an_address_that_is_no_model_server_is_refused_and_nothing_written(
        tmp_path, capsys, option, bad, why):
    out = str(tmp_path / "admin.oxt")
    argv = ["--endpoint", "https://llm.example.org/v1", "--model", "m"] + option + [bad]
    assert admin_config.main(argv, XCS, out) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err and "nothing was written" in err, err
    assert "Traceback" not in err
    assert not os.path.exists(out)


def test_urls_and_hosts_an_administrator_means_are_still_taken(tmp_path):
    out = str(tmp_path / "admin.xcu")
    assert admin_config.main(
        ["--endpoint", "http://gpu01:8000/v1", "--model", "m",
         "--allow-endpoint", "https://llm.corp/v1", "--allow-endpoint", "gpu01",
         "--allow-endpoint", "gpu01:8000", "--allow-endpoint", "http://[::1]:11434/v1",
         "--allow-endpoint", "10.0.0.5"], XCS, out) == 0
    assert _props(open(out, encoding="utf-8").read())["allowed_endpoints"][0] == \
        "https://llm.corp/v1 gpu01 gpu01:8000 http://[::1]:11434/v1 10.0.0.5"

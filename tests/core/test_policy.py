"""The administrator's policy decisions (marginalia.policy), pure."""

import pytest

from marginalia import policy
from marginalia.policy import Policy
from marginalia.ui import admin_locks

ALLOWED = Policy(allowed_endpoints=("https://llm.example.org/v1", "gpu01:8000",
                                    "ollama.corp"))


@pytest.mark.parametrize("endpoint", [
    "https://llm.example.org/v1", "https://llm.example.org/v1/", "https://LLM.example.org/v1",
    "http://gpu01:8000/v1", "https://ollama.corp/api", "http://ollama.corp:11434/v1"])
def test_an_allowed_prefix_or_host_lets_the_endpoint_through(endpoint):
    assert policy.endpoint_refusal(ALLOWED, endpoint) == ""


@pytest.mark.parametrize("endpoint", [
    "https://llm.example.org/v10",               # not at a path boundary
    "https://llm.example.org.evil.test/v1",      # the allowed name as a prefix of another
    "http://llm.example.org/v1",                 # another scheme
    "https://llm.example.org:8443/v1",           # another port
    "https://api.openai.com/v1", "http://gpu01:9000/v1", "http://gpu01/v1"])
def test_any_other_endpoint_is_refused_with_a_sentence_naming_the_policy(endpoint):
    sentence = policy.endpoint_refusal(ALLOWED, endpoint)
    assert sentence.startswith("Your administrator allows only these model servers: "
                               "https://llm.example.org/v1, gpu01:8000, ollama.corp;")
    assert sentence.count(".") >= 1 and "\n" not in sentence


def test_no_list_allows_any_server():
    assert policy.endpoint_refusal(Policy(), "https://api.openai.com/v1") == ""


@pytest.mark.parametrize("host,local", [
    ("localhost", True), ("127.0.0.1", True), ("::1", True), ("10.2.3.4", True),
    ("192.168.1.20", True), ("172.16.0.9", True), ("fd00::1", True), ("169.254.1.1", True),
    ("gpu01", True), ("llm.internal", True), ("box.local", True), ("nas.home.arpa", True),
    ("api.openai.com", False), ("8.8.8.8", False), ("172.32.0.1", False),
    ("2001:4860::8888", False), ("", False)])
def test_local_hosts_are_this_computer_and_private_networks(host, local):
    assert policy.is_local(host) is local


@pytest.mark.parametrize("host", ["134744072", "0x08080808", "8.8", "[::ffff:8.8.8.8]",
                                  "::ffff:8.8.8.8", "2002:808:808::1"])
def test_a_public_address_written_as_one_number_or_inside_ipv6_is_not_local(host):
    # getaddrinfo reads these as 8.8.8.8 (8.0.0.8): no dot is no sign of a local name.
    assert policy.is_local(host) is False
    rules = Policy(local_only=True)
    url = "http://%s:11434/v1" % (host if host.startswith("[") or ":" not in host
                                  else "[%s]" % host)
    assert policy.endpoint_refusal(rules, url).startswith("Your administrator allows only")


@pytest.mark.parametrize("host", ["gpu01", "localhost", "2130706433", "0x7f000001",
                                  "[::ffff:192.168.1.2]", "fe80::1%eth0", "llm.lan"])
def test_local_names_and_local_addresses_in_any_form_still_pass(host):
    assert policy.is_local(host) is True


@pytest.mark.parametrize("endpoint", ["http://[::1/v1", "http://h:99999/v1",
                                      "ftp://h/v1", ""])
def test_an_address_the_transport_cannot_read_is_left_to_its_own_sentence(endpoint):
    # No ValueError (the chat's unexpected-error sentence, a page waiting for ever): ""
    # here, and the transport's ConfigError says what is wrong with it.
    rules = Policy(allowed_endpoints=("https://llm.example.org/v1",), local_only=True)
    assert policy.endpoint_refusal(rules, endpoint) == ""
    assert policy.endpoint_refusal(Policy(), endpoint) == ""
    assert policy.address_refusal(rules, endpoint).startswith("Your administrator allows")
    assert policy.address_refusal(Policy(), endpoint) == ""


@pytest.mark.parametrize("entry,endpoint", [
    ("https://h/v1", "https://h:443/v1"), ("https://h:443/v1", "https://h/v1"),
    ("http://localhost:11434/v1", "localhost:11434"),
    ("http://localhost:11434/v1", "localhost:11434/v1/chat/completions"),
    ("https://api.example.org/v1", "api.example.org/v1")])
def test_addresses_are_compared_as_the_transport_reads_them(entry, endpoint):
    assert policy.endpoint_refusal(Policy(allowed_endpoints=(entry,)), endpoint) == ""


def test_a_scheme_less_address_gets_the_scheme_the_transport_gives_it():
    # "api.example.org" is sent over https: an http entry does not allow it.
    rules = Policy(allowed_endpoints=("http://api.example.org/v1",))
    assert policy.endpoint_refusal(rules, "api.example.org/v1") != ""


def test_local_only_refuses_a_cloud_provider_and_allows_a_private_server():
    rules = Policy(local_only=True)
    assert policy.endpoint_refusal(rules, "http://10.0.0.5:8000/v1") == ""
    assert policy.endpoint_refusal(rules, "https://api.openai.com/v1") == (
        "Your administrator allows only model servers on this computer or the local network; "
        "nothing was sent to https://api.openai.com/v1.")


def test_both_rules_must_allow_the_server():
    rules = Policy(allowed_endpoints=("api.openai.com",), local_only=True)
    assert policy.endpoint_refusal(rules, "https://api.openai.com/v1").startswith(
        "Your administrator allows only model servers on this computer")


def test_test_connection_off_is_refused_before_the_endpoint_is_looked_at():
    assert policy.test_refusal(Policy(allow_test_connection=False), "http://localhost/v1") \
        == policy.TEST_OFF
    assert policy.test_refusal(ALLOWED, "https://elsewhere.test/v1").startswith(
        "Your administrator allows only")
    assert policy.test_refusal(Policy(), "https://elsewhere.test/v1") == ""


def test_selection_only_leaves_only_the_selections_tools():
    rules = Policy(selection_only=True)
    for name in ("read_document", "search_document", "get_document_info", "replace_text",
                 "insert_paragraphs", "delete_paragraphs"):
        assert not policy.offers(rules, name)
    assert policy.offers(rules, "get_selection") and policy.offers(rules, "replace_selection")
    assert policy.offers(Policy(), "read_document")


def test_every_tool_a_selection_only_policy_leaves_exists():
    from marginalia.document import tool_specs
    assert set(policy.SELECTION_TOOLS) <= set(s.name for s in tool_specs.SPECS)


def test_chat_history_off_or_kept_for_some_days():
    day = 86400.0
    assert policy.keeps_chats(Policy(), True) and not policy.keeps_chats(Policy(), False)
    assert not policy.keeps_chats(Policy(chat_days=0), True)
    assert policy.keeps_chats(Policy(chat_days=3), True)
    assert not policy.expired(Policy(), 0.0, now=1000 * day)
    assert policy.expired(Policy(chat_days=3), 0.0, now=3 * day + 1)
    assert not policy.expired(Policy(chat_days=3), 0.0, now=3 * day - 1)
    assert policy.expired(Policy(chat_days=0), 10.0, now=11.0)


def _reader(files):
    def read(path):
        if path not in files:
            raise OSError(path)
        return files[path]
    return read


def test_the_key_comes_from_the_variable_then_the_file():
    rules = Policy(api_key_env="CORP_KEY", api_key_file="/etc/key")
    assert rules.key_from_admin and not Policy().key_from_admin
    assert policy.admin_key(rules, {"CORP_KEY": " k1 \n"}, _reader({})) == "k1"
    assert policy.admin_key(rules, {}, _reader({"/etc/key": "k2\n"})) == "k2"


def test_a_missing_key_is_one_sentence_naming_where_the_administrator_put_it():
    with pytest.raises(ValueError) as missing:
        policy.admin_key(Policy(api_key_env="CORP_KEY"), {}, _reader({}))
    assert "environment variable CORP_KEY" in str(missing.value)
    with pytest.raises(ValueError) as unreadable:
        policy.admin_key(Policy(api_key_file="/etc/key"), {}, _reader({"/etc/key": "  "}))
    assert "the file /etc/key" in str(unreadable.value)


def test_the_options_page_greys_what_the_policy_rules_out_and_says_why():
    rules = Policy(api_key_file="/k", chat_days=0, allow_test_connection=False)
    greyed = dict(admin_locks.greyed(["model"], rules))
    assert greyed["ModelCombo"] == "Set by your administrator"
    assert set(greyed) == {"ModelCombo", "ApiKeyField", "KeepChatsCheck", "TestButton"}
    assert admin_locks.options_note(["model"], rules) == (
        "Set by your administrator: Model. The API key is provided by your administrator. "
        "Your administrator turned off keeping chats. Your administrator has turned off "
        "Test connection.")
    assert admin_locks.greyed([], Policy()) == [] and admin_locks.options_note([], Policy()) == ""


@pytest.mark.parametrize("rules,endpoint,locked,applies", [
    (Policy(api_key_env="K"), "https://api.openai.com/v1", False, False),
    (Policy(api_key_env="K"), "https://llm.corp/v1", True, True),
    (Policy(api_key_file="/k", allowed_endpoints=("https://llm.corp/v1",)),
     "https://llm.corp/v1", False, True),
    (Policy(api_key_file="/k", allowed_endpoints=("https://llm.corp/v1",)),
     "https://evil.test/v1", False, False),
    (Policy(api_key_env="K", local_only=True), "http://10.0.0.5/v1", False, False),
    (Policy(allowed_endpoints=("https://llm.corp/v1",)), "https://llm.corp/v1", True, False)])
def test_the_administrators_key_goes_only_to_the_administrators_server(
        rules, endpoint, locked, applies):
    assert policy.admin_key_applies(rules, endpoint, locked) is applies
    sentence = policy.key_refusal(rules, endpoint, locked)
    if applies or not rules.key_from_admin:
        assert sentence == ""
    else:
        assert sentence == ("The API key from your administrator is only for your "
                            "administrator's model server; nothing was sent to %s." % endpoint)


@pytest.mark.parametrize("rules,refused", [
    (Policy(), False),
    (Policy(selection_only=True, chat_days=0), False),
    (Policy(local_only=True), True),
    (Policy(allowed_endpoints=("https://llm.corp/v1",)), True),
    (Policy(local_only=True, allow_outside_agents=True), False),
    (Policy(allowed_endpoints=("gpu01",), allow_outside_agents=True), False)])
def test_outside_agents_are_off_where_the_policy_limits_the_servers_unless_allowed(
        rules, refused):
    # An agent sends what it reads to servers the administrator never saw.
    sentence = policy.outside_agents_refusal(rules)
    assert sentence == ("Your administrator does not allow outside agents." if refused
                        else "")


def test_under_selection_only_agents_get_no_document_titles():
    titles = ["Merger plans.odt", "Untitled 1"]
    assert policy.document_titles(Policy(), titles) == titles
    assert policy.document_titles(Policy(selection_only=True), titles) == [
        "Document 1", "Document 2"]

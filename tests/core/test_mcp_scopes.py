"""Tokens with a scope: the keyring, the scope rules, and the server acting on them (issue 41).

A real McpServer on loopback with two or more named tokens; the agent's requests say
nothing about its rights: only the token it carries does.
"""

import logging

import pytest

from marginalia.document import change_log as cl
from marginalia.mcp import guard, scopes
from marginalia.mcp.backend import text_result
from marginalia.mcp.protocol import Protocol
from marginalia.mcp.scopes import COMMENT, EDIT, READ, SUGGEST, Grant, Keyring
from marginalia.mcp.server import McpServer
from tests.support.mcp_fake import (FakeBackend, Http, initialize_params, modern_rpc, rpc)

READ_TOKEN = "read-token-7c1d0e8f2a9b4c3d5e6f-not-real"
COMMENT_TOKEN = "comment-token-1a2b3c4d5e6f7a8b9c0d-not-real"
EDIT_TOKEN = "edit-token-9f8e7d6c5b4a39281706-not-real"
WRITE_TOOLS = ("echo", "refuse", "crash", "bad_result")


class ScopedBackend(FakeBackend):
    """The fake backend with tool annotations (one read-only tool) and a call log."""

    def __init__(self):
        super().__init__()
        self.noted = []

    def tools(self):
        schema = {"type": "object", "properties": {"text": {"type": "string"}}}
        out = [dict(tool, annotations={"readOnlyHint": False}) for tool in super().tools()]
        out.append({"name": "look", "description": "Read.", "inputSchema": schema,
                    "annotations": {"readOnlyHint": True}})
        return out

    def call_tool(self, client, name, arguments):
        if name == "look":
            with self._lock:
                self.calls.append((client.label, name, arguments))
            return text_result("%s may %s" % (client.label, client.grant.scope))
        return super().call_tool(client, name, arguments)

    def note_call(self, client, tool, arguments, outcome):
        self.noted.append((client.grant.name, tool, outcome))


def keyring():
    return Keyring([(READ_TOKEN, Grant("t-read", "Research agent", READ)),
                    (COMMENT_TOKEN, Grant("t-comment", "Reviewer", COMMENT)),
                    (EDIT_TOKEN, Grant("t-edit", "Coder", EDIT))])


@pytest.fixture
def scoped():
    backend = ScopedBackend()
    srv = McpServer(backend, keyring(), port=0)
    srv.start()
    yield srv, backend
    srv.stop()


# ------------------------------------------------------------------ the rules

def test_the_keyring_finds_each_token_s_grant_and_nothing_else():
    ring = keyring()
    assert ring.match("Bearer " + READ_TOKEN).name == "Research agent"
    assert ring.match("bearer  " + EDIT_TOKEN + " ").scope == EDIT
    assert ring.match("Bearer " + COMMENT_TOKEN).id == "t-comment"
    for wrong in (None, "", "Bearer", "Bearer ", "Basic " + READ_TOKEN, READ_TOKEN,
                  "Bearer " + READ_TOKEN[:-1], "Bearer " + READ_TOKEN + "x",
                  "Bearer " + READ_TOKEN.upper()):
        assert ring.match(wrong) is None, wrong
    assert Keyring().match("Bearer " + READ_TOKEN) is None
    # An empty secret is never a token (a damaged record): it matches nothing.
    assert Keyring([("", Grant("x", "x", EDIT))]).match("Bearer ") is None
    assert sorted(ring.secrets()) == sorted([READ_TOKEN, COMMENT_TOKEN, EDIT_TOKEN])


def test_the_administrator_s_cap_takes_the_weaker_scope():
    assert scopes.capped(EDIT, SUGGEST) == SUGGEST
    assert scopes.capped(READ, EDIT) == READ
    assert scopes.capped(COMMENT, "") == COMMENT
    assert scopes.capped(EDIT, None) == EDIT
    # A scope no version wrote (a damaged record) reads as the weakest, never more.
    assert scopes.capped("admin", None) == READ
    assert scopes.capped(EDIT, "everything") == READ


@pytest.mark.parametrize("scope, chosen, mode", [
    (EDIT, cl.DIRECT, cl.DIRECT), (EDIT, cl.TRACKED, cl.TRACKED),
    (EDIT, cl.COMMENTS, cl.COMMENTS), (SUGGEST, cl.DIRECT, cl.TRACKED),
    (SUGGEST, cl.TRACKED, cl.TRACKED), (SUGGEST, cl.COMMENTS, cl.COMMENTS),
    (COMMENT, cl.DIRECT, cl.COMMENTS), (COMMENT, cl.TRACKED, cl.COMMENTS),
    (READ, cl.DIRECT, None), (EDIT, "bogus", cl.TRACKED)])
def test_an_edit_is_made_in_the_stricter_of_the_scope_and_the_user_s_mode(scope, chosen,
                                                                            mode):
    assert scopes.apply_mode(scope, chosen) == mode


def test_only_a_read_only_grant_is_kept_to_the_tools_that_change_nothing():
    assert scopes.read_only({"annotations": {"readOnlyHint": True}})
    for tool in ({}, {"annotations": {"readOnlyHint": False}}, {"annotations": "yes"},
                 {"annotations": {"readOnlyHint": "true"}}):
        assert not scopes.read_only(tool)
    assert scopes.may_call(READ, True) and not scopes.may_call(READ, False)
    assert all(scopes.may_call(scope, False) for scope in (COMMENT, SUGGEST, EDIT))


# ------------------------------------------------------------------ over HTTP

def tool_names(http, **extra):
    status, _h, body = http.post(rpc("tools/list"), **extra)
    assert status == 200, body
    return sorted(t["name"] for t in body["result"]["tools"])


def test_a_read_only_token_lists_and_calls_only_the_reading_tools(scoped):
    srv, backend = scoped
    http = Http(srv.port, READ_TOKEN)
    http.initialize()
    assert tool_names(http) == ["look"]
    for name in WRITE_TOOLS:
        status, _h, body = http.post(rpc("tools/call", {"name": name,
                                                        "arguments": {"text": "x"}}))
        assert status == 200
        result = body["result"]
        assert result["isError"] is True
        assert result["content"][0]["text"] == scopes.READ_ONLY
    assert [c for c in backend.calls if c[1] != "look"] == []       # never reached it
    status, _h, body = http.post(rpc("tools/call", {"name": "look", "arguments": {}}))
    assert body["result"]["content"][0]["text"] == "test-agent may read"
    assert ("Research agent", "echo", "refused") in backend.noted
    assert ("Research agent", "look", "done") in backend.noted


def test_what_the_agent_writes_does_not_change_its_scope(scoped):
    srv, backend = scoped
    http = Http(srv.port, READ_TOKEN)
    # A modern request claiming a scope in its _meta and arguments, and a made-up header.
    message = modern_rpc("tools/call", {"name": "echo", "arguments": {"scope": "edit"}},
                         capabilities={"scope": "edit"})
    message["params"]["_meta"]["scope"] = "edit"
    status, _h, body = http.modern(message, X_Marginalia_Scope="edit")
    assert status == 200, body
    assert body["result"]["isError"] is True
    assert body["result"]["content"][0]["text"] == scopes.READ_ONLY
    assert backend.calls == []


def test_a_comment_token_calls_the_editing_tools_and_the_backend_sees_its_scope(scoped):
    srv, backend = scoped
    http = Http(srv.port, COMMENT_TOKEN)
    http.initialize()
    assert "echo" in tool_names(http)
    status, _h, body = http.post(rpc("tools/call", {"name": "look", "arguments": {}}))
    assert body["result"]["content"][0]["text"] == "test-agent may comment"
    status, _h, body = http.post(rpc("tools/call", {"name": "echo", "arguments": {"text": "hi"}}))
    assert body["result"]["isError"] is False
    http.post(rpc("tools/call", {"name": "crash", "arguments": {}}))
    assert ("Reviewer", "echo", "done") in backend.noted
    assert ("Reviewer", "crash", "failed") in backend.noted


def test_a_session_answers_only_the_token_that_opened_it(scoped):
    srv, backend = scoped
    owner = Http(srv.port, EDIT_TOKEN)
    owner.initialize()
    intruder = Http(srv.port, READ_TOKEN)
    intruder.session_id = owner.session_id
    status, _h, _body = intruder.post(rpc("tools/list"))
    assert status == 404
    status, _h, _body = intruder.request("DELETE", b"", intruder.headers())
    assert status == 404
    # The session is still the owner's, with the owner's rights.
    assert "echo" in tool_names(owner)
    status, _h, _body = owner.request("DELETE", b"", owner.headers())
    assert status == 200


def test_a_new_keyring_takes_effect_at_the_next_request(scoped):
    srv, _backend = scoped
    http = Http(srv.port, EDIT_TOKEN)
    http.initialize()
    srv.set_token(Keyring([(EDIT_TOKEN, Grant("t-edit", "Coder", READ))]))
    assert tool_names(http) == ["look"]          # the same token, now read only
    srv.set_token(Keyring([(READ_TOKEN, Grant("t-read", "Research agent", READ))]))
    status, _h, _body = http.post(rpc("tools/list"))
    assert status == 401                          # revoked


def test_the_log_filter_hides_every_token_of_the_keyring(scoped, caplog):
    srv, _backend = scoped
    record = logging.LogRecord("marginalia.mcp", logging.INFO, __file__, 1,
                               "names %s and %s", (READ_TOKEN, EDIT_TOKEN[:30]), None)
    assert srv._redactor.filter(record)
    message = record.getMessage()
    assert READ_TOKEN[:16] not in message and EDIT_TOKEN[:16] not in message
    assert message.count(guard.REDACTED) == 2


def test_the_protocol_alone_acts_with_the_grant_it_is_given():
    backend = ScopedBackend()
    protocol = Protocol(backend)
    import json
    reader = Grant("r", "Reader", READ)
    opened = protocol.handle_post(json.dumps(rpc("initialize", initialize_params())).encode(),
                                  grant=reader)
    session = opened.session_id
    listed = protocol.handle_post(json.dumps(rpc("tools/list")).encode(), session, grant=reader)
    assert [t["name"] for t in listed.body["result"]["tools"]] == ["look"]
    # The same session under another grant's token: not found.
    other = protocol.handle_post(json.dumps(rpc("tools/list")).encode(), session,
                                 grant=Grant("e", "Editor", EDIT))
    assert other.status == 404


# ------------------------------------------------------------------ the administrator's cap

def test_the_administrator_can_cap_every_token_or_turn_agents_off():
    from marginalia.cli import admin_config
    from marginalia import policy
    assert policy.outside_agents_refusal(policy.Policy(agents_scope="off")) == \
        policy.OUTSIDE_AGENTS_OFF
    for cap in ("", "read", "comment", "suggest", "edit"):
        assert policy.outside_agents_refusal(policy.Policy(agents_scope=cap)) == ""
    needed = ["--endpoint", "https://llm.example.org/v1", "--model", "m"]
    args = admin_config.parse_args(needed + ["--agents", "comment"])
    assert admin_config.policy_values(args) == {"agents_scope": "comment"}
    with pytest.raises(SystemExit):
        admin_config.parse_args(needed + ["--agents", "everything"])
    # The cap applies to each token's grant as the office builds the keyring.
    assert [scopes.capped(s, "comment") for s in scopes.SCOPES] == [READ, COMMENT, COMMENT,
                                                                     COMMENT]

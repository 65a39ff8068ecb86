"""The administrator's policy in a real LibreOffice, Marginalia and the policy installed for
every user (tests/support/shared_install.py), each turn against a scripted server.

The policy: only the administrator's server, local servers only, the model sees only the
selection, no chat history, no Test connection, the key from a file the administrator
names. Each test drives the extension as the panel does (the chat session, server_look).
"""

import json
import os
import tempfile

import pytest

from marginalia import policy
from tests.support.shared_install import OXT, with_admin_settings
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response
from tests.support.writer import build, chat_turn, one, select

KEY = "corp-key-from-the-admins-file"
SELECTED = "The quarterly figures rose sharply in spring."
OUTSIDE = "The merger with Northwind Traders stays confidential until June."


@pytest.fixture(scope="module")
def admin_server():
    # Answers only with the administrator's key: a turn that reaches it used the file's key.
    with ScriptedServer([], models=("corp-model",), api_key=KEY) as srv:
        yield srv


@pytest.fixture(scope="module")
def user_office(admin_server):
    folder = tempfile.mkdtemp(prefix="marginalia-key-")
    key_file = os.path.join(folder, "key")
    with open(key_file, "w") as fh:
        fh.write(KEY + "\n")
    # Two entries: the registry's string list must come back as two items.
    rules = {"allowed_endpoints": admin_server.url + " gpu01:8000", "local_only": "true",
             "selection_only": "true", "chat_days": "0", "allow_test_connection": "false",
             "api_key_file": key_file, "allow_outside_agents": "true"}
    layer = with_admin_settings(dict(rules, endpoint=admin_server.url, model="corp-model"),
                                list(rules))
    harness = layer.office(OXT)
    yield harness
    harness.stop()
    layer.remove()


def test_the_key_comes_from_the_administrators_file_and_is_never_stored(user_office):
    assert user_office.job("settings.load")["api_key"] is True
    # A key the user types is not kept: the administrator's is the only one.
    user_office.job("settings.save", api_key="typed-by-the-user")
    # Storing a key turns on the fresh profile's persistent password storage (and its
    # default master password, settings_store.save_key): it stayed off.
    container = user_office.create("com.sun.star.task.PasswordContainer")
    assert not container.isPersistentStoringAllowed()
    assert not container.hasMasterPassword()


def test_another_server_is_refused_before_any_request(user_office, admin_server):
    other = ScriptedServer([text_response("Answered elsewhere.")])
    doc = user_office.new_writer()
    try:
        with other:
            entries = chat_turn(user_office, doc, "hello", {"endpoint": other.url})
            assert other.requests == []
        errors = [e["message"] for e in entries if e["type"] == "error"]
        assert errors == [policy.endpoint_refusal(
            policy.Policy(allowed_endpoints=(admin_server.url, "gpu01:8000")), other.url)]
        assert errors[0].startswith("Your administrator allows only these model servers: "
                                    + admin_server.url)
    finally:
        user_office.close(doc)


def test_test_connection_is_refused_and_sends_nothing(user_office, admin_server):
    before = len(admin_server.requests)
    assert user_office.job("settings.test") == {"sentence": policy.TEST_OFF}
    assert len(admin_server.requests) == before


def test_the_model_sees_only_the_selection_and_no_tool_reads_beyond_it(user_office,
                                                                       admin_server):
    doc = build(user_office, [("Standard", "An opening paragraph about the weather."),
                              ("Standard", SELECTED), ("Standard", OUTSIDE)])
    admin_server.add(
        tool_calls_response([("c1", "read_document", {"start": 1, "end": -1}),
                             ("c2", "search_document", {"query": "Northwind"}),
                             ("c3", "get_document_info", {}),
                             ("c4", "get_selection", {})]),
        text_response("The selection is about spring figures."))
    try:
        select(doc, "The quarterly", "spring.")
        before = len(admin_server.chat_requests)
        entries = chat_turn(user_office, doc, "What does it say?")
        sent = admin_server.chat_requests[before:]
        assert len(sent) == 2 and not any(e["type"] == "error" for e in entries), entries
        assert sent[0].headers["authorization"] == "Bearer " + KEY
        offered = sorted(t["function"]["name"] for t in sent[0].json["tools"])
        assert offered == sorted(policy.SELECTION_TOOLS)
        system = sent[0].json["messages"][0]["content"]
        assert SELECTED in system and policy.SELECTION_NOTE in system
        for request in sent:
            body = json.dumps(request.json, ensure_ascii=False)
            # (The model's own search for "Northwind" is in the history; what it would
            # have found is not.)
            assert "Northwind Traders" not in body and "confidential" not in body
            assert "opening paragraph" not in body and "weather" not in body
        results = [m["content"] for m in sent[1].json["messages"] if m["role"] == "tool"]
        assert len(results) == 4
        assert all("Error" in r for r in results[:3]), results
        assert SELECTED in results[3]
    finally:
        user_office.close(doc)


def test_no_chat_is_kept_when_the_administrator_turned_history_off(user_office,
                                                                   admin_server):
    admin_server.add(text_response("Nothing of this is kept."))
    doc = user_office.new_writer()
    try:
        chat_turn(user_office, doc, "remember me")
        listed = user_office.job("chat.history", doc)
        assert listed["chats"] == []
        folder = listed["folder"]
        kept = [f for _d, _s, files in os.walk(folder) for f in files] \
            if os.path.isdir(folder) else []
        assert kept == []
    finally:
        user_office.close(doc)


def test_the_runners_tools_and_context_hold_to_the_selection_too(user_office):
    doc = build(user_office, [("Standard", SELECTED), ("Standard", OUTSIDE)])
    try:
        select(doc, "The quarterly", "spring.")
        context = user_office.job("writer.context", doc, inline=100000)["context"]
        assert SELECTED in context and "Northwind" not in context
        read = one(user_office, doc, "read_document", start=1, end=-1)
        assert not read["ok"] and "no tool named 'read_document'" in read["content"]
        assert "Northwind" not in read["content"]
        assert one(user_office, doc, "get_selection")["ok"]
    finally:
        user_office.close(doc)


def test_outside_agents_are_offered_only_the_selection_tools(user_office):
    from tests.support.mcp_client import agent
    # local_only and allowed_endpoints keep agents off; this policy allows them explicitly.
    started = user_office.job("mcp.start", port=0)
    try:
        async def steps(a):
            from mcp.shared.exceptions import MCPError
            tools = set(await a.tools())
            with pytest.raises(MCPError, match="Unknown tool"):
                await a.call("read_document")
            return tools
        tools = agent("http://127.0.0.1:%d/mcp" % started["port"], started["token"],
                               "Claude", steps)
    finally:
        user_office.job("mcp.stop")
    assert tools == set(policy.SELECTION_TOOLS) | {"list_documents"}, tools

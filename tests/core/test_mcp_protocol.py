"""The MCP JSON-RPC dispatch without a socket: negotiation, sessions, errors, backend faults."""

import json
import logging

import pytest

import marginalia
from marginalia.errors import UNEXPECTED
from marginalia.mcp import HANDSHAKE_VERSIONS, LATEST_HANDSHAKE_VERSION, SUPPORTED_VERSIONS
from marginalia.mcp.protocol import Protocol
from marginalia.mcp.sessions import Sessions
from tests.support.mcp_fake import SECRET_CRASH_TEXT, FakeBackend, initialize_params, rpc


def post(protocol, message, session_id=None, version=None):
    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    return protocol.handle_post(body, session_id, version)


def opened(version="2025-11-25", **info):
    protocol = Protocol(FakeBackend())
    outcome = post(protocol, rpc("initialize", initialize_params(version, **info)))
    assert outcome.status == 200, outcome
    return protocol, outcome.session_id


def call(protocol, session_id, method, params=None, request_id=7):
    outcome = post(protocol, rpc(method, params, request_id), session_id)
    assert outcome.status == 200, outcome
    assert outcome.body["id"] == request_id
    return outcome.body


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_initialize_agrees_on_each_handshake_revision(version):
    protocol = Protocol(FakeBackend())
    outcome = post(protocol, rpc("initialize", initialize_params(version)))
    result = outcome.body["result"]
    assert result["protocolVersion"] == version
    assert result["serverInfo"]["name"] == "Marginalia"
    assert result["serverInfo"]["version"] == marginalia.__version__
    assert set(result["capabilities"]) == {"tools", "resources", "prompts"}
    assert "list_documents" in result["instructions"]
    assert outcome.session_id and protocol.sessions.get(outcome.session_id).protocol_version \
        == version


@pytest.mark.parametrize("asked", ["2024-11-05", "2026-07-28", "draft"])
def test_initialize_offers_the_latest_handshake_for_a_revision_it_cannot_open(asked):
    # 2026-07-28 is spoken, but has no handshake: initialize cannot agree on it.
    protocol, session_id = opened(asked)
    assert protocol.sessions.get(session_id).protocol_version == LATEST_HANDSHAKE_VERSION \
        == "2025-11-25"


def test_initialize_without_a_version_is_invalid_params():
    outcome = post(Protocol(FakeBackend()), rpc("initialize", {"clientInfo": {"name": "x"}}))
    assert outcome.body["error"]["code"] == -32602
    assert outcome.session_id is None


def test_the_agent_is_named_by_its_title_then_its_name():
    protocol, session_id = opened(name="claude-code", title="Claude Code")
    post(protocol, rpc("tools/call", {"name": "echo", "arguments": {"text": "hi"}}), session_id)
    assert protocol.backend.calls == [("Claude Code", "echo", {"text": "hi"})]
    assert protocol.backend.started == ["Claude Code"]
    protocol2, session2 = opened(name="cursor")
    assert protocol2.sessions.get(session2).label == "cursor"


def test_an_unsupported_protocol_version_header_is_refused_with_400():
    # Both eras' rule: 400; the code and data are 2026-07-28's, which either era can read.
    protocol, session_id = opened()
    outcome = post(protocol, rpc("tools/list"), session_id, version="2099-01-01")
    assert outcome.status == 400 and outcome.body["error"]["code"] == -32022
    assert outcome.body["error"]["data"] == {"supported": list(SUPPORTED_VERSIONS),
                                             "requested": "2099-01-01"}
    assert "2025-11-25" in outcome.body["error"]["message"]
    assert post(protocol, rpc("tools/list"), session_id, version="2025-06-18").status == 200
    assert protocol.backend.calls == []


def test_a_session_is_needed_after_initialize():
    protocol, session_id = opened()
    missing = post(protocol, rpc("tools/list"))
    unknown = post(protocol, rpc("tools/list"), "not-a-session")
    assert (missing.status, unknown.status) == (400, 404)
    assert missing.body["error"]["code"] == -32600 and missing.body["id"] is None


def test_tools_list_and_a_call():
    protocol, session_id = opened()
    tools = call(protocol, session_id, "tools/list")["result"]["tools"]
    assert [tool["name"] for tool in tools] == ["echo", "refuse", "crash", "bad_result"]
    result = call(protocol, session_id, "tools/call",
                  {"name": "echo", "arguments": {"text": "hello"}})["result"]
    assert result == {"content": [{"type": "text", "text": "test-agent says hello"}],
                      "isError": False}


def test_an_unknown_tool_is_invalid_params_and_the_backend_is_not_called():
    protocol, session_id = opened()
    body = call(protocol, session_id, "tools/call", {"name": "format_disk", "arguments": {}})
    assert body["error"]["code"] == -32602 and "format_disk" in body["error"]["message"]
    assert protocol.backend.calls == []


@pytest.mark.parametrize("params", [{"arguments": {}}, {"name": 3}, {"name": "echo",
                                    "arguments": ["text"]}, {"name": "echo", "arguments": "x"}])
def test_malformed_call_params_are_invalid_params(params):
    protocol, session_id = opened()
    assert call(protocol, session_id, "tools/call", params)["error"]["code"] == -32602
    assert protocol.backend.calls == []


def test_params_that_are_not_an_object_are_invalid_params():
    protocol, session_id = opened()
    assert call(protocol, session_id, "tools/list", ["x"])["error"]["code"] == -32602


def test_a_refusal_is_a_tool_error_the_model_reads():
    protocol, session_id = opened()
    result = call(protocol, session_id, "tools/call", {"name": "refuse"})["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"] == "The user stopped this agent in the Marginalia panel."


@pytest.mark.parametrize("method, params", [
    ("tools/list", {}), ("resources/list", {}), ("resources/templates/list", {}),
    ("prompts/list", {}), ("prompts/get", {"name": "summarize"})])
def test_a_refused_agent_is_refused_its_lists_and_prompts_and_others_are_served(method,
                                                                                params):
    protocol, stopped = opened(name="stopped-agent")
    other = post(protocol, rpc("initialize", initialize_params(name="other-agent"))).session_id
    protocol.backend.stopped.add("stopped-agent")
    error = call(protocol, stopped, method, params)["error"]
    assert error["code"] == -32000 and "stopped this agent" in error["message"]
    assert "result" in call(protocol, other, method, params)
    assert "result" in call(protocol, stopped, "ping")


def test_a_backend_crash_is_one_plain_sentence_and_a_logged_trace(caplog):
    protocol, session_id = opened()
    with caplog.at_level(logging.ERROR, logger="marginalia.mcp"):
        body = call(protocol, session_id, "tools/call", {"name": "crash", "arguments": {}})
    assert body["result"] == {"content": [{"type": "text", "text": UNEXPECTED}], "isError": True}
    assert SECRET_CRASH_TEXT not in json.dumps(body) and "Traceback" not in json.dumps(body)
    assert SECRET_CRASH_TEXT in caplog.text      # the trace is in the log


def test_a_result_that_is_not_a_call_result_is_a_fault():
    protocol, session_id = opened()
    result = call(protocol, session_id, "tools/call", {"name": "bad_result"})["result"]
    assert result["isError"] is True and result["content"][0]["text"] == UNEXPECTED


def test_resources_and_prompts():
    protocol, session_id = opened()
    assert call(protocol, session_id, "resources/list")["result"]["resources"][0]["name"] \
        == "Report.odt"
    read = call(protocol, session_id, "resources/read", {"uri": "marginalia://document/1"})
    assert read["result"]["contents"][0]["text"] == "# Report"
    missing = call(protocol, session_id, "resources/read", {"uri": "marginalia://document/9"})
    assert missing["error"]["code"] == -32002
    assert missing["error"]["data"] == {"uri": "marginalia://document/9"}
    assert call(protocol, session_id, "prompts/list")["result"]["prompts"][0]["name"] \
        == "summarize"
    got = call(protocol, session_id, "prompts/get", {"name": "summarize",
                                                     "arguments": {"length": "50"}})
    assert got["result"]["messages"][0]["content"]["text"] == "Summarize in 50 words."
    assert call(protocol, session_id, "prompts/get", {"name": "nope"})["error"]["code"] == -32602
    assert call(protocol, session_id, "prompts/get",
                {"name": "summarize", "arguments": {"length": 5}})["error"]["code"] == -32602


def test_ping_unknown_method_and_notifications():
    protocol, session_id = opened()
    assert call(protocol, session_id, "ping")["result"] == {}
    assert call(protocol, session_id, "sampling/createMessage")["error"]["code"] == -32601
    note = post(protocol, rpc("notifications/initialized", request_id=None), session_id)
    assert (note.status, note.body) == (202, None)
    answer = post(protocol, {"jsonrpc": "2.0", "id": 5, "result": {}}, session_id)
    assert (answer.status, answer.body) == (202, None)


@pytest.mark.parametrize("body,code", [
    (b"{not json", -32700), (b"\xff\xfe", -32700),
    (json.dumps({"id": 1, "method": "ping"}).encode(), -32600),
    (json.dumps({"jsonrpc": "2.0", "id": None, "method": "ping"}).encode(), -32600),
    (json.dumps({"jsonrpc": "2.0", "id": True, "method": "ping"}).encode(), -32600),
    (json.dumps({"jsonrpc": "2.0", "id": 1, "method": 5}).encode(), -32600),
    (json.dumps("ping").encode(), -32600),
])
def test_a_malformed_body_is_400(body, code):
    protocol, session_id = opened()
    outcome = post(protocol, body, session_id)
    assert outcome.status == 400 and outcome.body["error"]["code"] == code


def test_batches_only_in_a_2025_03_26_session():
    batch = [rpc("ping", request_id=1), rpc("notifications/initialized", request_id=None),
             rpc("tools/call", {"name": "echo", "arguments": {"text": "b"}}, request_id=2),
             rpc("initialize", initialize_params(), request_id=3), {"jsonrpc": "1.0"}]
    old, old_session = opened("2025-03-26")
    outcome = post(old, batch, old_session)
    assert outcome.status == 200
    assert [answer["id"] for answer in outcome.body] == [1, 2, 3, None]
    assert outcome.body[1]["result"]["content"][0]["text"] == "test-agent says b"
    assert outcome.body[2]["error"]["code"] == -32600      # initialize cannot be batched
    assert post(old, [rpc("notifications/initialized", request_id=None)], old_session).status \
        == 202
    assert post(old, [], old_session).status == 400
    for version in ("2025-06-18", "2025-11-25"):
        new, new_session = opened(version)
        refused = post(new, batch, new_session)
        assert refused.status == 400 and "no batches" in refused.body["error"]["message"]
        assert new.backend.calls == []


def test_delete_ends_a_session_and_the_backend_hears_of_it():
    protocol, session_id = opened()
    assert protocol.end_session(session_id).status == 200
    assert protocol.backend.ended == ["test-agent"]
    assert post(protocol, rpc("ping"), session_id).status == 404
    assert protocol.end_session(session_id).status == 404
    assert protocol.end_session(None).status == 400


def test_the_oldest_session_is_evicted_past_the_limit():
    protocol = Protocol(FakeBackend(), Sessions(limit=2))
    ids = []
    for name in ("one", "two", "three"):
        ids.append(post(protocol, rpc("initialize", initialize_params(name=name))).session_id)
    assert post(protocol, rpc("ping"), ids[0]).status == 404
    assert post(protocol, rpc("ping"), ids[2]).status == 200
    assert protocol.backend.ended == ["one"]
    assert len(set(ids)) == 3 and all(len(i) >= 32 for i in ids)
    assert all(0x21 <= ord(ch) <= 0x7E for i in ids for ch in i)

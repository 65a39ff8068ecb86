"""MCP revision 2026-07-28 (modern.py and its route in protocol.py): server/discover, the
per-request envelope and mirrored headers, -32022, statuses, the agent named request by
request; and over HTTP: GET and DELETE, and every door check for stateless requests."""

import base64
import json

import pytest

import marginalia
from marginalia.mcp import HANDSHAKE_VERSIONS, SUPPORTED_VERSIONS
from marginalia.mcp.protocol import Protocol
from tests.support.mcp_fake import server  # noqa: F401 (the fixture)
from tests.support.mcp_fake import (MODERN, SECRET_CRASH_TEXT, FakeBackend, Http,
                                    initialize_params, modern_headers, modern_rpc, rpc)


def post(protocol, message, version=MODERN, session_id=None, method_header="auto",
         name_header="auto", repeated=""):
    """One body through the pure protocol; the mirrored headers as a client sends them."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    mirrored = modern_headers(message) if isinstance(message, dict) and "method" in message \
        else {}
    if method_header == "auto":
        method_header = mirrored.get("Mcp_Method")
    if name_header == "auto":
        name_header = mirrored.get("Mcp_Name")
    return protocol.handle_post(body, session_id, version, method_header, name_header, repeated)


def fresh():
    return Protocol(FakeBackend())


def test_server_discover_answers_what_initialize_answered_and_opens_no_session():
    protocol = fresh()
    outcome = post(protocol, modern_rpc("server/discover", request_id="discover-1"))
    assert outcome.status == 200 and outcome.session_id is None
    assert outcome.body["id"] == "discover-1"
    result = outcome.body["result"]
    assert result["supportedVersions"] == list(SUPPORTED_VERSIONS) \
        == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]
    assert set(result["capabilities"]) == {"tools", "resources", "prompts"}
    assert "list_documents" in result["instructions"]
    assert (result["resultType"], result["ttlMs"], result["cacheScope"]) == \
        ("complete", 0, "private")
    identity = result["_meta"]["io.modelcontextprotocol/serverInfo"]
    assert identity["name"] == "Marginalia" and identity["version"] == marginalia.__version__
    assert len(protocol.sessions) == 0 and protocol.backend.started == []


@pytest.mark.parametrize("asked", ["2099-01-01", "1900-01-01", "2024-11-05", "draft"])
def test_an_unknown_revision_is_32022_listing_the_revisions_spoken(asked):
    protocol = fresh()
    message = modern_rpc("tools/list", request_id=4, version=asked)
    outcome = post(protocol, message, version=asked)
    assert outcome.status == 400 and outcome.body["id"] == 4
    error = outcome.body["error"]
    assert error["code"] == -32022
    assert error["data"] == {"supported": list(SUPPORTED_VERSIONS), "requested": asked}
    # The sentence repeats a date only: other text is the client's, a token perhaps.
    assert ("revision " + asked in error["message"]) == (asked != "draft")
    assert protocol.backend.calls == []


def test_a_modern_request_without_its_version_is_refused():
    protocol = fresh()
    message = modern_rpc("tools/list", request_id=2)
    no_header = post(protocol, message, version=None)
    assert no_header.status == 400 and no_header.body["error"]["code"] == -32020
    assert "MCP-Protocol-Version header is missing" in no_header.body["error"]["message"]
    no_meta = post(protocol, rpc("tools/list", {}, 3))
    assert no_meta.status == 400 and no_meta.body["error"]["code"] == -32602
    assert no_meta.body["id"] == 3
    half = modern_rpc("tools/list", request_id=5)
    del half["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
    lacking = post(protocol, half)
    assert lacking.status == 400 and lacking.body["error"]["code"] == -32602
    assert "protocolVersion" in lacking.body["error"]["message"]
    no_capabilities = modern_rpc("tools/list", request_id=6)
    del no_capabilities["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert post(protocol, no_capabilities).body["error"]["code"] == -32602


@pytest.mark.parametrize("change", ["version", "method", "no method", "name", "no name",
                                    "repeated"])
def test_headers_that_do_not_mirror_the_body_are_header_mismatch(change):
    protocol = fresh()
    message = modern_rpc("tools/call", {"name": "echo", "arguments": {"text": "x"}})
    kwargs = {}
    if change == "version":
        message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2025-11-25"
    elif change == "method":
        kwargs["method_header"] = "tools/list"
    elif change == "no method":
        kwargs["method_header"] = None
    elif change == "name":
        kwargs["name_header"] = "refuse"
    elif change == "no name":
        kwargs["name_header"] = None
    else:
        kwargs["repeated"] = "mcp-name"
    outcome = post(protocol, message, **kwargs)
    assert outcome.status == 400 and outcome.body["error"]["code"] == -32020
    assert outcome.body["id"] == 1 and protocol.backend.calls == []


def test_a_base64_sentinel_in_mcp_name_is_decoded_before_it_is_compared():
    protocol = fresh()
    message = modern_rpc("resources/read", {"uri": "marginalia://document/1"})
    sentinel = "=?base64?%s?=" % base64.b64encode(b"marginalia://document/1").decode("ascii")
    assert post(protocol, message, name_header=sentinel).status == 200
    broken = post(protocol, message, name_header="=?base64?not base64?=")
    assert broken.status == 400 and broken.body["error"]["code"] == -32020


def test_tools_list_and_calls_reach_the_backend_as_the_agent_named_in_the_request():
    protocol = fresh()
    listed = post(protocol, modern_rpc("tools/list"))
    assert listed.status == 200
    result = listed.body["result"]
    assert [tool["name"] for tool in result["tools"]] == ["echo", "refuse", "crash",
                                                          "bad_result"]
    assert (result["resultType"], result["ttlMs"], result["cacheScope"]) == \
        ("complete", 0, "private")
    call = modern_rpc("tools/call", {"name": "echo", "arguments": {"text": "hi"}}, 2,
                      name="claude-code", title="Claude Code")
    called = post(protocol, call)
    assert called.status == 200 and called.session_id is None
    assert called.body["result"]["content"][0]["text"] == "Claude Code says hi"
    assert called.body["result"]["isError"] is False
    assert called.body["result"]["resultType"] == "complete"
    assert "ttlMs" not in called.body["result"]            # a call's result is not cached
    anonymous = modern_rpc("tools/call", {"name": "echo", "arguments": {"text": "yo"}}, 3)
    del anonymous["params"]["_meta"]["io.modelcontextprotocol/clientInfo"]
    post(protocol, anonymous)
    assert protocol.backend.calls == [("Claude Code", "echo", {"text": "hi"}),
                                      ("An outside agent", "echo", {"text": "yo"})]
    assert len(protocol.sessions) == 0 and protocol.backend.started == []


def test_call_refusals_unknown_tools_and_crashes():
    protocol = fresh()
    refused = post(protocol, modern_rpc("tools/call", {"name": "refuse"}))
    assert refused.status == 200 and refused.body["result"]["isError"] is True
    unknown = post(protocol, modern_rpc("tools/call", {"name": "format_disk"}))
    assert unknown.status == 400 and unknown.body["error"]["code"] == -32602
    crash = post(protocol, modern_rpc("tools/call", {"name": "crash"}))
    assert crash.status == 200 and crash.body["result"]["isError"] is True
    assert SECRET_CRASH_TEXT not in json.dumps(crash.body)
    assert [call[1] for call in protocol.backend.calls] == ["refuse", "crash"]


def test_a_stopped_agent_is_refused_by_name_with_a_code_outside_the_reserved_range():
    protocol = fresh()
    protocol.backend.stopped.add("Stopped One")
    stopped = post(protocol, modern_rpc("tools/list", title="Stopped One"))
    assert stopped.status == 200 and stopped.body["error"]["code"] == -31000
    assert "stopped this agent" in stopped.body["error"]["message"]
    assert "result" in post(protocol, modern_rpc("tools/list", title="Other One")).body
    # server/discover is what initialize was: never refused.
    assert post(protocol, modern_rpc("server/discover", title="Stopped One")).status == 200


def test_resources_and_prompts():
    protocol = fresh()
    listed = post(protocol, modern_rpc("resources/list")).body["result"]
    assert listed["resources"][0]["name"] == "Report.odt" and listed["ttlMs"] == 0
    templates = post(protocol, modern_rpc("resources/templates/list")).body["result"]
    assert templates["resourceTemplates"] == [] and templates["cacheScope"] == "private"
    read = post(protocol, modern_rpc("resources/read", {"uri": "marginalia://document/1"}))
    assert read.body["result"]["contents"][0]["text"] == "# Report"
    assert read.body["result"]["ttlMs"] == 0
    # 2026-07-28 retired -32002: an unknown resource is invalid params, with its URI.
    missing = post(protocol, modern_rpc("resources/read", {"uri": "marginalia://document/9"}))
    assert missing.status == 400 and missing.body["error"]["code"] == -32602
    assert missing.body["error"]["data"] == {"uri": "marginalia://document/9"}
    prompts = post(protocol, modern_rpc("prompts/list")).body["result"]
    assert prompts["prompts"][0]["name"] == "summarize"
    got = post(protocol, modern_rpc("prompts/get", {"name": "summarize",
                                                    "arguments": {"length": "5"}}))
    assert got.body["result"]["messages"][0]["content"]["text"] == "Summarize in 5 words."
    assert "ttlMs" not in got.body["result"]


@pytest.mark.parametrize("method", ["ping", "logging/setLevel", "resources/subscribe",
                                    "subscriptions/listen", "sampling/createMessage"])
def test_methods_outside_the_revision_are_404_method_not_found(method):
    outcome = post(fresh(), modern_rpc(method, request_id=9))
    assert outcome.status == 404 and outcome.body["id"] == 9
    assert outcome.body["error"]["code"] == -32601


def test_one_request_per_post_and_notifications_are_dropped():
    protocol = fresh()
    batch = post(protocol, [modern_rpc("tools/list", request_id=1)])
    assert batch.status == 400 and "no batches" in batch.body["error"]["message"]
    note = post(protocol, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": 1}})
    assert (note.status, note.body) == (202, None)
    answer = post(protocol, {"jsonrpc": "2.0", "id": 1, "result": {}})
    assert answer.status == 400 and answer.body["error"]["code"] == -32600
    assert post(protocol, b"{broken").body["error"]["code"] == -32700


def test_a_session_id_is_ignored_in_the_stateless_revision():
    protocol = fresh()
    session = protocol.handle_post(json.dumps(rpc("initialize", initialize_params(
        name="session-agent"))).encode("utf-8")).session_id
    call = modern_rpc("tools/call", {"name": "echo", "arguments": {"text": "a"}},
                      name="modern-agent")
    assert post(protocol, call, session_id=session).status == 200
    # The request's own clientInfo names the agent, not the session's initialize.
    assert protocol.backend.calls == [("modern-agent", "echo", {"text": "a"})]


@pytest.mark.parametrize("header", [None, MODERN, "2025-11-25"])
def test_initialize_always_opens_a_handshake_session(header):
    protocol = fresh()
    outcome = post(protocol, rpc("initialize", initialize_params("2026-07-28")),
                   version=header)
    assert outcome.status == 200 and outcome.session_id
    assert outcome.body["result"]["protocolVersion"] == HANDSHAKE_VERSIONS[0]


def test_delete_naming_the_stateless_revision_is_405_and_sessions_still_end():
    protocol = fresh()
    assert protocol.end_session(None, MODERN).status == 405
    assert protocol.end_session(None, "2025-11-25").status == 400
    session = protocol.handle_post(json.dumps(rpc("initialize", initialize_params()))
                                   .encode("utf-8")).session_id
    assert protocol.end_session(session, MODERN).status == 200
    assert protocol.backend.ended == ["test-agent"]


# ---------------------------------------------------------------------- over HTTP

def test_get_is_405_in_either_era(server):
    client = Http(server.port)
    for extra in ({}, {"MCP_Protocol_Version": MODERN}):
        status, headers, body = client.request("GET", b"", client.headers(**extra))
        assert status == 405 and headers["allow"] == "POST, DELETE"
        assert body["error"]["message"].startswith("This server sends no stream")


def test_delete_without_a_session_in_the_stateless_revision_is_405(server):
    client = Http(server.port)
    status, headers, _ = client.request("DELETE", b"",
                                        client.headers(MCP_Protocol_Version=MODERN))
    assert status == 405 and headers["allow"] == "POST, DELETE"


def test_a_stateless_agent_over_http(server):
    client = Http(server.port)
    status, headers, body = client.modern(modern_rpc("server/discover"))
    assert status == 200 and "mcp-session-id" not in headers
    assert MODERN in body["result"]["supportedVersions"]
    status, _, body = client.modern(modern_rpc("tools/call", {"name": "echo",
                                                              "arguments": {"text": "é"}}, 2))
    assert status == 200 and body["result"]["content"][0]["text"] == "modern-agent says é"
    status, _, body = client.modern(modern_rpc("ping", request_id=3))
    assert status == 404 and body["error"]["code"] == -32601
    status, _, body = client.modern(modern_rpc("tools/list", request_id=4),
                                    Mcp_Method="tools/call")
    assert status == 400 and body["error"]["code"] == -32020


def test_a_routing_header_sent_twice_is_refused(server):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    message = modern_rpc("tools/call", {"name": "echo", "arguments": {}})
    client = Http(server.port)
    try:
        conn.putrequest("POST", "/mcp", skip_host=True, skip_accept_encoding=True)
        for name, value in client.headers(**modern_headers(message)).items():
            conn.putheader(name, value)
        conn.putheader("Mcp-Name", "refuse")        # a proxy may read one, the server another
        data = json.dumps(message).encode("utf-8")
        conn.putheader("Content-Length", str(len(data)))
        conn.endheaders(data)
        response = conn.getresponse()
        body = json.loads(response.read().decode("utf-8"))
    finally:
        conn.close()
    assert response.status == 400 and body["error"]["code"] == -32020
    assert "Mcp-Name" in body["error"]["message"] and server.protocol.backend.calls == []


@pytest.mark.parametrize("door, status", [
    ({"Authorization": None}, 401), ({"Authorization": "Bearer wrong"}, 401),
    ({"Origin": "http://evil.example"}, 403), ({"Host": "evil.example"}, 403)])
def test_every_door_check_holds_for_stateless_requests(server, door, status):
    client = Http(server.port)
    got, _, body = client.modern(modern_rpc("tools/call", {"name": "echo", "arguments": {}}),
                                 **door)
    assert got == status and body["id"] is None
    assert server.protocol.backend.calls == []


def test_the_body_limit_holds_for_stateless_requests():
    from marginalia.mcp.server import McpServer
    from tests.support.mcp_fake import TOKEN
    small = McpServer(FakeBackend(), TOKEN, port=0, max_body=200)
    small.start()
    try:
        client = Http(small.port)
        big = modern_rpc("tools/call", {"name": "echo", "arguments": {"text": "x" * 400}})
        status, _, body = client.modern(big)
        assert status == 413 and small.protocol.backend.calls == []
    finally:
        small.stop()


def test_the_log_names_codes_not_what_the_client_sent(server, caplog):
    import logging
    client = Http(server.port)
    with caplog.at_level(logging.DEBUG, logger="marginalia.mcp"):
        client.modern(modern_rpc("tools/call", {"name": "secret-tool-Qq93", "arguments": {}}))
        client.modern(modern_rpc("no/such-method-Zz71"))
    assert "error -32602" in caplog.text and "error -32601" in caplog.text
    assert "secret-tool-Qq93" not in caplog.text and "such-method-Zz71" not in caplog.text


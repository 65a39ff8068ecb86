"""The MCP server over real HTTP on loopback: who gets in, sessions, refusals, the log."""

import http.client
import json
import logging
import socket
import time

import pytest

from marginalia.errors import UNEXPECTED
from marginalia.mcp import guard
from marginalia.mcp.server import McpServer, ServerStartError
from tests.support.mcp_fake import server  # noqa: F401 (the fixture)
from tests.support.mcp_fake import (SECRET_CRASH_TEXT, TOKEN, FakeBackend, Http,
                                    initialize_params, rpc)


@pytest.fixture
def agent(server):
    client = Http(server.port)
    client.initialize()
    return client


def assert_refused(status, headers, body, expected):
    assert status == expected
    assert headers["content-type"] == "application/json"
    assert body["jsonrpc"] == "2.0" and body["id"] is None and body["error"]["message"]


def test_initialize_assigns_a_random_session(server):
    first, second = Http(server.port), Http(server.port)
    result = first.initialize("2025-06-18")
    second.initialize()
    assert result["protocolVersion"] == "2025-06-18"
    assert result["serverInfo"]["name"] == "Marginalia"
    assert first.session_id != second.session_id and len(first.session_id) >= 32


def test_tools_list_and_call(agent):
    status, headers, body = agent.post(rpc("tools/list", request_id=2))
    assert status == 200 and headers["content-type"] == "application/json"
    assert "echo" in [tool["name"] for tool in body["result"]["tools"]]
    status, _, body = agent.post(rpc("tools/call", {"name": "echo",
                                                    "arguments": {"text": "é ok"}}, 3))
    assert body == {"jsonrpc": "2.0", "id": 3, "result": {
        "content": [{"type": "text", "text": "test-agent says é ok"}], "isError": False}}


def test_call_errors_over_http(agent):
    _, _, unknown = agent.post(rpc("tools/call", {"name": "nope", "arguments": {}}))
    _, _, malformed = agent.post(rpc("tools/call", {"name": "echo", "arguments": [1]}))
    _, _, refused = agent.post(rpc("tools/call", {"name": "refuse", "arguments": {}}))
    assert unknown["error"]["code"] == malformed["error"]["code"] == -32602
    assert refused["result"]["isError"] is True
    assert "stopped this agent" in refused["result"]["content"][0]["text"]


def test_a_crash_reaches_the_agent_as_one_plain_sentence(agent, caplog):
    with caplog.at_level(logging.ERROR, logger="marginalia.mcp"):
        status, _, body = agent.post(rpc("tools/call", {"name": "crash", "arguments": {}}))
    text = json.dumps(body)
    assert status == 200 and body["result"]["content"][0]["text"] == UNEXPECTED
    assert SECRET_CRASH_TEXT not in text and "Traceback" not in text and "KeyError" not in text
    assert "Traceback" in caplog.text and SECRET_CRASH_TEXT in caplog.text


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", "Bearer " + TOKEN[:-1],
                                           "Basic " + TOKEN, TOKEN, "Bearer"])
def test_no_token_or_a_wrong_one_is_401(server, authorization):
    client = Http(server.port)
    status, headers, body = client.post(rpc("initialize", initialize_params()),
                                        Authorization=authorization)
    assert_refused(status, headers, body, 401)
    assert headers["www-authenticate"].startswith("Bearer")
    assert "mcp-session-id" not in headers and server.protocol.backend.started == []


def test_a_new_token_replaces_the_old(server):
    client = Http(server.port)
    client.initialize()
    server.set_token(guard.new_token())
    assert client.post(rpc("ping"))[0] == 401


@pytest.mark.parametrize("origin", ["http://evil.example", "https://evil.example:8765", "null",
                                    "http://127.0.0.1.evil.example",
                                    "http://localhost@evil.example",
                                    "file://", "http://localhost/path"])
def test_an_origin_of_another_site_is_403(server, agent, origin):
    status, headers, body = agent.post(rpc("tools/call", {"name": "echo", "arguments": {}}),
                                       Origin=origin)
    assert_refused(status, headers, body, 403)
    assert agent.post(rpc("ping"))[0] == 200
    assert agent.post(rpc("ping"), Origin="http://localhost:3000")[0] == 200
    assert agent.post(rpc("ping"), Origin="http://[::1]:%d" % agent.port)[0] == 200
    assert server.protocol.backend.calls == []


@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1:1",
                                  "127.0.0.2:{port}", "localhost.evil.example:{port}", "",
                                  "127.0.0.1:{port}@evil.example"])
def test_a_host_that_is_not_loopback_is_403(server, host):
    client = Http(server.port)
    status, headers, body = client.post(rpc("initialize", initialize_params()),
                                        Host=host.format(port=server.port))
    assert_refused(status, headers, body, 403)
    assert server.protocol.backend.started == []


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}",
                                  "[::1]:{port}", "localhost"])
def test_loopback_hosts_are_accepted(server, host):
    status, _, _ = Http(server.port).post(rpc("initialize", initialize_params()),
                                          Host=host.format(port=server.port))
    assert status == 200


def test_a_malformed_body_is_400(agent):
    status, headers, body = agent.request("POST", b'{"jsonrpc": "2.0", "id": 1,',
                                          agent.headers())
    assert_refused(status, headers, body, 400)
    assert body["error"]["code"] == -32700


def test_an_unsupported_protocol_version_header_is_400(agent):
    status, headers, body = agent.post(rpc("tools/list"), MCP_Protocol_Version="2024-01-01")
    # UnsupportedProtocolVersion answers the request itself: its id, the revisions spoken.
    assert status == 400 and headers["content-type"] == "application/json"
    assert body["id"] == 1 and body["error"]["code"] == -32022
    assert "2026-07-28" in body["error"]["data"]["supported"]
    assert agent.post(rpc("tools/list"), MCP_Protocol_Version="2025-11-25")[0] == 200


def test_missing_or_unknown_session_id(agent):
    status, headers, body = agent.post(rpc("tools/list"), Mcp_Session_Id=None)
    assert_refused(status, headers, body, 400)
    status, headers, body = agent.post(rpc("tools/list"), Mcp_Session_Id="x" * 32)
    assert_refused(status, headers, body, 404)


def test_an_oversize_body_is_413_without_reading_it(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.putrequest("POST", "/mcp", skip_host=True)
    for name, value in Http(server.port).headers().items():
        conn.putheader(name, value)
    conn.putheader("Content-Length", str(5 * 1024 * 1024))
    conn.endheaders()
    response = conn.getresponse()
    body = json.loads(response.read())
    conn.close()
    assert response.status == 413 and body["error"]["message"].startswith("The body is larger")


def test_content_type_and_accept_are_checked(agent):
    assert agent.post(rpc("ping"), Content_Type="text/plain")[0] == 415
    assert agent.post(rpc("ping"), Content_Type="application/json; charset=utf-8")[0] == 200
    assert agent.post(rpc("ping"), Accept="text/html")[0] == 406
    assert agent.post(rpc("ping"), Accept=None)[0] == 200
    assert agent.post(rpc("ping"), Accept="*/*")[0] == 200


def test_a_notification_is_202_with_no_body(agent):
    status, headers, body = agent.post(rpc("notifications/initialized", request_id=None))
    assert (status, body, headers["content-length"]) == (202, None, "0")


def test_delete_ends_the_session(server, agent):
    status, _, _ = agent.request("DELETE", b"", agent.headers(Content_Type=None))
    assert status == 200 and server.protocol.backend.ended == ["test-agent"]
    assert agent.post(rpc("ping"))[0] == 404
    assert agent.request("DELETE", b"", agent.headers(Mcp_Session_Id=None))[0] == 400


def test_get_is_405_and_other_paths_404(agent):
    status, headers, body = agent.request("GET", b"", agent.headers())
    assert_refused(status, headers, body, 405)
    assert "POST" in headers["allow"]
    conn = http.client.HTTPConnection("127.0.0.1", agent.port, timeout=10)
    conn.request("POST", "/other", body=b"{}", headers=agent.headers())
    assert conn.getresponse().status == 404
    conn.close()


def test_the_token_never_reaches_the_log(server, caplog):
    wrong = "Bearer wrong-Qq93hd-token"
    with caplog.at_level(logging.DEBUG, logger="marginalia"):
        client = Http(server.port)
        client.initialize()
        client.post(rpc("tools/call", {"name": "crash", "arguments": {}}))
        client.post(rpc("ping"), Authorization=wrong)
        client.post(rpc("ping"), Origin="http://evil.example")
        client.post(rpc("ping"), Host="evil.example")
        client.request("POST", b"{", client.headers())
        client.post(rpc("ping"), MCP_Protocol_Version="1999-01-01")
    assert caplog.text.count("refused") >= 5
    assert TOKEN not in caplog.text and "Qq93hd" not in caplog.text
    assert client.session_id not in caplog.text


def test_keep_alive_carries_many_requests_on_one_connection(agent):
    conn = http.client.HTTPConnection("127.0.0.1", agent.port, timeout=10)
    for i in range(20):
        conn.request("POST", "/mcp", body=json.dumps(rpc("ping", request_id=i)),
                     headers=agent.headers())
        response = conn.getresponse()
        assert json.loads(response.read())["id"] == i
    conn.close()


def _ipv6_loopback() -> bool:
    if not socket.has_ipv6:
        return False
    try:
        probe = socket.socket(socket.AF_INET6)
        probe.bind(("::1", 0))
        probe.close()
        return True
    except OSError:
        return False


def test_listens_on_both_loopbacks_and_nothing_else(server):
    addresses = sorted(listener.server_address[0] for listener in server._listeners)
    assert addresses == (["127.0.0.1", "::1"] if _ipv6_loopback() else ["127.0.0.1"])
    if _ipv6_loopback():
        client = Http(server.port)
        status, _, _ = client.request("POST", rpc("initialize", initialize_params()),
                                      client.headers(Host="[::1]:%d" % server.port), host="::1")
        assert status == 200


def test_stop_is_quick_with_an_idle_connection_open_and_then_nothing_listens():
    srv = McpServer(FakeBackend(), TOKEN, port=0)
    port = srv.start()
    idle = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    idle.request("POST", "/mcp", body=json.dumps(rpc("initialize", initialize_params())),
                 headers=Http(port).headers())
    idle.getresponse().read()          # the connection stays open, kept alive
    began = time.monotonic()
    srv.stop()
    assert time.monotonic() - began < 1.5
    assert srv.protocol.backend.ended == ["test-agent"]
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    idle.close()


def test_a_port_in_use_is_a_plain_sentence(server):
    other = McpServer(FakeBackend(), TOKEN, port=server.port)
    with pytest.raises(ServerStartError) as caught:
        other.start()
    assert "port %d" % server.port in str(caught.value) and "Options" in str(caught.value)


class UnwritableBackend(FakeBackend):
    def call_tool(self, client, name, arguments):
        return {"content": [{"type": "text", "text": object()}]}


def test_a_result_json_cannot_hold_is_a_plain_error_not_a_dropped_connection(caplog):
    srv = McpServer(UnwritableBackend(), TOKEN, port=0)
    srv.start()
    try:
        client = Http(srv.port)
        client.initialize()
        with caplog.at_level(logging.ERROR, logger="marginalia.mcp"):
            status, _, body = client.post(rpc("tools/call", {"name": "echo"}, 9))
    finally:
        srv.stop()
    assert status == 200 and body["id"] == 9 and body["error"]["message"] == UNEXPECTED
    assert "object" not in body["error"]["message"] and "could not be written" in caplog.text


def _kept_alive(port):
    """A connection whose request was let in, kept open (an agent between requests)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/mcp", body=json.dumps(rpc("initialize", initialize_params())),
                 headers=Http(port).headers())
    conn.getresponse().read()
    return conn


def test_connections_past_the_limit_are_closed_at_once():
    # Every slot held by an agent let in: a new connection is closed, no thread taken.
    srv = McpServer(FakeBackend(), TOKEN, port=0, max_connections=2)
    port = srv.start()
    agents = [_kept_alive(port) for _ in range(2)]
    try:
        extra = socket.create_connection(("127.0.0.1", port), timeout=5)
        assert extra.recv(1) == b""
        extra.close()
        agents[0].close()
        deadline = time.monotonic() + 5
        while len(srv._connections) > 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert Http(port).post(rpc("initialize", initialize_params()))[0] == 200
    finally:
        for conn in agents:
            conn.close()
        srv.stop()


def test_deeply_nested_json_is_a_parse_error(agent):
    status, _, body = agent.request("POST", b"[" * 100000 + b"]" * 100000, agent.headers())
    assert status == 400 and body["error"]["code"] == -32700


class SlowBackend(FakeBackend):
    """echo waits until the test lets it go: a tool call in flight."""

    def __init__(self):
        super().__init__()
        import threading
        self.entered = threading.Event()
        self.release = threading.Event()

    def call_tool(self, client, name, arguments):
        self.entered.set()
        self.release.wait(10)
        return super().call_tool(client, name, arguments)


def test_stop_does_not_wait_for_a_call_in_flight():
    import threading
    backend = SlowBackend()
    srv = McpServer(backend, TOKEN, port=0)
    client = Http(srv.start())
    client.initialize()
    outcome = []

    def call_it():
        try:
            outcome.append(client.post(rpc("tools/call", {"name": "echo"}))[0])
        except (OSError, http.client.HTTPException) as exc:
            outcome.append(type(exc).__name__)
    caller = threading.Thread(target=call_it, daemon=True)
    caller.start()
    assert backend.entered.wait(10)
    began = time.monotonic()
    srv.stop()
    stopped_in = time.monotonic() - began
    backend.release.set()
    caller.join(10)
    assert stopped_in < 1.5
    assert outcome and outcome[0] != 200         # the connection was closed under the call

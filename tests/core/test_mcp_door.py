"""The MCP server's door against local programs without the token, over raw sockets
(issue 37): idle or half-sent connections cannot keep an agent with the token out, and no
token, from any part of a request, reaches a log line."""

import json
import logging
import socket
import time

import pytest

from marginalia.mcp import server as mcp_server
from marginalia.mcp.server import McpServer
from tests.support.mcp_fake import TOKEN, FakeBackend, Http, rpc


@pytest.fixture
def server():
    srv = McpServer(FakeBackend(), TOKEN, port=0)
    srv.start()
    yield srv
    srv.stop()


def _strangers(port, count):
    """``count`` connections that send nothing, or half a request line, and then wait."""
    out = []
    for index in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        if index % 2:
            sock.sendall(b"POST /mc")
        out.append(sock)
    return out


def test_seventy_idle_connections_do_not_keep_an_agent_with_the_token_out(server):
    strangers = _strangers(server.port, 70)
    try:
        time.sleep(0.3)                  # every one accepted and waiting
        began = time.monotonic()
        agent = Http(server.port)
        agent.initialize()
        status, _headers, body = agent.post(rpc("tools/list", request_id=2))
        assert status == 200 and body["result"]["tools"]
        assert time.monotonic() - began < 3
        assert len(server._connections) <= server.max_connections
    finally:
        for sock in strangers:
            sock.close()


def test_a_stranger_gets_seconds_an_agent_let_in_keeps_its_connection(monkeypatch):
    monkeypatch.setattr(mcp_server, "HEAD_SECONDS", 0.5)
    srv = McpServer(FakeBackend(), TOKEN, port=0)
    port = srv.start()
    try:
        silent = socket.create_connection(("127.0.0.1", port), timeout=5)
        began = time.monotonic()
        assert silent.recv(1) == b""      # closed by the server for sending nothing
        assert time.monotonic() - began < 3
        silent.close()
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        agent = Http(port)
        for request_id in (1, 2):
            conn.request("POST", "/mcp", body=json.dumps(
                rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                   "clientInfo": {"name": "a", "version": "1"}},
                    request_id)), headers=agent.headers())
            assert json.loads(conn.getresponse().read())["id"] == request_id
            time.sleep(1.0)              # idle past a stranger's time, still open
        conn.close()
    finally:
        srv.stop()


def _raw(port, data):
    """Send ``data`` as it is and read the answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        answer = b""
        while True:
            piece = sock.recv(65536)
            if not piece:
                return answer
            answer += piece


def test_no_token_reaches_a_log_from_any_part_of_a_request(server, caplog):
    host = "Host: 127.0.0.1:%d\r\n" % server.port
    auth = "Authorization: Bearer %s\r\n" % TOKEN
    body = json.dumps(rpc("ping"))
    requests = [
        # The token in the query, with and without the header.
        "POST /mcp?token=%s HTTP/1.1\r\n%s%sContent-Type: application/json\r\n"
        "Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (TOKEN, host, auth, len(body), body),
        "POST /mcp?token=%s HTTP/1.1\r\n%sContent-Length: 0\r\nConnection: close\r\n\r\n"
        % (TOKEN, host),
        "GET /mcp?token=%s HTTP/1.1\r\n%s%sConnection: close\r\n\r\n" % (TOKEN, host, auth),
        # In the path, as the method, in a malformed request line, in a bad version.
        "POST /%s HTTP/1.1\r\n%sConnection: close\r\n\r\n" % (TOKEN, host),
        "%s /mcp HTTP/1.1\r\n%sConnection: close\r\n\r\n" % (TOKEN, host),
        "POST /mcp?token=%s\r\n\r\n" % TOKEN,
        "POST /mcp HTTP/%s\r\n\r\n" % TOKEN,
        "%s\r\n\r\n" % TOKEN,
    ]
    with caplog.at_level(logging.DEBUG, logger="marginalia"):
        for request in requests:
            _raw(server.port, request.encode("latin-1"))
        time.sleep(0.2)
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert caplog.records                       # the requests were logged, without it
    assert TOKEN not in logged and "Zq8vX3kP0" not in logged


def test_the_sdks_get_for_a_stream_writes_no_info_line(server, caplog):
    agent = Http(server.port)
    agent.initialize()
    with caplog.at_level(logging.INFO, logger="marginalia.mcp"):
        status, _headers, _body = agent.request("GET", b"", agent.headers())
    assert status == 405
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


def test_a_burst_of_connections_does_not_make_an_agent_wait_for_a_dropped_connect(server):
    # Past a full accept queue the kernel drops a SYN and the client retries a second later.
    strangers, slowest = [], 0.0
    try:
        for _ in range(70):
            began = time.monotonic()
            strangers.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
            slowest = max(slowest, time.monotonic() - began)
        began = time.monotonic()
        assert Http(server.port).initialize() and time.monotonic() - began < 0.9
        assert slowest < 0.9
    finally:
        for sock in strangers:
            sock.close()


def test_a_stranger_sending_a_byte_now_and_then_is_closed_in_time(monkeypatch):
    # The socket's timeout is per read: a slow head must meet one deadline in all.
    monkeypatch.setattr(mcp_server, "HEAD_SECONDS", 0.5)
    srv = McpServer(FakeBackend(), TOKEN, port=0)
    port = srv.start()
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=0.2)
        began, closed = time.monotonic(), False
        while not closed and time.monotonic() - began < 5:
            try:
                sock.sendall(b"P")
                closed = sock.recv(1024) == b""
            except socket.timeout:
                pass
            except OSError:
                closed = True
        sock.close()
        assert closed and time.monotonic() - began < 3
    finally:
        srv.stop()

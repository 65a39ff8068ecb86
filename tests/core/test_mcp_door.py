"""The MCP server's door against local programs without the token, over raw sockets
(issue 37): idle or half-sent connections cannot keep an agent with the token out, and no
token, from any part of a request, reaches a log line."""

import http.client
import json
import logging
import socket
import time

import pytest

from marginalia import debuglog
from marginalia.mcp import guard
from marginalia.mcp import server as mcp_server
from marginalia.mcp.server import McpServer
from marginalia.office import logfile
from tests.support.mcp_fake import server  # noqa: F401 (the fixture)
from tests.support.mcp_fake import TOKEN, FakeBackend, Http, rpc


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


@pytest.fixture
def hasty(monkeypatch):
    """A started server that gives a stranger 0.5 s for its request's head."""
    monkeypatch.setattr(mcp_server, "HEAD_SECONDS", 0.5)
    srv = McpServer(FakeBackend(), TOKEN, port=0)
    srv.start()
    yield srv
    srv.stop()


def test_a_stranger_gets_seconds_an_agent_let_in_keeps_its_connection(hasty):
    silent = socket.create_connection(("127.0.0.1", hasty.port), timeout=5)
    began = time.monotonic()
    assert silent.recv(1) == b""      # closed by the server for sending nothing
    assert time.monotonic() - began < 3
    silent.close()
    conn = http.client.HTTPConnection("127.0.0.1", hasty.port, timeout=10)
    agent = Http(hasty.port)
    for request_id in (1, 2):
        conn.request("POST", "/mcp", body=json.dumps(
            rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "a", "version": "1"}},
                request_id)), headers=agent.headers())
        assert json.loads(conn.getresponse().read())["id"] == request_id
        time.sleep(1.0)              # idle past a stranger's time, still open
    conn.close()


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


OTHER = "an-old-token-Yw7Rt2mQ9-now-refused"      # a token, not the server's: 401


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def log_files(monkeypatch, tmp_path):
    """The office's own log files (logfile.start, the debug log on), and every record the
    "marginalia" logger hands its handlers; put back as they were afterwards."""
    logger = logging.getLogger("marginalia")
    saved = (logger.level, list(logger.handlers), logger.propagate)
    monkeypatch.setattr(debuglog, "_on", [False])
    monkeypatch.setattr(logfile, "_debug_path", [""])
    logger.handlers[:] = []
    path = str(tmp_path / "marginalia.log")
    logfile.start(path)
    logfile.debug_on()
    records = _Records()
    logger.addHandler(records)
    yield records.records, [path, logfile.debug_path(path)]
    for handler in logger.handlers:
        handler.close()
    logger.level, logger.handlers[:], logger.propagate = saved


def _head(method, target, *lines):
    return ("%s %s HTTP/1.1\r\n%s\r\n" % (method, target, "".join(
        line + "\r\n" for line in lines + ("Connection: close",)))).encode("latin-1")


def test_no_token_reaches_a_log_from_any_part_of_a_request(server, log_files):
    records, paths = log_files
    host = "Host: 127.0.0.1:%d" % server.port
    auth, other = "Authorization: Bearer " + TOKEN, "Authorization: Bearer " + OTHER
    json_ = ("Content-Type: application/json", "Accept: application/json")
    ping = json.dumps(rpc("ping"))
    sized = ("Content-Length: %d" % len(ping),)
    begin = json.dumps(rpc("initialize", {"protocolVersion": TOKEN, "capabilities": {},
                                          "clientInfo": {"name": TOKEN, "version": TOKEN}}))
    requests = [
        # The token in the query, with and without the header; a wrong one in both.
        _head("POST", "/mcp?token=" + TOKEN, host, auth, *json_ + sized) + ping.encode(),
        _head("POST", "/mcp?token=" + TOKEN, host, "Content-Length: 0"),
        _head("POST", "/mcp?token=" + OTHER, host, other, *json_ + sized) + ping.encode(),
        _head("GET", "/mcp?token=" + TOKEN, host, auth),
        # In the path, as the method, in a malformed request line, in a bad version.
        _head("POST", "/" + TOKEN, host),
        _head(TOKEN, "/mcp", host),
        b"POST /mcp?token=%s\r\n\r\n" % TOKEN.encode(),
        b"POST /mcp HTTP/%s\r\n\r\n" % TOKEN.encode(),
        b"%s\r\n\r\n" % TOKEN.encode(),
        # In headers whose value answers or logs may repeat, and where a client names itself.
        _head("POST", "/mcp", host, auth, "MCP-Protocol-Version: " + TOKEN, *json_ + sized)
        + ping.encode(),
        _head("POST", "/mcp", host, auth, "Mcp-Session-Id: " + TOKEN, *json_ + sized)
        + ping.encode(),
        _head("POST", "/mcp", host, "Origin: http://" + TOKEN, auth),
        _head("POST", "/mcp", host, auth, *json_ + ("Content-Length: %d" % len(begin),))
        + begin.encode(),
    ]
    for request in requests:
        _raw(server.port, request)
    time.sleep(0.2)
    assert records                                # the requests were logged, without it
    for secret in (TOKEN[:16], OTHER[:16]):
        for record in records:
            assert secret not in record.getMessage(), record.getMessage()
        for path in paths:
            with open(path, encoding="utf-8") as fh:
                assert secret not in fh.read()


def test_a_token_in_an_exception_message_leaves_the_traceback_out(server, log_files):
    records, paths = log_files
    try:
        raise ValueError("bad value " + TOKEN)
    except ValueError:
        logging.getLogger("marginalia.mcp").exception("mcp: something failed")
    assert "something failed" in records[-1].getMessage() and records[-1].exc_info is None
    with open(paths[1], encoding="utf-8") as fh:
        assert TOKEN[:16] not in fh.read()


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


def test_a_stranger_sending_a_byte_now_and_then_is_closed_in_time(hasty):
    # The socket's timeout is per read: a slow head must meet one deadline in all.
    sock = socket.create_connection(("127.0.0.1", hasty.port), timeout=0.2)
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


def test_redact_replaces_the_token_and_a_cut_off_start_of_it_only():
    text = "a %s, b %s, c %s." % (TOKEN, TOKEN[:20], TOKEN[:8])
    assert guard.redact(text, TOKEN) == "a [the token], b [the token], c %s." % TOKEN[:8]
    assert guard.redact("x" + TOKEN + TOKEN, TOKEN) == "x[the token][the token]"
    assert guard.redact("short secret here", "secret") == "short [the token] here"

"""The stdio bridge (python -m marginalia.cli.mcp) against a real server, as a client runs it."""

import json
import os
import socket
import subprocess
import sys
import threading

import pytest

from marginalia.cli.mcp import Bridge
from marginalia.mcp.server import McpServer
from tests.support.mcp_fake import server  # noqa: F401 (the fixture)
from tests.support.mcp_fake import TOKEN, FakeBackend, initialize_params, modern_rpc, rpc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_bridge(lines, args, token=TOKEN):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "pythonpath"),
                                         os.path.join(ROOT, "vendor")])
    env.pop("MARGINALIA_MCP_TOKEN", None)
    if token is not None:
        env["MARGINALIA_MCP_TOKEN"] = token
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run([sys.executable, "-m", "marginalia.cli.mcp"] + args, input=stdin,
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def a_session():
    return [rpc("initialize", initialize_params(name="bridge-agent"), 1),
            rpc("notifications/initialized", request_id=None),
            rpc("tools/list", request_id=2),
            rpc("tools/call", {"name": "echo", "arguments": {"text": "through stdio"}}, 3)]


def test_the_bridge_carries_a_session_end_to_end(server):
    answers, _ = run_bridge(a_session(), ["--url", server.url])
    assert [answer["id"] for answer in answers] == [1, 2, 3]     # no line for the notification
    assert answers[0]["result"]["serverInfo"]["name"] == "Marginalia"
    assert "echo" in [tool["name"] for tool in answers[1]["result"]["tools"]]
    assert answers[2]["result"]["content"][0]["text"] == "bridge-agent says through stdio"
    assert server.protocol.backend.calls == [("bridge-agent", "echo", {"text": "through stdio"})]
    assert server.protocol.backend.ended == ["bridge-agent"]    # stdin's end ends the session


def test_the_token_can_come_from_a_file(server, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    answers, _ = run_bridge(a_session()[:3], ["--url", server.url, "--token-file",
                                              str(token_file)], token=None)
    assert "result" in answers[1]


def test_a_wrong_token_gives_each_request_its_error(server):
    answers, _ = run_bridge(a_session(), ["--url", server.url], token="wrong")
    assert [answer["id"] for answer in answers] == [1, 2, 3]
    assert all("Authorization" in answer["error"]["message"] for answer in answers)


def test_a_dead_server_gives_a_plain_sentence_per_request():
    with socket.socket() as probe:       # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    answers, stderr = run_bridge(a_session(), ["--url", "http://127.0.0.1:%d/mcp" % port])
    assert [answer["id"] for answer in answers] == [1, 2, 3]
    message = answers[0]["error"]["message"]
    assert message.startswith("Marginalia does not answer at") and "Options" in message
    assert "Errno" not in message and "Traceback" not in message
    assert "does not answer" in stderr


def test_no_token_at_all_is_said_plainly(server):
    answers, stderr = run_bridge(a_session()[:1], ["--url", server.url], token=None)
    assert "MARGINALIA_MCP_TOKEN" in answers[0]["error"]["message"] and "no token" in stderr


def test_a_line_that_is_not_json_gets_a_parse_error(server):
    bridge = Bridge(server.url, TOKEN)
    assert json.loads(bridge.handle_line(b"{oops\n")[0])["error"]["code"] == -32700
    assert bridge.handle_line(b"   \n") == []


def test_a_restarted_server_is_rejoined_with_the_client_s_initialize(server):
    bridge = Bridge(server.url, TOKEN)
    bridge.handle_line(json.dumps(rpc("initialize", initialize_params("2025-06-18"), 1)).encode())
    first_session = bridge.session_id
    assert bridge.protocol_version == "2025-06-18"
    server.protocol.end_all()            # as if the office had restarted: sessions forgotten
    answer = json.loads(bridge.handle_line(json.dumps(
        rpc("tools/call", {"name": "echo", "arguments": {"text": "again"}}, 2)).encode())[0])
    assert answer["result"]["content"][0]["text"] == "test-agent says again"
    assert bridge.session_id and bridge.session_id != first_session


def test_a_client_speaking_2026_07_28_goes_through_without_a_session(server):
    """The revision has no handshake: each line carries its revision in its body, and the
    bridge sends the headers the server checks against it (a name with non-ASCII letters
    as the revision's base64 form)."""
    lines = [modern_rpc("server/discover", request_id=1, name="stdio-modern"),
             modern_rpc("tools/call", {"name": "echo", "arguments": {"text": "stateless"}}, 2,
                        name="stdio-modern"),
             modern_rpc("tools/call", {"name": "\u00e9cho", "arguments": {}}, 3,
                        name="stdio-modern"),
             modern_rpc("ping", request_id=4, name="stdio-modern")]
    answers, _ = run_bridge(lines, ["--url", server.url])
    assert [answer["id"] for answer in answers] == [1, 2, 3, 4]
    assert "2026-07-28" in answers[0]["result"]["supportedVersions"]
    assert answers[1]["result"]["content"][0]["text"] == "stdio-modern says stateless"
    # The unknown tool reached the tool lookup (its Mcp-Name matched), not a header refusal.
    assert answers[2]["error"]["code"] != -32020, answers[2]
    # 404 is "no such method" here: answered once, never retried with an initialize.
    assert answers[3]["error"]["code"] == -32601
    assert server.protocol.backend.calls == [("stdio-modern", "echo", {"text": "stateless"})]
    assert server.protocol.backend.ended == []          # there was no session to end


def test_the_bridge_does_not_need_uno():
    # With uno made unimportable, the bridge module and all it imports still load.
    code = ("import sys; sys.modules['uno'] = None; sys.modules['unohelper'] = None; "
            "import marginalia.cli.mcp as m; print(m.main.__name__)")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pythonpath"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "main"), done.stderr


def test_answers_are_written_in_utf8_whatever_the_locale(server):
    """MCP's stdio is UTF-8; a text stdout in the locale's encoding (a Windows pipe's cp1252)
    could not write these words and the bridge died with the client's session."""
    env = dict(os.environ, PYTHONIOENCODING="cp1252",
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "pythonpath"),
                                           os.path.join(ROOT, "vendor")]),
               MARGINALIA_MCP_TOKEN=TOKEN)
    lines = a_session()[:2] + [rpc("tools/call", {"name": "echo",
                                                  "arguments": {"text": "日本語 → ok"}}, 3)]
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8")
    done = subprocess.run([sys.executable, "-m", "marginalia.cli.mcp", "--url", server.url],
                          input=stdin, capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert answers[-1]["result"]["content"][0]["text"].endswith("日本語 → ok")


def test_a_call_is_never_sent_twice_when_the_answer_is_lost():
    """A server that reads the call and closes without answering (an office ending mid-call)
    may have made the edit: the client hears of the failure; the call is not sent again."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(5)
    port = listener.getsockname()[1]
    bridge = Bridge("http://127.0.0.1:%d/mcp" % port, TOKEN, timeout=5)
    bridge.session_id = "s1"
    received = []

    def serve():
        # Each connection: answer a ping (kept alive), then read the next request and
        # close without answering.
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.settimeout(5)
            while True:
                data = _read_request(conn)
                if not data:
                    break
                received.append(data)
                if b'"ping"' not in data:
                    break
                body = b'{"jsonrpc":"2.0","id":6,"result":{}}'
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            conn.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert json.loads(bridge.handle_line(json.dumps(rpc("ping", None, 6)).encode())[0])["id"] == 6
    call = rpc("tools/call", {"name": "echo", "arguments": {"text": "x"}}, 7)
    lines = bridge.handle_line(json.dumps(call).encode("utf-8"))
    listener.close()
    thread.join(6)
    assert sum(b"tools/call" in data for data in received) == 1, received
    answer = json.loads(lines[0])
    assert answer["id"] == 7 and "does not answer" in answer["error"]["message"]


def _read_request(conn):
    """One whole HTTP request (headers, then Content-Length bytes), or b"" at the end."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            piece = conn.recv(65536)
            if not piece:
                return b""
            data += piece
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next((line.split(b":", 1)[1] for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), b"0"))
        while len(body) < length:
            body += conn.recv(65536)
    except OSError:
        return b""
    return head + b"\r\n\r\n" + body

"""The stdio bridge (python -m marginalia.cli.mcp) against a real server, as a client runs it."""

import json
import os
import socket
import subprocess
import sys

import pytest

from marginalia.cli.mcp import Bridge
from marginalia.mcp.server import McpServer
from tests.support.mcp_fake import TOKEN, FakeBackend, initialize_params, rpc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def server():
    srv = McpServer(FakeBackend(), TOKEN, port=0)
    srv.start()
    yield srv
    srv.stop()


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


def test_the_bridge_does_not_need_uno():
    # With uno made unimportable, the bridge module and all it imports still load.
    code = ("import sys; sys.modules['uno'] = None; sys.modules['unohelper'] = None; "
            "import marginalia.cli.mcp as m; print(m.main.__name__)")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pythonpath"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "main"), done.stderr

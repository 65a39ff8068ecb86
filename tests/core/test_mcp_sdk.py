"""The official MCP Python SDK (PyPI `mcp`, 2.x) as the client, over streamable HTTP, against
ours, in both eras: the legacy handshake (initialize, a session), the stateless revision
2026-07-28 pinned ("modern mode"), and "auto", which probes server/discover and chooses.

The SDK lives in the test environment only (build.py installs it into .venv); the extension
stays standard library. Without it these tests fail and say how to install it: a client we
did not write is the check that our reading of the spec is not just our own.
"""

import pytest

from tests.support.mcp_fake import server  # noqa: F401 (the fixture)
from tests.support.mcp_fake import TOKEN

try:
    import anyio
    from mcp import Client, MCPError
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
    from mcp.types import Implementation
    SDK_MISSING = ""
except ImportError as exc:          # reported by each test, never skipped
    SDK_MISSING = str(exc)

MODERN = "2026-07-28"
# mode -> the revision the SDK's client ends up speaking with us
AGREED = {"legacy": "2025-11-25", "auto": MODERN, MODERN: MODERN}


def need_sdk():
    if SDK_MISSING:
        pytest.fail("The official MCP SDK is not installed here (%s): run `.venv/bin/pip "
                    "install mcp`, or `python3 build.py test`, which installs it." % SDK_MISSING,
                    pytrace=False)


def wiretap(server):
    """What reached the protocol, POST by POST: (method, version header, session id,
    Mcp-Method header), the SDK's own HTTP traffic as our server read it."""
    seen = []
    handle_post = server.protocol.handle_post

    def recording(body, session_id=None, version_header=None, method_header=None,
                  name_header=None, repeated="", grant=None):
        import json
        message = json.loads(body.decode("utf-8"))
        seen.append((message.get("method"), version_header, session_id, method_header))
        return handle_post(body, session_id, version_header, method_header, name_header,
                           repeated, grant)
    server.protocol.handle_post = recording
    return seen


def run_sdk_session(url, token, mode, more=False, list_only=False):
    """Connect, list_tools, call_tool (ok, refused, unknown); with ``more`` the resources
    and prompts too, with ``list_only`` list_tools alone; the SDK's own client in ``mode``."""
    found = {}

    async def expect_error(key, call):
        try:
            found[key] = await call
        except MCPError as exc:
            found[key] = exc

    async def session():
        http = create_mcp_http_client(headers={"Authorization": "Bearer " + token})
        async with http:
            transport = streamable_http_client(url, http_client=http)
            info = Implementation(name="sdk-agent", title="SDK Agent", version="1.0")
            async with Client(transport, client_info=info, mode=mode) as client:
                found["version"] = client.protocol_version
                found["server"] = client.server_info.name if client.server_info else None
                await expect_error("tools", client.list_tools())
                if list_only:
                    return
                found["echo"] = await client.call_tool("echo", {"text": "from the SDK"})
                found["refuse"] = await client.call_tool("refuse", {})
                await expect_error("unknown", client.call_tool("no_such_tool", {}))
                if more:
                    found["resources"] = await client.list_resources()
                    found["read"] = await client.read_resource("marginalia://document/1")
                    await expect_error("missing", client.read_resource("marginalia://none"))
                    found["prompts"] = await client.list_prompts()
                    found["prompt"] = await client.get_prompt("summarize", {"length": "9"})
    anyio.run(session)
    return found


@pytest.mark.parametrize("mode", ["legacy", "auto", MODERN])
def test_the_official_sdk_client_connects_lists_and_calls_in_each_mode(server, mode):
    need_sdk()
    seen = wiretap(server)
    found = run_sdk_session(server.url, TOKEN, mode)
    assert found["version"] == AGREED[mode]
    assert [tool.name for tool in found["tools"].tools] == ["echo", "refuse", "crash",
                                                            "bad_result"]
    assert found["echo"].is_error is False
    assert found["echo"].content[0].text == "SDK Agent says from the SDK"
    assert found["refuse"].is_error is True
    assert "stopped this agent" in found["refuse"].content[0].text
    assert found["unknown"].error.code == -32602
    assert "no_such_tool" in found["unknown"].error.message
    backend = server.protocol.backend
    # The agent is known by its own name in both eras: the backend keys turns by it.
    assert backend.calls[0] == ("SDK Agent", "echo", {"text": "from the SDK"})
    methods = [entry[0] for entry in seen]
    if mode == "legacy":
        assert methods[:2] == ["initialize", "notifications/initialized"]
        assert found["server"] == "Marginalia"
        assert backend.started == ["SDK Agent"]
        assert backend.ended == ["SDK Agent"]     # the SDK said goodbye with DELETE
        return
    # Stateless: no initialize, no session ever, the revision and method on every POST.
    assert "initialize" not in methods and server.protocol.sessions.__len__() == 0
    assert all(version == MODERN and session is None and method == method_header
               for method, version, session, method_header in seen)
    assert backend.started == [] and backend.ended == []
    if mode == "auto":
        assert methods[0] == "server/discover"     # the probe, answered: it stays modern
        assert found["server"] == "Marginalia"     # from the discover result's _meta
    else:
        assert "server/discover" not in methods    # a pinned revision skips the probe


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_the_official_sdk_client_reads_resources_and_prompts(server, mode):
    need_sdk()
    found = run_sdk_session(server.url, TOKEN, mode, more=True)
    assert found["resources"].resources[0].name == "Report.odt"
    assert found["read"].contents[0].text == "# Report"
    # An unknown resource: -32002 in the handshake revisions, -32602 from 2026-07-28 on.
    assert found["missing"].error.code == (-32002 if mode == "legacy" else -32602)
    assert found["prompts"].prompts[0].name == "summarize"
    assert found["prompt"].messages[0].content.text == "Summarize in 9 words."


@pytest.mark.parametrize("mode, code", [("legacy", -32000), (MODERN, -31000)])
def test_a_stopped_agent_is_refused_its_lists_in_each_mode(server, mode, code):
    need_sdk()
    server.protocol.backend.stopped.add("SDK Agent")
    # (Its calls would be refused too: the SDK lists the tools before it trusts a result.)
    found = run_sdk_session(server.url, TOKEN, mode, list_only=True)
    assert found["tools"].error.code == code
    assert "stopped this agent" in found["tools"].error.message


@pytest.mark.parametrize("mode", ["legacy", "auto", MODERN])
def test_the_official_sdk_client_without_the_token_is_refused(server, mode):
    need_sdk()
    with pytest.raises(BaseException) as caught:
        run_sdk_session(server.url, "not-the-token", mode)
    # The SDK hands the refusal's own sentence to its caller (inside its task groups).
    assert "A valid Authorization: Bearer token is needed" in repr(caught.value)
    assert server.protocol.backend.started == [] and server.protocol.backend.calls == []

"""The official MCP Python SDK (PyPI `mcp`) as the client, over streamable HTTP, against ours.

The SDK lives in the test environment only (build.py installs it into .venv); the extension
stays standard library. Without it these tests fail and say how to install it: a client we
did not write is the check that our reading of the spec is not just our own.
"""

import pytest

from marginalia.mcp.server import McpServer
from tests.support.mcp_fake import server  # noqa: F401 (the fixture)
from tests.support.mcp_fake import TOKEN, FakeBackend

try:
    import anyio
    from mcp import Client, MCPError
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
    from mcp.types import Implementation
    SDK_MISSING = ""
except ImportError as exc:          # reported by each test, never skipped
    SDK_MISSING = str(exc)


def need_sdk():
    if SDK_MISSING:
        pytest.fail("The official MCP SDK is not installed here (%s): run `.venv/bin/pip "
                    "install mcp`, or `python3 build.py test`, which installs it." % SDK_MISSING,
                    pytrace=False)


def run_sdk_session(url, token, mode):
    """initialize, list_tools, call_tool (ok, refused, unknown) with the SDK's own client."""
    found = {}

    async def session():
        http = create_mcp_http_client(headers={"Authorization": "Bearer " + token})
        async with http:
            transport = streamable_http_client(url, http_client=http)
            info = Implementation(name="sdk-agent", title="SDK Agent", version="1.0")
            async with Client(transport, client_info=info, mode=mode) as client:
                found["version"] = client.protocol_version
                found["server"] = client.server_info.name
                found["tools"] = [tool.name for tool in (await client.list_tools()).tools]
                found["echo"] = await client.call_tool("echo", {"text": "from the SDK"})
                found["refuse"] = await client.call_tool("refuse", {})
                try:
                    await client.call_tool("no_such_tool", {})
                except MCPError as exc:
                    found["unknown"] = exc
    anyio.run(session)
    return found


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_official_sdk_client_initializes_lists_and_calls(server, mode):
    need_sdk()
    found = run_sdk_session(server.url, TOKEN, mode)
    # "auto" first probes a newer revision's server/discover; refused, it falls back to
    # initialize, where we agree on the newest revision we speak.
    assert found["version"] == "2025-11-25"
    assert found["server"] == "Marginalia"
    assert found["tools"] == ["echo", "refuse", "crash", "bad_result"]
    assert found["echo"].is_error is False
    assert found["echo"].content[0].text == "SDK Agent says from the SDK"
    assert found["refuse"].is_error is True
    assert "stopped this agent" in found["refuse"].content[0].text
    assert found["unknown"].error.code == -32602
    backend = server.protocol.backend
    assert backend.calls[0] == ("SDK Agent", "echo", {"text": "from the SDK"})
    assert backend.ended == ["SDK Agent"]       # the SDK said goodbye with DELETE


def test_the_official_sdk_client_without_the_token_is_refused(server):
    need_sdk()
    with pytest.raises(BaseException) as caught:
        run_sdk_session(server.url, "not-the-token", "legacy")
    # The SDK hands the refusal's own sentence to its caller (inside its task groups).
    assert "A valid Authorization: Bearer token is needed" in repr(caught.value)
    assert server.protocol.backend.started == []

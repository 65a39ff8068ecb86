"""The official MCP Python SDK as the tests' outside agent (never shipped in the .oxt).

``agent(url, token, name, steps)`` connects over Streamable HTTP with the bearer
token, initializes as the agent ``name`` and runs ``await steps(Agent)``; one MCP
session for the whole scenario, so its calls can form one turn. A missing SDK
fails the test with the way to install it: never a skip.
"""

import json

try:
    import anyio
    from mcp import ClientSession, types
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
except ImportError as exc:          # the harness must fail loudly, not skip
    raise AssertionError(
        "The MCP tests need the official MCP Python SDK in the test environment: "
        "`.venv/bin/pip install mcp` (build.py prepares .venv with it). %s" % exc)


class Agent:
    """One connected session, its calls answering plain values."""

    def __init__(self, session):
        self.session = session

    async def tools(self):
        return {t.name: t for t in (await self.session.list_tools()).tools}

    async def call(self, name, **arguments):
        """(is_error, text) of one tools/call."""
        result = await self.session.call_tool(name, arguments)
        text = "".join(getattr(c, "text", "") for c in result.content)
        return bool(result.is_error), text

    async def documents(self):
        error, text = await self.call("list_documents")
        assert not error, text
        return json.loads(text)["documents"]

    async def resources(self):
        return (await self.session.list_resources()).resources

    async def read(self, uri):
        contents = (await self.session.read_resource(uri)).contents
        return "".join(getattr(c, "text", "") for c in contents)

    async def prompts(self):
        return (await self.session.list_prompts()).prompts


def agent(url, token, name, steps):
    """Run ``steps(Agent)`` in one MCP session as agent ``name``; returns its value."""
    async def main():
        http = create_mcp_http_client(headers={"Authorization": "Bearer " + token})
        async with http:
            async with streamable_http_client(url, http_client=http) as streams:
                async with ClientSession(streams[0], streams[1], client_info=types.Implementation(
                        name=name, version="1.0")) as session:
                    await session.initialize()
                    return await steps(Agent(session))
    return anyio.run(main)


def sleep(seconds):
    return anyio.sleep(seconds)

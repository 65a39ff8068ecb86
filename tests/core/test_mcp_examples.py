"""Each revision's own example messages, as its specification prints them, sent raw.

The examples are the spec's (lifecycle, tools, transports pages of 2025-03-26, 2025-06-18,
2025-11-25 and 2026-07-28), byte for byte where a test can take them so: a tool named
get_weather, a client named ExampleClient. What the server answers is checked against what
the same pages say a server answers.
"""

import json

import pytest

from marginalia.mcp.backend import text_result
from marginalia.mcp.protocol import Protocol
from tests.support.mcp_fake import FakeBackend

WEATHER = {"name": "get_weather",
           "description": "Get current weather information for a location",
           "inputSchema": {"type": "object", "properties": {"location": {
               "type": "string", "description": "City name or zip code"}},
               "required": ["location"]}}


class WeatherBackend(FakeBackend):
    """The spec's example server: one get_weather tool besides the fake's."""

    def tools(self):
        return [WEATHER] + super().tools()

    def call_tool(self, client, name, arguments):
        if name == "get_weather":
            self.calls.append((client.label, name, arguments))
            return text_result("Current weather in %s:\nTemperature: 72\u00b0F\nConditions: "
                               "Partly cloudy" % arguments["location"])
        return super().call_tool(client, name, arguments)


# ---------------------------------------------------------------------- handshake revisions

# 2025-11-25, basic/lifecycle: its initialize example (it names 2024-11-05, which this
# server does not speak: it answers with the newest handshake revision it has, as the page
# says a server must).
INITIALIZE_2025_11_25 = b'''{
  "jsonrpc": "2.0",
  "id": 1,
  "method": "initialize",
  "params": {
    "protocolVersion": "2024-11-05",
    "capabilities": {
      "roots": {"listChanged": true},
      "sampling": {},
      "elicitation": {"form": {}, "url": {}},
      "tasks": {"requests": {"elicitation": {"create": {}}, "sampling": {"createMessage": {}}}}
    },
    "clientInfo": {
      "name": "ExampleClient",
      "title": "Example Client Display Name",
      "version": "1.0.0",
      "description": "An example MCP client application",
      "icons": [{"src": "https://example.com/icon.png", "mimeType": "image/png",
                 "sizes": ["48x48"]}],
      "websiteUrl": "https://example.com"
    }
  }
}'''

# 2025-06-18, basic/lifecycle: its initialize example's params, the revision named its own.
INITIALIZE_2025_06_18 = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18",
    "capabilities": {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}},
    "clientInfo": {"name": "ExampleClient", "title": "Example Client Display Name",
                   "version": "1.0.0"}}}

# 2025-03-26, basic/lifecycle: the same without elicitation and title, which it did not have.
INITIALIZE_2025_03_26 = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-03-26",
    "capabilities": {"roots": {"listChanged": True}, "sampling": {}},
    "clientInfo": {"name": "ExampleClient", "version": "1.0.0"}}}

INITIALIZED = b'{"jsonrpc": "2.0", "method": "notifications/initialized"}'

# server/tools, identical in the three handshake revisions.
TOOLS_LIST = b'''{"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                  "params": {"cursor": "optional-cursor-value"}}'''
TOOLS_CALL = b'''{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                  "params": {"name": "get_weather", "arguments": {"location": "New York"}}}'''
UNKNOWN_TOOL = b'''{"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "invalid_tool_name", "arguments": {}}}'''


def raw(value):
    return value if isinstance(value, bytes) else json.dumps(value).encode("utf-8")


def test_the_2025_11_25_initialize_example_gets_the_newest_handshake_revision():
    protocol = Protocol(WeatherBackend())
    outcome = protocol.handle_post(INITIALIZE_2025_11_25)
    assert outcome.status == 200 and outcome.session_id
    result = outcome.body["result"]
    assert outcome.body["id"] == 1 and result["protocolVersion"] == "2025-11-25"
    assert set(result) >= {"protocolVersion", "capabilities", "serverInfo", "instructions"}
    assert protocol.backend.started == ["Example Client Display Name"]


@pytest.mark.parametrize("initialize", [INITIALIZE_2025_03_26, INITIALIZE_2025_06_18,
                                        INITIALIZE_2025_11_25])
def test_each_handshake_revisions_tool_examples_in_its_session(initialize):
    protocol = Protocol(WeatherBackend())
    opened = protocol.handle_post(raw(initialize))
    session, version = opened.session_id, opened.body["result"]["protocolVersion"]
    assert protocol.handle_post(INITIALIZED, session, version).status == 202
    listed = protocol.handle_post(TOOLS_LIST, session, version)
    assert listed.status == 200 and listed.body["result"]["tools"][0] == WEATHER
    called = protocol.handle_post(TOOLS_CALL, session, version)
    assert called.status == 200 and called.body == {"jsonrpc": "2.0", "id": 2, "result": {
        "content": [{"type": "text", "text": "Current weather in New York:\nTemperature: "
                                             "72\u00b0F\nConditions: Partly cloudy"}],
        "isError": False}}
    unknown = protocol.handle_post(UNKNOWN_TOOL, session, version)
    # The page's protocol error: -32602 "Unknown tool: invalid_tool_name", answered with 200.
    assert unknown.status == 200 and unknown.body["id"] == 3
    assert unknown.body["error"]["code"] == -32602
    assert unknown.body["error"]["message"].startswith("Unknown tool: invalid_tool_name")
    # Handshake results are as these revisions have them: no 2026-07-28 fields.
    assert "resultType" not in called.body["result"] and "ttlMs" not in listed.body["result"]


def test_a_2025_03_26_batch_of_its_examples_and_none_later():
    protocol = Protocol(WeatherBackend())
    old = protocol.handle_post(raw(INITIALIZE_2025_03_26)).session_id
    batch = b"[" + TOOLS_LIST + b"," + TOOLS_CALL + b"]"
    outcome = protocol.handle_post(batch, old, "2025-03-26")
    assert outcome.status == 200 and [answer["id"] for answer in outcome.body] == [1, 2]
    new = protocol.handle_post(raw(INITIALIZE_2025_06_18)).session_id
    assert protocol.handle_post(batch, new, "2025-06-18").status == 400


# ---------------------------------------------------------------------- 2026-07-28

# server/discover (its page's request).
DISCOVER = b'''{
  "jsonrpc": "2.0",
  "id": "discover-1",
  "method": "server/discover",
  "params": {
    "_meta": {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"},
      "io.modelcontextprotocol/clientCapabilities": {}
    }
  }
}'''

# basic/transports/streamable-http, "Standard Request Headers": tools/call and
# resources/read, each with the headers the page shows.
CALL_2026 = b'''{
  "jsonrpc": "2.0",
  "id": 1,
  "method": "tools/call",
  "params": {
    "name": "get_weather",
    "arguments": {"location": "Seattle, WA"},
    "_meta": {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"},
      "io.modelcontextprotocol/clientCapabilities": {}
    }
  }
}'''
READ_2026 = b'''{
  "jsonrpc": "2.0",
  "id": 2,
  "method": "resources/read",
  "params": {
    "uri": "file:///projects/myapp/config.json",
    "_meta": {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"},
      "io.modelcontextprotocol/clientCapabilities": {}
    }
  }
}'''

# server/tools: its tools/list request, whose _meta the page leaves out "for brevity".
LIST_2026 = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {
    "cursor": "optional-cursor-value", "_meta": json.loads(DISCOVER)["params"]["_meta"]}}

# basic/versioning: a request for a revision the server does not have.
OLD_2026 = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
    "io.modelcontextprotocol/protocolVersion": "1900-01-01",
    "io.modelcontextprotocol/clientCapabilities": {}}}}


def test_the_2026_discover_example():
    outcome = Protocol(WeatherBackend()).handle_post(DISCOVER, None, "2026-07-28",
                                                     "server/discover")
    assert outcome.status == 200 and outcome.body["id"] == "discover-1"
    result = outcome.body["result"]
    # The page's answer: resultType, supportedVersions, capabilities, instructions, cache hints.
    assert result["resultType"] == "complete" and "2026-07-28" in result["supportedVersions"]
    assert {"tools", "resources"} <= set(result["capabilities"])
    assert result["instructions"] and result["ttlMs"] >= 0
    assert result["cacheScope"] in ("public", "private")


def test_the_2026_transport_examples_with_their_headers():
    protocol = Protocol(WeatherBackend())
    called = protocol.handle_post(CALL_2026, None, "2026-07-28", "tools/call", "get_weather")
    assert called.status == 200 and called.body["id"] == 1
    result = called.body["result"]
    # The tools page's answer shape: resultType, content, isError.
    assert result["resultType"] == "complete" and result["isError"] is False
    assert result["content"][0]["text"].startswith("Current weather in Seattle, WA:")
    assert protocol.backend.calls == [("ExampleClient", "get_weather",
                                       {"location": "Seattle, WA"})]
    read = protocol.handle_post(READ_2026, None, "2026-07-28", "resources/read",
                                "file:///projects/myapp/config.json")
    # No such file here: invalid params naming the URI (the revision retired -32002).
    assert read.status == 400 and read.body["error"]["code"] == -32602
    assert read.body["error"]["data"] == {"uri": "file:///projects/myapp/config.json"}
    listed = protocol.handle_post(json.dumps(LIST_2026).encode(), None, "2026-07-28",
                                  "tools/list")
    assert listed.status == 200 and listed.body["result"]["tools"][0] == WEATHER
    # The page's server validation: a header that differs from the body is -32020 with 400.
    mismatch = protocol.handle_post(CALL_2026, None, "2026-07-28", "tools/call", "foo")
    assert mismatch.status == 400 and mismatch.body["error"]["code"] == -32020


def test_the_2026_unsupported_version_example():
    outcome = Protocol(WeatherBackend()).handle_post(json.dumps(OLD_2026).encode(), None,
                                                     "1900-01-01", "tools/list")
    # The versioning page's answer, down to its data: the revisions spoken, the one asked.
    assert outcome.status == 400 and outcome.body["id"] == 1
    error = outcome.body["error"]
    assert error["code"] == -32022
    assert error["data"]["requested"] == "1900-01-01"
    assert error["data"]["supported"][:2] == ["2026-07-28", "2025-11-25"]

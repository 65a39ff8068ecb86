"""A small MCP Backend for the pure tier, and a plain HTTP helper to talk to an McpServer."""

import http.client
import json
import threading

import pytest

from marginalia.mcp.backend import Backend, McpRefusal, UnknownName, text_result

TOKEN = "test-token-Zq8vX3kP0-not-a-real-one"
# Text only the crashing tool's exception holds: it must never reach an agent.
SECRET_CRASH_TEXT = "KeyError in /opt/office/secret_module.py line 42"


class FakeBackend(Backend):
    """echo, refuse (a stopped agent), crash (a bug), bad_result; one resource, one prompt."""

    def __init__(self):
        self.calls = []            # (client label, tool name, arguments)
        self.started = []
        self.ended = []
        self.stopped = set()       # agent labels refused, as a Stop in the panel does
        self._lock = threading.Lock()

    def refusal(self, client):
        if client.label in self.stopped:
            return "The user stopped this agent in the Marginalia panel."
        return None

    def tools(self):
        schema = {"type": "object", "properties": {"text": {"type": "string"}}}
        return [{"name": name, "description": "The %s tool." % name, "inputSchema": schema}
                for name in ("echo", "refuse", "crash", "bad_result")]

    def call_tool(self, client, name, arguments):
        with self._lock:
            self.calls.append((client.label, name, arguments))
        if name == "echo":
            return text_result("%s says %s" % (client.label, arguments.get("text", "")))
        if name == "refuse":
            raise McpRefusal("The user stopped this agent in the Marginalia panel.")
        if name == "crash":
            raise KeyError(SECRET_CRASH_TEXT)
        if name == "bad_result":
            return 42
        raise UnknownName("There is no tool named %s." % name)

    def resources(self):
        return [{"uri": "marginalia://document/1", "name": "Report.odt",
                 "mimeType": "text/markdown"}]

    def read_resource(self, client, uri):
        if uri != "marginalia://document/1":
            raise UnknownName("No open document has the address %s." % uri)
        return {"contents": [{"uri": uri, "mimeType": "text/markdown", "text": "# Report"}]}

    def prompts(self):
        return [{"name": "summarize", "description": "Summarize the document.",
                 "arguments": [{"name": "length", "required": False}]}]

    def get_prompt(self, client, name, arguments):
        if name != "summarize":
            raise UnknownName("There is no prompt named %s." % name)
        text = "Summarize in %s words." % arguments.get("length", "100")
        return {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}

    def session_started(self, client):
        self.started.append(client.label)

    def session_ended(self, client):
        self.ended.append(client.label)


def rpc(method, params=None, request_id=1):
    message = {"jsonrpc": "2.0", "method": method}
    if request_id is not None:
        message["id"] = request_id
    if params is not None:
        message["params"] = params
    return message


MODERN = "2026-07-28"


def envelope(version=MODERN, name="modern-agent", title=None, capabilities=None):
    """The ``_meta`` every 2026-07-28 request carries: revision, client, capabilities."""
    info = {"name": name, "version": "1.0"}
    if title:
        info["title"] = title
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": info,
            "io.modelcontextprotocol/clientCapabilities": capabilities or {}}


def modern_rpc(method, params=None, request_id=1, **meta):
    """A 2026-07-28 request: ``params`` with the envelope in its ``_meta``."""
    return rpc(method, dict(params or {}, _meta=envelope(**meta)), request_id)


def modern_headers(message, version=MODERN):
    """The headers that mirror a 2026-07-28 request's body (Mcp-Name where it has one)."""
    headers = {"MCP_Protocol_Version": version, "Mcp_Method": message["method"]}
    params = message.get("params") or {}
    named = params.get("uri" if message["method"] == "resources/read" else "name")
    if message["method"] in ("tools/call", "prompts/get", "resources/read") and named:
        headers["Mcp_Name"] = named
    return headers


def initialize_params(version="2025-11-25", name="test-agent", title=None):
    info = {"name": name, "version": "1.0"}
    if title:
        info["title"] = title
    return {"protocolVersion": version, "capabilities": {}, "clientInfo": info}


class Http:
    """Raw requests to a started McpServer, one new connection each."""

    def __init__(self, port, token=TOKEN):
        self.port = port
        self.token = token
        self.session_id = None

    def headers(self, **extra):
        headers = {"Content-Type": "application/json", "Host": "127.0.0.1:%d" % self.port,
                   "Accept": "application/json, text/event-stream"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        for name, value in extra.items():
            name = name.replace("_", "-")
            if value is None:
                headers.pop(name, None)
            else:
                headers[name] = value
        return headers

    def request(self, method="POST", body=b"", headers=None, host="127.0.0.1"):
        """(status, response headers lower-cased, parsed JSON body or None)."""
        conn = http.client.HTTPConnection(host, self.port, timeout=10)
        try:
            if not isinstance(body, bytes):
                body = json.dumps(body).encode("utf-8")
            conn.request(method, "/mcp", body=body or None,
                         headers=headers if headers is not None else self.headers())
            response = conn.getresponse()
            data = response.read()
            found = {k.lower(): v for k, v in response.getheaders()}
            return response.status, found, (json.loads(data.decode("utf-8")) if data else None)
        finally:
            conn.close()

    def post(self, message, **extra):
        return self.request("POST", message, self.headers(**extra))

    def modern(self, message, **extra):
        """POST a 2026-07-28 request with its mirrored headers (``extra`` overrides them)."""
        headers = modern_headers(message)
        headers.update(extra)
        return self.post(message, **headers)

    def initialize(self, version="2025-11-25", **info):
        status, headers, body = self.post(rpc("initialize", initialize_params(version, **info)))
        assert status == 200, body
        self.session_id = headers["mcp-session-id"]
        self.post(rpc("notifications/initialized", request_id=None))
        return body["result"]


@pytest.fixture
def server():
    """A started McpServer over a FakeBackend on a free port (a test module imports it
    under this name, in place of the core suite's scripted SSE server)."""
    from marginalia.mcp.server import McpServer
    srv = McpServer(FakeBackend(), TOKEN, port=0)
    srv.start()
    yield srv
    srv.stop()

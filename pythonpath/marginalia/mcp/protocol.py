"""MCP over JSON-RPC 2.0, free of I/O: one POSTed body in, an ``Outcome`` (status, JSON) out.

The transport (server.py) has already checked who is asking (token, Host, Origin); this
module decides what the body means. Rules it keeps, from the spec's revisions 2025-03-26,
2025-06-18 and 2025-11-25:

- ``initialize`` opens a session: the client's revision if spoken here, else the newest one
  here (the client then decides whether it can go on). Every other message names its session
  (``Mcp-Session-Id``): none is 400, an unknown one 404 (the client must initialize again).
- An ``MCP-Protocol-Version`` header naming a revision not spoken here is refused with 400.
- A body is one message; a batch (a JSON array) only in a session that agreed on 2025-03-26,
  the one revision that had them.
- Notifications and responses are accepted with 202 and no body. Requests get 200 with a
  JSON-RPC response, errors included; only a body that is not JSON-RPC at all gets 400.
- A backend's refusal goes to the agent as its sentence; any other exception is logged with
  its trace and the agent reads one plain sentence (errors.UNEXPECTED).
"""

import json
import logging
import re
from typing import Any, Dict, List, Optional

import marginalia
from marginalia.errors import UNEXPECTED
from marginalia.mcp import BATCH_VERSIONS, LATEST_VERSION, SUPPORTED_VERSIONS
from marginalia.mcp.backend import Backend, Client, McpRefusal, UnknownName, refusal_text
from marginalia.mcp.sessions import Sessions

log = logging.getLogger("marginalia.mcp")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# The methods a backend's refusal(client) answers for (tools/call and resources/read
# refuse in the backend, the former as a result the model can read).
GATED = ("tools/list", "resources/list", "resources/templates/list", "prompts/list",
         "prompts/get")
REFUSED = -32000            # the backend refused (implementation-defined server error range)
RESOURCE_NOT_FOUND = -32002  # the spec's code for resources/read of an unknown URI

SERVER_INFO = {"name": "Marginalia", "title": "Marginalia", "version": marginalia.__version__}
CAPABILITIES = {"tools": {"listChanged": False},
                "resources": {"subscribe": False, "listChanged": False},
                "prompts": {"listChanged": False}}


class Outcome:
    """What the transport sends back: an HTTP status, a JSON value or None, a new session id."""

    __slots__ = ("status", "body", "session_id")

    def __init__(self, status: int, body: Any = None, session_id: Optional[str] = None) -> None:
        self.status = status
        self.body = body
        self.session_id = session_id

    def __repr__(self) -> str:
        return "Outcome(%d, %r)" % (self.status, self.body)


class RpcError(Exception):
    """A JSON-RPC error answer to one request."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


def error_body(code: int, message: str, request_id: Any = None, data: Any = None) -> Dict:
    """A JSON-RPC error response (id null when the request's id is unknown)."""
    error = {"code": code, "message": message}    # type: Dict[str, Any]
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def refused(status: int, code: int, message: str) -> Outcome:
    """A refusal of the whole HTTP request (no id to answer)."""
    return Outcome(status, error_body(code, message))


def _versions_sentence() -> str:
    return ", ".join(SUPPORTED_VERSIONS[:-1]) + " and " + SUPPORTED_VERSIONS[-1]


def _revision(text: str) -> str:
    """A revision a client asked for, as answers and logs repeat it: a date only. Other text
    is the client's to fill, and could be anything, a misplaced token too."""
    text = text.strip()
    return ("revision " + text if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text)
            else "a revision that is not a date")


class Protocol:
    """The MCP methods over a Backend, with the sessions they open."""

    def __init__(self, backend: Backend, sessions: Optional[Sessions] = None) -> None:
        self.backend = backend
        self.sessions = sessions if sessions is not None else Sessions()
        self._methods = {
            "ping": lambda client, params: {},
            "tools/list": lambda client, params: {"tools": self.backend.tools()},
            "tools/call": self._call_tool,
            "resources/list": lambda client, params: {"resources": self.backend.resources()},
            "resources/templates/list": lambda client, params: {"resourceTemplates": []},
            "resources/read": self._read_resource,
            "prompts/list": lambda client, params: {"prompts": self.backend.prompts()},
            "prompts/get": self._get_prompt,
        }

    # ------------------------------------------------------------------ the HTTP body

    def handle_post(self, body: bytes, session_id: Optional[str] = None,
                    version_header: Optional[str] = None) -> Outcome:
        """Answer one POSTed body (the transport's checks already passed)."""
        if version_header is not None and version_header.strip() not in SUPPORTED_VERSIONS:
            return refused(400, INVALID_REQUEST,
                           "This server speaks MCP revisions %s; the MCP-Protocol-Version "
                           "header names %s." % (_versions_sentence(), _revision(version_header)))
        try:
            message = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            # RecursionError: thousands of nested brackets, JSON that no client sends.
            return refused(400, PARSE_ERROR, "The body is not valid JSON.")
        if isinstance(message, list):
            return self._batch(message, session_id)
        if _kind(message) == "request" and message.get("method") == "initialize":
            return self._initialize(message)
        client = self.sessions.get(session_id) if session_id else None
        if client is None:
            return self._no_session(session_id)
        problem = _invalid(message)
        if problem:
            return Outcome(400, error_body(INVALID_REQUEST, problem, _safe_id(message)))
        answer = self._dispatch(client, message)
        return Outcome(202) if answer is None else Outcome(200, answer)

    def end_session(self, session_id: Optional[str]) -> Outcome:
        """DELETE: the client is done with its session."""
        if not session_id:
            return refused(400, INVALID_REQUEST, "The Mcp-Session-Id header is missing.")
        client = self.sessions.end(session_id)
        if client is None:
            return refused(404, INVALID_REQUEST, "There is no such session; it may have ended.")
        self._ended(client)
        return Outcome(200)

    def end_all(self) -> None:
        """The server stops: every session ends."""
        for client in self.sessions.end_all():
            self._ended(client)

    def _no_session(self, session_id: Optional[str]) -> Outcome:
        if not session_id:
            return refused(400, INVALID_REQUEST, "The Mcp-Session-Id header is missing; "
                                                 "send initialize first.")
        return refused(404, INVALID_REQUEST, "There is no such session; send initialize again.")

    def _batch(self, messages: List[Any], session_id: Optional[str]) -> Outcome:
        client = self.sessions.get(session_id) if session_id else None
        if client is None:
            return self._no_session(session_id)
        if client.protocol_version not in BATCH_VERSIONS:
            return refused(400, INVALID_REQUEST, "MCP revision %s has no batches; send one "
                                                 "message per request." % client.protocol_version)
        if not messages:
            return refused(400, INVALID_REQUEST, "The batch is empty.")
        answers = []
        for message in messages:
            problem = _invalid(message)
            if not problem and message.get("method") == "initialize":
                problem = "initialize cannot be part of a batch."
            if problem:
                answers.append(error_body(INVALID_REQUEST, problem, _safe_id(message)))
                continue
            answer = self._dispatch(client, message)
            if answer is not None:
                answers.append(answer)
        return Outcome(200, answers) if answers else Outcome(202)

    # ------------------------------------------------------------------ messages

    def _initialize(self, message: Dict) -> Outcome:
        request_id = message.get("id")
        problem = _invalid(message)
        if problem:
            return Outcome(400, error_body(INVALID_REQUEST, problem, _safe_id(message)))
        params = message.get("params")
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        if not isinstance(asked, str):
            return Outcome(200, error_body(INVALID_PARAMS, "initialize needs params with a "
                                           "protocolVersion string.", request_id))
        agreed = asked if asked in SUPPORTED_VERSIONS else LATEST_VERSION
        info = params.get("clientInfo")
        info = info if isinstance(info, dict) else {}
        client, evicted = self.sessions.open(_text(info.get("name")), _text(info.get("title")),
                                             _text(info.get("version")), agreed)
        for old in evicted:
            self._ended(old)
        log.info("mcp: %r began a session (asked for %s)", client, _revision(asked))
        try:
            self.backend.session_started(client)
        except Exception:
            log.exception("mcp: the backend failed to note a new session")
        result = {"protocolVersion": agreed, "capabilities": CAPABILITIES,
                  "serverInfo": SERVER_INFO}
        if self.backend.instructions:
            result["instructions"] = self.backend.instructions
        return Outcome(200, {"jsonrpc": "2.0", "id": request_id, "result": result},
                       client.session_id)

    def _dispatch(self, client: Client, message: Dict) -> Optional[Dict]:
        """The response to one valid message, None for notifications and responses."""
        kind = _kind(message)
        if kind != "request":
            return None        # notifications/initialized, cancelled...; we never ask anything
        request_id = message["id"]
        method = message["method"]
        handler = self._methods.get(method)
        if handler is None:
            return error_body(METHOD_NOT_FOUND, "There is no method %s here." % method[:80],
                              request_id)
        params = message.get("params", {})
        if not isinstance(params, dict):
            return error_body(INVALID_PARAMS, "params must be an object.", request_id)
        try:
            refusal = self.backend.refusal(client) if method in GATED else None
            if refusal:
                return error_body(REFUSED, refusal, request_id)
            result = handler(client, params)
        except RpcError as exc:
            return error_body(exc.code, str(exc), request_id, exc.data)
        except UnknownName as exc:
            return error_body(INVALID_PARAMS, str(exc), request_id)
        except McpRefusal as exc:
            return error_body(REFUSED, refusal_text(exc) or UNEXPECTED, request_id)
        except Exception:
            log.exception("mcp: %s for %r failed", method, client)
            return error_body(INTERNAL_ERROR, UNEXPECTED, request_id)
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def _call_tool(self, client: Client, params: Dict) -> Dict:
        name = params.get("name")
        arguments = params.get("arguments", {})
        if arguments is None:
            arguments = {}
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "tools/call needs a tool name and an arguments object.")
        if name not in {tool.get("name") for tool in self.backend.tools()}:
            raise RpcError(INVALID_PARAMS, "Unknown tool: %s." % name[:80])
        try:
            result = self.backend.call_tool(client, name, arguments)
        except UnknownName:
            raise
        except McpRefusal as exc:
            # The model reads a tool's refusal as the tool's result, and can tell the user.
            return {"content": [{"type": "text", "text": refusal_text(exc) or UNEXPECTED}],
                    "isError": True}
        except Exception:
            log.exception("mcp: the tool %s for %r failed", name, client)
            return {"content": [{"type": "text", "text": UNEXPECTED}], "isError": True}
        if not isinstance(result, dict) or not isinstance(result.get("content"), list):
            log.error("mcp: the tool %s returned %s, not a CallToolResult", name,
                      type(result).__name__)
            return {"content": [{"type": "text", "text": UNEXPECTED}], "isError": True}
        result.setdefault("isError", False)
        return result

    def _read_resource(self, client: Client, params: Dict) -> Dict:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "resources/read needs a uri string.")
        try:
            return self.backend.read_resource(client, uri)
        except UnknownName as exc:
            raise RpcError(RESOURCE_NOT_FOUND, str(exc), {"uri": uri})

    def _get_prompt(self, client: Client, params: Dict) -> Dict:
        name = params.get("name")
        arguments = params.get("arguments", {}) or {}
        if not isinstance(name, str) or not isinstance(arguments, dict) \
                or not all(isinstance(v, str) for v in arguments.values()):
            raise RpcError(INVALID_PARAMS, "prompts/get needs a prompt name and string arguments.")
        return self.backend.get_prompt(client, name, arguments)

    def _ended(self, client: Client) -> None:
        log.info("mcp: %r ended", client)
        try:
            self.backend.session_ended(client)
        except Exception:
            log.exception("mcp: the backend failed to note an ended session")


# ---------------------------------------------------------------------- JSON-RPC shapes

def _kind(message: Any) -> str:
    if not isinstance(message, dict):
        return "invalid"
    if "method" in message:
        return "request" if "id" in message else "notification"
    if "result" in message or "error" in message:
        return "response"
    return "invalid"


def _invalid(message: Any) -> str:
    """Why ``message`` is not a JSON-RPC 2.0 message, or "" when it is one."""
    if not isinstance(message, dict):
        return "A JSON-RPC message must be an object."
    if message.get("jsonrpc") != "2.0":
        return 'A JSON-RPC message needs "jsonrpc": "2.0".'
    kind = _kind(message)
    if kind == "invalid":
        return "The message is neither a request, a notification nor a response."
    if kind != "response" and not isinstance(message["method"], str):
        return "The method must be a string."
    if kind == "request" and not _valid_id(message["id"]):
        return "A request id must be a string or an integer."
    return ""


def _valid_id(value: Any) -> bool:
    # MCP forbids null ids; bool is an int to Python but not to JSON.
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _safe_id(message: Any) -> Any:
    """The id to answer an invalid message with: its own when usable, else null."""
    if isinstance(message, dict) and _valid_id(message.get("id")):
        return message["id"]
    return None


def _text(value: Any) -> str:
    return value[:200] if isinstance(value, str) else ""

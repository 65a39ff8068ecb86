"""JSON-RPC 2.0 as MCP uses it, in every revision: the message shapes, the error codes, and
``Outcome``, what the transport sends back for one POSTed body. Free of I/O.

Rules kept here: a message is an object with ``"jsonrpc": "2.0"``; a request has a string
or integer id (MCP forbids null, and a bool is no integer to JSON); an error answer carries
the request's id, or null when it could not be read.
"""

from typing import Any, Dict, Optional

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


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


def refused(status: int, code: int, message: str, request_id: Any = None,
            data: Any = None) -> Outcome:
    """A refusal of the whole HTTP request (null id unless the request's could be read)."""
    return Outcome(status, error_body(code, message, request_id, data))


def kind(message: Any) -> str:
    """"request", "notification", "response" or "invalid"."""
    if not isinstance(message, dict):
        return "invalid"
    if "method" in message:
        return "request" if "id" in message else "notification"
    if "result" in message or "error" in message:
        return "response"
    return "invalid"


def invalid(message: Any) -> str:
    """Why ``message`` is not a JSON-RPC 2.0 message, or "" when it is one."""
    if not isinstance(message, dict):
        return "A JSON-RPC message must be an object."
    if message.get("jsonrpc") != "2.0":
        return 'A JSON-RPC message needs "jsonrpc": "2.0".'
    found = kind(message)
    if found == "invalid":
        return "The message is neither a request, a notification nor a response."
    if found != "response" and not isinstance(message["method"], str):
        return "The method must be a string."
    if found == "request" and not valid_id(message["id"]):
        return "A request id must be a string or an integer."
    return ""


def valid_id(value: Any) -> bool:
    # MCP forbids null ids; bool is an int to Python but not to JSON.
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def safe_id(message: Any) -> Any:
    """The id to answer an invalid message with: its own when usable, else null."""
    if isinstance(message, dict) and valid_id(message.get("id")):
        return message["id"]
    return None


def text(value: Any, limit: int = 200) -> str:
    """A client's string as kept (names, versions): cut to ``limit``; anything else is ""."""
    return value[:limit] if isinstance(value, str) else ""


def accepts_json(accept: Optional[str]) -> bool:
    """Lenient: no Accept at all, or one allowing JSON (the spec's clients list both types)."""
    if not accept:
        return True
    kinds = [part.split(";")[0].strip().lower() for part in accept.split(",")]
    return any(kind in ("application/json", "application/*", "*/*") for kind in kinds)

"""MCP over JSON-RPC 2.0, free of I/O: one POSTed body in, an ``Outcome`` (status, JSON) out.

The transport (server.py) has already checked who is asking (token, Host, Origin); this
module decides what the body means. Two eras are spoken on one endpoint, and the
``MCP-Protocol-Version`` header says which a request belongs to:

- A header naming no revision spoken here (either era): 400 with UnsupportedProtocolVersion
  (-32022), its data listing the revisions spoken (``modern.unsupported``).
- ``initialize`` always opens a handshake session, whatever revision header it carries (a
  dual-era server's rule in 2026-07-28).
- A header naming 2026-07-28: that revision's stateless rules (modern.py): no session (an
  ``Mcp-Session-Id`` is ignored), ``server/discover``, the ``_meta`` envelope and mirrored
  headers checked on every request, errors with their own HTTP statuses.
- No header, or one naming a handshake revision: the rules of 2025-03-26, 2025-06-18 and
  2025-11-25, below. A header-less body carrying the 2026-07-28 envelope and no session is
  refused with HeaderMismatch (-32020): that revision needs the header.

The handshake revisions (2025-03-26, 2025-06-18, 2025-11-25):

- ``initialize`` opens a session: the client's revision if it is one of these, else the
  newest of them (the client then decides whether it can go on). Every other message names
  its session (``Mcp-Session-Id``): none is 400, an unknown one 404 (initialize again).
- A body is one message; a batch (a JSON array) only in a session that agreed on 2025-03-26,
  the one revision that had them.
- Notifications and responses are accepted with 202 and no body. Requests get 200 with a
  JSON-RPC response, errors included; only a body that is not JSON-RPC at all gets 400.
- A backend's refusal of a list or prompt is -32000; an unknown resource -32002.

In both eras a backend's refusal goes to the agent as its sentence; any other exception is
logged with its trace and the agent reads one plain sentence (errors.UNEXPECTED).

Every request acts with the grant of the token it carried (scopes.Grant, from the
transport): a session answers only requests with the token that opened it, tools/list
lists only the tools the grant's scope may call, and a call of another is refused as the
tool's result (scopes.READ_ONLY), before the backend sees it. The backend hears of each
tools/call and resources/read as it ends (Backend.note_call), refusals included.
"""

import json
import logging
from typing import Any, Dict, List, Optional

import marginalia
from marginalia.errors import UNEXPECTED
from marginalia.mcp import (BATCH_VERSIONS, HANDSHAKE_VERSIONS, LATEST_HANDSHAKE_VERSION,
                            MODERN_VERSIONS, SUPPORTED_VERSIONS)
from marginalia.mcp import modern, scopes
from marginalia.mcp.backend import (Backend, BadRequestState, Client, McpRefusal, UnknownName,
                                    refusal_text)
from marginalia.mcp.rpc import (INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST,  # noqa: F401
                                METHOD_NOT_FOUND, PARSE_ERROR, Outcome, RpcError, error_body,
                                invalid, kind, refused, safe_id, text)
from marginalia.mcp.scopes import ANYTHING, Grant
from marginalia.mcp.sessions import Sessions

log = logging.getLogger("marginalia.mcp")

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


class Protocol:
    """The MCP methods over a Backend, with the sessions they open."""

    def __init__(self, backend: Backend, sessions: Optional[Sessions] = None) -> None:
        self.backend = backend
        self.sessions = sessions if sessions is not None else Sessions()
        self._methods = {
            "ping": lambda client, params: {},
            "tools/list": lambda client, params: {"tools": self._tools(client)},
            "tools/call": self._call_tool,
            "resources/list": lambda client, params: {"resources": self.backend.resources()},
            "resources/templates/list": lambda client, params: {"resourceTemplates": []},
            "resources/read": self._read_resource,
            "prompts/list": lambda client, params: {"prompts": self.backend.prompts()},
            "prompts/get": self._get_prompt,
        }

    # ------------------------------------------------------------------ the HTTP body

    def handle_post(self, body: bytes, session_id: Optional[str] = None,
                    version_header: Optional[str] = None, method_header: Optional[str] = None,
                    name_header: Optional[str] = None, repeated: str = "",
                    grant: Grant = ANYTHING) -> Outcome:
        """Answer one POSTed body (the transport's checks already passed). ``method_header``
        and ``name_header`` are Mcp-Method and Mcp-Name; ``repeated`` names a routing header
        the request sent more than once (both matter to 2026-07-28 only); ``grant`` is what
        the request's token allows."""
        try:
            message = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            # RecursionError: thousands of nested brackets, JSON that no client sends.
            return refused(400, PARSE_ERROR, "The body is not valid JSON.")
        version = version_header.strip() if version_header is not None else None
        if version is not None and version not in SUPPORTED_VERSIONS:
            return modern.unsupported(version, safe_id(message))
        if kind(message) == "request" and message.get("method") == "initialize":
            return self._initialize(message, grant)
        if version in MODERN_VERSIONS:
            return self._modern(message, version, method_header, name_header, repeated, grant)
        if version is None and not session_id and modern.envelope(message) is not None:
            return modern.header_missing(message)
        if isinstance(message, list):
            return self._batch(message, session_id, grant)
        client = self.sessions.get(session_id, grant) if session_id else None
        if client is None:
            return self._no_session(session_id)
        problem = invalid(message)
        if problem:
            return Outcome(400, error_body(INVALID_REQUEST, problem, safe_id(message)))
        answer = self._dispatch(client, message)
        return Outcome(202) if answer is None else Outcome(200, answer)

    def _modern(self, message: Any, version: str, method_header: Optional[str],
                name_header: Optional[str], repeated: str, grant: Grant) -> Outcome:
        """One message of a stateless revision (modern.py has its rules)."""
        if isinstance(message, list):
            return refused(400, INVALID_REQUEST, "MCP revision %s has no batches; send one "
                                                 "message per request." % version)
        problem = invalid(message)
        if problem:
            return refused(400, INVALID_REQUEST, problem, safe_id(message))
        found = kind(message)
        if found == "notification":
            return Outcome(202)         # none is defined for a server to act on over HTTP
        if found == "response":
            return refused(400, INVALID_REQUEST, "In MCP revision %s a client sends no "
                                                 "responses: this server asks through "
                                                 "input_required results." % version)
        refusal = modern.check(message, version, method_header, name_header, repeated)
        if refusal is not None:
            return refusal
        method = message["method"]
        if method not in modern.METHODS:
            return modern.not_here(method, version, message["id"])
        client = modern.client_of(message, version).acting(grant)
        if method == modern.DISCOVER:
            log.info("mcp: %r discovered the server", client)
            answer = {"jsonrpc": "2.0", "id": message["id"], "result": modern.discover_result(
                CAPABILITIES, self.backend.instructions)}
        else:
            answer = self._dispatch(client, message)
        return modern.outcome(method, answer, SERVER_INFO)

    def end_session(self, session_id: Optional[str], version_header: Optional[str] = None,
                    grant: Grant = ANYTHING) -> Outcome:
        """DELETE: the client is done with its session. 405 when it names 2026-07-28 and no
        session: that revision has none (the transport adds the Allow header)."""
        if not session_id and (version_header or "").strip() in MODERN_VERSIONS:
            return refused(405, INVALID_REQUEST, "MCP revision %s has no sessions to end; "
                                                 "POST each request." % version_header.strip())
        if not session_id:
            return refused(400, INVALID_REQUEST, "The Mcp-Session-Id header is missing.")
        client = self.sessions.end(session_id, grant)
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

    def _batch(self, messages: List[Any], session_id: Optional[str], grant: Grant) -> Outcome:
        client = self.sessions.get(session_id, grant) if session_id else None
        if client is None:
            return self._no_session(session_id)
        if client.protocol_version not in BATCH_VERSIONS:
            return refused(400, INVALID_REQUEST, "MCP revision %s has no batches; send one "
                                                 "message per request." % client.protocol_version)
        if not messages:
            return refused(400, INVALID_REQUEST, "The batch is empty.")
        answers = []
        for message in messages:
            problem = invalid(message)
            if not problem and message.get("method") == "initialize":
                problem = "initialize cannot be part of a batch."
            if problem:
                answers.append(error_body(INVALID_REQUEST, problem, safe_id(message)))
                continue
            answer = self._dispatch(client, message)
            if answer is not None:
                answers.append(answer)
        return Outcome(200, answers) if answers else Outcome(202)

    # ------------------------------------------------------------------ messages

    def _initialize(self, message: Dict, grant: Grant) -> Outcome:
        request_id = message.get("id")
        problem = invalid(message)
        if problem:
            return Outcome(400, error_body(INVALID_REQUEST, problem, safe_id(message)))
        params = message.get("params")
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        if not isinstance(asked, str):
            return Outcome(200, error_body(INVALID_PARAMS, "initialize needs params with a "
                                           "protocolVersion string.", request_id))
        # 2026-07-28 has no handshake: a client asking initialize for it gets the newest
        # handshake revision, as for any other revision not among them.
        agreed = asked if asked in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE_VERSION
        info = params.get("clientInfo")
        info = info if isinstance(info, dict) else {}
        client, evicted = self.sessions.open(text(info.get("name")), text(info.get("title")),
                                             text(info.get("version")), agreed, grant)
        for old in evicted:
            self._ended(old)
        log.info("mcp: %r began a session (asked for %s)", client, modern.revision(asked))
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
        if kind(message) != "request":
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
        except (UnknownName, BadRequestState) as exc:
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
        tool = next((t for t in self.backend.tools() if t.get("name") == name), None)
        if tool is None:
            raise RpcError(INVALID_PARAMS, "Unknown tool: %s." % name[:80])
        outcome = "refused"
        # A retried call (2026-07-28) brings the user's answer and the state it was asked with.
        client = client.acting(client.grant, (params.get("requestState"),
                                              params.get("inputResponses")))
        try:
            if not scopes.may_call(client.grant.scope, scopes.read_only(tool)):
                # The model reads a tool's refusal as the tool's result, and can tell the user.
                return _error_result(scopes.READ_ONLY)
            try:
                result = self.backend.call_tool(client, name, arguments)
            except (UnknownName, BadRequestState):
                raise
            except McpRefusal as exc:
                return _error_result(refusal_text(exc) or UNEXPECTED)
            except Exception:
                log.exception("mcp: the tool %s for %r failed", name, client)
                outcome = "failed"
                return _error_result(UNEXPECTED)
            if client.forms and isinstance(result, dict) and \
                    result.get("resultType") == "input_required":
                outcome = "asked"
                return result
            if not isinstance(result, dict) or not isinstance(result.get("content"), list):
                log.error("mcp: the tool %s returned %s, not a CallToolResult", name,
                          type(result).__name__)
                outcome = "failed"
                return _error_result(UNEXPECTED)
            result.setdefault("isError", False)
            outcome = "failed" if result["isError"] else "done"
            return result
        finally:
            self._note(client, name, arguments, outcome)

    def _tools(self, client: Client) -> List[Dict]:
        """The tools this request's grant may call (a read-only one: those that change
        nothing), as the backend declares them."""
        scope = client.grant.scope
        return [tool for tool in self.backend.tools()
                if scopes.may_call(scope, scopes.read_only(tool))]

    def _note(self, client: Client, tool: str, arguments: Dict, outcome: str) -> None:
        try:
            self.backend.note_call(client, tool, arguments, outcome)
        except Exception:
            log.exception("mcp: the backend failed to note a call")

    def _read_resource(self, client: Client, params: Dict) -> Dict:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "resources/read needs a uri string.")
        outcome = "refused"
        try:
            answer = self.backend.read_resource(client, uri)
            outcome = "done"
            return answer
        except UnknownName as exc:
            raise RpcError(RESOURCE_NOT_FOUND, str(exc), {"uri": uri})
        except McpRefusal:
            raise
        except Exception:
            outcome = "failed"
            raise
        finally:
            self._note(client, "", {"uri": uri}, outcome)

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


def _error_result(sentence: str) -> Dict:
    """A CallToolResult that is an error the model reads."""
    return {"content": [{"type": "text", "text": sentence}], "isError": True}

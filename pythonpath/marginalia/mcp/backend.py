"""What the office implements for the MCP server: tools, resources and prompts for one agent.

The server calls a Backend on its HTTP threads (one per request, several at once); an office
backend marshals document work to the main thread itself. Each call names the ``Client``:
the agent's name and its protocol revision, from the session initialize opened (handshake
revisions) or from the request's own clientInfo (2026-07-28, stateless: no session id, so
the agent is known by its name alone and ``session_started``/``session_ended`` are not called).

Errors: a backend raises ``McpRefusal(sentence)`` to refuse (a stopped agent, a closed
document); the sentence goes to the agent as it is, so it must be plain words, no internals.
``UnknownName`` is the refusal for a tool, resource or prompt that does not exist (the
protocol answers it with the JSON-RPC error the spec names). Any other exception is a fault:
the trace goes to the log and the agent gets one plain sentence, never the exception's text.
"""

from typing import Any, Dict, List, Optional, Tuple

from marginalia.errors import MarginaliaError
from marginalia.mcp.scopes import ANYTHING, Grant

JsonDict = Dict[str, Any]


class McpRefusal(MarginaliaError):
    """The backend refuses this call; str(refusal) is the sentence the agent reads."""


class UnknownName(McpRefusal):
    """No tool, resource or prompt of that name (or URI)."""


class BadRequestState(McpRefusal):
    """A retried call's requestState is none this server issued for that call (made up,
    another call's, or expired): -32602, and the client starts the call afresh."""


class Client:
    """Who the agent says it is and its revision: one MCP session (``initialize``), or one
    request of revision 2026-07-28, whose ``session_id`` is "" (there are no sessions).

    ``name`` and ``title`` come from the clientInfo (``title`` is the display name newer
    clients send); ``label`` is what a user should read: "Claude Code", never empty.
    ``grant`` is the token's (scopes.Grant): what this request may do, set by the server
    from the token it carried, never from what the agent wrote. ``forms``: the client shows
    elicitation forms the revision's way (2026-07-28's input_required results); ``reply``:
    a retried tools/call's ``(requestState, inputResponses)``, as the agent sent them.
    """

    __slots__ = ("session_id", "name", "title", "version", "protocol_version", "grant",
                 "forms", "reply")

    def __init__(self, session_id: str, name: str = "", title: str = "", version: str = "",
                 protocol_version: str = "", grant: Grant = ANYTHING,
                 forms: bool = False) -> None:
        self.session_id = session_id
        self.name = name
        self.title = title
        self.version = version
        self.protocol_version = protocol_version
        self.grant = grant
        self.forms = forms
        self.reply = (None, None)       # type: Tuple[Any, Any]

    def acting(self, grant: Grant, reply: Tuple[Any, Any] = (None, None)) -> "Client":
        """This client for one request made with ``grant`` (a copy: a session's requests
        run on several threads at once)."""
        out = Client(self.session_id, self.name, self.title, self.version,
                     self.protocol_version, grant, self.forms)
        out.reply = reply
        return out

    @property
    def label(self) -> str:
        return (self.title or self.name or "An outside agent").strip() or "An outside agent"

    def __repr__(self) -> str:
        # The session id is a capability of sorts: only its start goes into logs.
        if not self.session_id:
            return "Client(%r, %s, no session)" % (self.label, self.protocol_version)
        return "Client(%r, %s, session %s...)" % (self.label, self.protocol_version,
                                                  self.session_id[:6])


def text_result(text: str, is_error: bool = False) -> JsonDict:
    """A CallToolResult holding one text block."""
    return {"content": [{"type": "text", "text": text}], "isError": bool(is_error)}


class Backend:
    """The default answers: nothing offered. Subclasses override what they serve.

    ``tools()`` is read on every ``tools/call`` to check the name: keep it cheap (a list
    built once). Lists are returned whole (no pagination).
    """

    # Sent to the agent at initialize: how to use this server, in a few sentences.
    instructions = ("Marginalia edits the documents open in the user's LibreOffice Writer. "
                    "Call list_documents first, then read before you edit; edits may arrive as "
                    "tracked changes the user reviews.")

    def refusal(self, client: Client) -> Optional[str]:
        """A sentence refusing this session's lists and prompts (the user stopped the agent),
        or None to serve them. ``call_tool`` and ``read_resource`` refuse by themselves."""
        return None

    def tools(self) -> List[JsonDict]:
        """Tool declarations: {"name", "description", "inputSchema"} (JSON Schema object)."""
        return []

    def call_tool(self, client: Client, name: str, arguments: JsonDict) -> JsonDict:
        """Run a tool: a CallToolResult {"content": [{"type": "text", "text": ...}],
        "isError": bool}. A tool's own failure (bad arguments, nothing found) is a result
        with isError, so the model can read it and try again. For a client with ``forms``
        it may instead be an InputRequiredResult (``resultType: "input_required"``,
        mcp.questions): the client asks its user and calls again with ``reply``."""
        raise UnknownName("There is no tool named %s." % name)

    def resources(self) -> List[JsonDict]:
        """Resource declarations: {"uri", "name", "title"?, "description"?, "mimeType"?}."""
        return []

    def read_resource(self, client: Client, uri: str) -> JsonDict:
        """A ReadResourceResult: {"contents": [{"uri", "mimeType"?, "text"}]}."""
        raise UnknownName("There is no resource at %s." % uri)

    def prompts(self) -> List[JsonDict]:
        """Prompt declarations: {"name", "title"?, "description"?, "arguments"?: [...]}"""
        return []

    def get_prompt(self, client: Client, name: str, arguments: Dict[str, str]) -> JsonDict:
        """A GetPromptResult: {"description"?, "messages": [{"role", "content": {...}}]}."""
        raise UnknownName("There is no prompt named %s." % name)

    def note_call(self, client: Client, tool: str, arguments: JsonDict, outcome: str) -> None:
        """A tools/call (``tool``) or resources/read (``tool`` "", ``arguments`` {"uri"})
        ended: ``outcome`` is "done", "failed" (the tool reported an error) or "refused"
        (by the grant's scope, or the backend). For the user's log of agents' calls; must
        be quick and never raise."""

    def session_started(self, client: Client) -> None:
        """A new agent session (after initialize): nothing to do by default. A stateless
        agent (2026-07-28) opens none: its first call is all there is to note."""

    def session_ended(self, client: Client) -> None:
        """The session was ended (DELETE, evicted, or the server stopped); never called for
        a stateless agent, whose turns close when it falls quiet."""


def refusal_text(exc: BaseException) -> Optional[str]:
    """The sentence of a refusal, or None when ``exc`` is a fault whose text must not leave."""
    if isinstance(exc, McpRefusal) and str(exc):
        return str(exc)
    return None

"""The rules of MCP revision 2026-07-28, the stateless one, free of I/O (protocol.py calls
them for every request whose MCP-Protocol-Version header names a modern revision).

- No handshake and no session: each request carries ``params._meta`` with the revision
  (``io.modelcontextprotocol/protocolVersion``), the client's capabilities
  (``.../clientCapabilities``, required even when empty) and, as clients should send it, who
  the client is (``.../clientInfo``). The agent is named from that, request by request: a
  ``Client`` with no session id. ``server/discover`` answers what initialize answered: the
  revisions spoken, the capabilities, the instructions.
- Over HTTP the headers mirror the body: MCP-Protocol-Version the revision, Mcp-Method the
  method, Mcp-Name the tool's or prompt's name or the resource's URI (``=?base64?...?=``
  decoded). A header that is missing, differs from the body or is sent twice: 400 with
  HeaderMismatch (-32020). A ``_meta`` without the revision or the capabilities: 400 with
  -32602. A revision not spoken here, in either era: 400 with UnsupportedProtocolVersion
  (-32022), its data ``{"supported": [...], "requested": ...}`` so a client can pick another.
- One message per POST: a batch or a client's response is 400; a notification is accepted
  (202) and dropped, as the revision defines none a server acts on over HTTP.
- An error's HTTP status follows its code, as the official SDK's server does: 400 for
  -32700, -32600, -32602, -32020, -32021 and -32022; 404 for an unknown method (-32601);
  200 for the others. An unknown resource is -32602 (the revision retired -32002); a
  backend's refusal is REFUSED, outside JSON-RPC's reserved range as the revision asks of
  codes it does not define.
- Every result carries ``resultType: "complete"``, but a tools/call that needs the user's
  answer first (mcp.questions): ``"input_required"``, with an ``elicitation/create`` form in
  ``inputRequests`` and ``requestState``; the client calls again with ``inputResponses`` and
  the state echoed, a new request in its own right. Every result carries the server's
  identity in ``_meta``; cacheable ones (discover, the lists, resources/read)
  ``ttlMs: 0, cacheScope: "private"``: the lists change as documents open and agents are
  stopped, and they are this user's.
- Its methods here: server/discover, tools/list, tools/call, resources/list,
  resources/templates/list, resources/read, prompts/list, prompts/get. ping, initialize,
  logging and subscriptions are not part of it (-32601).
"""

import base64
import binascii
import re
from typing import Any, Dict, Optional

from marginalia.mcp import HANDSHAKE_VERSIONS, MODERN_VERSIONS, SUPPORTED_VERSIONS, questions
from marginalia.mcp.backend import Client
from marginalia.mcp.rpc import (INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
                                PARSE_ERROR, Outcome, error_body, refused, safe_id, text)

HEADER_MISMATCH = -32020
MISSING_CAPABILITY = -32021
UNSUPPORTED_VERSION = -32022
# A backend's refusal (a stopped agent). Handshake revisions answer it with -32000, which
# 2026-07-28 keeps for old implementations and asks new ones to leave alone.
REFUSED = -31000
LEGACY_CODES = {-32002: INVALID_PARAMS, -32000: REFUSED}

META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT = "io.modelcontextprotocol/clientInfo"
META_SERVER = "io.modelcontextprotocol/serverInfo"

DISCOVER = "server/discover"
METHODS = frozenset((DISCOVER, "tools/list", "tools/call", "resources/list",
                     "resources/templates/list", "resources/read", "prompts/list",
                     "prompts/get"))
CACHEABLE = frozenset((DISCOVER, "tools/list", "resources/list", "resources/templates/list",
                       "resources/read", "prompts/list"))
# The body field each name-bearing method mirrors into Mcp-Name.
NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
# Headers that must come once: a proxy reading the first copy and this server the last
# would act on two different requests.
METHOD_HEADER = "Mcp-Method"
NAME_HEADER = "Mcp-Name"
ROUTING_HEADERS = ("MCP-Protocol-Version", METHOD_HEADER, NAME_HEADER)

STATUS = {PARSE_ERROR: 400, INVALID_REQUEST: 400, INVALID_PARAMS: 400, HEADER_MISMATCH: 400,
          MISSING_CAPABILITY: 400, UNSUPPORTED_VERSION: 400, METHOD_NOT_FOUND: 404}

_SENTINEL = re.compile(r"=\?base64\?(.*)\?=")


def versions_sentence(versions=SUPPORTED_VERSIONS) -> str:
    return ", ".join(versions[:-1]) + " and " + versions[-1] if len(versions) > 1 \
        else versions[0]


def revision(asked: str) -> str:
    """A revision a client asked for, as answers and logs repeat it: a date only. Other text
    is the client's to fill, and could be anything, a misplaced token too."""
    asked = asked.strip()
    return ("revision " + asked if re.fullmatch(r"\d{4}-\d{2}-\d{2}", asked)
            else "a revision that is not a date")


def unsupported(asked: str, request_id: Any = None) -> Outcome:
    """400 with UnsupportedProtocolVersion: the client may retry with one of ``supported``."""
    return refused(400, UNSUPPORTED_VERSION,
                   "This server speaks MCP revisions %s; the request asks for %s."
                   % (versions_sentence(), revision(asked)), request_id,
                   {"supported": list(SUPPORTED_VERSIONS), "requested": asked[:100]})


def envelope(message: Any) -> Optional[Dict]:
    """The ``params._meta`` of a message that carries a modern revision, else None."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) and META_VERSION in meta else None


def header_missing(message: Any) -> Outcome:
    """A message carrying a modern revision in its body only (no MCP-Protocol-Version)."""
    return refused(400, HEADER_MISMATCH, "The MCP-Protocol-Version header is missing: revision "
                   "%s needs it, and Mcp-Method, on every request." % MODERN_VERSIONS[0],
                   safe_id(message))


def check(message: Dict, version: str, method_header: Optional[str],
          name_header: Optional[str], repeated: str = "") -> Optional[Outcome]:
    """The refusal of a request whose envelope or headers break the rules, else None."""
    request_id = message["id"]
    if repeated:
        return refused(400, HEADER_MISMATCH, "The %s header may be sent only once."
                       % _known_header(repeated), request_id)
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        return refused(400, INVALID_PARAMS, "Revision %s needs params._meta with %s and %s on "
                       "every request." % (version, META_VERSION, META_CAPABILITIES), request_id)
    missing = [key for key in (META_VERSION, META_CAPABILITIES) if key not in meta]
    if missing:
        return refused(400, INVALID_PARAMS, "params._meta lacks %s, which revision %s needs on "
                       "every request." % (" and ".join(missing), version), request_id)
    if meta[META_VERSION] != version:
        return refused(400, HEADER_MISMATCH, "The MCP-Protocol-Version header and params._meta "
                       "name different revisions.", request_id)
    method = message["method"]
    if method_header is None or method_header.strip() != method:
        return refused(400, HEADER_MISMATCH, "The Mcp-Method header is missing or names "
                       "another method than the body.", request_id)
    field = NAMED_BY.get(method)
    named = params.get(field) if field else None
    if isinstance(named, str) and _decoded(name_header) != named:
        return refused(400, HEADER_MISMATCH, "The Mcp-Name header is missing or differs from "
                       "the body's %s." % field, request_id)
    return None


def client_of(message: Dict, version: str) -> Client:
    """The agent one request names in its clientInfo (no session: the id is empty)."""
    meta = envelope(message) or {}
    info = meta.get(META_CLIENT)
    info = info if isinstance(info, dict) else {}
    return Client("", text(info.get("name")), text(info.get("title")),
                  text(info.get("version")), version,
                  forms=questions.can_show_forms(meta.get(META_CAPABILITIES)))


def discover_result(capabilities: Dict, instructions: str) -> Dict:
    result = {"supportedVersions": list(SUPPORTED_VERSIONS),
              "capabilities": capabilities}    # type: Dict[str, Any]
    if instructions:
        result["instructions"] = instructions
    return result


def outcome(method: str, answer: Dict, server_info: Dict) -> Outcome:
    """A dispatched answer as this revision sends it: results decorated, errors with the
    codes and HTTP status it names."""
    error = answer.get("error")
    if isinstance(error, dict):
        code = LEGACY_CODES.get(error.get("code"), error.get("code"))
        body = error_body(code, error.get("message", ""), answer.get("id"), error.get("data"))
        return Outcome(STATUS.get(code, 200), body)
    # A tools/call answered with a question for the user keeps its own resultType.
    result = dict(answer["result"])
    result.setdefault("resultType", "complete")
    if method in CACHEABLE:
        result.update(ttlMs=0, cacheScope="private")
    meta = result.get("_meta")
    result["_meta"] = dict(meta if isinstance(meta, dict) else {}, **{META_SERVER: server_info})
    return Outcome(200, {"jsonrpc": "2.0", "id": answer["id"], "result": result})


def not_here(method: str, version: str, request_id: Any) -> Outcome:
    """404: a method this revision does not have here (ping among them)."""
    if method == "ping":
        message = ("Revision %s has no ping; the handshake revisions %s have it."
                   % (version, versions_sentence(HANDSHAKE_VERSIONS)))
    else:
        message = "There is no method %s here in revision %s." % (method[:80], version)
    return Outcome(404, error_body(METHOD_NOT_FOUND, message, request_id))


def headers_for(message: Any) -> Optional[Dict[str, str]]:
    """The headers a client sends with a modern message, mirrored from its body (the stdio
    bridge, cli/mcp.py, sends them for the agent); None for a handshake-era message."""
    meta = envelope(message)
    if meta is None or not isinstance(meta.get(META_VERSION), str):
        return None
    headers = {ROUTING_HEADERS[0]: meta[META_VERSION], METHOD_HEADER: str(message.get("method"))}
    named = message["params"].get(NAMED_BY.get(str(message.get("method")), ""))
    if isinstance(named, str):
        # A value that is not plain printable ASCII, or that a proxy could trim, goes as
        # the base64 sentinel (_decoded reads it).
        plain = named == named.strip() and all(" " <= ch <= "~" for ch in named)
        headers[NAME_HEADER] = named if plain else \
            "=?base64?%s?=" % base64.b64encode(named.encode("utf-8")).decode("ascii")
    return headers


def _decoded(value: Optional[str]) -> Optional[str]:
    """A header value as sent, or the text of its base64 sentinel; None when that is
    malformed (so it never matches a body by accident)."""
    if value is None:
        return None
    found = _SENTINEL.fullmatch(value)
    if found is None:
        return value
    try:
        raw = base64.b64decode(found.group(1), validate=True)
        if base64.b64encode(raw).decode("ascii") != found.group(1):
            return None            # not canonical: two spellings of one value are one too many
        return raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _known_header(name: str) -> str:
    """The header named in an answer: one of ours, never the client's spelling."""
    for known in ROUTING_HEADERS:
        if known.lower() == name.lower():
            return known
    return "routing"

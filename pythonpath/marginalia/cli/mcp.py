"""The stdio bridge: ``python3 -m marginalia.cli.mcp [--url URL] [--token-file FILE]``.

For MCP clients that launch a command rather than connect to a URL. It reads JSON-RPC
messages, one per line, from stdin, POSTs each to the office's MCP endpoint with the bearer
token (MARGINALIA_MCP_TOKEN, or the first line of --token-file), and writes each answer as one
line to stdout; notifications get no line. It keeps the session the server assigns, and when
the office was restarted (the session is gone: 404) it replays the client's initialize once
and sends the message again, so the agent carries on. At the end of stdin it ends the session.
A client speaking 2026-07-28 has no session: each message goes with the headers that
revision mirrors from its body (mcp.modern.headers_for).

When the office does not answer, each request gets a JSON-RPC error with one plain sentence
(the client shows it to the user); the bridge keeps reading, so it works again once the server
is on. stdout carries MCP messages only; diagnostics go to stderr. Standard library only, no uno.
"""

import argparse
import http.client
import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from marginalia.cli import terminal_language
from marginalia.i18n.catalog import tr
from marginalia.mcp import default_url, modern

TOKEN_ENV = "MARGINALIA_MCP_TOKEN"
TIMEOUT_SECONDS = 300          # a tool call waits for the document; generous
UNREACHABLE = -32000


class Bridge:
    """The session the server assigned, and the requests that carry it upstream."""

    def __init__(self, url: str, token: str, timeout: float = TIMEOUT_SECONDS) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(tr("the URL must be http://host:port/path"))
        self.url = url
        self.host = parts.hostname
        self.port = parts.port or 80
        self.path = parts.path or "/"
        self.token = token
        self.timeout = timeout
        self.session_id = None        # type: Optional[str]
        self.protocol_version = None  # type: Optional[str]
        self._initialize = None       # type: Optional[bytes]
        self._conn = None             # type: Optional[http.client.HTTPConnection]

    def handle_line(self, line: bytes) -> List[str]:
        """The lines to write for one line read (none for a notification)."""
        line = line.strip()
        if not line:
            return []
        try:
            message = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return [_error(None, -32700, "The line is not valid JSON.")]
        ids = _request_ids(message)
        if not self.token:
            return [_error(i, UNREACHABLE, "The bridge has no token: set %s to the token shown "
                           "in Tools > Options > Marginalia." % TOKEN_ENV) for i in ids]
        is_init = isinstance(message, dict) and message.get("method") == "initialize"
        if is_init:
            self.session_id = None
            self.protocol_version = None
            self._initialize = line
        # A 2026-07-28 message carries its revision in its body: no session, the headers
        # mirrored from it; a 404 is an unknown method there, not a session gone.
        mirrored = modern.headers_for(message)
        try:
            status, headers, body = self._post(line, mirrored)
            if status == 404 and mirrored is None and not is_init and \
                    self._initialize is not None:
                self._reinitialize()
                status, headers, body = self._post(line)
        except (OSError, http.client.HTTPException) as exc:
            self._close()
            # stderr is the user's; the JSON-RPC error below is the agent's, in English
            print("marginalia-mcp: " + tr("%(url)s does not answer (%(reason)s)")
                  % {"url": self.url, "reason": exc}, file=sys.stderr)
            return [_error(i, UNREACHABLE, "Marginalia does not answer at %s: open LibreOffice "
                           "and turn on the MCP server in Tools > Options > Marginalia."
                           % self.url) for i in ids]
        if is_init and status == 200:
            self._note_session(headers, body)
        return self._lines(status, headers, body, ids)

    def _reinitialize(self) -> None:
        """The server forgot the session (restarted): open a new one as the client did."""
        self.session_id = None
        status, headers, body = self._post(self._initialize or b"")
        if status == 200:
            self._note_session(headers, body)
            self._post(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    def _note_session(self, headers: Dict[str, str], body: bytes) -> None:
        self.session_id = headers.get("mcp-session-id") or None
        try:
            self.protocol_version = json.loads(body.decode("utf-8"))["result"]["protocolVersion"]
        except (ValueError, KeyError, TypeError):
            self.protocol_version = None

    def _lines(self, status: int, headers: Dict[str, str], body: bytes,
               ids: List[Any]) -> List[str]:
        if status == 202 or not body.strip():
            return [_error(i, UNREACHABLE, "Marginalia answered with HTTP status %d." % status)
                    for i in ids] if status >= 400 else []
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type == "text/event-stream":
            return _sse_messages(body)
        try:
            answer = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return [_error(i, UNREACHABLE, "Marginalia's answer was not JSON (HTTP status %d)."
                           % status) for i in ids]
        if status >= 400 and isinstance(answer, dict) and answer.get("id") is None:
            # A refusal of the whole HTTP request carries no id: give it the request's own,
            # or the client would wait for an answer forever.
            error = answer.get("error") or {"code": UNREACHABLE, "message": "Refused."}
            return [json.dumps({"jsonrpc": "2.0", "id": i, "error": error}) for i in ids]
        return [json.dumps(answer, ensure_ascii=False, separators=(",", ":"))]

    def _post(self, body: bytes, mirrored: Optional[Dict[str, str]] = None
              ) -> Tuple[int, Dict[str, str], bytes]:
        return self._request("POST", body, mirrored)

    def _request(self, method: str, body: Optional[bytes],
                 mirrored: Optional[Dict[str, str]] = None) -> Tuple[int, Dict[str, str], bytes]:
        """One request on a connection of its own.

        Never resent after a failure: a kept-alive connection the server had closed
        cannot be told from a server that ran the call and died before answering, and
        an edit sent twice would be made twice. A loopback connection costs well under
        a millisecond, so none is kept.
        """
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream",
                   "Authorization": "Bearer %s" % self.token, "Connection": "close"}
        if mirrored is not None:
            headers.update(mirrored)          # a stateless request: its own revision only
        else:
            if self.session_id:
                headers["Mcp-Session-Id"] = self.session_id
            if self.protocol_version:
                headers["MCP-Protocol-Version"] = self.protocol_version
        self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self._conn.request(method, self.path, body=body, headers=headers)
            response = self._conn.getresponse()
            data = response.read()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        finally:
            self._close()

    def close(self) -> None:
        """The client is done (stdin ended): end the session, so the office stops showing
        this agent as connected. Best effort: the server may be gone already."""
        if self.session_id and self.token:
            try:
                self._request("DELETE", None)
            except (OSError, http.client.HTTPException):
                pass
        self._close()

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _request_ids(message: Any) -> List[Any]:
    """The ids of the requests in a message (or batch): each needs an answer line."""
    items = message if isinstance(message, list) else [message]
    return [item["id"] for item in items
            if isinstance(item, dict) and "method" in item and item.get("id") is not None]


def _error(request_id: Any, code: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id,
                       "error": {"code": code, "message": message}})


def _sse_messages(body: bytes) -> List[str]:
    """The JSON-RPC messages in an event-stream answer (other servers may send one)."""
    lines = []
    for event in body.decode("utf-8", "replace").replace("\r\n", "\n").split("\n\n"):
        data = "\n".join(line[5:].lstrip(" ") for line in event.split("\n")
                         if line.startswith("data:"))
        if data.strip():
            lines.append(json.dumps(json.loads(data), ensure_ascii=False, separators=(",", ":")))
    return lines


def read_token(token_file: Optional[str]) -> str:
    if token_file:
        with open(os.path.expanduser(token_file), encoding="utf-8") as handle:
            return handle.readline().strip()
    return os.environ.get(TOKEN_ENV, "").strip()


def main(argv: Optional[List[str]] = None) -> int:
    terminal_language.install()        # once, before any sentence is written
    parser = argparse.ArgumentParser(prog="python3 -m marginalia.cli.mcp",
                                     description=tr("Connect an MCP client that speaks stdio "
                                                    "to Marginalia's MCP server in "
                                                    "LibreOffice."))
    parser.add_argument("--url", default=default_url(),
                        help=tr("the server's endpoint (default: %(default)s)"))
    parser.add_argument("--token-file", help=tr("a file whose first line is the token "
                                                "(default: the %s variable)") % TOKEN_ENV)
    args = parser.parse_args(argv)
    try:
        bridge = Bridge(args.url, read_token(args.token_file))
    except (OSError, ValueError) as exc:
        print("marginalia-mcp: %s" % exc, file=sys.stderr)
        return 2
    if not bridge.token:
        print("marginalia-mcp: " + tr("no token; set %s or pass --token-file") % TOKEN_ENV,
              file=sys.stderr)
    # Bytes, in UTF-8 as MCP's stdio transport says: a text stdout uses the locale's
    # encoding (a Windows pipe's ANSI code page), which cannot write every answer.
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        for answer in bridge.handle_line(line):
            out.write((answer + "\n").encode("utf-8"))
        out.flush()
    bridge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

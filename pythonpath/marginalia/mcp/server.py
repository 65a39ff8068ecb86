"""The MCP Streamable HTTP transport on loopback, one endpoint, /mcp, for both eras.

POST carries one JSON-RPC message and is answered with JSON (the spec lets a server choose
JSON or an event stream per request; every client must accept JSON); its MCP headers go to
protocol.py, which tells the eras apart. DELETE ends a handshake session (405 for 2026-07-28,
which has none). GET, a stream of server-initiated messages that 2026-07-28 removed, is 405:
this server never initiates anything.

Who gets in (guard.py): a loopback Host, a loopback Origin when there is one, then the bearer
token, in that order, so a web page is refused before its guess at a token is even looked at.
Refusals are JSON-RPC error bodies with the HTTP status the spec names, logged to
"marginalia.mcp" with the peer and the reason only. Nothing a client sent is logged as sent
(not a header, the query, nor a malformed request line): a token can be in any of them.
As a last net, while the server runs, any "marginalia.mcp" record holding one of its tokens
has it replaced (guard.Redactor): a client may put it where its name or a version goes.
The tokens are a scopes.Keyring: the request's token gives the Grant the protocol acts with.

Slots: every connection holds a thread, so at most MAX_CONNECTIONS are open. Until one of its
requests passes the guard, a connection is a stranger: it must send its request's head
within HEAD_SECONDS of connecting, and when all slots are taken the longest-waiting stranger
is closed to make room. Any local program can open connections without the token; this way
they cannot keep out an agent that has it (only agents let in keep a slot for IDLE_SECONDS).

Threads: one listener per address (127.0.0.1 and, when the system has it, [::1]), both
watched by one worker; each connection gets a worker too, which calls the backend. They
are started with marginalia.threads (never waiting on a new thread, see there), so ``start``
and ``stop`` are safe to call from the office's main thread. ``stop`` closes the listeners
and the open connections and returns within about a second.
"""

import json
import logging
import os
import selectors
import socket
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Dict, List, Optional, Tuple, Union
from urllib.parse import urlsplit

from marginalia import threads
from marginalia.errors import UNEXPECTED, MarginaliaError
from marginalia.mcp import DEFAULT_PORT, ENDPOINT_PATH
from marginalia.mcp import guard
from marginalia.mcp.backend import Backend
from marginalia.mcp.modern import METHOD_HEADER, NAME_HEADER, ROUTING_HEADERS
from marginalia.mcp.protocol import (INTERNAL_ERROR, INVALID_REQUEST, Outcome, Protocol,
                                     error_body)
from marginalia.mcp.rpc import accepts_json
from marginalia.mcp.scopes import Grant, Keyring

log = logging.getLogger("marginalia.mcp")

MAX_BODY = 4 * 1024 * 1024
POLL_SECONDS = 1.0           # a safety net: stop() wakes the serving loop at once
IDLE_SECONDS = 120           # a kept-alive connection with no request closes after this
HEAD_SECONDS = 5             # a connection not let in yet has this long to send a request head
MAX_CONNECTIONS = 64         # open at once; each holds a thread, so beyond this none is taken
SESSION_HEADER = "Mcp-Session-Id"
VERSION_HEADER = "MCP-Protocol-Version"


class ServerStartError(MarginaliaError):
    """The server could not listen (the port is taken); the sentence says what to do."""


class McpServer:
    """The MCP endpoint for one Backend, guarded by bearer tokens (a Keyring, or one token
    that may do everything)."""

    def __init__(self, backend: Backend, token: Union[str, Keyring], port: int = DEFAULT_PORT,
                 ipv6: bool = True, max_body: int = MAX_BODY,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.protocol = Protocol(backend)
        self.max_body = max_body
        self.max_connections = max_connections
        self._keyring = Keyring()
        self.set_token(token)
        self._wanted_port = port
        self._ipv6 = ipv6
        self._listeners = []          # type: List[_Listener]
        self._workers = []            # type: List[threads.Worker]
        # Each open connection, and whether a request of it was let in (else: since when
        # it waits, for choosing which stranger makes room; see the module).
        self._connections = {}        # type: Dict[socket.socket, Tuple[bool, float]]
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._wake = None             # type: Optional[Tuple[socket.socket, socket.socket]]
        self._redactor = guard.Redactor(lambda: self._keyring.secrets())
        self.port = 0

    # ------------------------------------------------------------------ life

    def start(self) -> int:
        """Listen on 127.0.0.1 (and [::1]); the bound port (the setting's, or a free one for 0)."""
        if self._listeners:
            return self.port
        self._stopping.clear()
        try:
            first = _Listener(self, socket.AF_INET, ("127.0.0.1", self._wanted_port))
        except OSError as exc:
            log.error("mcp: cannot listen on 127.0.0.1:%d: %s", self._wanted_port, exc)
            raise ServerStartError("Marginalia cannot serve other agents on port %d: another "
                                   "program uses it. Choose another port in Tools > Options > "
                                   "Marginalia." % self._wanted_port)
        self._listeners.append(first)
        log.addFilter(self._redactor)      # every "marginalia.mcp" record, the office's too
        self.port = first.server_address[1]
        if self._ipv6 and socket.has_ipv6:
            try:
                self._listeners.append(_Listener(self, socket.AF_INET6, ("::1", self.port)))
            except OSError as exc:
                # No IPv6 loopback here, or the port is taken there: IPv4 serves alone.
                log.info("mcp: not listening on [::1]:%d (%s)", self.port, exc)
        self._wake = socket.socketpair()
        self._workers.append(threads.start(self._serve, list(self._listeners),
                                           name="marginalia-mcp"))
        log.info("mcp: listening on port %d (%s)", self.port,
                 ", ".join(_address(listener) for listener in self._listeners))
        return self.port

    def stop(self, timeout: float = 2.0) -> None:
        """Close the listeners and every open connection; end the sessions."""
        self._stopping.set()
        if self._wake is not None:
            self._wake[1].send(b"x")         # the serving loop wakes now, not at its next poll
        for worker in self._workers:
            worker.join(timeout)
        for listener in self._listeners:
            listener.server_close()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            _close(conn)
        if self._wake is not None:
            for end in self._wake:
                end.close()
            self._wake = None
        self._listeners = []
        self._workers = []
        self.protocol.end_all()
        log.info("mcp: stopped")
        log.removeFilter(self._redactor)

    @property
    def running(self) -> bool:
        return bool(self._listeners)

    @property
    def url(self) -> str:
        return "http://127.0.0.1:%d%s" % (self.port, ENDPOINT_PATH)

    def set_token(self, token: Union[str, Keyring]) -> None:
        """New tokens take effect at the next request; requests with an old one get 401."""
        self._keyring = token if isinstance(token, Keyring) else Keyring.single(token)

    def grant_for(self, authorization: Optional[str]) -> Optional[Grant]:
        return self._keyring.match(authorization)

    def _serve(self, listeners: List["_Listener"]) -> None:
        """Accept on every listener until stop() writes to the wake-up pair."""
        wake = self._wake[0]
        with selectors.DefaultSelector() as selector:
            for listener in listeners:
                selector.register(listener, selectors.EVENT_READ)
            selector.register(wake, selectors.EVENT_READ)
            while not self._stopping.is_set():
                for key, _ in selector.select(POLL_SECONDS):
                    if key.fileobj is not wake and not self._stopping.is_set():
                        key.fileobj.handle_request()
                self._close_late_strangers()

    def _close_late_strangers(self) -> None:
        """A stranger gets HEAD_SECONDS in all for its request's head: the socket's timeout
        is per read, and one byte every few seconds would keep a slot for good."""
        limit = time.monotonic() - HEAD_SECONDS
        with self._lock:
            late = [conn for conn, (trusted, since) in self._connections.items()
                    if not trusted and since < limit]
            for conn in late:
                del self._connections[conn]
        for conn in late:
            _close(conn)                      # its handler's next read ends it

    def _admit(self, conn: socket.socket) -> bool:
        """Count a new connection in; when every slot is taken, the stranger that has waited
        longest makes room, and with none among them the new one is refused."""
        with self._lock:
            if len(self._connections) >= self.max_connections:
                strangers = [(since, old) for old, (trusted, since) in
                             self._connections.items() if not trusted]
                if not strangers:
                    return False
                _since, evicted = min(strangers, key=lambda pair: pair[0])
                del self._connections[evicted]
                _close(evicted)               # its handler's next read ends it
            self._connections[conn] = (False, time.monotonic())
            return True

    def _trust(self, conn: socket.socket) -> None:
        """A request of ``conn`` passed the guard: it keeps its slot while idle."""
        with self._lock:
            if conn in self._connections:
                self._connections[conn] = (True, 0.0)

    def trusted(self, conn: socket.socket) -> bool:
        with self._lock:
            return self._connections.get(conn, (False, 0.0))[0]

    def _release(self, conn: socket.socket) -> None:
        with self._lock:
            self._connections.pop(conn, None)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()


def _close(conn: socket.socket) -> None:
    try:
        conn.shutdown(socket.SHUT_RDWR)       # wakes a handler waiting for the next request
    except OSError:
        pass


def _address(listener: "_Listener") -> str:
    host = listener.server_address[0]
    return "[%s]" % host if ":" in host else host


class _Listener(HTTPServer):
    """One listening socket; each connection is served on its own worker."""

    timeout = 0                   # handle_request runs only once select found a connection
    # socketserver's 5: a burst of connections (strangers) fills it faster than they are
    # accepted, and the kernel drops the next SYN, an agent's too; its client retries 1 s later.
    request_queue_size = 128
    # On POSIX this lets the server listen again at once after a stop (TIME_WAIT); on Windows
    # SO_REUSEADDR would let a second program take the same port, so not there.
    allow_reuse_address = os.name != "nt"

    def __init__(self, owner: McpServer, family: int, address) -> None:
        self.address_family = family
        self.owner = owner
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind looks up the host's FQDN, a DNS query that can stall: skip it.
        if self.address_family == socket.AF_INET6:
            self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        socketserver.TCPServer.server_bind(self)
        self.server_name = "localhost"
        self.server_port = self.server_address[1]

    def process_request(self, request, client_address) -> None:
        if not self.owner._admit(request):
            log.warning("mcp: refused a connection from %s: %d are open already",
                        client_address[0], self.owner.max_connections)
            self.shutdown_request(request)
            return
        threads.start(self._serve_connection, request, client_address,
                      name="marginalia-mcp-request")

    def _serve_connection(self, request, client_address) -> None:
        try:
            self.finish_request(request, client_address)
        except OSError as exc:
            # The client went away mid-answer, or stop() closed the connection: nothing to fix.
            log.debug("mcp: a connection from %s ended: %s", client_address[0], exc)
        except Exception:
            log.exception("mcp: a connection failed")
        finally:
            self.owner._release(request)
            self.shutdown_request(request)


class _Handler(BaseHTTPRequestHandler):
    """One connection: kept alive across requests (HTTP/1.1), each answered with JSON."""

    protocol_version = "HTTP/1.1"
    server_version = "Marginalia-MCP"
    sys_version = ""
    timeout = HEAD_SECONDS          # until a request is let in (handle_one_request)
    # The headers and the body leave in two writes: with Nagle's algorithm on, the second
    # waits for the client's delayed ACK, 40 ms per request on Linux (measured).
    disable_nagle_algorithm = True
    server = None  # type: _Listener
    grant = None  # type: Optional[Grant]     # the token's, once a request is let in

    def handle_one_request(self) -> None:
        # A connection let in may idle between requests; a stranger must be quick.
        trusted = self.server.owner.trusted(self.connection)
        self.connection.settimeout(IDLE_SECONDS if trusted else HEAD_SECONDS)
        super().handle_one_request()

    # ------------------------------------------------------------------ methods

    def do_POST(self) -> None:
        if not self._admitted():
            return
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != "application/json":
            return self._refuse(415, "The body must be JSON (Content-Type: application/json).")
        if not accepts_json(self.headers.get("Accept")):
            return self._refuse(406, "This server answers with application/json; the Accept "
                                     "header must allow it.")
        if self.headers.get("Transfer-Encoding"):
            return self._refuse(411, "Send the body with a Content-Length, not chunked.")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._refuse(411, "The Content-Length header is missing.")
        if length < 0 or length > self.server.owner.max_body:
            return self._refuse(413, "The body is larger than the %d bytes allowed."
                                % self.server.owner.max_body)
        body = self.rfile.read(length)
        if len(body) < length:
            self.close_connection = True
            return
        repeated = [name for name in ROUTING_HEADERS if len(self.headers.get_all(name, ())) > 1]
        outcome = self.server.owner.protocol.handle_post(
            body, self.headers.get(SESSION_HEADER), self.headers.get(VERSION_HEADER),
            self.headers.get(METHOD_HEADER), self.headers.get(NAME_HEADER), "".join(repeated[:1]),
            self.grant)
        self._answer(outcome)

    def do_DELETE(self) -> None:
        if self._admitted():
            outcome = self.server.owner.protocol.end_session(
                self.headers.get(SESSION_HEADER), self.headers.get(VERSION_HEADER), self.grant)
            self._answer(outcome, {"Allow": "POST, DELETE"} if outcome.status == 405 else None)

    def do_GET(self) -> None:
        if self._admitted():
            self._refuse(405, "This server sends no stream of its own; POST requests to %s."
                         % ENDPOINT_PATH, {"Allow": "POST, DELETE"})

    do_PUT = do_PATCH = do_OPTIONS = do_GET

    # ------------------------------------------------------------------ checks

    def _admitted(self) -> bool:
        """Path, Host, Origin, token: the first that fails is answered and logged."""
        owner = self.server.owner
        if owner.stopping:
            self._refuse(503, "The MCP server is stopping.")
        elif urlsplit(self.path).path != ENDPOINT_PATH:
            self._refuse(404, "The MCP endpoint is %s." % ENDPOINT_PATH)
        elif not guard.host_allowed(self.headers.get("Host"), owner.port):
            self._refuse(403, "Requests must be addressed to 127.0.0.1, localhost or [::1].")
        elif not guard.origin_allowed(self.headers.get("Origin")):
            self._refuse(403, "Requests from web pages of other sites are refused.")
        elif not self._granted(owner.grant_for(self.headers.get("Authorization"))):
            bad = "invalid_token" if self.headers.get("Authorization") else "invalid_request"
            self._refuse(401, "A valid Authorization: Bearer token is needed; copy it from "
                              "Tools > Options > Marginalia.",
                         {"WWW-Authenticate": 'Bearer realm="Marginalia", error="%s"' % bad})
        else:
            owner._trust(self.connection)
            self.connection.settimeout(IDLE_SECONDS)     # its body may take its time
            return True
        return False

    def _granted(self, grant: Optional[Grant]) -> bool:
        self.grant = grant        # the protocol acts with it, whatever the request says
        return grant is not None

    def _refuse(self, status: int, message: str, headers: Optional[dict] = None) -> None:
        # The body was not read: the connection cannot carry another request.
        self.close_connection = True
        self._answer(Outcome(status, error_body(INVALID_REQUEST, message)), headers)

    # ------------------------------------------------------------------ answers

    def _answer(self, outcome: Outcome, headers: Optional[dict] = None) -> None:
        if outcome.status >= 400:
            # Who was kept out is worth a warning; a client probing what is spoken is not,
            # and the SDK's GET for a stream (405) comes with every session: debug only.
            level = (logging.WARNING if outcome.status in (401, 403, 413) else
                     logging.DEBUG if outcome.status == 405 else logging.INFO)
            log.log(level, "mcp: refused %s from %s with %d: %s", self.command,
                    self.client_address[0], outcome.status, _reason(outcome.body))
        data = _encode(outcome.body)
        self.send_response(outcome.status)
        if data:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if outcome.session_id:
            self.send_header(SESSION_HEADER, outcome.session_id)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if data:
            self.wfile.write(data)

    def version_string(self) -> str:
        return self.server_version           # no Python version in the Server header

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        # Not the request line: its query can hold a token (?token=...). The method, and the
        # path only when it is the endpoint's (a path is the client's to fill too).
        path = getattr(self, "path", "")          # none on a malformed request line
        path = urlsplit(path).path if isinstance(path, str) else ""
        log.debug("mcp: %s %s from %s: %s", guard.logged_method(getattr(self, "command", None)),
                  path if path == ENDPOINT_PATH else "(another path)",
                  self.client_address[0], code)

    def log_message(self, format: str, *args: Any) -> None:
        # http.server's own lines hold what the client sent: the reason only, never its words.
        log.debug("mcp: http.server: %s", format.split("%")[0].strip() or "message")

    def log_error(self, format: str, *args: Any) -> None:
        # send_error's line quotes a malformed request line ("Bad request syntax ('...')").
        if format.startswith("Request timed out"):
            log.debug("mcp: a connection from %s sent no request in time",
                      self.client_address[0])
            return
        code = args[0] if args and isinstance(args[0], int) else "?"
        log.info("mcp: refused a malformed request from %s (%s)", self.client_address[0], code)


def _encode(body: Any) -> bytes:
    """The JSON bytes of an answer; a backend result JSON cannot hold is a fault, said plainly."""
    if body is None:
        return b""
    try:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        log.exception("mcp: an answer could not be written as JSON")
        request_id = body.get("id") if isinstance(body, dict) else None
        return json.dumps(error_body(INTERNAL_ERROR, UNEXPECTED, request_id)).encode("utf-8")


def _reason(body: Any) -> str:
    """A refusal's sentence (ours alone), or only the code of an error answering a request
    (2026-07-28 sends them with 4xx): its sentence may quote the client's method or tool."""
    if not isinstance(body, dict) or not isinstance(body.get("error"), dict):
        return ""
    if body.get("id") is None:
        return str(body["error"].get("message", ""))[:200]
    return "error %s" % body["error"].get("code")

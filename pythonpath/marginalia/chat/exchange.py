"""One HTTP request on its own thread, and the token that cancels waiting for it.

The threading contract is in chat.transport's docstring: the exchange makes
every blocking call (DNS, connect, TLS, send, reads) on a daemon thread and
hands what it gets over a queue, which the caller polls, checking the
CancelToken in between.
"""

import http.client
import queue
import socket
import ssl
import threading
from typing import Any, Callable, Dict, Optional, Tuple
from urllib.parse import urlsplit

from marginalia import threads
from marginalia.errors import Cancelled

POLL = 0.05            # how often a waiting caller looks at the CancelToken
READ_SIZE = 16384

Message = Tuple[str, Any]


class CancelToken:
    """Set from any thread by Stop; the transport and the loop poll it."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True if cancelled meanwhile."""
        return self._event.wait(seconds)

    def check(self) -> None:
        """Raise Cancelled if Stop was pressed."""
        if self._event.is_set():
            raise Cancelled()


class Exchange:
    """One HTTP request on its own thread; messages arrive on a queue.

    Messages: ("head", (status, headers)), ("data", bytes), ("end", None),
    ("error", (phase, exception)) where phase is connect, wait or body.
    ``tls_context`` gives the TLS context for an https URL, called on the exchange's
    thread because making the first one reads the CA store, which is slow.
    ``proxy`` (a chat.proxy.Route) sends the request through an http proxy: https as a
    CONNECT tunnel with TLS verified against the real host, http in absolute form.
    """

    def __init__(self, url: str, method: str, headers: Dict[str, str], body: Optional[bytes],
                 connect_timeout: Optional[float], read_timeout: Optional[float],
                 tls_context: Optional[Callable[[], ssl.SSLContext]] = None,
                 proxy: Any = None) -> None:
        self.url = url
        self._proxy = proxy
        self._tls_context = tls_context or ssl.create_default_context
        self._method = method
        self._headers = headers
        self._body = body
        self._connect_timeout = connect_timeout or None
        self._read_timeout = read_timeout or None
        self._queue = queue.Queue(maxsize=256)
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._sock = None
        threads.start(self._run, name="marginalia-http")

    def _put(self, item):
        while not self._closed.is_set():
            try:
                self._queue.put(item, timeout=POLL)
                return
            except queue.Full:
                continue

    def _run(self):
        parts = urlsplit(self.url)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        conn = response = None
        phase = "connect"
        headers = self._headers
        try:
            proxy = self._proxy
            host, port = (proxy.host, proxy.port) if proxy else (parts.hostname, parts.port)
            if parts.scheme == "https":
                conn = http.client.HTTPSConnection(host, port, timeout=self._connect_timeout,
                                                   context=self._tls_context())
                if proxy is not None:
                    tunnel = {"Proxy-Authorization": proxy.authorization} \
                        if proxy.authorization else None
                    # TLS is wrapped over the tunnel for the real host's name, so the
                    # certificate is checked against it, not against the proxy.
                    conn.set_tunnel(parts.hostname, parts.port or 443, headers=tunnel)
                    headers = dict(headers, Host=parts.netloc.rsplit("@", 1)[-1])
            else:
                conn = http.client.HTTPConnection(host, port, timeout=self._connect_timeout)
                if proxy is not None:
                    path = self.url          # a plain http proxy takes the absolute URL
                    if proxy.authorization:
                        headers = dict(headers, **{"Proxy-Authorization": proxy.authorization})
            conn.connect()
            with self._lock:
                self._sock = conn.sock
            if self._closed.is_set():
                return
            conn.sock.settimeout(self._read_timeout)
            phase = "wait"
            conn.request(self._method, path, body=self._body, headers=headers)
            response = conn.getresponse()
            self._put(("head", (response.status, response.msg)))
            phase = "body"
            while not self._closed.is_set():
                data = response.read1(READ_SIZE)
                if not data:
                    # read1 reports a short Content-Length body as a plain end.
                    if response.length:
                        raise http.client.IncompleteRead(b"", response.length)
                    break
                self._put(("data", data))
            self._put(("end", None))
        except Exception as exc:  # handed to the caller, who owns the sentence
            if not self._closed.is_set():
                self._put(("error", (phase, exc)))
        finally:
            for closable in (response, conn):
                if closable is not None:
                    try:
                        closable.close()
                    except Exception:  # already broken by close() from the caller
                        pass

    def get(self, cancel: Optional[CancelToken], limit: Optional[float] = None) -> Message:
        """The next message; raises Cancelled as soon as ``cancel`` is set."""
        waited = 0.0
        while True:
            if cancel is not None and cancel.cancelled:
                self.close()
                raise Cancelled()
            try:
                return self._queue.get(timeout=POLL)
            except queue.Empty:
                waited += POLL
                # A safety net for waits no socket timeout covers (DNS).
                if limit is not None and waited > limit:
                    self.close()
                    return ("error", ("wait", socket.timeout("timed out")))

    def close(self) -> None:
        """Stop the exchange from any thread; unblocks a read in progress."""
        self._closed.set()
        with self._lock:
            sock = self._sock
        if sock is not None:
            try:
                # socket.socket's own shutdown: SSLSocket.shutdown would also
                # drop its SSL object under the reading thread's feet.
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except (OSError, ValueError):
                pass

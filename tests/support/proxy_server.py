"""A real HTTP proxy on 127.0.0.1 for tests: CONNECT tunnels and absolute-form requests.

Every host name resolves to 127.0.0.1 here, so a test can reach its TLS server
as ``https://models.test:PORT`` and the certificate is checked against that
name. The proxy records what it was asked (``requests``: method, target,
headers) and every byte it carried through tunnels (``tunnelled``), so a test
can show the key never passed it in clear. ``credentials`` ("user:pass") makes
it answer 407 to requests without them.
"""

import base64
import select
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _allowed(self):
        owner = self.server.owner
        owner.requests.append((self.command, self.path, dict(self.headers.items())))
        wanted = owner.credentials
        if wanted is None:
            return True
        expected = "Basic " + base64.b64encode(wanted.encode("utf-8")).decode("ascii")
        if self.headers.get("Proxy-Authorization") == expected:
            return True
        self.send_response(407, "Proxy Authentication Required")
        self.send_header("Proxy-Authenticate", 'Basic realm="test"')
        self.send_header("Content-Length", "0")
        self.end_headers()
        return False

    def do_CONNECT(self):
        if not self._allowed():
            return
        _host, _, port = self.path.rpartition(":")
        upstream = socket.create_connection(("127.0.0.1", int(port)))
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        self._pipe(self.connection, upstream)
        self.close_connection = True

    def _pipe(self, client, upstream):
        sockets = [client, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 5)
                if not readable:
                    break
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    other = upstream if sock is client else client
                    if sock is client:
                        self.server.owner.tunnelled.append(data)
                    other.sendall(data)
        except OSError:
            pass
        finally:
            upstream.close()

    def _forward(self):
        """A plain http request in absolute form: sent on to 127.0.0.1 and answered back."""
        if not self._allowed():
            return
        parts = urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        upstream = socket.create_connection(("127.0.0.1", parts.port or 80))
        path = parts.path + ("?" + parts.query if parts.query else "")
        head = ["%s %s HTTP/1.1" % (self.command, path or "/")]
        for name, value in self.headers.items():
            if name.lower() not in ("proxy-authorization", "proxy-connection", "connection"):
                head.append("%s: %s" % (name, value))
        head.append("Connection: close")
        upstream.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        while True:
            data = upstream.recv(65536)
            if not data:
                break
            self.wfile.write(data)
            self.wfile.flush()
        upstream.close()
        self.close_connection = True

    do_GET = do_POST = _forward


class ProxyServer(object):
    """``with ProxyServer() as proxy:`` ... ``proxy.address`` is "127.0.0.1:PORT"."""

    def __init__(self, credentials=None):
        self.credentials = credentials
        self.requests = []
        self.tunnelled = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self

    @property
    def address(self):
        return "127.0.0.1:%d" % self._httpd.server_address[1]

    def __enter__(self):
        threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()

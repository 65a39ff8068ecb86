"""The HTTP transport: the models list and the streaming chat POST.

Threading. Every request runs on its own daemon thread (an ``Exchange``,
in chat.exchange) that makes all the blocking calls: DNS, connect, TLS,
send, reads. It hands what it gets to the caller through a queue, and the
caller polls that queue every 0.05 s, checking the CancelToken in between.
So Stop returns at once even when the network call is stuck somewhere no
timeout reaches (a slow DNS lookup, a read on a silent stream); closing the
exchange then shuts the socket down so its thread ends too.

Timeouts. ``connect_timeout`` covers connect and the TLS handshake; after
that the socket timeout is ``read_timeout``, which bounds every single read:
the wait for the response head and any silent gap inside the stream.

Retries happen only before any answer byte arrived: connect errors, and 429,
502 and 503 (honouring Retry-After), at most ``retries`` times and
``max_wait`` seconds in all. A stream that broke after it started is never
retried. A 400 refusing a part of the request is answered by one resend
without it: ``stream_options``, or tool-schema keywords Gemini does not know
(chat.toolschema, remembered per server for later requests).

The API key goes only to the configured scheme, host and port:
redirects elsewhere are followed without it, and never logged.
"""

import json
import logging
import os
import ssl
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple
from urllib.parse import urljoin, urlsplit

from marginalia import __version__
from marginalia.chat import proxy, window_errors
from marginalia.chat.endpoint import check_policy, endpoint_for, origin_of
from marginalia.chat.exchange import CancelToken, Exchange
from marginalia.chat.server_errors import (broken_stream_error, looks_like_html,
                                           rejects_schema_keywords, rejects_stream_options,
                                           status_error, transport_error)
from marginalia.chat.tls import TlsSetup, shared_tls
from marginalia.chat.toolschema import refuses_keywords, remember_refusal, strip_tools
from marginalia.config import Settings
from marginalia.errors import Cancelled, ConfigError, EndpointError, PolicyError

log = logging.getLogger("marginalia.http")

ERROR_BODY_LIMIT = 65536
MODELS_BODY_LIMIT = 8 * 1024 * 1024
# A model list never needs the long read timeout a thinking model's first token may.
MODELS_READ_TIMEOUT = 30.0
_REDIRECTS = (301, 302, 303, 307, 308)


def _sendable(key: str) -> bool:
    """True when ``key`` can go in an HTTP header (printable ASCII, as API keys are)."""
    return all(" " <= char <= "~" for char in key)


class ChatStream:
    """Iterator over the answer's bytes; closes the exchange at the end, on error, or on close()."""

    def __init__(self, client: "ChatClient", exchange: Exchange, cancel: CancelToken,
                 first: Optional[Tuple[str, Any]] = None, whole: Optional[bytes] = None) -> None:
        self._client = client
        self._exchange = exchange
        self._cancel = cancel
        self._first = first      # a message already taken off the exchange's queue
        self._whole = whole      # the entire answer, already read (a non-streamed reply)
        self.streamed = whole is None   # False: the server ignored stream: true
        self._done = False

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        if self._done:
            raise StopIteration
        if self._whole is not None:
            data, self._whole = self._whole, None
            self._done = True
            return data
        if self._first is not None:
            (kind, value), self._first = self._first, None
        else:
            try:
                kind, value = self._exchange.get(self._cancel, self._client.wait_limit())
            except Cancelled:
                self.close()
                raise
        if kind == "data":
            if log.isEnabledFor(logging.DEBUG):
                # The answer's text: the debug log only (marginalia.debuglog).
                log.debug("stream: %s", value.decode("utf-8", "replace"))
            return value
        self.close()
        if kind == "end":
            raise StopIteration
        _phase, exc = value
        log.info("stream broke: %s", type(exc).__name__)
        raise broken_stream_error(exc, self._client.settings.read_timeout)

    def close(self) -> None:
        """Stop reading and let the exchange's thread end."""
        self._done = True
        self._whole = self._first = None
        self._exchange.close()

    def __enter__(self) -> "ChatStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class ChatClient:
    """Talks to one OpenAI-compatible server described by ``settings``."""

    retries = 2               # extra attempts before the first answer byte
    backoff = (0.5, 1.5)      # seconds between attempts when the server names none
    max_wait = 30.0           # total seconds spent waiting between attempts
    max_redirects = 5

    def __init__(self, settings: Settings, retries: Optional[int] = None,
                 backoff: Optional[Sequence[float]] = None,
                 max_wait: Optional[float] = None, tls: Optional[TlsSetup] = None,
                 proxies: Optional[proxy.Proxies] = None,
                 allow: Optional[Callable[[str], Optional[str]]] = None) -> None:
        self.settings = settings
        # The administrator's policy for any address a request is sent to: the settings'
        # own check unless the caller gives one (a redirect must pass it too).
        self._allow = allow if allow is not None else settings.endpoint_check
        # LibreOffice's manual proxy settings, else the environment (chat.proxy).
        self.proxies = proxies if proxies is not None else proxy.current(os.environ)
        self.endpoint = endpoint_for(settings)   # ConfigError for a bad address or policy
        endpoint = self.endpoint
        self._server = (endpoint.scheme, endpoint.host, endpoint.port, endpoint.path)
        self._tls = tls           # None: the process's shared set-up, made on first https
        self._key = (settings.api_key or "").strip()
        if retries is not None:
            self.retries = retries
        if backoff is not None:
            self.backoff = tuple(backoff)
        if max_wait is not None:
            self.max_wait = max_wait

    def wait_limit(self) -> Optional[float]:
        """The longest wait for the exchange's next message: a net for what no socket timeout
        covers (a DNS lookup); None when a timeout is switched off."""
        timeouts = [t for t in (self.settings.connect_timeout, self.settings.read_timeout) if t]
        return sum(timeouts) + 2.0 if len(timeouts) == 2 else None

    def _headers(self, url, method):
        headers = {"User-Agent": "Marginalia/%s" % __version__,
                   "Accept": "text/event-stream" if method == "POST" else "application/json"}
        if method == "POST":
            headers["Content-Type"] = "application/json"
        if self._key and origin_of(url) == self.endpoint.origin:
            if not _sendable(self._key):
                raise ConfigError("The API key contains a character that cannot be sent (an "
                                  "invisible character or a curly quote, perhaps); paste the "
                                  "key again in the options.")
            headers["Authorization"] = "Bearer " + self._key
        return headers

    def list_models(self, cancel: Optional[CancelToken] = None) -> List[str]:
        """The model ids the server offers, sorted."""
        read_timeout = min(self.settings.read_timeout or MODELS_READ_TIMEOUT,
                           MODELS_READ_TIMEOUT)
        exchange, _headers = self._open("GET", self.endpoint.models_url, None, cancel,
                                        read_timeout)
        text = self._read_all(exchange, cancel, MODELS_BODY_LIMIT)
        try:
            data = json.loads(text.decode("utf-8", "replace"))
        except ValueError:
            raise EndpointError("The server's list of models is not valid JSON.")
        if isinstance(data, dict):
            # OpenAI shape is {"data": [...]}; Ollama's native one is {"models": [...]}.
            data = data.get("data", data.get("models"))
        ids = set()
        for item in data if isinstance(data, list) else []:
            if isinstance(item, dict):
                item = item.get("id") or item.get("name")
            if isinstance(item, str) and item:
                ids.add(item)
        return sorted(ids)

    def fetch_json(self, url: str, body: Optional[Dict[str, Any]] = None,
                   cancel: Optional[CancelToken] = None) -> Any:
        """GET ``url`` (POST ``body`` when given) on this server and decode its JSON answer.

        For a server's metadata (Ollama's /api/show, llama.cpp's /props...);
        EndpointError for any failure, the caller decides whether it matters.
        """
        read_timeout = min(self.settings.read_timeout or MODELS_READ_TIMEOUT,
                           MODELS_READ_TIMEOUT)
        exchange, _headers = self._open("GET" if body is None else "POST", url, body, cancel,
                                        read_timeout)
        text = self._read_all(exchange, cancel, MODELS_BODY_LIMIT)
        try:
            return json.loads(text.decode("utf-8", "replace"))
        except ValueError:
            raise EndpointError("The server's answer is not valid JSON.")

    def open_stream(self, body: Dict[str, Any],
                    cancel: Optional[CancelToken] = None) -> ChatStream:
        """POST the chat request; returns a ChatStream of bytes chunks.

        Raises EndpointError (one sentence) or Cancelled, here for failures
        before the answer starts and from the iterator for later ones.
        """
        cancel = cancel or CancelToken()
        exchange, headers = self._open("POST", self.endpoint.chat_url, body, cancel)
        if "json" not in (headers.get("Content-Type") or "").lower():
            return ChatStream(self, exchange, cancel)
        # Either a server that ignored stream: true and sent one JSON object,
        # or an event stream mislabelled as JSON: the first bytes tell.
        first = exchange.get(cancel, self.wait_limit())
        if first[0] == "data" and first[1].lstrip()[:1] in (b"{", b"["):
            text = first[1] + self._read_all(exchange, cancel, MODELS_BODY_LIMIT)
            return ChatStream(self, exchange, cancel, whole=self._json_as_sse(text))
        return ChatStream(self, exchange, cancel, first=first)

    def _read_all(self, exchange, cancel, limit):
        data = []
        size = 0
        try:
            while size < limit:
                kind, value = exchange.get(cancel, self.wait_limit())
                if kind == "data":
                    data.append(value)
                    size += len(value)
                elif kind == "end":
                    break
                else:
                    raise broken_stream_error(value[1], self.settings.read_timeout)
        finally:
            exchange.close()
        return b"".join(data)[:limit]

    def _json_as_sse(self, text):
        try:
            data = json.loads(text.decode("utf-8", "replace"))
        except ValueError:
            raise EndpointError("The server answered with something that is not a chat stream.")
        if isinstance(data, dict) and data.get("error"):
            error = status_error(200, {}, text, self.settings, self.endpoint)
            error.too_long = window_errors.refusal(200, text)
            raise error
        chunks = []
        for choice in (data.get("choices") or []) if isinstance(data, dict) else []:
            message = dict(choice.get("message") or {})
            for index, call in enumerate(message.get("tool_calls") or []):
                call.setdefault("index", index)
            chunks.append({"choices": [{"index": choice.get("index", 0), "delta": message,
                                        "finish_reason": choice.get("finish_reason")}]})
        if isinstance(data, dict) and data.get("usage"):
            chunks.append({"choices": [], "usage": data["usage"]})
        if not chunks:
            raise EndpointError("The server answered with something that is not a chat stream.")
        return b"".join(b"data: " + json.dumps(c).encode("utf-8") + b"\n\n" for c in chunks) \
            + b"data: [DONE]\n\n"

    def _open(self, method, url, body, cancel, read_timeout=None):
        """Send until a 2xx head arrives: redirects, retries, resends without refused parts."""
        cancel = cancel or CancelToken()
        attempt = 0
        waited = 0.0
        redirects = 0
        resent = set()            # the resends made for this request: each happens once
        if body is not None and refuses_keywords(self._server):
            body = strip_tools(body) or body
        while True:
            cancel.check()
            payload = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
            if payload is not None and log.isEnabledFor(logging.DEBUG):
                # The prompt and the document text in it: the debug log only.
                log.debug("%s %s body: %s", method, url.split("?")[0],
                          payload.decode("utf-8"))
            route = proxy.route(url, self.proxies)
            exchange = Exchange(url, method, self._headers(url, method), payload,
                                self.settings.connect_timeout,
                                read_timeout or self.settings.read_timeout, self._tls_context,
                                route)
            kind, value = exchange.get(cancel, self.wait_limit())
            if kind == "error":
                exchange.close()
                log.info("%s %s failed (%s, %s): %s", method, url.split("?")[0], value[0],
                         proxy.describe(route), type(value[1]).__name__)
                error = transport_error(value[0], value[1], urlsplit(url),
                                        self.settings.connect_timeout,
                                        read_timeout or self.settings.read_timeout,
                                        no_ca_list=bool(self._tls and self._tls.no_ca_list))
            else:
                status, headers = value
                log.info("%s %s -> %d", method, url.split("?")[0], status)
                location = headers.get("Location")
                if status in _REDIRECTS and location:
                    exchange.close()
                    redirects += 1
                    method, url, body = self._redirect(status, method, url, location, body,
                                                       redirects)
                    continue
                if 200 <= status < 300:
                    if looks_like_html(headers.get("Content-Type"), b""):
                        exchange.close()
                        raise status_error(status, headers, b"<html>", self.settings,
                                           self.endpoint)
                    return exchange, headers
                text = self._read_all(exchange, cancel, ERROR_BODY_LIMIT)
                smaller = self._without_refused(status, text, body, resent)
                if smaller is not None:
                    body = smaller
                    continue
                error = status_error(status, headers, text, self.settings, self.endpoint)
                error.too_long = window_errors.refusal(status, text)
            if error.retryable and attempt < self.retries:
                delay = error.retry_after
                if delay is None:
                    delay = self.backoff[min(attempt, len(self.backoff) - 1)]
                if waited + delay <= self.max_wait:
                    attempt += 1
                    waited += delay
                    log.info("retrying in %.1f s (attempt %d)", delay, attempt + 1)
                    if cancel.wait(delay):
                        raise Cancelled()
                    continue
            raise error

    def _tls_context(self) -> ssl.SSLContext:
        """The context for an https exchange, made on its thread (loading CAs is slow)."""
        if self._tls is None:
            self._tls = shared_tls()
        return self._tls.context

    def _without_refused(self, status: int, text: bytes, body: Optional[Dict[str, Any]],
                         resent: Set[str]) -> Optional[Dict[str, Any]]:
        """The body to send again after a 400 refusing a part of it, or None to fail."""
        if body is None:
            return None
        if rejects_schema_keywords(status, text):
            # Gemini: JSON Schema keywords it does not know, in the tool schemas.
            smaller = None if "schemas" in resent else strip_tools(body)
            if smaller is not None:
                log.info("server refused keywords in the tool schemas; resending without")
                remember_refusal(self._server)
                resent.add("schemas")
            return smaller
        if ("stream_options" in body and "stream_options" not in resent
                and rejects_stream_options(status, text)):
            # Some servers (older vLLM, strict proxies) refuse unknown
            # fields: usage is not worth failing the request for.
            log.info("server refused stream_options; retrying without")
            resent.add("stream_options")
            return dict((k, v) for k, v in body.items() if k != "stream_options")
        return None

    def _redirect(self, status, method, url, location, body, count):
        """The next (method, url, body) for a redirect, or an EndpointError."""
        target = urljoin(url, location)
        if count > self.max_redirects:
            raise EndpointError("The server at %s redirected too many times." % self.endpoint.host)
        parts = urlsplit(target)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EndpointError("The server at %s redirected to an address that is not a web "
                                "address." % self.endpoint.host)
        check_policy(parts.scheme, parts.hostname, self.settings.allow_http)
        # The body would go to the new address: the administrator's allowed servers and
        # local-only rule hold there as for the address the turn was checked against.
        refused = self._allow(target) if self._allow is not None else None
        if refused:
            log.info("redirect refused by the administrator's policy")
            raise PolicyError(refused)
        if status in (307, 308) or method == "GET":
            # _headers() leaves Authorization out when target is another origin.
            if origin_of(target) != self.endpoint.origin:
                log.info("redirected to another host; the API key is not sent there")
            return method, target, body
        raise EndpointError("The server moved to %s; put that address in the options."
                            % target[:120])

"""Where the model server is, whether we may talk to it, what we send, what it says.

Pure: no I/O. ``Endpoint`` turns whatever the user pasted into a base URL and
the chat and models URLs; ``check_policy`` decides whether plain http is
allowed; ``build_body`` builds the chat request from the settings, sending
only what the user actually set; ``status_error`` and ``transport_error``
turn an error answer or a network failure into one sentence for the user.

Host policy. Plain http is allowed without asking only to hosts on this
computer or the local network, because that is where local model servers
(Ollama, LM Studio, llama.cpp, vLLM) live and they rarely speak https:
``localhost`` and ``*.localhost``, loopback (127.0.0.0/8, ::1), the private
LAN ranges (10/8, 172.16/12, 192.168/16, fc00::/7), link-local
(169.254/16, fe80::/10), and the LAN-only names ``*.local`` (mDNS) and
``*.home.arpa`` (RFC 8375). The decision is made on the name as written,
without a DNS lookup, so a LAN box reached by a plain name (``gpu-box``) or
through CGNAT/Tailscale (100.64/10) needs ``allow_http``: we cannot tell
those apart from the internet without resolving. Everything else needs
https unless the user ticks ``allow_http``.
"""

import http.client
import ipaddress
import json
import re
import socket
import ssl
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit, urlunsplit

from marginalia.errors import ConfigError, EndpointError

_LAN_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
    "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10"))

_LOCAL_SUFFIXES = (".localhost", ".local", ".home.arpa")

# Endings people paste from API docs; the base URL is what comes before them.
_ENDPOINT_SUFFIXES = ("/chat/completions", "/completions", "/models")

# OpenAI o-series (o1, o3-mini, o4-mini...) and the gpt-5 family take
# max_completion_tokens and reject temperature.
_REASONING_MODEL = re.compile(r"^(o[1-9](-|$)|gpt-5)")


def is_local_host(host):
    """True for this computer or a private-LAN host (see the module docstring)."""
    name = (host or "").strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name == "localhost" or name.endswith(_LOCAL_SUFFIXES):
        return True
    try:
        ip = ipaddress.ip_address(name.split("%", 1)[0])  # drop an IPv6 zone id
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in _LAN_NETWORKS if net.version == ip.version)


class Endpoint(object):
    """A normalised server address: ``base`` plus the chat and models URLs."""

    __slots__ = ("scheme", "host", "port", "netloc", "path", "query")

    def __init__(self, url):
        text = (url or "").strip()
        if not text:
            raise ConfigError("Enter the address of the model server in the options.")
        if "://" not in text:
            # A pasted "localhost:11434" or "api.example.com/v1": guess the
            # scheme the way the host policy would accept it.
            host = re.split(r"[/:?#]", text, 1)[0]
            text = ("http://" if is_local_host(host) else "https://") + text
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError:
            raise ConfigError("The server address %r is not a valid URL." % (url,))
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https"):
            raise ConfigError("The server address must start with http:// or https://.")
        if not parts.hostname:
            raise ConfigError("The server address %r has no host name." % (url,))
        if parts.username or parts.password:
            raise ConfigError("Put the key in the API key field, not in the server address.")
        path = parts.path.rstrip("/")
        for suffix in _ENDPOINT_SUFFIXES:
            if path.endswith(suffix):
                path = path[:-len(suffix)].rstrip("/")
                break
        if not path and not parts.path.rstrip("/"):
            # Only a bare host gets /v1 (Ollama, LM Studio, llama.cpp all
            # serve there); an existing path such as Gemini's /v1beta/openai
            # or OpenRouter's /api/v1 is the user's and is kept.
            path = "/v1"
        self.scheme = scheme
        self.host = parts.hostname.lower()
        self.port = port or (443 if scheme == "https" else 80)
        self.netloc = parts.netloc.lower()
        self.path = path
        # Kept for servers that need one (Azure's ?api-version=...).
        self.query = parts.query

    @property
    def base(self):
        return urlunsplit((self.scheme, self.netloc, self.path, "", ""))

    def url(self, suffix):
        """The base URL plus ``suffix`` (e.g. "/models"), with the user's query kept."""
        return urlunsplit((self.scheme, self.netloc, self.path + suffix, self.query, ""))

    @property
    def chat_url(self):
        return self.url("/chat/completions")

    @property
    def models_url(self):
        return self.url("/models")

    @property
    def origin(self):
        """(scheme, host, port): the only place the API key may be sent."""
        return (self.scheme, self.host, self.port)

    @property
    def is_local(self):
        return is_local_host(self.host)

    def __repr__(self):
        return "Endpoint(%r)" % (self.base,)


def origin_of(url):
    """(scheme, host, port) of any absolute URL, for comparing with Endpoint.origin."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return (scheme, (parts.hostname or "").lower(),
            parts.port or (443 if scheme == "https" else 80))


def check_policy(scheme, host, allow_http):
    """Raise ConfigError for plain http to a non-local host unless allowed."""
    if scheme == "http" and not allow_http and not is_local_host(host):
        raise ConfigError(
            "Plain http is only used for servers on this computer or the local network; "
            "use https for %s, or allow http in the options." % host)


def endpoint_for(settings):
    """The settings' Endpoint, after the host policy check."""
    endpoint = Endpoint(settings.endpoint)
    check_policy(endpoint.scheme, endpoint.host, settings.allow_http)
    return endpoint


def is_reasoning_model(model):
    """True for OpenAI-style reasoning models, also behind a gateway prefix ("openai/o3")."""
    name = (model or "").strip().lower().rsplit("/", 1)[-1]
    return bool(_REASONING_MODEL.match(name))


def build_body(settings, messages, tools=None, include_usage=True):
    """The chat request body; optional parameters only when the user set them."""
    model = (settings.model or "").strip()
    if not model:
        raise ConfigError("Choose a model under Tools > Options > Marginalia first.")
    body = {"model": model, "messages": messages, "stream": True}
    if tools:
        body["tools"] = tools
    if include_usage:
        body["stream_options"] = {"include_usage": True}
    reasoning = is_reasoning_model(model)
    if settings.temperature is not None:
        # Reasoning models reject temperature, but a value the user typed is
        # theirs to send: only our own default is never sent.
        body["temperature"] = float(settings.temperature)
    if settings.max_tokens:
        key = "max_completion_tokens" if reasoning else "max_tokens"
        body[key] = int(settings.max_tokens)
    if settings.reasoning_effort:
        body["reasoning_effort"] = settings.reasoning_effort
    return body


# ---------------------------------------------------------------- what the server says

_MODEL_MISSING = re.compile(
    r"model\b.*\b(not found|does not exist|not exist|unknown|no such|not available)"
    r"|(unknown|invalid|no such|not a valid) model", re.I | re.S)
_STREAM_OPTIONS_REFUSED = re.compile(
    r"stream_options|include_usage|unknown (field|parameter|argument|name)|unrecognized"
    r"|extra (inputs|fields)|additional properties", re.I)


def looks_like_html(content_type, body):
    """True for a web page (a proxy's or a login portal's), which is never shown raw."""
    if "html" in (content_type or "").lower():
        return True
    head = body.lstrip()[:20].lower()
    return head.startswith(b"<!doctype") or head.startswith(b"<html")


_TRACEBACK = re.compile(r'Traceback \(most recent call last\)|File "[^"\n]*", line \d+')
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\w*: *(.*)$")


def clean_message(message, secret=None):
    """A server message fit to show: one line, letters in it, not too long; else None.

    Never a web page; from a Python traceback (vLLM, LiteLLM, llama-cpp-python
    put them in error messages) only the exception's own message is kept.
    """
    if not isinstance(message, str):
        return None
    if _TRACEBACK.search(message):
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        found = _EXCEPTION_LINE.match(lines[-1]) if lines else None
        message = found.group(2) if found else ""
        if _TRACEBACK.search(message):
            return None
    text = " ".join(message.split())
    if secret:
        text = text.replace(secret, "***")
    if not re.search(r"[A-Za-z]{2}", text) or "<" in text and ">" in text:
        return None
    if len(text) > 200:
        text = text[:200].rsplit(" ", 1)[0] + "..."
    return text


def server_message(body, content_type=None, secret=None):
    """(message, code) from an error body, each None when absent or not presentable."""
    if looks_like_html(content_type, body):
        return None, None
    text = body.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        # A short plain-text body ("model not found") is still worth showing.
        return (clean_message(text, secret) if "\n" not in text else None), None
    if isinstance(data, list) and data:  # Gemini: [{"error": {...}}]
        data = data[0]
    if not isinstance(data, dict):
        return None, None
    error = data.get("error", data)
    message = code = None
    if isinstance(error, dict):
        message = error.get("message") or error.get("detail") or error.get("msg")
        code = error.get("code") or error.get("type")
    elif isinstance(error, str):
        message = error
    if message is None and isinstance(data.get("detail"), str):  # FastAPI servers (vLLM)
        message = data["detail"]
    return clean_message(message, secret), (code if isinstance(code, str) else None)


def rejects_stream_options(status, body):
    """True when a 400/422 looks like the server refusing the stream_options field."""
    return status in (400, 422) and bool(
        _STREAM_OPTIONS_REFUSED.search(body.decode("utf-8", "replace")))


def retry_after(headers):
    """Seconds the server asks us to wait (Retry-After, or OpenAI's retry-after-ms)."""
    value = headers.get("retry-after-ms")
    try:
        if value is not None:
            return max(0.0, float(value) / 1000.0)
    except ValueError:
        pass
    value = headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def status_error(status, headers, body, settings, endpoint):
    """The EndpointError for a non-2xx answer (or an error object in a 200)."""
    content_type = headers.get("Content-Type")
    message, code = server_message(body, content_type, settings.api_key)
    said = ' The server said: "%s"' % message if message else ""
    model = (settings.model or "").strip()
    wait = retry_after(headers)

    def error(sentence, retryable=False):
        return EndpointError(sentence + said, status=status, retryable=retryable,
                             retry_after=wait if retryable else None)

    if status in (400, 404) and (code == "model_not_found"
                                 or _MODEL_MISSING.search(message or "")):
        return error('The server does not know the model "%s"; choose another one in the '
                     'options.' % model)
    if status == 401:
        return error("The server rejected the API key (401); check the key in the options.")
    if status == 403:
        return error("The server refused access (403); the key may not be allowed to use "
                     "this model.")
    if status == 404:
        return error('Nothing answered at %s (404); check the server address and the model '
                     'name "%s".' % (endpoint.chat_url.split("?")[0], model))
    if status == 429:
        if code == "insufficient_quota":
            return error("The account has run out of credit or quota (429).")
        return error("The server is limiting requests (429); wait a moment and try again.",
                     retryable=True)
    if looks_like_html(content_type, body):
        return error("The server at %s answered with a web page instead of the API (status "
                     "%d); check the server address and any proxy." % (endpoint.host, status),
                     retryable=status in (502, 503))
    if status >= 500:
        return error("The model server had an error (%d)." % status,
                     retryable=status in (502, 503))
    if status == 200:
        return error("The server reported an error.")
    if status in (400, 422):
        return error("The server rejected the request (%d)." % status)
    return error("The server answered with an unexpected status (%d)." % status)


def transport_error(phase, exc, parts, connect_timeout, read_timeout):
    """The EndpointError for a failure before the response head (phase connect or wait)."""
    host = parts.hostname
    where = "%s:%s" % (host, parts.port or (443 if parts.scheme == "https" else 80))
    if isinstance(exc, ssl.SSLCertVerificationError):
        return EndpointError("The certificate of %s could not be verified (%s), so no "
                             "connection was made." % (host, exc.verify_message or "invalid"))
    if isinstance(exc, ssl.SSLError):
        return EndpointError("A secure connection to %s could not be set up; check whether "
                             "the address should start with http:// instead." % host)
    if isinstance(exc, socket.gaierror):
        return EndpointError("The server name %s could not be found; check the address and "
                             "the network connection." % host)
    if isinstance(exc, ConnectionRefusedError):
        return EndpointError("Nothing is listening at %s (connection refused); is the model "
                             "server running?" % where, retryable=True)
    if isinstance(exc, socket.timeout):
        if phase == "connect":
            return EndpointError("Connecting to %s timed out after %g seconds."
                                 % (where, connect_timeout), retryable=True)
        return EndpointError("The server at %s did not answer within %g seconds."
                             % (where, read_timeout))
    if isinstance(exc, (ConnectionResetError, http.client.RemoteDisconnected)):
        return EndpointError("The server at %s closed the connection without answering."
                             % where, retryable=True)
    if isinstance(exc, http.client.HTTPException):
        return EndpointError("The server at %s did not answer in HTTP; check the address and "
                             "port." % where)
    if isinstance(exc, OSError):
        return EndpointError("Could not reach %s (%s)." % (where, exc.strerror or exc),
                             retryable=True)
    return EndpointError("Could not talk to %s; check the server address." % where)


def broken_stream_error(exc, read_timeout):
    """The EndpointError for a stream that failed after the answer started."""
    if isinstance(exc, socket.timeout):
        return EndpointError("The server sent nothing for %g seconds, so the answer was "
                             "cut off." % read_timeout)
    return EndpointError("The connection to the server broke in the middle of the answer.")

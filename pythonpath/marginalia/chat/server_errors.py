"""What the server says when it fails, and the one sentence a user sees for it.

Pure: no I/O. ``status_error`` turns an error answer (a non-2xx status, or an
error object in a 200) into an EndpointError; ``transport_error`` and
``broken_stream_error`` do the same for a network failure before or after the
answer started. A server's own message is shown only when it reads as a
sentence: never a web page (a proxy's or a login portal's), never a Python
traceback, never the API key.
"""

import http.client
import json
import re
import socket
import ssl
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Iterator, Mapping, Optional, Tuple
from urllib.parse import SplitResult, quote

from marginalia.chat.endpoint import Endpoint, default_port
from marginalia.chat.tls import BUNDLE_PATHS
from marginalia.chat.toolschema import REFUSED_KEYWORDS
from marginalia.config import Settings
from marginalia.errors import EndpointError
from marginalia.i18n.catalog import N_, tr
from marginalia.document.docview import short

_MODEL_MISSING = re.compile(
    r"model\b.*\b(not found|does not exist|not exist|unknown|no such|not available)"
    r"|(unknown|invalid|no such|not a valid) model", re.I | re.S)
_STREAM_OPTIONS_REFUSED = re.compile(
    r"stream_options|include_usage|unknown (field|parameter|argument|name)|unrecognized"
    r"|extra (inputs|fields)|additional properties", re.I)
# Gemini: 'Invalid JSON payload received. Unknown name "additionalProperties" at ...'; a
# gateway may quote that answer as JSON inside its own, so the quotes can be escaped.
_SCHEMA_KEYWORD_REFUSED = re.compile(r'Unknown name \\*"(%s)\\*"' % "|".join(
    re.escape(keyword) for keyword in sorted(REFUSED_KEYWORDS)))
_TRACEBACK = re.compile(r'Traceback \(most recent call last\)|File "[^"\n]*", line \d+')
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\w*: *(.*)$")


# Ollama: "registry.ollama.ai/library/gemma:2b does not support tools"; vLLM without
# --enable-auto-tool-choice: "\"auto\" tool choice requires --enable-auto-tool-choice".
_NO_TOOLS = re.compile(r"does not support tools|tools? (?:use |calling )?(?:is|are) not "
                       r"supported|requires --enable-auto-tool-choice", re.I)


def looks_like_html(content_type: Optional[str], body: bytes) -> bool:
    """True for a web page (a proxy's or a login portal's), which is never shown raw."""
    if "html" in (content_type or "").lower():
        return True
    head = body.lstrip()[:20].lower()
    return head.startswith(b"<!doctype") or head.startswith(b"<html")


# The keys local servers' own docs suggest, which protect nothing: "ollama", "lm-studio",
# "EMPTY" (vLLM), "sk-no-key-required" (llamafile), "not-needed" (LocalAI examples)...
_PLACEHOLDERS = frozenset([
    "ollama", "lm-studio", "lmstudio", "empty", "none", "null", "not-needed", "notneeded",
    "no-key", "nokey", "no-key-required", "sk-no-key-required", "dummy", "fake", "test",
    "key", "api-key", "apikey", "local", "localai", "llama", "llamacpp", "llama.cpp",
    "llama-cpp", "vllm", "koboldcpp", "jan", "gpt4all", "placeholder", "anything",
    "sk-xxx", "sk-1234", "xxx", "token", "secret", "password"])
# A word, one case (or Capitalised): a key made of such parts is masked as whole words
# only, so it cannot eat part of another word.
_WORD = re.compile(r"[a-z]+|[A-Z]+|[A-Z][a-z]+")
_KEY_SEPARATORS = re.compile(r"[-_. ]")


def is_secret(key: Optional[str]) -> bool:
    """Whether an API key could be a secret, and so is masked wherever it shows.

    Local servers take any key and their docs suggest a word ("ollama",
    "lm-studio"); masking such a key ate the word from the server's own advice
    ("try pulling it first: *** pull qwen3"). Those well-known placeholders
    (and keys under 4 characters) are not secrets; any other key is, words
    too: a passphrase is a secret.
    """
    key = (key or "").strip()
    return len(key) >= 4 and key.lower() not in _PLACEHOLDERS


def mask_key(text: str, key: Optional[str]) -> str:
    """``text`` with every occurrence of a secret ``key`` (also URL-encoded) as "***".

    A random token is masked wherever it appears, even glued to other
    characters (``key=...`` in a URL, a JSON string, "Bearer..."): it is never
    part of a word. A key made only of words is masked where it stands as a
    whole, so it never eats part of another word. A placeholder is left alone.
    """
    if not is_secret(key):
        return text
    key = key.strip()
    words = all(_WORD.fullmatch(part) for part in _KEY_SEPARATORS.split(key))
    for form in (key, quote(key, safe="")):
        if words:
            text = re.sub(r"(?<![\w-])%s(?![\w-])" % re.escape(form), "***", text)
        else:
            text = text.replace(form, "***")
    return text


def clean_message(message: object, secret: Optional[str] = None) -> Optional[str]:
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
    text = mask_key(" ".join(message.split()), secret)
    if not re.search(r"[A-Za-z]{2}", text) or "<" in text and ">" in text:
        return None
    return short(text, 200)


def server_message(body: bytes, content_type: Optional[str] = None,
                   secret: Optional[str] = None) -> Tuple[Optional[str], Optional[str]]:
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


def rejects_stream_options(status: int, body: bytes) -> bool:
    """True when a 400/422 looks like the server refusing the stream_options field."""
    return status in (400, 422) and bool(
        _STREAM_OPTIONS_REFUSED.search(body.decode("utf-8", "replace")))


def _strings(data: Any) -> Iterator[str]:
    """Every string in a parsed JSON value (a gateway may nest the provider's message)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def rejects_schema_keywords(status: int, body: bytes) -> bool:
    """True when a 400 refuses a JSON Schema keyword of a tool (Gemini, see chat.toolschema).

    The body is an error object, a list of them (Gemini's ``[{"error": ...}]``), or text.
    """
    if status != 400:
        return False
    text = body.decode("utf-8", "replace")
    try:
        texts = list(_strings(json.loads(text)))
    except (ValueError, RecursionError):
        texts = [text]
    return any(_SCHEMA_KEYWORD_REFUSED.search(piece) for piece in texts)


def retry_after(headers: Mapping[str, str]) -> Optional[float]:
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


def status_error(status: int, headers: Mapping[str, str], body: bytes, settings: Settings,
                 endpoint: Endpoint) -> EndpointError:
    """The EndpointError for a non-2xx answer (or an error object in a 200)."""
    content_type = headers.get("Content-Type")
    message, code = server_message(body, content_type, settings.api_key)
    model = (settings.model or "").strip()
    wait = retry_after(headers)

    # The user's sentences (the panel, Test connection): the model never reads them.
    def error(sentence: str, retryable: bool = False) -> EndpointError:
        if message:
            sentence = tr('%(sentence)s The server said: "%(message)s"') % {
                "sentence": sentence, "message": message}
        return EndpointError(sentence, status=status, retryable=retryable,
                             retry_after=wait if retryable else None)

    if status in (400, 404) and (code == "model_not_found"
                                 or _MODEL_MISSING.search(message or "")):
        return error(tr('The server does not know the model "%s"; choose another one in the '
                        'options.') % model)
    if status in (400, 422, 500) and _NO_TOOLS.search(message or ""):
        refused = error(tr('The model "%s" cannot call tools, so it cannot edit the '
                           'document.') % model)
        refused.no_tools = True
        return refused
    if status == 401:
        return error(tr("The server rejected the API key (401); check the key in the "
                        "options."))
    if status == 403:
        return error(tr("The server refused access (403); the key may not be allowed to use "
                        "this model."))
    if status == 404:
        return error(tr('Nothing answered at %(address)s (404); check the server address and '
                        'the model name "%(model)s".')
                     % {"address": endpoint.chat_url.split("?")[0], "model": model})
    if status == 429:
        if code == "insufficient_quota":
            return error(tr("The account has run out of credit or quota (429)."))
        return error(tr("The server is limiting requests (429); wait a moment and try again."),
                     retryable=True)
    if looks_like_html(content_type, body):
        return error(tr("The server at %(host)s answered with a web page instead of the API "
                        "(status %(status)d); check the server address and any proxy.")
                     % {"host": endpoint.host, "status": status},
                     retryable=status in (502, 503))
    if status >= 500:
        return error(tr("The model server had an error (%d).") % status,
                     retryable=status in (502, 503))
    if status == 200:
        return error(tr("The server reported an error."))
    if status in (400, 422):
        return error(tr("The server rejected the request (%d).") % status)
    return error(tr("The server answered with an unexpected status (%d).") % status)


def transport_error(phase: str, exc: BaseException, parts: SplitResult,
                    connect_timeout: Optional[float], read_timeout: Optional[float],
                    no_ca_list: bool = False) -> EndpointError:
    """The EndpointError for a failure before the response head (phase connect or wait).

    ``no_ca_list``: this Python found no trusted certificates at all (see chat.tls).
    """
    host = parts.hostname
    where = "%s:%s" % (host, parts.port or default_port(parts.scheme))
    if isinstance(exc, ssl.SSLCertVerificationError) and no_ca_list:
        return EndpointError(tr("The certificate of %(host)s could not be checked because the "
                                "Python inside this LibreOffice has no list of trusted "
                                "certificates; install your system's CA certificates, or put "
                                "a PEM bundle at %(path)s, and restart LibreOffice.")
                             % {"host": host, "path": BUNDLE_PATHS[0]}, secure=True)
    if isinstance(exc, ssl.SSLCertVerificationError):
        return EndpointError(tr("The certificate of %(host)s could not be verified "
                                "(%(reason)s), so no connection was made.")
                             % {"host": host, "reason": exc.verify_message or tr("invalid")},
                             secure=True)
    if isinstance(exc, ssl.SSLError):
        return EndpointError(tr("A secure connection to %s could not be set up; check whether "
                                "the address should start with http:// instead.") % host,
                             secure=True)
    if isinstance(exc, OSError) and str(exc).startswith("Tunnel connection failed"):
        # http.client's wording when the proxy answers CONNECT with an error (407, 403...).
        said = str(exc).split(":", 1)[1].strip()
        return EndpointError(tr("The proxy refused to connect to %(where)s (%(reason)s); check "
                                "the proxy settings.") % {"where": where, "reason": said})
    if isinstance(exc, socket.gaierror):
        return EndpointError(tr("The server name %s could not be found; check the address and "
                                "the network connection.") % host)
    if isinstance(exc, ConnectionRefusedError):
        return EndpointError(tr("Nothing is listening at %s (connection refused); is the model "
                                "server running?") % where, retryable=True)
    if isinstance(exc, socket.timeout):
        if phase == "connect":
            return EndpointError(tr("Connecting to %(where)s timed out after %(seconds)g "
                                    "seconds.") % {"where": where, "seconds": connect_timeout},
                                 retryable=True)
        return EndpointError(tr("The server at %(where)s did not answer within %(seconds)g "
                                "seconds.") % {"where": where, "seconds": read_timeout})
    if isinstance(exc, (ConnectionResetError, http.client.RemoteDisconnected)):
        return EndpointError(tr("The server at %s closed the connection without answering.")
                             % where, retryable=True)
    if isinstance(exc, http.client.HTTPException):
        return EndpointError(tr("The server at %s did not answer in HTTP; check the address "
                                "and port.") % where)
    if isinstance(exc, OSError):
        return EndpointError(tr("Could not reach %(where)s (%(reason)s).")
                             % {"where": where, "reason": exc.strerror or exc}, retryable=True)
    return EndpointError(tr("Could not talk to %s; check the server address.") % where)


# A body that ended early: the socket closed or was reset, a chunked or
# Content-Length body came up short, the last event was cut mid-JSON, or the body ended
# with no finish reason. Marked here and translated where used.
STREAM_CUT = N_("The connection to the server closed before the answer finished.")


def broken_stream_error(exc: BaseException, read_timeout: Optional[float]) -> EndpointError:
    """The EndpointError for a stream that failed after the answer started (``cut``)."""
    if isinstance(exc, socket.timeout):
        error = EndpointError(tr("The server sent nothing for %g seconds, so the answer was "
                                 "cut off.") % read_timeout)
    elif isinstance(exc, (ConnectionError, http.client.IncompleteRead, ssl.SSLEOFError)):
        error = EndpointError(tr(STREAM_CUT))
    else:
        error = EndpointError(tr("The connection to the server broke in the middle of the "
                                 "answer."))
    error.cut = True
    return error

"""Who may talk to the MCP server: the bearer token, and loopback Host and Origin headers.

The server listens on loopback only, but that alone does not keep a web page out: a page
can make the browser POST to 127.0.0.1, and a rebinding DNS name can point its own host at
127.0.0.1. So every request must carry one of the profile's tokens (which no page knows;
scopes.Keyring compares them), name a loopback ``Host`` (a rebound name sends its own),
and, when a browser adds an ``Origin``, that origin must be loopback too. Nothing here logs
or returns a token.
"""

import logging
import secrets
import traceback
from typing import Any, Callable, Iterable, Optional
from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def _split(netloc: str):
    """(host, port) of ``host[:port]``; host None when it does not parse."""
    try:
        parts = urlsplit("//" + netloc)
        return parts.hostname, parts.port
    except ValueError:
        return None, None


def host_allowed(host: Optional[str], port: int) -> bool:
    """A Host header naming loopback, on this server's port (or none, the default port)."""
    if not host or "/" in host or "@" in host:
        return False
    name, given_port = _split(host.strip())
    return name in LOOPBACK_HOSTS and given_port in (None, port)


def origin_allowed(origin: Optional[str]) -> bool:
    """No Origin (not a browser), or an http(s) origin on a loopback host (any port)."""
    if origin is None:
        return True
    try:
        parts = urlsplit(origin.strip())
        name = parts.hostname
        parts.port                        # a bad port raises here
    except ValueError:
        return False
    # An origin is scheme://host[:port]: a path, user or query means it is not one.
    return (parts.scheme in ("http", "https") and name in LOOPBACK_HOSTS
            and parts.path in ("", "/") and not parts.query and "@" not in parts.netloc)


REDACTED = "[the token]"
_KNOWN = 16                       # this many of its characters in a row count as the token


def redact(text: str, token: str) -> str:
    """``text`` with the token, and any cut-off start of it (``[:40]``), replaced."""
    head = token[:_KNOWN]
    if not head or head not in text:
        return text
    out, start = [], 0
    while True:
        found = text.find(head, start)
        if found < 0:
            return "".join(out) + text[start:]
        end = found + len(head)
        while end < len(text) and end - found < len(token) and text[end] == token[end - found]:
            end += 1
        out.append(text[start:found] + REDACTED)
        start = end


class Redactor(logging.Filter):
    """The last net under the server's rule that no log line holds what a client sent as
    sent: a record that holds a token anyway (a client that put it where its name goes,
    say) is rewritten before any handler, the debug log's too, writes it."""

    def __init__(self, tokens: Callable[[], Iterable[str]]) -> None:
        super().__init__()
        self._tokens = tokens                 # read at each record: a new token counts at once

    def filter(self, record: logging.LogRecord) -> bool:
        tokens = [token for token in self._tokens() if token]
        if not tokens:
            return True
        try:
            message = record.getMessage()
        except Exception:                     # a bad format is logging's to report, not ours
            return True
        cleaned = message
        for token in tokens:
            cleaned = redact(cleaned, token)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
            if any(token[:_KNOWN] in trace for token in tokens):
                # The debug log writes an exception's message: this one would hold a token.
                record.exc_info, record.exc_text = None, None
                record.msg = "%s (its traceback left out: it held the token)" % record.msg
        return True


def logged_method(command: Any) -> str:
    """A request's method as logged: a known one, else a placeholder (it is client text)."""
    return command if command in ("GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS",
                                  "HEAD") else "(a method)"

"""Who may talk to the MCP server: the bearer token, and loopback Host and Origin headers.

The server listens on loopback only, but that alone does not keep a web page out: a page
can make the browser POST to 127.0.0.1, and a rebinding DNS name can point its own host at
127.0.0.1. So every request must carry the profile's token (which no page knows), name a
loopback ``Host`` (a rebound name sends its own), and, when a browser adds an ``Origin``,
that origin must be loopback too. Nothing here logs or returns the token.
"""

import hmac
import secrets
from typing import Optional
from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def token_matches(authorization: Optional[str], token: str) -> bool:
    """Whether an Authorization header is ``Bearer <token>``, compared in constant time."""
    if not token or not authorization:
        return False
    scheme, _, given = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode("utf-8"), token.encode("utf-8"))


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

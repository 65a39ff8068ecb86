"""The MCP server's bearer tokens: named, each with a scope, kept in the password container.

Outside agents present one on every request; the server acts with that token's scope
(marginalia.mcp.scopes). Each token is one user of one password-container record
(TOKEN_URL): the user name is the token's id, its password "<scope> <secret> <name>" (the
name percent-encoded), so the scope survives a restart with the secret it belongs to and
no setting can tell them apart. One ASCII string, measured on 7.4: a persistent record
kept a non-ASCII password garbled (its encoding takes UTF-8 bytes as signed chars), and
the record with it. The one token of earlier versions (user TOKEN_USER, the secret alone,
which has no space) reads as the first token, named FIRST_NAME, with the scope it always
had: edit. Like the API key a token
never goes into the registry (plain text in registrymodifications.xcu) and is never
logged. Main thread only: the password container may show LibreOffice's master password
prompt.
"""

import logging
import secrets
from urllib.parse import quote, unquote
from typing import List, NamedTuple

from marginalia.errors import ConfigError
from marginalia.i18n.catalog import N_, tr
from marginalia.mcp import scopes
from marginalia.office import settings_store

log = logging.getLogger("marginalia.mcp")

# A record of its own, apart from the API keys' (settings_store.key_url).
TOKEN_URL = "marginalia-mcp://token"
TOKEN_USER = scopes.FIRST_ID          # the first token's id: the one earlier versions made
# 32 random bytes, URL-safe: as hard to guess as a key, easy to paste into a config.
TOKEN_BYTES = 32
FIRST_NAME = N_("Agents")             # the first token's name until the user gives others
NAME_LIMIT = 60


class Token(NamedTuple):
    id: str
    name: str
    scope: str
    secret: str

    @property
    def grant(self) -> scopes.Grant:
        return scopes.Grant(self.id, self.name, self.scope)


class TokenUnavailable(ConfigError):
    """The password store would not give the tokens (its master password prompt was
    cancelled, say). Not the same as none: making a new one then would lock out every
    agent configured with a stored one."""

    def __init__(self):
        super().__init__(tr("LibreOffice's password store did not give the token for outside "
                            "agents; they can connect once it is unlocked (reopen this page)."))


def clean_name(name: str) -> str:
    """A token's name as kept: one line, no control characters, at most NAME_LIMIT."""
    text = " ".join("".join(c if c.isprintable() else " " for c in (name or "")).split())
    return text[:NAME_LIMIT]


def _token(user, passwords) -> Token:
    stored = passwords[0] if passwords else ""
    parts = stored.split(" ", 2)
    if len(parts) == 3:
        return Token(user, clean_name(unquote(parts[2])) or tr(FIRST_NAME),
                     scopes.known(parts[0]), parts[1])
    # The one token of earlier versions: its secret alone, which could always edit (any
    # other record of another shape is damaged: it may read, no more).
    return Token(user, tr(FIRST_NAME), scopes.EDIT if user == TOKEN_USER else scopes.READ,
                 stored if " " not in stored else "")


def read_tokens(ctx) -> List[Token]:
    """The stored tokens, the first made first; [] when none was made yet;
    TokenUnavailable when the store would not give them."""
    try:
        container = settings_store.password_container(ctx)
        record = container.find(TOKEN_URL, settings_store.interaction_handler(ctx))
    except Exception:
        log.warning("the password container did not give the MCP tokens")
        raise TokenUnavailable()
    # find() strips path segments until something matches: insist on our exact URL.
    if record is None or record.Url != TOKEN_URL:
        return []
    tokens = [_token(entry.UserName, tuple(entry.Passwords)) for entry in record.UserList]
    tokens = [token for token in tokens if token.secret]
    # The first token first, then by name: the order the options page shows.
    return sorted(tokens, key=lambda t: (t.id != TOKEN_USER, t.name.lower(), t.id))


def read_token(ctx) -> str:
    """The first stored token's secret, or "" (tests and the stdio bridge's setup)."""
    tokens = read_tokens(ctx)
    return tokens[0].secret if tokens else ""


def add_token(ctx, name: str, scope: str, token_id: str = "") -> Token:
    """Make and store a token named ``name`` that may do ``scope``; returns it."""
    token = Token(token_id or "t-" + secrets.token_hex(6),
                  clean_name(name) or tr(FIRST_NAME), scopes.known(scope),
                  secrets.token_urlsafe(TOKEN_BYTES))
    _store(ctx, token)
    log.info("a new MCP token was made (%s)", token.scope)
    return token


def renew(ctx, token_id: str) -> Token:
    """A fresh secret for a token, its name and scope kept (agents with the old secret are
    refused); KeyError when there is no such token."""
    old = next(t for t in read_tokens(ctx) if t.id == token_id)
    token = old._replace(secret=secrets.token_urlsafe(TOKEN_BYTES))
    _store(ctx, token)
    log.info("an MCP token was renewed")
    return token


def revoke(ctx, token_id: str) -> None:
    """Forget a token: the agents using it are refused from their next request."""
    settings_store.store_secret(ctx, TOKEN_URL, token_id, "")
    log.info("an MCP token was revoked")


def new_token(ctx) -> str:
    """A fresh secret for the first token (made, able to edit, when there is none)."""
    first = [t for t in read_tokens(ctx) if t.id == TOKEN_USER]
    if first:
        return renew(ctx, TOKEN_USER).secret
    return add_token(ctx, tr(FIRST_NAME), scopes.EDIT, TOKEN_USER).secret


def ensure_tokens(ctx) -> List[Token]:
    """The stored tokens; when there are none, the first one is made (never when the store
    is unavailable: TokenUnavailable then)."""
    tokens = read_tokens(ctx)
    if tokens:
        return tokens
    new_token(ctx)
    return read_tokens(ctx)


def _store(ctx, token: Token) -> None:
    settings_store.store_secret(ctx, TOKEN_URL, token.id, "%s %s %s" % (
        token.scope, token.secret, quote(token.name, safe="")))

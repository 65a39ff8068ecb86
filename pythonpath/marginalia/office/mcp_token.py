"""The MCP server's bearer token: random per profile, kept in the password container.

Outside agents present it on every request (marginalia.mcp checks it). It is
made the first time the server is turned on and stays until the user asks for
a new one; like the API key it never goes into the registry (plain text in
registrymodifications.xcu) and is never logged. Main thread only: the password
container may show LibreOffice's master password prompt.
"""

import logging
import secrets

from marginalia.errors import ConfigError
from marginalia.i18n.catalog import tr
from marginalia.office import settings_store

log = logging.getLogger("marginalia.mcp")

# A record of its own, apart from the API keys' (settings_store.key_url).
TOKEN_URL = "marginalia-mcp://token"
TOKEN_USER = "marginalia"
# 32 random bytes, URL-safe: as hard to guess as a key, easy to paste into a config.
TOKEN_BYTES = 32


class TokenUnavailable(ConfigError):
    """The password store would not give the token (its master password prompt was
    cancelled, say). Not the same as no token: making a new one then would lock out
    every agent configured with the stored one."""

    def __init__(self):
        super().__init__(tr("LibreOffice's password store did not give the token for outside "
                            "agents; they can connect once it is unlocked (reopen this page)."))


def read_token(ctx) -> str:
    """The stored token, or "" when none was made yet; TokenUnavailable when the store
    would not give it."""
    try:
        return settings_store.find_secret(ctx, TOKEN_URL, TOKEN_USER)
    except Exception:
        log.warning("the password container did not give the MCP token")
        raise TokenUnavailable()


def new_token(ctx) -> str:
    """Make and store a fresh token (the old one stops working); returns it."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    _store(ctx, token)
    log.info("a new MCP token was made")
    return token


def ensure_token(ctx) -> str:
    """The stored token, made first when there is none (never when it is unavailable)."""
    return read_token(ctx) or new_token(ctx)


def _store(ctx, token):
    settings_store.store_secret(ctx, TOKEN_URL, TOKEN_USER, token)

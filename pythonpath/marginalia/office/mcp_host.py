"""The MCP server's life in the office: one per office process, on while the setting says so.

The server (marginalia.mcp.server.McpServer) serves office.mcp_backend with the
profile's tokens (office.mcp_token, the first made at the first start), each with its
scope capped by the administrator's policy (agents_scope): ``keyring``. When the user
adds, renews or revokes a token, ``tokens_changed`` gives the running server the new set. It starts when
the mcp_enabled setting is on: at the office's first Writer view (the ViewJob
calls ``at_view``) and whenever the Mcp settings change (a registry listener),
and stops when the setting goes off; a changed port restarts it. It logs the
port, never the token. Nothing here raises into the office: a port in use is
logged and told through ``last_problem`` for the Options page to show. Under an
administrator's policy limiting the model servers (local_only, allowed_endpoints)
it never starts unless the policy's allow_outside_agents says so
(policy.outside_agents_refusal); ``last_problem`` then says "Your administrator
does not allow outside agents."

Threads: the settings and the token are read on the main thread; the server's
own start and stop never wait on the main thread, but closing the agents'
open turns does, so stopping runs on a worker.
"""

import logging
import threading
from typing import Any, Dict, Optional

import unohelper
from com.sun.star.util import XChangesListener

from marginalia import threads
from marginalia.errors import user_sentence
from marginalia.office import mainthread, mcp_token, mcp_turns

log = logging.getLogger("marginalia.mcp")

_lock = threading.Lock()
_server = [None]
# Whether the running server was started by the setting (apply_settings may stop or move
# it) or by the mcp.start job command (tests: it serves until mcp.stop).
_by_setting = [False]
_watching = [None]
# The sentence of the last start that failed (a port in use), or "".
last_problem = [""]


def running() -> bool:
    return _server[0] is not None and _server[0].running


def state() -> Dict[str, Any]:
    """Whether it serves, on which port and URL, and the agents' turns (office.mcp_turns)."""
    server = _server[0]
    on = server is not None and server.running
    return {"running": on, "port": server.port if on else 0,
            "url": server.url if on else "", "problem": last_problem[0],
            "active": mcp_turns.active(), "stopped": mcp_turns.stopped()}


class NotAllowed(Exception):
    """The administrator's policy does not allow outside agents (marginalia.policy)."""


def _refusal(ctx) -> str:
    """policy.outside_agents_refusal of the administrator's policy; main thread."""
    from marginalia.office import settings_store
    from marginalia import policy
    return policy.outside_agents_refusal(settings_store.load_policy(ctx))


def keyring(ctx, tokens=None):
    """The tokens the server accepts, each with its grant under the administrator's cap;
    main thread (the password store)."""
    from marginalia.mcp import scopes
    from marginalia.office import settings_store
    cap = settings_store.load_policy(ctx).agents_scope
    tokens = mcp_token.ensure_tokens(ctx) if tokens is None else tokens
    return scopes.Keyring((t.secret, t.grant._replace(scope=scopes.capped(t.scope, cap)))
                          for t in tokens)


def start(ctx, port: int, by_setting: bool = False) -> int:
    """Serve on ``port`` (0: a free one); the bound port. Main thread (the token's store).

    Already serving on that port (or 0 asked of a running server): the running one.
    Raises NotAllowed, serving nothing, when the administrator's policy rules agents out."""
    from marginalia.mcp.server import McpServer
    from marginalia.office.mcp_backend import OfficeBackend
    refusal = _refusal(ctx)
    if refusal:
        last_problem[0] = refusal
        raise NotAllowed(refusal)
    with _lock:
        server = _server[0]
        if server is not None and server.running and port in (0, server.port):
            return server.port
    if server is not None:
        # Another port: the old listeners close (main-thread safe); the agents' open turns
        # belong to the documents, not to a server, and go on under the new one.
        with _lock:
            _server[0] = None
        server.stop()
    try:
        keys = keyring(ctx)
        mcp_turns.watch_panel()
        from marginalia.office import agent_calls
        agent_calls.opened(ctx)          # agents' calls are recorded from the first
        from marginalia.office import settings_store
        server = McpServer(OfficeBackend(ctx, settings_store.load_policy(ctx)), keys, port)
        bound = server.start()
    except Exception as exc:
        last_problem[0] = user_sentence(exc)
        log.warning("the MCP server did not start")
        raise
    last_problem[0] = ""
    with _lock:
        _server[0] = server
        _by_setting[0] = by_setting
    log.info("MCP server for outside agents on port %d", bound)
    return bound


def stop() -> None:
    """Stop serving; the agents' open turns close first. Any thread but the main one
    while agents may be calling (see the module docstring)."""
    with _lock:
        server, _server[0] = _server[0], None
    if server is None:
        return
    mcp_turns.close_all()
    server.stop()


def new_token(ctx) -> str:
    """A new secret for the first token; the running server takes it at once. Main thread."""
    token = mcp_token.new_token(ctx)
    tokens_changed(ctx)
    return token


def tokens_changed(ctx) -> None:
    """A token was added, renewed or revoked: the running server takes the stored set at
    its next request. Main thread."""
    server = _server[0]
    if server is not None:
        server.set_token(keyring(ctx, mcp_token.read_tokens(ctx)))


def apply_settings(ctx) -> None:
    """Start, stop or move the server as the saved settings say. Main thread; never raises."""
    try:
        from marginalia.office import settings_store
        settings = settings_store.load(ctx, with_key=False)
        server = _server[0]
        refusal = _refusal(ctx)
        if refusal:
            # Said on the Other agents page (state()["problem"]) whatever the setting.
            last_problem[0] = refusal
            if server is not None:
                threads.start(_stop_quietly, name="marginalia-mcp-stop")
            return
        if server is not None and not _by_setting[0]:
            return          # a test's server (mcp.start) serves until mcp.stop
        if not settings.mcp_enabled:
            if server is not None:
                threads.start(_stop_quietly, name="marginalia-mcp-stop")
            return
        if server is not None and server.running and server.port == settings.mcp_port:
            return
        if server is not None:
            # A new port: the old server goes first (its stop waits for agents' turns).
            threads.start(_restart, ctx, settings.mcp_port, name="marginalia-mcp-restart")
            return
        start(ctx, settings.mcp_port, by_setting=True)
    except Exception:
        log.exception("could not apply the MCP settings")


def _stop_quietly():
    try:
        stop()
    except Exception:
        log.exception("could not stop the MCP server")


def _restart(ctx, port):
    _stop_quietly()
    mainthread.post(ctx, lambda: apply_settings(ctx))


class _Watch(unohelper.Base, XChangesListener):
    """The Mcp settings group changed: apply it on the main thread."""

    def __init__(self, ctx):
        self.ctx = ctx

    def changesOccurred(self, event):
        try:
            mainthread.post(self.ctx, lambda: apply_settings(self.ctx))
        except Exception:
            log.exception("could not react to the MCP settings")

    def disposing(self, source):
        pass


def at_view(ctx) -> None:
    """A Writer view opened (the ViewJob): the first time, watch the settings and apply
    them. Any thread; returns at once; never raises."""
    with _lock:
        if _watching[0] is not None:
            return
        _watching[0] = True
    try:
        mainthread.post(ctx, lambda: _first(ctx))
    except Exception:
        log.exception("could not start watching the MCP settings")


def _first(ctx):
    try:
        from marginalia.office import settings_store
        _watching[0] = settings_store.watch(ctx, "Mcp", _Watch(ctx))
    except Exception:
        log.exception("could not watch the MCP settings")
    apply_settings(ctx)


def problem() -> Optional[str]:
    return last_problem[0] or None

"""The open MCP sessions: a random id each, the agent behind it, a bounded number.

A session id is the only thing tying a request to an agent's earlier ``initialize``, with the
token it was opened with (another token's requests do not find it); the id is drawn from
``secrets`` (visible ASCII, as the transport requires) so it cannot be guessed.
Clients that never say goodbye (no DELETE) would pile up: past ``limit`` the least recently
used session ends, and that agent's next request gets 404, which tells a client to start over.
"""

import secrets
import threading
from collections import OrderedDict
from typing import List, Optional, Tuple

from marginalia.mcp.backend import Client
from marginalia.mcp.scopes import ANYTHING, Grant

SESSION_LIMIT = 64


class Sessions:
    """Session id -> Client, safe to use from several HTTP threads at once."""

    def __init__(self, limit: int = SESSION_LIMIT) -> None:
        self._limit = max(1, limit)
        self._clients = OrderedDict()         # type: OrderedDict[str, Client]
        self._lock = threading.Lock()

    def open(self, name: str, title: str, version: str, protocol_version: str,
             grant: Grant = ANYTHING) -> Tuple[Client, List[Client]]:
        """A new session, opened with ``grant``'s token, and the sessions evicted to make
        room for it."""
        client = Client(secrets.token_urlsafe(24), name, title, version, protocol_version,
                        grant)
        evicted = []
        with self._lock:
            self._clients[client.session_id] = client
            while len(self._clients) > self._limit:
                evicted.append(self._clients.popitem(last=False)[1])
        return client, evicted

    def get(self, session_id: str, grant: Grant = ANYTHING) -> Optional[Client]:
        """The session's client acting with ``grant``; None when there is no such session,
        or it was opened with another token (that token's holder alone may use it)."""
        with self._lock:
            client = self._clients.get(session_id)
            if client is None or client.grant.id != grant.id:
                return None
            self._clients.move_to_end(session_id)
            return client.acting(grant)

    def end(self, session_id: str, grant: Grant = ANYTHING) -> Optional[Client]:
        with self._lock:
            client = self._clients.get(session_id)
            if client is None or client.grant.id != grant.id:
                return None
            return self._clients.pop(session_id)

    def end_all(self) -> List[Client]:
        with self._lock:
            clients = list(self._clients.values())
            self._clients.clear()
            return clients

    def __len__(self) -> int:
        with self._lock:
            return len(self._clients)

"""The open MCP sessions: a random id each, the agent behind it, a bounded number.

A session id is the only thing tying a request to an agent's earlier ``initialize``; it is
drawn from ``secrets`` (visible ASCII, as the transport requires) so it cannot be guessed.
Clients that never say goodbye (no DELETE) would pile up: past ``limit`` the least recently
used session ends, and that agent's next request gets 404, which tells a client to start over.
"""

import secrets
import threading
from collections import OrderedDict
from typing import List, Optional, Tuple

from marginalia.mcp.backend import Client

SESSION_LIMIT = 64


class Sessions:
    """Session id -> Client, safe to use from several HTTP threads at once."""

    def __init__(self, limit: int = SESSION_LIMIT) -> None:
        self._limit = max(1, limit)
        self._clients = OrderedDict()         # type: OrderedDict[str, Client]
        self._lock = threading.Lock()

    def open(self, name: str, title: str, version: str,
             protocol_version: str) -> Tuple[Client, List[Client]]:
        """A new session, and the sessions evicted to make room for it."""
        client = Client(secrets.token_urlsafe(24), name, title, version, protocol_version)
        evicted = []
        with self._lock:
            self._clients[client.session_id] = client
            while len(self._clients) > self._limit:
                evicted.append(self._clients.popitem(last=False)[1])
        return client, evicted

    def get(self, session_id: str) -> Optional[Client]:
        with self._lock:
            client = self._clients.get(session_id)
            if client is not None:
                self._clients.move_to_end(session_id)
            return client

    def end(self, session_id: str) -> Optional[Client]:
        with self._lock:
            return self._clients.pop(session_id, None)

    def end_all(self) -> List[Client]:
        with self._lock:
            clients = list(self._clients.values())
            self._clients.clear()
            return clients

    def __len__(self) -> int:
        with self._lock:
            return len(self._clients)

"""Job commands that drive a document's ChatSession (the headless runner, tests).

``chat.start`` begins a turn with optional settings overrides; ``chat.poll``
returns the entries delivered since the last poll and whether the turn still
runs. Entries pass through the main thread like the panel's, so the runner
sees exactly what the sidebar would.
"""

import threading
from typing import Any

from marginalia.office import chat_session

_queues = {}
_lock = threading.Lock()


def _entry_dict(entry):
    role, payload = entry
    if role == "user":
        return {"type": "user", "text": payload}
    return payload.to_dict()


def _collector(key):
    def collect(batch):
        with _lock:
            _queues.setdefault(key, []).extend(_entry_dict(e) for e in batch)
    return collect


def handle(ctx, command: str, document, payload: dict) -> Any:
    """Run one chat.* command for the document's session."""
    if document is None:
        raise ValueError("%s needs a Document" % command)
    session = chat_session.session_for(ctx, document)
    if command == "chat.start":
        session.settings_override = payload.get("settings") or None
        with _lock:
            if session.key not in _queues:
                _queues[session.key] = []
                session.add_listener(_collector(session.key))
        return {"started": session.send(payload.get("message", ""))}
    if command == "chat.poll":
        with _lock:
            entries = _queues.get(session.key, [])
            _queues[session.key] = []
        # busy is read after taking the entries: a finished turn's last batch may
        # still be on its way to the main thread, so callers poll until done.
        return {"entries": entries, "busy": session.busy}
    if command == "chat.stop":
        session.stop()
        return True
    if command == "chat.new":
        session.new_chat()
        return True
    raise ValueError("unknown command %r" % (command,))

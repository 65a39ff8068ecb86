"""Job commands that drive a document's ChatSession: the headless runner's.

``chat.start`` begins a turn with optional settings overrides; ``chat.poll``
returns the entries delivered since the last poll and whether the turn still
runs; ``chat.stop``; ``chat.continue`` (--continue: the document's last kept chat)
and ``chat.transcript`` (--transcript). Entries pass through the main thread like
the panel's, so the runner sees exactly what the sidebar would. The History menu's
commands tests drive (chat.history, .state, .open, ...) are in tests/extension.
"""

import threading
from typing import Any

from marginalia.events import Entry
from marginalia.office import chat_session, mainthread

_queues = {}
_lock = threading.Lock()


def entry_dict(entry):
    return Entry(*entry).to_dict()


def _collector(key):
    def collect(batch):
        with _lock:
            _queues.setdefault(key, []).extend(entry_dict(e) for e in batch)
    return collect


def watch(session) -> None:
    """Collect the session's entries for chat.poll (once per session)."""
    with _lock:
        if session.key not in _queues:
            _queues[session.key] = []
            session.add_listener(_collector(session.key))


def handle(ctx, command: str, document, payload: dict) -> Any:
    """Run one chat.* command for the document's session."""
    if command not in ("chat.start", "chat.poll", "chat.stop") and command not in _KEPT:
        raise ValueError("unknown command %r" % (command,))
    if document is None:
        raise ValueError("%s needs a Document" % command)
    session = chat_session.session_for(ctx, document)
    if command == "chat.start":
        session.settings_override = payload.get("settings") or None
        watch(session)
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
    handler = _KEPT[command]
    # Kept chats read the document's properties: main thread.
    return mainthread.run_sync(ctx, lambda: handler(session, payload))


def _continue(session, payload):
    """The headless runner's --continue: the document's last chat from ``folder``."""
    session.kept.chats_dir = payload.get("folder") or session.kept.chats_dir
    session.settings_override = dict(session.settings_override or {}, keep_chats=True)
    if session.log:
        return {"continued": False, "messages": len(session.conversation)}
    chat = session.kept.restore()
    if chat is not None:
        session.open_chat(chat.chat_id)
    return {"continued": chat is not None, "messages": len(session.conversation),
            "notes": session.kept.notes}


def _transcript(session, payload):
    from marginalia.ui.chat_export import to_markdown
    title = payload.get("title")
    if title is None:
        try:
            title = session.doc.getTitle()
        except Exception:
            title = ""
    return {"markdown": to_markdown(session.log, title)}


_KEPT = {
    "chat.continue": _continue,
    "chat.transcript": _transcript,
}

"""Job commands that drive a document's ChatSession (the headless runner, tests).

``chat.start`` begins a turn with optional settings overrides; ``chat.poll``
returns the entries delivered since the last poll and whether the turn still
runs. Entries pass through the main thread like the panel's, so the runner
sees exactly what the sidebar would. The kept-chat commands (chat.history,
.state, .open, .delete, .forget, .continue, .transcript) act as the panel's
History menu does.
"""

import threading
from typing import Any

from marginalia.events import Entry
from marginalia.office import chat_session, chat_store, mainthread

_queues = {}
_lock = threading.Lock()


def _entry_dict(entry):
    return Entry(*entry).to_dict()


def _collector(key):
    def collect(batch):
        with _lock:
            _queues.setdefault(key, []).extend(_entry_dict(e) for e in batch)
    return collect


def watch(session) -> None:
    """Collect the session's entries for chat.poll (once per session)."""
    with _lock:
        if session.key not in _queues:
            _queues[session.key] = []
            session.add_listener(_collector(session.key))


def handle(ctx, command: str, document, payload: dict) -> Any:
    """Run one chat.* command for the document's session."""
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
    if command == "chat.new":
        session.new_chat()
        return True
    handler = _KEPT.get(command)
    if handler is None:
        raise ValueError("unknown command %r" % (command,))
    # Kept chats read the document's properties: main thread.
    return mainthread.run_sync(ctx, lambda: handler(session, payload))


def _history(session, payload):
    kept = session.kept
    chats = kept.summaries()
    notes, kept.notes = kept.notes, []
    return {"doc_id": chat_store.doc_id(session.doc), "current": kept.chat.chat_id,
            "chats": [{"id": c.chat_id, "title": c.title, "updated": c.updated}
                      for c in chats],
            "folder": kept.folder(), "notes": notes}


def _state(session, payload):
    kept = session.kept
    kept.flush()
    return {"messages": session.conversation.messages, "log": [
        _entry_dict(e) for e in session.log], "current": kept.chat.chat_id,
        "notes": list(kept.notes)}


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
    "chat.history": _history,
    "chat.state": _state,
    "chat.continue": _continue,
    "chat.transcript": _transcript,
    "chat.open": lambda session, payload: session.open_chat(payload["id"]),
    "chat.delete": lambda session, payload: session.delete_chat(payload["id"]),
    "chat.forget": lambda session, payload: session.forget_chats(),
    "chat.restore": lambda session, payload: _restore(session, payload),
}


def _restore(session, payload):
    """Restore to before the user message at log ``index`` (the panel's Restore…)."""
    from marginalia.office.restore import restore_to
    return restore_to(session, int(payload["index"]), bool(payload.get("confirmed")))

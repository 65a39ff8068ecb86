"""The History menu's chat commands tests drive, as the panel's menu acts:
``chat.new``, ``chat.history``, ``chat.state``, ``chat.open``, ``chat.delete``,
``chat.forget``, ``chat.restore``."""

from typing import Any, Dict

from marginalia.office import chat_session, chat_store, mainthread
from marginalia.office.jobs_chat import entry_dict


def _kept(handler):
    """A command on the document's session; kept chats read the document's properties:
    main thread."""
    def run(ctx, document, payload):
        if document is None:
            raise ValueError("this command needs a Document")
        session = chat_session.session_for(ctx, document)
        return mainthread.run_sync(ctx, lambda: handler(session, payload))
    return run


def _new(ctx, document, payload):
    if document is None:
        raise ValueError("chat.new needs a Document")
    chat_session.session_for(ctx, document).new_chat()
    return True


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
        entry_dict(e) for e in session.log], "current": kept.chat.chat_id,
        "notes": list(kept.notes)}


def _restore(session, payload):
    """Restore to before the user message at log ``index`` (the panel's Restore…)."""
    from marginalia.office.restore import restore_to
    return restore_to(session, int(payload["index"]), bool(payload.get("confirmed")))


COMMANDS: Dict[str, Any] = {
    "chat.new": _new,
    "chat.history": _kept(_history),
    "chat.state": _kept(_state),
    "chat.open": _kept(lambda session, payload: session.open_chat(payload["id"])),
    "chat.delete": _kept(lambda session, payload: session.delete_chat(payload["id"])),
    "chat.forget": _kept(lambda session, payload: session.forget_chats()),
    "chat.restore": _kept(lambda session, payload: _restore(session, payload)),
}

"""The sources commands tests use: ``sources.read`` (a file read as Blocks, not added: the
reader's test), ``sources.list`` and ``sources.remove`` (as the panel's list acts),
``sources.insert`` (the panel's Insert: the last answer, its citations as footnotes)."""

from typing import Any, Dict

from marginalia.office import chat_session, mainthread, source_reader


def _read(ctx, document, payload):
    run = lambda fn: mainthread.run_sync(ctx, fn)  # noqa: E731
    try:
        mainthread.longest_stretch()
        blocks = source_reader.read_file(ctx, payload["path"], run,
                                         pdf_helper=payload.get("via") != "filter")
    except source_reader.Unreadable as exc:
        return {"sentence": str(exc)}
    return {"blocks": [{"kind": b.kind, "text": b.text, "heading": b.heading,
                        "page": b.page, "level": b.level} for b in blocks],
            "longest": mainthread.longest_stretch()}


def _sources(ctx, document):
    if document is None:
        raise ValueError("this command needs a Document")
    return chat_session.session_for(ctx, document).sources


def _insert(ctx, document, payload):
    """The panel's Insert of the last answer, its citations as footnotes."""
    from marginalia.chat import history
    from marginalia.office import settings_store
    from marginalia.writer.answer import insert_at_cursor
    sources = _sources(ctx, document)
    text = history.last_answer(chat_session.session_for(ctx, document).log)
    cite = payload.get("citations_as") or settings_store.load(ctx, with_key=False).citations_as
    prepared = sources.for_insert(text)
    made = mainthread.run_sync(ctx, lambda: insert_at_cursor(
        ctx, document, prepared.text, False, prepared.notes or None, cite))
    return {"made": made, "unbacked": prepared.unbacked, "unknown": prepared.unknown}


COMMANDS: Dict[str, Any] = {
    "sources.read": _read,
    "sources.list": lambda ctx, document, payload: {
        "sources": _sources(ctx, document).listing()},
    "sources.remove": lambda ctx, document, payload: {
        "removed": _sources(ctx, document).remove(payload["id"])},
    "sources.insert": _insert,
}

"""Job commands for a chat's sources (the headless runner's --source, tests).

``sources.read`` reads a file as Blocks without adding it (the reader's test);
``sources.add`` adds a file ({"path"}) or another open document ({"title"}) to
the document's chat; ``sources.list`` and ``sources.remove`` act as the panel's
list does; ``sources.insert`` is the panel's Insert (the last answer, its
citations as footnotes). A source that cannot be read answers {"sentence"}, never raises:
the runner shows that sentence.
"""

from typing import Any

from marginalia.office import chat_session, mainthread, source_reader


def handle(ctx, command: str, document, payload: dict) -> Any:
    run = lambda fn: mainthread.run_sync(ctx, fn)  # noqa: E731
    if command == "sources.read":
        try:
            mainthread.longest_stretch()
            blocks = source_reader.read_file(ctx, payload["path"], run,
                                             pdf_helper=payload.get("via") != "filter")
        except source_reader.Unreadable as exc:
            return {"sentence": str(exc)}
        return {"blocks": [{"kind": b.kind, "text": b.text, "heading": b.heading,
                            "page": b.page, "level": b.level} for b in blocks],
                "longest": mainthread.longest_stretch()}
    if document is None:
        raise ValueError("%s needs a Document" % command)
    sources = chat_session.session_for(ctx, document).sources
    if command == "sources.add":
        try:
            if payload.get("path"):
                source = sources.add_file(payload["path"], run)
            else:
                from marginalia.office.chat_sources import _open_by_title
                doc = run(lambda: _open_by_title(ctx, payload["title"]))
                if doc is None:
                    return {"sentence": "No open document is called %s." % payload["title"]}
                source = sources.add_document(doc, run)
        except source_reader.Unreadable as exc:
            return {"sentence": str(exc)}
        return {"id": source.id, "name": source.name,
                "passages": len(sources.library.passages(source.id))}
    if command == "sources.list":
        return {"sources": sources.listing()}
    if command == "sources.insert":
        # The panel's Insert of the last answer, its citations as footnotes.
        from marginalia.chat import history
        from marginalia.writer.answer import insert_at_cursor
        session = chat_session.session_for(ctx, document)
        text = history.last_answer(session.log)
        from marginalia.office import settings_store
        cite = payload.get("citations_as") or settings_store.load(ctx, with_key=False).citations_as
        prepared = sources.for_insert(text)
        made = run(lambda: insert_at_cursor(ctx, document, prepared.text, False,
                                            prepared.notes or None, cite))
        return {"made": made, "unbacked": prepared.unbacked, "unknown": prepared.unknown}
    if command == "sources.remove":
        return {"removed": sources.remove(payload["id"])}
    raise ValueError("unknown command %r" % (command,))

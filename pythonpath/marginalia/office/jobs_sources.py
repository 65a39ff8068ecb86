"""``sources.add``, the headless runner's --source: a file ({"path"}) or another open
document ({"title"}) added to the document's chat. A source that cannot be read answers
{"sentence"}, never raises: the runner shows that sentence. (The panel's list, Insert and
the reader's own test are tests/extension's commands.)
"""

from typing import Any

from marginalia.office import chat_session, mainthread, source_reader


def handle(ctx, command: str, document, payload: dict) -> Any:
    if command != "sources.add":
        raise ValueError("unknown command %r" % (command,))
    if document is None:
        raise ValueError("%s needs a Document" % command)
    run = lambda fn: mainthread.run_sync(ctx, fn)  # noqa: E731
    sources = chat_session.session_for(ctx, document).sources
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

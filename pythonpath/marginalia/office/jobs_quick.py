"""``quick.run``, the headless runner's --prompt: a quick action started in process, as the
context menu starts it; its entries are collected for ``chat.poll`` as a typed message's
are. (The menu's and the prompt library's commands tests use are in tests/extension.)
"""

from typing import Any, Dict

from marginalia.office import jobs_chat, mainthread, prompt_store
from marginalia import prompt_library as pl
from marginalia.writer import finder


def _find(doc, text):
    """The first occurrence of ``text`` (case first, then any case), or None."""
    for case in (True, False):
        found = doc.findFirst(finder.descriptor(doc, text, False, case))
        if found is not None:
            return found
    return None


def _run(ctx, document, payload):
    """Payload: prompt (name or id), argument, select (a text) or use_selection, settings."""
    from marginalia.office import chat_session, quick_actions
    if document is None:
        raise ValueError("quick.run needs a Document")

    def start():
        library = prompt_store.load(ctx)
        prompt = pl.find(library, payload.get("prompt", ""))
        if prompt is None:
            return {"started": False, "sentence": "There is no prompt called \u201c%s\u201d."
                    % payload.get("prompt", "")}
        session = chat_session.session_for(ctx, document)
        session.settings_override = payload.get("settings") or None
        jobs_chat.watch(session)
        rng = None
        select = payload.get("select")
        if select:
            rng = _find(document, select)
            if rng is None:
                return {"started": False,
                        "sentence": "\u201c%s\u201d is not in the document." % select}
        # No text to find: the user's selection when asked for, else the whole document.
        whole = rng is None and not payload.get("use_selection")
        sentence = quick_actions.start(ctx, document, prompt, payload.get("argument", ""),
                                       rng=rng, whole=whole)
        return {"started": sentence is None, "sentence": sentence}
    return mainthread.run_sync(ctx, start)


_COMMANDS: Dict[str, Any] = {
    "quick.run": _run,
}


def handle(ctx: Any, command: str, document: Any, payload: Dict[str, Any]) -> Any:
    handler = _COMMANDS.get(command)
    if handler is None:
        raise ValueError("unknown command %r" % (command,))
    return handler(ctx, document, payload)

"""``quick.*`` and ``prompts.*`` job commands: quick actions and the prompt library
driven in process (the headless runner's --prompt, tests, the menu bench).

``quick.run`` starts an action like the context menu does; its entries are
collected for ``chat.poll`` as a typed message's are.
"""

from typing import Any, Dict

from marginalia.office import jobs_chat, mainthread, prompt_store
from marginalia import prompt_library as pl
from marginalia.ui import quick_menu
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


def _menu(ctx, document, payload):
    """The submenu's entries, whether the view has it, and how long it took to build."""
    from marginalia.office import context_menu
    library = mainthread.run_sync(ctx, lambda: prompt_store.load(ctx))
    entries = quick_menu.menu_entries(library, bool(payload.get("has_selection", True)),
                                      payload.get("recent", ()),
                                      bool(payload.get("kept_out", False)))
    out = {"entries": [_entry(e) for e in entries]}
    if document is not None:
        out["registered"] = mainthread.run_sync(ctx, lambda: context_menu.registered(
            document.getCurrentController()))
    # Each build of the submenu as Writer's menus opened, in ms (bench, window tests).
    out["built_ms"] = [t * 1000 for t in context_menu.TIMINGS]
    out["floor_ms"] = [t * 1000 for t in context_menu.FLOORS]
    if "measure_floor" in payload:
        context_menu.measure_floor[0] = bool(payload["measure_floor"])
    return out


def _entry(entry):
    if entry.separator:
        return {"separator": True}
    out = {"label": entry.label}
    if entry.url:
        out["url"] = entry.url
    if entry.children:
        out["children"] = [_entry(c) for c in entry.children]
    return out


def _library(ctx, document, payload):
    fresh = bool(payload.get("fresh"))
    library = mainthread.run_sync(ctx, lambda: prompt_store.load(ctx, fresh))
    return [dict(id=p.pid, name=p.name, instruction=p.instruction, mode=p.mode,
                 needs_selection=p.needs_selection, builtin=p.builtin, hidden=p.hidden)
            for p in library]


def _save(ctx, document, payload):
    library = pl.merge(pl.Prompt(item["id"], item.get("name", ""),
                                 item.get("instruction", ""), item.get("mode", pl.REPLACE),
                                 bool(item.get("needs_selection", True)), False,
                                 bool(item.get("hidden", False)))
                       for item in payload["prompts"])
    mainthread.run_sync(ctx, lambda: prompt_store.save(ctx, library))
    return len(library)


def _export(ctx, document, payload):
    library = mainthread.run_sync(ctx, lambda: prompt_store.load(ctx))
    prompt_store.export_to(library, payload["path"])
    return len(library)


def _import(ctx, document, payload):
    """As the Options page's Import: the file's library, saved; or the sentence."""
    try:
        library = prompt_store.import_from(payload["path"])
    except pl.ImportProblem as exc:
        return {"imported": False, "sentence": str(exc)}
    mainthread.run_sync(ctx, lambda: prompt_store.save(ctx, library))
    return {"imported": True, "count": len(library)}


def _dispatch(ctx, document, payload):
    """Dispatch one of our URLs on the document's frame, as a menu entry or key would."""
    from marginalia.office import commands

    def go():
        frame = document.getCurrentController().getFrame()
        return commands.dispatch_url(ctx, frame, payload["url"])
    return mainthread.run_sync(ctx, go)


_COMMANDS: Dict[str, Any] = {
    "quick.run": _run,
    "quick.menu": _menu,
    "quick.dispatch": _dispatch,
    "prompts.load": _library,
    "prompts.save": _save,
    "prompts.export": _export,
    "prompts.import": _import,
}


def handle(ctx: Any, command: str, document: Any, payload: Dict[str, Any]) -> Any:
    handler = _COMMANDS.get(command)
    if handler is None:
        raise ValueError("unknown command %r" % (command,))
    return handler(ctx, document, payload)

"""The quick actions' and the prompt library's commands tests and the menu bench use:
``quick.menu``, ``quick.dispatch``, ``prompts.load|save|export|import``."""

from typing import Any, Dict

from marginalia import prompt_library as pl
from marginalia.office import mainthread, prompt_store
from marginalia.ui import quick_menu


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


COMMANDS: Dict[str, Any] = {
    "quick.menu": _menu,
    "quick.dispatch": _dispatch,
    "prompts.load": _library,
    "prompts.save": _save,
    "prompts.export": _export,
    "prompts.import": _import,
}

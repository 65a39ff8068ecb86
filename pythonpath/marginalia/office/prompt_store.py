"""The prompt library in the extension's typed registry set, and the recent languages.

``/org.marginalia.Settings/Prompts`` is a set of ``Prompt`` groups (registry/
Marginalia.xcs) named by the prompt's id, in ``Position`` order; a built-in is
kept there only by id with its mode and hidden flag (prompt_library.merge adds
the shipped text). Saving rewrites the whole set in one commit. Main thread.

Reading the set costs tens of milliseconds (a registry access per node), too
much for each context menu, so the library is read once and then kept (what
this module saves becomes the kept copy); nothing else writes the set.
"""

import logging
from typing import List

from marginalia.i18n.catalog import tr
from marginalia.office import ui_language
from marginalia import prompt_library as pl
from marginalia.ui import quick_menu

log = logging.getLogger("marginalia.prompts")

ROOT = "/org.marginalia.Settings"
SET = ROOT + "/Prompts"
QUICK = ROOT + "/Quick"
FIELDS = ("Position", "Name", "Instruction", "Mode", "NeedsSelection", "Hidden")
_cache = {}        # "library" / "recent": what was last read or saved


def _config(ctx, path, update=False):
    from com.sun.star.beans import PropertyValue
    provider = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", ctx)
    arg = PropertyValue()
    arg.Name, arg.Value = "nodepath", path
    service = ("com.sun.star.configuration.ConfigurationUpdateAccess" if update
               else "com.sun.star.configuration.ConfigurationAccess")
    return provider.createInstanceWithArguments(service, (arg,))


def load(ctx, fresh: bool = False) -> List[pl.Prompt]:
    """The library: what the user stored, merged with the built-ins (``fresh``: as the
    registry holds it now, not the kept copy)."""
    if fresh or "library" not in _cache:
        # The built-ins are kept translated: the language must be chosen before (the
        # context menu may read the library before the panel was ever built).
        ui_language.ensure(ctx)
        _cache["library"] = tuple(_read(ctx))
    return list(_cache["library"])


def _read(ctx) -> List[pl.Prompt]:
    stored = []
    try:
        access = _config(ctx, SET)
        for pid in access.getElementNames():
            position, name, instruction, mode, needs, hidden = \
                access.getByName(pid).getPropertyValues(FIELDS)
            stored.append((position, pl.Prompt(pid, name, instruction, mode, bool(needs),
                                               False, bool(hidden))))
    except Exception:
        # A damaged set must not take the quick actions away: the built-ins stay.
        log.exception("could not read the prompt library")
        stored = []
    stored.sort(key=lambda item: item[0])
    return pl.merge(p for _pos, p in stored)


def save(ctx, library: List[pl.Prompt]) -> None:
    """Store the library (order, user prompts, built-ins' mode and hidden flag)."""
    _cache.pop("library", None)      # kept again once the commit went through
    access = _config(ctx, SET, update=True)
    for pid in access.getElementNames():
        access.removeByName(pid)
    for position, prompt in enumerate(library):
        node = access.createInstance()
        node.Position = position
        node.Mode = prompt.mode
        node.Hidden = prompt.hidden
        if not prompt.builtin:
            node.Name = prompt.name
            node.Instruction = prompt.instruction
            node.NeedsSelection = prompt.needs_selection
        access.insertByName(prompt.pid, node)
    access.commitChanges()
    _cache["library"] = tuple(pl.merge(library))


def recent_languages(ctx) -> List[str]:
    if "recent" not in _cache:
        try:
            _cache["recent"] = tuple(_config(ctx, QUICK).getByName("recent_languages"))
        except Exception:
            log.exception("could not read the recent languages")
            return []
    return list(_cache["recent"])


def remember_language(ctx, name: str) -> None:
    """Put ``name`` first in Translate to's recent languages."""
    import uno
    recent = quick_menu.remember_language(recent_languages(ctx), name)
    _cache.pop("recent", None)
    access = _config(ctx, QUICK, update=True)
    # A string list must be passed typed: pyuno would send a tuple as []any.
    uno.invoke(access, "replaceByName",
               ("recent_languages", uno.Any("[]string", tuple(recent))))
    access.commitChanges()


def export_to(library: List[pl.Prompt], path: str) -> None:
    """Write the library to a JSON file (the Options page's Export)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(pl.to_json(library))


def import_from(path: str) -> List[pl.Prompt]:
    """The library a JSON file holds; ImportProblem with the sentence when it is unusable."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(2 * 1024 * 1024 + 1)
    except (OSError, UnicodeDecodeError):
        raise pl.ImportProblem(tr("That file could not be read as text."))
    if len(text) > 2 * 1024 * 1024:
        raise pl.ImportProblem(tr("That file is too large to be a prompt file."))
    return pl.from_json(text)

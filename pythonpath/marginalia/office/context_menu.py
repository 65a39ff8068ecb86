"""The Marginalia submenu in Writer's context menu: a context menu interceptor per view.

``register(ctx, controller)`` puts an interceptor on a Writer view's
controller. It is called from the ViewJob (registry/Jobs.xcu: the document
event OnViewCreated, so every Writer window, a second window on the same
document too) and, as a fallback, when the chat panel is built; registering
twice is avoided. Writer calls ``notifyContextMenuExecute`` on the main thread
each time a context menu opens: for text (the selection is text ranges, or a
cursor) the submenu is put first, built from ui.quick_menu's entries. The
entries' URLs go to the org.marginalia.cmd: protocol handler
(office.commands). Building it must stay unnoticeable (bench/bench_menu.py).
"""

import logging
import time
from typing import Any, List

import unohelper
from com.sun.star.ui import XContextMenuInterceptor
from com.sun.star.ui.ContextMenuInterceptorAction import EXECUTE_MODIFIED, IGNORED

from marginalia.office import mainthread, prompt_store
from marginalia.ui import quick_menu

log = logging.getLogger("marginalia.menu")

WRITER = "com.sun.star.text.TextDocument"
_registered: List[Any] = []     # controllers with an interceptor (pruned when they close)


def _has_text_selection(selection: Any) -> Any:
    """(is text, has a non-empty selection) for a context menu's selection."""
    try:
        sel = selection.getSelection()
    except Exception:
        return False, False
    if sel is None or not sel.supportsService("com.sun.star.text.TextRanges"):
        return False, False
    for i in range(sel.getCount()):
        if sel.getByIndex(i).getString():
            return True, True
    return True, False


def _trigger(container: Any, entry: quick_menu.Entry) -> Any:
    if entry.separator:
        item = container.createInstance("com.sun.star.ui.ActionTriggerSeparator")
        item.SeparatorType = 0          # ActionTriggerSeparatorType.LINE
        return item
    item = container.createInstance("com.sun.star.ui.ActionTrigger")
    item.Text = entry.label
    if entry.children:
        sub = container.createInstance("com.sun.star.ui.ActionTriggerContainer")
        for i, child in enumerate(entry.children):
            sub.insertByIndex(i, _trigger(sub, child))
        item.SubContainer = sub
    else:
        item.CommandURL = entry.url
    return item


def add_submenu(container: Any, entries: List[quick_menu.Entry], at: int = 0) -> None:
    """Insert the Marginalia submenu and a separator into ``container`` at ``at``."""
    top = quick_menu.Entry(quick_menu.SUBMENU, children=entries)
    container.insertByIndex(at, _trigger(container, top))
    container.insertByIndex(at + 1, _trigger(container, quick_menu.Entry()))


class Interceptor(unohelper.Base, XContextMenuInterceptor):
    """Adds the submenu to one view's text context menus."""

    def __init__(self, ctx: Any):
        self.ctx = ctx

    def notifyContextMenuExecute(self, event):
        try:
            mainthread.note_main_thread()
            is_text, selected = _has_text_selection(event.Selection)
            if not is_text:
                return IGNORED
            entries = quick_menu.menu_entries(prompt_store.load(self.ctx), selected,
                                              prompt_store.recent_languages(self.ctx))
            add_submenu(event.ActionTriggerContainer, entries)
            return EXECUTE_MODIFIED
        except Exception:
            # The user's menu must open whatever happens to ours.
            log.exception("could not add the Marginalia submenu")
            return IGNORED


def _alive(controller: Any) -> bool:
    try:
        return controller.getFrame() is not None
    except Exception:
        return False


def register(ctx: Any, controller: Any) -> bool:
    """Put the interceptor on a Writer view's controller once; True when it was added."""
    if controller is None:
        return False
    try:
        model = controller.getModel()
        if model is None or not model.supportsService(WRITER):
            return False
    except Exception:
        return False
    _registered[:] = [c for c in _registered if _alive(c)]
    if any(c == controller for c in _registered):
        return False
    controller.registerContextMenuInterceptor(Interceptor(ctx))
    _registered.append(controller)
    return True


def registered(controller: Any) -> bool:
    """Whether this view has the interceptor (tests)."""
    return any(c == controller for c in _registered)


def time_build(ctx: Any, repeat: int) -> dict:
    """Build the full submenu ``repeat`` times into a fresh action trigger container
    (bench/bench_menu.py): ms per build, and per single entry as the floor."""
    smgr = ctx.ServiceManager
    recent = prompt_store.recent_languages(ctx)
    builds = []
    floors = []
    count = 0
    for _n in range(repeat):
        container = smgr.createInstanceWithContext(
            "com.sun.star.ui.ActionTriggerContainer", ctx)
        started = time.perf_counter()
        entries = quick_menu.menu_entries(prompt_store.load(ctx), True, recent)
        add_submenu(container, entries)
        builds.append(time.perf_counter() - started)
        count = sum(1 + len(e.children) for e in entries)
        started = time.perf_counter()
        container.insertByIndex(0, _trigger(container, quick_menu.Entry("x", "x:")))
        floors.append(time.perf_counter() - started)
    builds.sort()
    floors.sort()
    return {"build_ms": builds[len(builds) // 2] * 1000, "entry_ms": floors[len(floors) // 2]
            * 1000, "entries": count, "max_ms": builds[-1] * 1000}

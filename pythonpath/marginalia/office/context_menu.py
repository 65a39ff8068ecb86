"""The Marginalia submenu in Writer's context menu: a context menu interceptor per view.

``register(ctx, controller)`` puts an interceptor on a Writer view's
controller. It is called from the ViewJob (registry/Jobs.xcu: the document
event OnViewCreated, so every Writer window, a second window on the same
document too) and, as a fallback, when the chat panel is built; registering
twice is avoided. Writer calls ``notifyContextMenuExecute`` on the main thread
each time a context menu opens: for text (the selection is text ranges, or a
cursor) the submenu is put first, built from ui.quick_menu's entries. The
entries' URLs go to the org.marginalia.cmd: protocol handler
(office.commands). Building it must stay unnoticeable (bench/bench_menu.py):
the library comes from prompt_store's kept copy, and each action trigger
costs under a tenth of a millisecond, so the submenu is made afresh each time.
"""

import logging
import time
from typing import Any, List

import unohelper
from com.sun.star.ui import XContextMenuInterceptor
from com.sun.star.ui.ContextMenuInterceptorAction import EXECUTE_MODIFIED, IGNORED

from marginalia.office import prompt_store
from marginalia.ui import quick_menu
from marginalia.writer import keepout

log = logging.getLogger("marginalia.menu")

WRITER = "com.sun.star.text.TextDocument"
_registered: List[Any] = []     # controllers with an interceptor (pruned when they close)
# The last submenu builds in seconds, as Writer opened its menus (bench/bench_menu.py),
# and, while the bench asks for it, the floor: one action trigger made in the same call.
TIMINGS: List[float] = []
FLOORS: List[float] = []
measure_floor = [False]


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
        item.setPropertyValue("SeparatorType", 0)       # ActionTriggerSeparatorType.LINE
        return item
    # setPropertyValue, not attributes: pyuno's attribute route fails on these
    # ("value is not interface", LibreOffice 7.4).
    item = container.createInstance("com.sun.star.ui.ActionTrigger")
    item.setPropertyValue("Text", entry.label)
    if entry.children:
        sub = container.createInstance("com.sun.star.ui.ActionTriggerContainer")
        for i, child in enumerate(entry.children):
            sub.insertByIndex(i, _trigger(sub, child))
        item.setPropertyValue("SubContainer", sub)
    else:
        item.setPropertyValue("CommandURL", entry.url)
    return item


def _kept_out(selection: Any) -> bool:
    """Whether the context menu's selection touches a Keep Marginalia out mark."""
    try:
        rng = selection.getSelection().getByIndex(0)
        return keepout.kept_out(selection.getModel(), rng)
    except Exception:
        return False


def add_submenu(ctx: Any, container: Any, selected: bool, at: int = 0,
                kept_out: bool = False) -> None:
    """Insert the Marginalia submenu and a separator into ``container`` at ``at``."""
    entries = quick_menu.menu_entries(prompt_store.load(ctx), selected,
                                      prompt_store.recent_languages(ctx), kept_out)
    top = quick_menu.Entry(quick_menu.SUBMENU, children=entries)
    container.insertByIndex(at, _trigger(container, top))
    container.insertByIndex(at + 1, _trigger(container, quick_menu.Entry()))


class Interceptor(unohelper.Base, XContextMenuInterceptor):
    """Adds the submenu to one view's text context menus."""

    def __init__(self, ctx: Any):
        self.ctx = ctx

    def notifyContextMenuExecute(self, event):
        try:
            # Reads the kept library and makes triggers: no run_sync, so no thread claim.
            started = time.perf_counter()
            is_text, selected = _has_text_selection(event.Selection)
            if not is_text:
                return IGNORED
            add_submenu(self.ctx, event.ActionTriggerContainer, selected,
                        kept_out=selected and _kept_out(event.Selection))
            TIMINGS[:] = TIMINGS[-99:] + [time.perf_counter() - started]
            if measure_floor[0]:
                started = time.perf_counter()
                _trigger(event.ActionTriggerContainer, quick_menu.Entry("x", "x:"))
                FLOORS[:] = FLOORS[-99:] + [time.perf_counter() - started]
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

"""Tools > Options > Marginalia > Agents' calls: who is editing now, and what agents did.

At the top, the agents editing now (office.mcp_turns.active) with a Stop that refuses the
chosen agent's further calls for this office session; below, office.agent_calls' log, one
line per call, newest first (mcp.call_log.line: time in the locale's clock, agent and token
name, tool, document title, outcome), with Clear. Both follow the agents while the page is
open. Nothing here is a setting: "ok" and "back" only show them again. Main thread.
"""

import logging
from typing import Optional

from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr, trn
from marginalia.mcp import call_log
from marginalia.office import agent_calls, dialog_words, mcp_turns, page_fit
from marginalia.office.control_events import Call
from marginalia.office.modal_pages import ModalPages

log = logging.getLogger("marginalia.options")
WHAT = "agents' calls page action"

NONE_YET = N_("No outside agent has called yet.")
CLEARED = N_("The list of calls is cleared.")
NOBODY = N_("No agent is editing now.")
STOPPED = N_("%s is stopped: its calls are refused until LibreOffice restarts.")

_pages = ModalPages()


class _Page:
    def __init__(self, ctx, window):
        self.ctx = ctx
        self.window = window
        self.note = ""
        self.shown = []         # the agent turns the list shows, in its order

    def control(self, name):
        return self.window.getControl(name)

    def fill(self) -> None:
        calls = agent_calls.recent(self.ctx)
        box = self.control("CallsList")
        box.removeItems(0, box.getItemCount())
        box.addItems(tuple(call_log.line(call, clock=formats.clock, date=formats.day_month)
                           for call in calls), 0)
        count = len(calls)
        status = self.note or (trn("%d recent call.", "%d recent calls.", count) % count
                               if calls else tr(NONE_YET))
        self.control("CallsStatus").setText(status)
        self.control("ClearButton").getModel().Enabled = bool(calls)

    def show_active(self, active=None) -> None:
        box = self.control("ActiveList")
        box.removeItems(0, box.getItemCount())
        self.shown = list(mcp_turns.active() if active is None else active)
        if not self.shown:
            box.addItems((tr(NOBODY),), 0)
        else:
            box.addItems(tuple(tr("%(agent)s in %(document)s")
                               % {"agent": t["agent"], "document": t["title"]}
                               for t in self.shown), 0)
        self.control("StopButton").getModel().Enabled = bool(self.shown)

    def stop(self) -> None:
        pos = self.control("ActiveList").getSelectedItemPos()
        if len(self.shown) == 1 and pos < 0:
            pos = 0             # the only agent: no need to choose it first
        if not 0 <= pos < len(self.shown):
            return
        agent = self.shown[pos]["agent"]
        mcp_turns.stop_agent(agent)
        self.note = tr(STOPPED) % agent
        self.fill()
        self.show_active()

    def clear(self) -> None:
        agent_calls.clear(self.ctx)
        self.note = tr(CLEARED)
        self.fill()
        self.note = ""


def _attach(page: _Page) -> None:
    page.control("ClearButton").addActionListener(Call(page.clear, WHAT))
    page.control("StopButton").addActionListener(Call(page.stop, WHAT))

    def changed(state):
        # Posted by mcp_turns on the main thread; the page may be gone by then.
        if not _pages.showing(page):
            mcp_turns.remove_listener(changed)
            return
        try:
            page.show_active(state)
        except Exception:
            mcp_turns.remove_listener(changed)
    mcp_turns.add_listener(changed)

    def called():
        # Posted by agent_calls on the main thread; the page may be gone by then.
        if not _pages.showing(page):
            agent_calls.remove_listener(called)
            return
        try:
            page.fill()
        except Exception:
            agent_calls.remove_listener(called)
    agent_calls.add_listener(called)


def page_for(window) -> Optional[_Page]:
    return _pages.find(window)


def handle(ctx, window, event_object: str, method: str) -> bool:
    """The page's event handler; True when the event was handled."""
    if method != "external_event":
        return False
    if event_object == "initialize":
        dialog_words.translate_quietly(window)
        page = _pages.start(window, _Page(ctx, window))
        mcp_turns.know_ctx(ctx)
        page.fill()
        page.show_active()
        _attach(page)
        page_fit.fit(window)
        return True
    page = page_for(window)
    if page is None:
        return False
    if event_object in ("ok", "back"):
        page.fill()
        page.show_active()
        return True
    return False

"""Tools > Options > Marginalia > Other agents: the MCP server for agents outside the office.

The page turns the server on or off (mcp_enabled, with a note saying what that
allows), sets its port and how outside agents' edits apply (mcp_apply_mode),
shows the token with Copy and New token (office.mcp_token), says whether the
server runs, and lists the agents editing now (office.mcp_turns.active) with a
Stop that refuses the chosen agent's further calls for this office session.
"ok" saves the settings and applies them (office.mcp_host); "back" (Reset)
shows the saved ones again. Copy and New token act at once: a token is no
setting to confirm. Main thread.
"""

import logging
from typing import Optional

from marginalia.i18n.catalog import N_, tr
from marginalia.office import (dialog_words, mcp_host, mcp_token, mcp_turns,
                               page_fit, settings_store)
from marginalia.office.control_events import Call
from marginalia.office.modal_pages import ModalPages
from marginalia.ui import options_form

log = logging.getLogger("marginalia.options")
WHAT = "agents page action"    # how a failing control action is named in the log

BAD_PORT = "The port must be a whole number from 1024 to 65535; it was left as it was."
# The page's sentences: English, translated where shown (tr()). BAD_PORT only goes to the log.
NO_TOKEN = N_("A token is made when you turn this on (or press Copy).")
NEW_TOKEN = N_("A new token is in use: agents with the old one are refused until you give "
               "them this one.")
COPIED = N_("The token is on the clipboard.")
NOBODY = N_("No agent is editing now.")
STOPPED = N_("%s is stopped: its calls are refused until LibreOffice restarts.")
FIELDS = (("mcp_enabled", ("EnabledCheck",)), ("mcp_port", ("PortField",)),
          ("mcp_apply_mode", ("ApplyModeList",)))

_pages = ModalPages()


def _status(state) -> str:
    if state["running"]:
        return tr("Serving agents on this computer at %s.") % state["url"]
    if state["problem"]:
        return state["problem"]
    return tr("Off: no agent can connect.")


class _Page:
    def __init__(self, ctx, window):
        self.ctx = ctx
        self.window = window
        self.shown = []         # the agent turns the list shows, in its order
        self.note = ""

    def control(self, name):
        return self.window.getControl(name)

    def fill(self) -> None:
        settings = settings_store.load(self.ctx, with_key=False)
        self.control("EnabledCheck").setState(1 if settings.mcp_enabled else 0)
        self.control("PortField").setText(str(settings.mcp_port))
        modes = self.control("ApplyModeList")
        modes.removeItems(0, modes.getItemCount())
        modes.addItems(tuple(tr(label) for _mode, label in options_form.APPLY_MODES), 0)
        ids = [mode for mode, _label in options_form.APPLY_MODES]
        mode = settings.mcp_apply_mode if settings.mcp_apply_mode in ids else "tracked"
        modes.selectItemPos(ids.index(mode), True)
        try:
            self.control("TokenField").setText(mcp_token.read_token(self.ctx))
        except mcp_token.TokenUnavailable as exc:
            self.note = str(exc)
        locked = settings_store.locked(self.ctx)
        for name, controls in FIELDS:
            for control in controls:
                self.control(control).getModel().Enabled = name not in locked
        self.refresh()

    def refresh(self, state=None) -> None:
        """The status line and the agents list from the host's state now."""
        state = state if state is not None else mcp_host.state()
        self.control("UrlText").setText(state["url"])
        token = self.control("TokenField").getText()
        lines = [_status(state)] + ([self.note] if self.note else []) + (
            [] if token else [tr(NO_TOKEN)])
        self.control("AgentsStatus").setText(" ".join(lines))
        self.show_active(state["active"])

    def show_active(self, active) -> None:
        box = self.control("ActiveList")
        box.removeItems(0, box.getItemCount())
        self.shown = list(active)
        if not self.shown:
            box.addItems((tr(NOBODY),), 0)
        else:
            box.addItems(tuple(tr("%(agent)s in %(document)s")
                               % {"agent": t["agent"], "document": t["title"]}
                               for t in self.shown), 0)
        self.control("StopButton").getModel().Enabled = bool(self.shown)

    def copy(self) -> None:
        from marginalia.office.panel_actions import PlainText
        try:
            token = mcp_token.ensure_token(self.ctx)
        except mcp_token.TokenUnavailable as exc:
            self.note = str(exc)
            self.refresh()
            return
        self.control("TokenField").setText(token)
        clipboard = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.datatransfer.clipboard.SystemClipboard", self.ctx)
        clipboard.setContents(PlainText(token), None)
        self.note = tr(COPIED)
        self.refresh()

    def new_token(self) -> None:
        self.control("TokenField").setText(mcp_host.new_token(self.ctx))
        self.note = tr(NEW_TOKEN)
        self.refresh()

    def stop(self) -> None:
        pos = self.control("ActiveList").getSelectedItemPos()
        if len(self.shown) == 1 and pos < 0:
            pos = 0             # the only agent: no need to choose it first
        if not 0 <= pos < len(self.shown):
            return
        agent = self.shown[pos]["agent"]
        mcp_turns.stop_agent(agent)
        self.note = tr(STOPPED) % agent
        self.refresh()

    def save(self) -> None:
        base = settings_store.load(self.ctx, with_key=False)
        changes = {"mcp_enabled": self.control("EnabledCheck").getState() == 1}
        port = _port(self.control("PortField").getText())
        if port is None:
            log.info("agents page: %s", BAD_PORT)
        else:
            changes["mcp_port"] = port
        pos = self.control("ApplyModeList").getSelectedItemPos()
        if 0 <= pos < len(options_form.APPLY_MODES):
            changes["mcp_apply_mode"] = options_form.APPLY_MODES[pos][0]
        # Only the page's own group: it never loaded the key, so a whole save would
        # remove the user's stored API key.
        settings_store.save(self.ctx, base.copy(**changes), only=("Mcp",))
        # The settings listener does the same once a Writer view has opened; the page
        # may be opened from the Start Center before any.
        mcp_host.apply_settings(self.ctx)


def _port(text: str) -> Optional[int]:
    try:
        port = int((text or "").strip())
    except ValueError:
        return None
    return port if 1024 <= port <= 65535 else None


def _attach(page: _Page) -> None:
    for name, fn in (("CopyButton", page.copy), ("NewTokenButton", page.new_token),
                     ("StopButton", page.stop)):
        page.control(name).addActionListener(Call(fn, WHAT))

    def changed(_state):
        # Posted by mcp_turns on the main thread; the page may be gone by then.
        if not _pages.showing(page):
            mcp_turns.remove_listener(changed)
            return
        try:
            page.refresh()
        except Exception:
            mcp_turns.remove_listener(changed)
    mcp_turns.add_listener(changed)


def page_for(window) -> Optional[_Page]:
    return _pages.find(window)


def handle(ctx, window, event_object: str, method: str) -> bool:
    """The page's event handler; True when the event was handled."""
    if method != "external_event":
        return False
    if event_object == "initialize":
        dialog_words.translate_quietly(window)     # the .xdl's labels, before any is set
        page = _pages.start(window, _Page(ctx, window))
        mcp_turns.know_ctx(ctx)
        page.fill()
        _attach(page)
        page_fit.fit(window)         # longer words (a translation) get their room
        return True
    page = page_for(window)
    if page is None:
        return False
    if event_object == "ok":
        page.save()
        return True
    if event_object == "back":
        page.note = ""
        page.fill()
        return True
    return False


"""Tools > Options > Marginalia > Other agents: the MCP server for agents outside the office.

The page turns the server on or off (mcp_enabled, with a note saying what that
allows), sets its port and how outside agents' edits apply (mcp_apply_mode),
lists the tokens (office.mcp_token), each with its name and what it lets an agent
do (mcp.scopes), with Copy, New token (a new secret) and Revoke for the chosen one
and Add token for a new one; and says whether the server runs (the agents editing
now and their calls are on the Agents' calls page, office.agent_calls_page). "ok"
saves the settings and applies them (office.mcp_host); "back" (Reset) shows the
saved ones again. The token buttons
act at once: a token is no setting to confirm, and the running server takes the
change at its next request. Main thread.
"""

import logging
from typing import Optional

from marginalia.i18n.catalog import N_, tr
from marginalia.mcp import scopes
from marginalia.office import dialog_words, mcp_host, mcp_token, page_fit, settings_store
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
ADDED = N_("A new token, %s: Copy it into that agent's settings.")
REVOKED = N_("The token %s is revoked: agents with it are refused.")
NAME_FIRST = N_("Give the new token a name first, such as the agent it is for.")
CAPPED = N_("Your administrator allows agents at most: %s.")
TOKEN_ROW = N_("%(name)s · %(scope)s")
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
        self.tokens = []        # the tokens the token list shows, in its order
        self.chosen = ""        # the id of the token chosen in it
        self.cap = ""           # the administrator's cap on every token's scope
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
        self.cap = settings_store.load_policy(self.ctx).agents_scope
        offered = self.offered_scopes()
        names = self.control("ScopeList")
        names.removeItems(0, names.getItemCount())
        names.addItems(tuple(tr(scopes.LABELS[scope]) for scope in offered), 0)
        names.selectItemPos(0, True)            # reading only, unless the user says more
        self.show_tokens()
        locked = settings_store.locked(self.ctx)
        for name, controls in FIELDS:
            for control in controls:
                self.control(control).getModel().Enabled = name not in locked
        self.refresh()

    def offered_scopes(self):
        """The scopes a new token may be given: up to the administrator's cap."""
        top = scopes.capped(scopes.EDIT, self.cap if self.cap in scopes.SCOPES else "")
        return scopes.SCOPES[:scopes.SCOPES.index(top) + 1]

    def show_tokens(self, tokens=None) -> None:
        """The token list from the store, the chosen one (or the first) selected."""
        if tokens is None:
            try:
                tokens = mcp_token.read_tokens(self.ctx)
            except mcp_token.TokenUnavailable as exc:
                self.note, tokens = str(exc), []
        self.tokens = list(tokens)
        box = self.control("TokenList")
        box.removeItems(0, box.getItemCount())
        box.addItems(tuple(tr(TOKEN_ROW) % {
            "name": t.name, "scope": tr(scopes.LABELS[scopes.capped(t.scope, self.cap)])}
            for t in self.tokens), 0)
        ids = [t.id for t in self.tokens]
        pos = ids.index(self.chosen) if self.chosen in ids else 0
        if self.tokens:
            box.selectItemPos(pos, True)
        self.chose(pos)

    def chose(self, pos=None) -> None:
        """The token list's choice changed: the masked field and the buttons follow."""
        if pos is None:
            pos = self.control("TokenList").getSelectedItemPos()
        token = self.tokens[pos] if 0 <= pos < len(self.tokens) else None
        self.chosen = token.id if token else ""
        self.control("TokenField").setText(token.secret if token else "")
        for name in ("NewTokenButton", "RevokeButton"):
            self.control(name).getModel().Enabled = token is not None

    def refresh(self) -> None:
        """The status line from the host's state now."""
        state = mcp_host.state()
        self.control("UrlText").setText(state["url"])
        lines = [_status(state)] + ([self.note] if self.note else []) + (
            [] if self.tokens else [tr(NO_TOKEN)])
        if self.cap in scopes.SCOPES and self.cap != scopes.EDIT:
            lines.append(tr(CAPPED) % tr(scopes.LABELS[self.cap]))
        self.control("AgentsStatus").setText(" ".join(lines))

    def copy(self) -> None:
        from marginalia.office.panel_actions import PlainText
        try:
            if not self.tokens:
                self.show_tokens(mcp_token.ensure_tokens(self.ctx))
                mcp_host.tokens_changed(self.ctx)
        except mcp_token.TokenUnavailable as exc:
            self.note = str(exc)
            self.refresh()
            return
        token = self.control("TokenField").getText()
        if not token:
            return
        clipboard = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.datatransfer.clipboard.SystemClipboard", self.ctx)
        clipboard.setContents(PlainText(token), None)
        self.note = tr(COPIED)
        self.refresh()

    def new_token(self) -> None:
        if not self.chosen:
            return
        mcp_token.renew(self.ctx, self.chosen)
        mcp_host.tokens_changed(self.ctx)
        self.show_tokens()
        self.note = tr(NEW_TOKEN)
        self.refresh()

    def revoke(self) -> None:
        gone = next((t for t in self.tokens if t.id == self.chosen), None)
        if gone is None:
            return
        mcp_token.revoke(self.ctx, gone.id)
        mcp_host.tokens_changed(self.ctx)
        self.chosen = ""
        self.show_tokens()
        self.note = tr(REVOKED) % gone.name
        self.refresh()

    def add(self) -> None:
        name = mcp_token.clean_name(self.control("NameField").getText())
        if not name:
            self.note = tr(NAME_FIRST)
            self.refresh()
            return
        offered = self.offered_scopes()
        pos = self.control("ScopeList").getSelectedItemPos()
        scope = offered[pos] if 0 <= pos < len(offered) else scopes.READ
        token = mcp_token.add_token(self.ctx, name, scope)
        mcp_host.tokens_changed(self.ctx)
        self.chosen = token.id
        self.control("NameField").setText("")
        self.show_tokens()
        self.note = tr(ADDED) % token.name
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
        self.refresh()


def _port(text: str) -> Optional[int]:
    try:
        port = int((text or "").strip())
    except ValueError:
        return None
    return port if 1024 <= port <= 65535 else None


def _attach(page: _Page) -> None:
    for name, fn in (("CopyButton", page.copy), ("NewTokenButton", page.new_token),
                     ("RevokeButton", page.revoke), ("AddButton", page.add)):
        page.control(name).addActionListener(Call(fn, WHAT))
    page.control("TokenList").addItemListener(Call(page.chose, WHAT))


def page_for(window) -> Optional[_Page]:
    return _pages.find(window)


def handle(ctx, window, event_object: str, method: str) -> bool:
    """The page's event handler; True when the event was handled."""
    if method != "external_event":
        return False
    if event_object == "initialize":
        dialog_words.translate_quietly(window)     # the .xdl's labels, before any is set
        page = _pages.start(window, _Page(ctx, window))
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


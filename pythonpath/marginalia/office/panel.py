"""The sidebar chat panel: the UI element the factory returns, bound to one document.

The sidebar may destroy and rebuild a panel at any time (deck switched, context
changed); the conversation lives in the document's ChatSession (office.chat_session), so a
new panel replays ``session.log`` and then follows new entries, which the
session delivers on the main thread in coalesced batches. The panel binds to
the document of ``args["Frame"]``, never to the desktop's current component.

Every UNO entry point here catches once, logs, and shows one plain sentence.
"""

import logging

import unohelper
from com.sun.star.lang import XComponent
from com.sun.star.ui import XSidebarPanel, XToolPanel, XUIElement
from com.sun.star.ui.UIElementType import TOOLPANEL

import uno

from marginalia.office import mainthread
from marginalia.ui import panel_layout
from marginalia.errors import user_sentence
from marginalia.events import ERROR, Event
from marginalia.ui.transcript import TranscriptRenderer

log = logging.getLogger("marginalia.panel")



def create_ui_element(ctx, url, args):
    """The factory's createUIElement: a panel for the document shown in args["Frame"]."""
    frame = args.get("Frame")
    parent = args.get("ParentWindow")
    if frame is None or parent is None:
        raise ValueError("the sidebar gave no Frame or ParentWindow for %s" % url)
    panel = ChatPanel(ctx, frame, parent)
    return PanelElement(url, frame, panel)


def guarded(method):
    """Wrap a UI callback: nothing escapes into VCL, the user gets one sentence."""
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            log.exception("panel %s failed", method.__name__)
            self.show_error(user_sentence(exc))
    call.__name__ = method.__name__
    return call


class ChatPanel(object):
    """Connects one PanelView to the ChatSession of the frame's document."""

    def __init__(self, ctx, frame, parent):
        from marginalia.office import chat_session
        from marginalia.office import settings_store
        self.ctx = ctx
        self.frame = frame
        self.document = frame.getController().getModel()
        self.session = chat_session.session_for(ctx, self.document)
        self.renderer = TranscriptRenderer()
        self._stopping = False
        self._busy = False
        self._disposed = False
        from marginalia.office.panel_view import PanelView
        self.view = PanelView(ctx, parent, on_send=self.on_send, on_stop_key=self.on_stop,
                              on_new_chat=self.on_new_chat,
                              on_toggle_thinking=self.on_toggle_thinking)
        try:
            show = settings_store.load(ctx, with_key=False).show_thinking
        except Exception:
            log.exception("reading settings failed; showing thinking")
            show = True
        self.view.set_thinking_visible(bool(show))
        self._replay()
        self.session.add_listener(self.on_entries)

    # -- session -> view -----------------------------------------------------
    def _replay(self):
        """Rebuild the panes from the session's log (a fresh panel for an old chat)."""
        self.renderer.reset()
        out = self.renderer.render(list(self.session.log))
        self.view.set_text("transcript", out.chat)
        self.view.set_text("thinking", out.thinking)
        self._busy = bool(self.session.busy)
        self.view.set_busy(self._busy)
        if self._busy:
            # The session hands us (maybe empty) a batch when the turn ends.
            self.view.set_status(out.status or "Working\u2026")
        else:
            self._show(self.renderer.finish_turn())

    @guarded
    def on_entries(self, entries):
        """Session listener, on the main thread: append the batch, then follow busy.

        The session already coalesces (chat_session._Pump.INTERVAL), so each batch
        is one update: one append per pane.
        """
        if self._disposed:
            return
        self._show(self.renderer.render(entries))
        self._sync_busy()

    def _sync_busy(self):
        busy = bool(self.session.busy)
        if busy == self._busy:
            return
        self._busy = busy
        self.view.set_busy(busy)
        if not busy:
            self._show(self.renderer.finish_turn(stopped=self._stopping))
            self._stopping = False

    def _show(self, out):
        self.view.append("transcript", out.chat)
        self.view.append("thinking", out.thinking)
        if out.status is not None:
            self.view.set_status(out.status)

    def show_error(self, text):
        try:
            self._show(self.renderer.event(Event(ERROR, message=text)))
        except Exception:
            log.exception("could not show an error in the panel")

    # -- user actions --------------------------------------------------------
    @guarded
    def on_send(self, from_enter=False):
        if self._busy or self.session.busy:
            if not from_enter:
                self.on_stop()
            return
        if from_enter:
            # The Enter key's newline lands after this listener: read and clear later.
            mainthread.post(self.ctx, self._send_posted)
        else:
            self._send_now()

    @guarded
    def _send_posted(self):
        self._send_now()

    def _send_now(self):
        text = self.view.take_input().strip()
        if not text:
            self.view.clear_input()
            return
        self._refresh_thinking_setting()
        if not self.session.send(text):
            self.view.set_status("Still answering; press Stop first.")
            return
        self.view.clear_input()
        self._stopping = False
        self._busy = True
        self.view.set_busy(True)
        self.view.set_status("Connecting\u2026")

    @guarded
    def on_stop(self):
        """Stop the running turn; True when there was one (Escape is then consumed)."""
        if self._disposed or not self.session.busy:
            return False
        self._stopping = True
        self.session.stop()
        self.view.set_status("Stopping\u2026")
        return True

    @guarded
    def on_new_chat(self):
        self.session.new_chat()
        self.renderer.reset()
        self._stopping = False
        self.view.set_text("transcript", "")
        self.view.set_text("thinking", "")
        self._busy = bool(self.session.busy)
        self.view.set_busy(self._busy)
        self.view.set_status("Ready")
        self.view.focus_input()

    @guarded
    def on_toggle_thinking(self):
        self.view.set_thinking_visible(not self.view.thinking_visible)

    def _refresh_thinking_setting(self):
        """The Options page may have changed "show thinking" since the panel was built."""
        from marginalia.office import settings_store
        show = bool(settings_store.load(self.ctx, with_key=False).show_thinking)
        if show != self._last_setting:
            self._last_setting = show
            self.view.set_thinking_visible(show)

    _last_setting = None

    # -- lifetime ------------------------------------------------------------
    def dispose(self):
        if self._disposed:
            return
        self._disposed = True
        try:
            self.session.remove_listener(self.on_entries)
        finally:
            self.view.dispose()


class PanelElement(unohelper.Base, XUIElement, XToolPanel, XSidebarPanel, XComponent):
    """What the sidebar holds: the UI element and, as its real interface, the tool panel."""

    def __init__(self, url, frame, panel):
        self.ResourceURL = url
        self.Frame = frame
        self.Type = TOOLPANEL
        self.panel = panel
        self._listeners = []

    # XUIElement
    def getRealInterface(self):
        return self

    # XToolPanel
    @property
    def Window(self):
        return self.panel.view.window

    def getWindow(self):
        return self.panel.view.window

    def createAccessible(self, parent_accessible):
        return self.panel.view.window

    # XSidebarPanel
    def getHeightForWidth(self, width):
        # Maximum -1: the panel takes all the height the deck can give.
        return uno.createUnoStruct("com.sun.star.ui.LayoutSize",
                                   panel_layout.MIN_HEIGHT, -1, 600)

    def getMinimalWidth(self):
        return panel_layout.MIN_WIDTH

    # XComponent
    def dispose(self):
        try:
            self.panel.dispose()
        except Exception:
            log.exception("disposing the panel failed")
        event = uno.createUnoStruct("com.sun.star.lang.EventObject", self)
        for listener in list(self._listeners):
            try:
                listener.disposing(event)
            except Exception:
                log.exception("a dispose listener failed")
        self._listeners = []

    def addEventListener(self, listener):
        self._listeners.append(listener)

    def removeEventListener(self, listener):
        if listener in self._listeners:
            self._listeners.remove(listener)

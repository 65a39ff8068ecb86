"""The sidebar chat panel: the UI element the factory returns, bound to one document.

The sidebar may destroy and rebuild a panel at any time (deck switched, context
changed); the conversation lives in the document's ChatSession (office.chat_session), so a
new panel replays ``session.log`` and then follows new entries, which the
session delivers on the main thread in coalesced batches. The panel binds to
the document of ``args["Frame"]``, never to the desktop's current component.

Every UNO entry point here catches once, logs, and shows one plain sentence.
"""

import logging
import time

import unohelper
from com.sun.star.lang import XComponent
from com.sun.star.ui import XSidebarPanel, XToolPanel, XUIElement
from com.sun.star.ui.UIElementType import TOOLPANEL

import uno

from marginalia.chat import history
from marginalia import debuglog
from marginalia.events import DONE, ERROR, NOTICE, Entry, Event
from marginalia.i18n.catalog import tr
from marginalia.office import mainthread
from marginalia.ui import bidi, first_run, panel_layout, transcript
from marginalia.office.panel_states import PanelStates, guarded
from marginalia.ui.status import STILL_ANSWERING, TESTING, PanelPresenter
from marginalia.ui.transcript import TranscriptRenderer

log = logging.getLogger("marginalia.panel")

# A rebuilt or reopened panel shows about this much of a long chat, in whole
# turns (Export chat writes all of it). Setting a pane's text costs about
# 7 ms per thousand characters on LibreOffice 7.4 (bench/bench_history.py):
# 4000 keeps a panel opened on a 500-message chat under 300 ms.
REPLAY_CHARS = 4000


def create_ui_element(ctx, url: str, args: dict) -> "PanelElement":
    """The factory's createUIElement: a panel for the document shown in args["Frame"]."""
    frame = args.get("Frame")
    parent = args.get("ParentWindow")
    if frame is None or parent is None:
        raise ValueError("the sidebar gave no Frame or ParentWindow for %s" % url)
    started = time.perf_counter()
    panel = ChatPanel(ctx, frame, parent)
    # bench/bench_history.py reads this line: a long kept chat must not slow the panel.
    log.info("panel ready in %.0f ms with %d chat entries",
             (time.perf_counter() - started) * 1000, len(panel.session.log))
    return PanelElement(url, frame, panel)


class ChatPanel(PanelStates):
    """Connects one PanelView to the ChatSession of the frame's document.

    It decides no wording: what the panes show comes from the TranscriptRenderer;
    the status line, Send/Stop and Undo from the PanelPresenter (ui.status), which it
    tells what happened and then draws (``present``).
    """

    def __init__(self, ctx, frame, parent):
        from marginalia.office import chat_session
        from marginalia.office.panel_actions import PanelActions
        from marginalia.office.panel_view import PanelView
        self.ctx = ctx
        self.frame = frame
        self.document = frame.getController().getModel()
        self.session = chat_session.session_for(ctx, self.document)
        self.renderer = TranscriptRenderer(isolate=True)
        self.presenter = PanelPresenter()
        self.card = None                  # the first-run card, while shown
        self.card_folded = False          # ... folded while the first answer comes
        self._disposed = False
        self._thought_at = None           # when this turn's thinking began (monotonic)
        self._widths = 0                  # pane width changes so far (panel_states.on_columns)
        self.view = PanelView(ctx, parent, on_send=self.on_send, on_stop_key=self.on_stop,
                              on_new_chat=self.on_new_chat,
                              on_toggle_thinking=self.on_toggle_thinking,
                              on_action=self.on_action, on_recall=self.on_recall,
                              on_columns=self.on_columns)
        self.actions = PanelActions(self)
        self.changes = None
        self._open_changes()
        try:
            self._shown_setting = _show_thinking(ctx)
        except Exception:
            log.exception("reading settings failed; showing thinking")
            self._shown_setting = True
        self._open_card()
        from marginalia.office import agent_banner
        self.banner = agent_banner.attach(self)     # an outside agent editing this document
        self.view.set_thinking_visible(self._shown_setting)
        self._replay()
        self.actions.show_notes()
        self.session.add_listener(self.on_entries)
        self._take_up()
        from marginalia.office.panel_scope import ScopeWatch
        self.scope = ScopeWatch(ctx, self.document, self._show_scope)
        from marginalia.office import quick_panel
        # Slash commands, and commands that focus this panel or speak in it.
        self.quick = quick_panel.attach(self)

    # -- the change card (office.change_card) ----------------------------------
    def _open_changes(self) -> None:
        from marginalia.office.change_card import ChangeCard
        try:
            self.changes = ChangeCard(self)
        except Exception:
            log.exception("could not show the change card")
            return
        self.view.strip = self.changes

    def _refresh_changes(self, always: bool = True) -> None:
        """Between turns (and when it first shows): a running turn's batches leave it be,
        but for folding the card's list and tray as a turn begins (it lays itself out)."""
        if self.changes is None:
            return
        try:
            if always or not self.session.busy or self.changes.turn_began():
                self.changes.refresh()
        except Exception:
            log.exception("could not refresh the change card")

    # -- the first-run card -------------------------------------------------
    def _open_card(self) -> None:
        """Show the first-run card while no model is set or none has answered yet."""
        from marginalia.office import settings_store, setup_card
        try:
            model = settings_store.load(self.ctx, with_key=False).model
            if not self.presenter.cards.model_state(model, setup_card.model_answered(self.ctx),
                                                    settings_store.locked(self.ctx)):
                return
            self.card = setup_card.SetupCard(self.ctx, self.frame, self.view.container,
                                             self._card_changed)
        except Exception:
            log.exception("could not show the first-run card")
            self.presenter.cards.answered()     # not shown: nothing waits for it
            return
        self.view.card = self.card

    @guarded
    def _card_changed(self) -> None:
        """The card's sentence or settings changed: lay out again, refresh an idle status."""
        self.view.relayout()
        self.present()

    # -- session -> view -----------------------------------------------------
    def _replay(self) -> None:
        """Rebuild the panes from the session's log (a fresh panel for an old chat)."""
        from marginalia.office.panel_panes import trimmed_note
        self.renderer.reset()
        entries = list(self.session.log)
        start = transcript.replay_start(entries, REPLAY_CHARS)
        out = self.renderer.render(entries[start:])
        self._directions_from(entries[start:])
        self.view.set_text("transcript", (trimmed_note() if start else "") + out.chat)
        self.view.set_text("thinking", out.thinking)
        self.view.show_toggle(bool(out.thinking))
        self.presenter.reset()
        self.presenter.see(entries, self.session.busy)
        self.present()
        self.actions.refresh()
        self._refresh_changes()

    def _directions_from(self, entries) -> None:
        """Start the panes' directions afresh: the way the user's LibreOffice runs unless
        ``entries`` say otherwise."""
        from marginalia.office.ui_language import mirrored
        self.directions = bidi.Directions()
        ways = dict.fromkeys(("transcript", "thinking"), mirrored(self.ctx))
        ways.update(self.directions.see(entries))
        for pane, rtl in ways.items():
            self.view.set_rtl(pane, rtl)

    def replay(self) -> None:
        """Show the session's log again (another chat opened, the last turn taken back)."""
        self._replay()
        self.scope.refresh()        # another chat may have other sources

    def _show_scope(self, line: str) -> None:
        from marginalia.ui.sources_menu import scope
        self.view.set_scope(scope(line, len(self.session.sources.sources())))

    @guarded
    def on_entries(self, entries) -> None:
        """Session listener, on the main thread: append the batch, then follow busy.

        The session already coalesces (chat_session._Pump.INTERVAL), so each batch
        is one update: one append per pane. A turn's end reaches us as its DONE
        (or, for a turn New chat cleared, an empty batch), with busy already False.
        """
        if self._disposed:
            return
        # The presenter first: a batch that fails to draw still ends its turn there.
        self.presenter.see_live(entries, self.session.busy)
        self._show(self.renderer.render(entries))
        for pane, rtl in self.directions.see(entries).items():
            self.view.set_rtl(pane, rtl)
        self.actions.refresh()
        self._refresh_changes(always=False)
        if (self.card is not None or self.card_folded) and first_run.answered_in(entries):
            self._close_card()
        done = any(role == "event" and payload.kind == DONE for role, payload in entries)
        # A queued message waits only while a turn runs: also the end of a turn New chat
        # cleared (an empty batch) hands it over.
        if not self.session.busy and (done or self.presenter.queued is not None):
            if done and not transcript.turn_failed(self.session.log):
                spoken = self.view.announce(history.last_answer(self.session.log))
                if spoken:
                    self.presenter.say(spoken)
            self._turn_ended(entries)
        self.present()

    def _show(self, out) -> None:
        self.view.append("transcript", out.chat, out.retract)
        self.view.append("thinking", out.thinking)
        for began in out.began:
            if began == "answer":
                # bench/bench_panel.py and tests/gui/test_panel_polish.py read this line.
                log.info("answer text on screen at %.3f", time.time())
            self._began(began)

    def show_error(self, text: str) -> None:
        try:
            event = Event(ERROR, message=text)
            self._show(self.renderer.event(event))
            self.presenter.see([Entry.event(event)], self.session.busy)
            self.present()
        except Exception:
            log.exception("could not show an error in the panel")

    # -- user actions --------------------------------------------------------
    @guarded
    def on_send(self, from_enter: bool = False) -> None:
        if self.session.busy and not from_enter:
            self.on_stop()
            return
        if from_enter:
            # The Enter key's newline lands after this listener: read and clear later.
            mainthread.post(self.ctx, self._send_posted)
        else:
            self._send_now(False)

    @guarded
    def _send_posted(self) -> None:
        self._send_now(True)

    def _send_now(self, from_enter: bool) -> None:
        typed = self.view.take_input()
        text = typed.strip()
        if not text:
            self.view.clear_input()
            return
        # Needs no model: it works before the first-run card is done.
        if text == transcript.DEBUG_LOG_COMMAND:
            from marginalia.office import logfile
            self.view.clear_input()
            logfile.debug_on()
            self._show(self.renderer.event(Event(NOTICE, message=tr(debuglog.NOTE))))
            return
        if self.card is not None and not self.card.ensure_model():
            # Nothing to send it to yet: the message stays, the status says what to do.
            self.view.keep_input(typed[:-1] if from_enter and typed.endswith("\n") else typed)
            self.say(first_run.KEPT)
            return
        if text == transcript.TEST_COMMAND:
            self.view.clear_input()
            self._test_connection()
            return
        if self.session.busy:
            # Enter while a turn runs: the message waits and goes when the answer ends.
            self.presenter.queue(text)
            self.view.clear_input()
            self.present()
            return
        if self.quick.run_typed(text):
            self.view.clear_input()
            return
        self.actions.before_send()
        if self.send_text(text):
            self.view.clear_input()

    def send_text(self, text: str) -> bool:
        """Start a turn with ``text`` (typed, or the last message again for Retry)."""
        self._refresh_thinking_setting()
        if not self.session.send(text):
            self.say(STILL_ANSWERING)
            return False
        self.presenter.sent()        # connecting; the user entry says it again when it comes
        self._fold_card()        # the first-run card gives the chat its room
        self.present()
        self.actions.refresh()
        self.view.jump_to_end()
        self._refresh_changes()
        return True

    def _test_connection(self) -> None:
        """``/test``: Test connection's report in the chat (not sent to the model)."""
        from marginalia.office import server_look, settings_store
        from marginalia.ui.check_report import report_lines
        settings = settings_store.load(self.ctx)
        self.say(TESTING)

        def show(result):
            if self._disposed:
                return
            lines = ([server_look.sentence(result)] if isinstance(result, Exception)
                     else report_lines(result, settings))
            self._show(self.renderer.report(lines))
            self.presenter.quiet(TESTING)
            self.present()
        server_look.check_later(self.ctx, settings, show, server_look.Latest())

    @guarded
    def on_stop(self) -> bool:
        """Stop the running turn; True when there was one (Escape is then consumed)."""
        if self._disposed or not self.session.busy:
            return False
        self.session.stop()
        self.presenter.stop()
        self.present()
        return True

    @guarded
    def on_action(self, name: str) -> None:
        """History and the answer row (office.panel_actions)."""
        if not self._disposed:
            self.actions.run(name)

    @guarded
    def on_new_chat(self) -> None:
        had_chat = bool(self.session.log) and not self.session.busy
        undo = self.session.new_chat()
        self.scope.refresh()             # a new chat starts without sources
        self.renderer.reset()
        self.view.set_text("transcript", "")
        self.view.set_text("thinking", "")
        self._directions_from([])
        self.view.show_toggle(False)
        self.presenter.new_chat(undo if had_chat else None)
        self.presenter.busy = self.session.busy
        self.present()
        self.actions.refresh()
        self._refresh_changes()
        self.focus_after("new_chat")
        if had_chat:
            self._undo_later(undo)

    @guarded
    def on_toggle_thinking(self) -> None:
        # Only the pane's visibility: its text keeps arriving while it is hidden.
        self._thought_at = None
        self.view.set_thinking_visible(not self.view.thinking_visible)

    def _refresh_thinking_setting(self) -> None:
        """The Options page may have changed "show thinking" since the panel was built."""
        show = _show_thinking(self.ctx)
        if show != self._shown_setting:
            self._shown_setting = show
            self.view.set_thinking_visible(show)

    # -- lifetime ------------------------------------------------------------
    def dispose(self) -> None:
        if self._disposed:
            return
        self._disposed = True
        self._leave()
        try:
            self.session.remove_listener(self.on_entries)
            if self.banner is not None:
                self.banner.dispose()
            self.scope.dispose()
            self.quick.dispose()
            if self.card is not None:
                self.card.dispose()
            if self.changes is not None:
                self.changes.dispose()
        finally:
            self.view.dispose()


def _show_thinking(ctx) -> bool:
    from marginalia.office import settings_store
    return bool(settings_store.load(ctx, with_key=False).show_thinking)


class PanelElement(unohelper.Base, XUIElement, XToolPanel, XSidebarPanel, XComponent):
    """What the sidebar holds: the UI element and, as its real interface, the tool panel."""

    def __init__(self, url: str, frame, panel: ChatPanel):
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

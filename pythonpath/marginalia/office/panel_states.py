"""The chat panel's states between turns: thinking folded, a queued message, Undo, recall,
the first-run card folded while the first answer comes.

A mixin of office.panel.ChatPanel (kept apart so the panel's module stays
small): what the user sees change when a turn thinks, answers and ends, a
message Enter queued while a turn ran, New chat's few seconds of Undo, and
Up arrow giving the last message back. What each of these shows is the
presenter's (ui.status); this mixin tells it and draws. Main thread.
"""

import logging
import time
from typing import Callable

from marginalia import threads
from marginalia.errors import user_sentence
from marginalia.i18n.catalog import tr
from marginalia.office import mainthread
from marginalia.ui import first_run, status, transcript

log = logging.getLogger("marginalia.panel")

UNDO_SECONDS = 8          # how long New chat offers Undo
# The pane's width holds this long before the chat shown is laid out again at it:
# dragging the sidebar's edge changes it on every pixel.
RELAYOUT_PAUSE = 0.4


def guarded(method: Callable) -> Callable:
    """Wrap a UI callback: nothing escapes into VCL, the user gets one sentence."""
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            log.exception("panel %s failed", method.__name__)
            self.show_error(user_sentence(exc))
    call.__name__ = method.__name__
    return call


class PanelStates:
    """Needs the ChatPanel's ctx, session, view, presenter (ui.status), renderer, card,
    card_folded, _thought_at, _shown_setting, _disposed, _widths, replay, _replay,
    _open_card and send_text."""

    def present(self) -> None:
        """Draw what the presenter says now: the one place the status line, Send/Stop and
        New chat's Undo change (the card's hint is the idle status while no model is set)."""
        presenter = self.presenter
        presenter.hint = first_run.status_hint(self.card.settings) if self.card else None
        shown = presenter.shown()
        self.view.set_status(shown.status, shown.details)
        self.view.set_send(shown.send)
        self.view.show("undo", shown.undo)

    # -- the first-run card while the first answer comes ------------------------
    def _fold_card(self) -> None:
        """A message went to the model: the card folds (it took ~300 px of the chat for
        the whole wait, 30 s and more on a local model) and comes back if the turn fails
        before any answer (_turn_ended)."""
        if self.card is not None:
            self._close_card(answered=False)
            self.card_folded = True

    def _close_card(self, answered: bool = True) -> None:
        """Take the card down; ``answered``: a model answered, it stays away for good."""
        from marginalia.office import setup_card
        if answered:
            setup_card.remember_answer(self.ctx)
            self.card_folded = False
        self.presenter.cards.answered()
        card, self.card = self.card, None
        if card is not None:
            self.view.card = None
            card.dispose()
            self.view.relayout()

    def say(self, sentence: str) -> None:
        """An action's one sentence on the status line (change card, sources, commands)."""
        self.presenter.say(sentence)
        self.present()

    def _began(self, what: str) -> None:
        """Thinking opens while it streams, and folds to "Thought for N s" as the answer starts."""
        if what == "thinking":
            self._thought_at = time.monotonic()
            self.view.show_toggle(True)
            if self._shown_setting:
                self.view.set_thinking_visible(True)
        elif what == "answer" and self._thought_at is not None:
            seconds = max(1, int(round(time.monotonic() - self._thought_at)))
            self._thought_at = None
            self.view.set_thinking_visible(
                False, tr(transcript.THOUGHT_FOR) % seconds + transcript.FOLDED,
                tr(transcript.THOUGHT_SHORT) % seconds + transcript.FOLDED)

    @guarded
    def on_columns(self, columns: int) -> None:
        """The conversation pane's width in characters changed (office.panel_view): the
        next answer fits it; the chat already shown is replayed at it after a pause."""
        self.renderer.set_columns(columns)
        self._relayout_later()

    def _relayout_later(self) -> None:
        if not self.renderer.stale:
            return
        self._widths += 1
        seen = self._widths
        threads.later(RELAYOUT_PAUSE, mainthread.post, self.ctx, lambda: self._width_held(seen))

    @guarded
    def _width_held(self, seen: int) -> None:
        # A later width change, or a running turn (its end asks again), waits.
        if (not self._disposed and seen == self._widths and not self.session.busy
                and self.renderer.stale):
            log.info("chat laid out again at %d characters a line", self.renderer.columns)
            self._replay()

    def _turn_ended(self, entries) -> None:
        """A queued message goes now, unless the turn was stopped or failed (then it waits
        in the box for the user to send or change). Text shown at an older width is
        laid out again."""
        self._relayout_later()
        if self.card_folded:        # no answer came: the card has more to say
            self.card_folded = False
            self._open_card()
            self.view.relayout()
        send, keep = self.presenter.turn_ended(transcript.turn_failed(self.session.log))
        if keep is not None:
            # Before what the user typed since: neither is lost.
            draft = self.view.take_input()
            self.view.keep_input(keep + ("\n\n" + draft if draft.strip() else ""))
            # Only a keyboard already in the panel goes to the box: a turn that failed on
            # its own must not pull it out of the document the user is typing in.
            if self.view.has_focus():
                self.focus_after("queue_kept")
        elif send is not None:
            self.send_text(send)

    def _take_up(self) -> None:
        """What the last panel of this document left when the sidebar took it down
        (ui.status.Left): the unsent text back in the box, a queued message waiting for
        the turn or sent now, Edit still in progress."""
        left, self.session.panel_left = self.session.panel_left, None
        if left is None:
            return
        log.info("the last panel of this document left a draft, a queued message or an Edit")
        try:
            box, now = self.presenter.take_up(left, self.session.busy,
                                              transcript.turn_failed(self.session.log),
                                              self.session.kept.chat.chat_id)
            if box:
                self.view.keep_input(box)
            if self.presenter.editing:
                self.actions.watch_box()
            if now:
                # Posted: the panel is still being made (the sidebar lays it out first).
                mainthread.post(self.ctx, self._send_left)
            self.present()
        except Exception:
            log.exception("could not take up what the last panel left")
            self.session.panel_left = left      # the next panel tries again

    @guarded
    def _send_left(self) -> None:
        # Until now the message stayed queued: a panel gone meanwhile leaves it again.
        if not self._disposed:
            text = self.presenter.send_left(self.session.busy)
            if text is not None:
                self.send_text(text)

    def _leave(self) -> None:
        """The panel goes: what the user left in it waits for the next one (_take_up)."""
        try:
            draft = self.view.take_input()
        except Exception:           # the box's peer already gone: keep the rest
            log.debug("no draft to keep", exc_info=True)
            draft = ""
        try:
            self.session.panel_left = self.presenter.leave(draft, self.session.kept.chat.chat_id)
        except Exception:
            log.exception("could not keep what was left in the panel")

    def focus_after(self, action: str) -> None:
        """Move the keyboard where the presenter says it goes after ``action``: posted, so
        it lands after the click that ran the action (VCL hands focus back to a clicked
        button once its handler returns, also to one the action hid)."""
        if status.focus_after(action) == status.INPUT:
            mainthread.post(self.ctx, self._focus_input)

    @guarded
    def _focus_input(self) -> None:
        if not self._disposed:
            self.view.focus_input()

    @guarded
    def on_recall(self) -> None:
        """Up arrow in an empty message box: the last message comes back to edit."""
        mainthread.post(self.ctx, self._recall_posted)

    @guarded
    def _recall_posted(self) -> None:
        last = next((text for role, text in reversed(self.session.log) if role == "user"), None)
        if last and not self.view.take_input():
            self.view.keep_input(last)

    def _undo_later(self, undo) -> None:
        """New chat's Undo (offered by the presenter with the sentence that says so) ends
        after UNDO_SECONDS: both together; any other status takes it back sooner."""
        threads.later(UNDO_SECONDS, mainthread.post, self.ctx, lambda: self._undo_expired(undo))

    @guarded
    def _undo_expired(self, undo) -> None:
        if not self._disposed and self.presenter.undo_expired(undo):
            self.present()

    def undo_new_chat(self) -> None:
        undo = self.presenter.take_undo()
        if undo is not None and self.session.undo_new_chat(undo):
            self.replay()
            self.presenter.undone()
        self.present()
        self.focus_after("undo")

"""The chat panel's states between turns: thinking folded, a queued message, Undo, recall.

A mixin of office.panel.ChatPanel (kept apart so the panel's module stays
small): what the user sees change when a turn thinks, answers and ends, a
message Enter queued while a turn ran, New chat's few seconds of Undo, and
Up arrow giving the last message back. Main thread.
"""

import logging
import time
from typing import Callable

from marginalia import threads
from marginalia.errors import user_sentence
from marginalia.office import mainthread
from marginalia.ui import transcript

log = logging.getLogger("marginalia.panel")

UNDO_SECONDS = 8          # how long New chat offers Undo


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
    """Needs the ChatPanel's ctx, session, view, renderer, queued, _thought_at,
    _shown_setting, _disposed, _idle_status and send_text."""

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
            self.view.set_thinking_visible(False, transcript.THOUGHT_FOR % seconds,
                                           transcript.THOUGHT_SHORT % seconds)

    def _turn_ended(self, entries) -> None:
        """A queued message goes now, unless the turn was stopped or failed (then it waits
        in the box for the user to send or change)."""
        stopped = transcript.turn_failed(self.session.log)
        queued, self.queued = self.queued, None
        if queued is None:
            return
        if stopped:
            self.view.keep_input(queued)
            self.view.set_status(transcript.QUEUE_KEPT)
        else:
            self.send_text(queued)

    @guarded
    def on_recall(self) -> None:
        """Up arrow in an empty message box: the last message comes back to edit."""
        mainthread.post(self.ctx, self._recall_posted)

    @guarded
    def _recall_posted(self) -> None:
        last = next((text for role, text in reversed(self.session.log) if role == "user"), None)
        if last and not self.view.take_input():
            self.view.keep_input(last)

    def _offer_undo(self, undo) -> None:
        """Offer Undo after New chat for UNDO_SECONDS, with the status sentence that says
        so (ui.offer): both end together, and any other status takes the offer back."""
        self.view.show_offer("undo", transcript.NEW_CHAT, undo)
        threads.later(UNDO_SECONDS, mainthread.post, self.ctx, lambda: self._undo_expired(undo))

    @guarded
    def _undo_expired(self, undo) -> None:
        if not self._disposed:
            self.view.expire_offer(undo, self._idle_status())

    def undo_new_chat(self) -> None:
        undo = self.view.take_offer()
        if undo is not None and self.session.undo_new_chat(undo):
            self.replay()
            self.view.set_status(transcript.CHAT_BACK)

"""The chat panel's presenter: what its status line, Send/Stop, New chat's Undo, the
answer row and the focus show, decided from the chat's entries and the user's actions (pure).

It is the status line's one owner. The office side tells it what happened (events in:
a batch of log entries, Send, Stop, a message queued, New chat, Undo's time up, Edit,
a sentence an action says) and one thin view draws what ``shown()`` answers (state
out). The loop names a turn's states (events.STATES) and this module words them, a
running tool by what it does (ui.tool_words); the numbers (the context's size, the
last turn's tokens) are the tooltip, so the line stays a few plain words at the
sidebar's default width.

Which cards show (the first-run card, the change card's line, its list and the
editing tray) is its part ``cards`` (ui.card_state).

A sentence an action says ("The last answer is on the clipboard.") stays until the
turn's state next changes or something else is said. New chat's Undo and its sentence
are one offer (ui.offer): they show together and end together.
"""

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Tuple

from marginalia import events as ev
from marginalia.chat.budget import short_count
from marginalia.document.docview import short
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr, trn
from marginalia.ui.card_state import CardState
from marginalia.ui.history_menu import EDITING
from marginalia.ui.offer import Offer
from marginalia.ui.tool_words import running

READY = N_("Ready")
STOPPED = N_("Stopped")                       # the turn ended with finish_reason "cancelled"
CUT = N_("Answer incomplete")                 # the connection cut the answer (finish "cut")
STOPPING = N_("Stopping\u2026")               # Stop pressed, the turn not yet ended
ERROR_STATUS = N_("Error")                    # an error sentence is in the chat; the turn ends next
CONNECTING = N_("Connecting\u2026")
WAITING = N_("Waiting for the model\u2026")
THINKING = N_("Thinking\u2026")
WRITING = N_("Writing\u2026")
ENDED = {"cancelled": STOPPED, "cut": CUT}       # how a turn's end is said, if not Ready
WORDS = {ev.CONNECTING: CONNECTING, ev.WAITING: WAITING, ev.THINKING: THINKING,
         ev.WRITING: WRITING}
STILL_ANSWERING = N_("Still answering; press Stop first.")
# On the status line's second line (status()), so it is never the part a narrow panel cuts.
# The queued message's first words: it could not be seen while it waited (issue 39).
QUEUED_MARK = N_("Queued: \u201c%s\u201d")
QUEUED_WORDS = 32
QUEUE_KEPT = N_("The answer stopped; your queued message is back in the box.")
NEW_CHAT = N_("New chat started. Undo brings the last one back.")
CHAT_BACK = N_("The chat is back.")
TESTING = N_("Testing the connection and whether the model can edit\u2026")
CONTEXT_TIP = N_("Context: %s of %s tokens")  # the tooltip: the last request's size, the window
LAST_TURN = N_("Last turn: %s")               # the tooltip: the turn's usage
UNDO = "undo"                             # the offer's button
SEND = (N_("Send"), N_("Send the message"))       # the one button's label and tooltip, idle
STOP = (N_("Stop"), N_("Stop the answer"))        # ... while a turn runs
INPUT = "input"                           # the message box, for focus_after
# Where the keyboard goes after an action: the message box whenever the action leaves
# the user something to type (a button that hid itself would leave focus nowhere).
FOCUS_AFTER = {"new_chat": INPUT, "undo": INPUT, "edit": INPUT, "queue_kept": INPUT,
               "restore": INPUT}


def queued_line(text: str) -> str:
    """The status line's word on a message waiting for the turn: its first words."""
    return tr(QUEUED_MARK) % short(text, QUEUED_WORDS)


@dataclass(frozen=True)
class Left:
    """What the user left in a panel the sidebar took down (the sidebar closed, the
    window's view changed): the next panel of the same document takes it up."""

    draft: str                    # the message box's text, not sent
    queued: Optional[str]         # a message Enter queued while a turn ran
    editing: bool                 # Edit pressed: the next Send replaces the last turn
    chat: Optional[str] = None    # the chat it belongs to (its id)


@dataclass(frozen=True)
class Shown:
    """What the view draws: the status line, its tooltip, the Send/Stop button, Undo."""

    status: str
    details: str
    busy: bool
    send: Tuple[str, str]         # (label, tooltip)
    undo: bool


def format_usage(usage: Optional[dict]) -> str:
    """'1,234 tokens (1,000 prompt, 234 answer)' from an OpenAI-style usage dict."""
    if not usage:
        return ""
    prompt = usage.get("prompt_tokens")
    completion = usage.get("completion_tokens")
    total = usage.get("total_tokens")
    if total is None and prompt is not None and completion is not None:
        total = prompt + completion
    if total is None:
        return ""
    tokens = trn("%s token", "%s tokens", total) % formats.number(total)
    if prompt is not None and completion is not None:
        return tr("%(tokens)s (%(prompt)s prompt, %(answer)s answer)") % {
            "tokens": tokens, "prompt": formats.number(prompt),
            "answer": formats.number(completion)}
    return tokens


def answer_row(busy: bool, answered: bool, asked: bool) -> dict:
    """Which of the answer row's buttons act now: none while a turn runs; Copy and
    Insert need an answer, Retry and Edit a message."""
    return {"copy": not busy and answered, "insert": not busy and answered,
            "retry": not busy and asked, "edit": not busy and asked}


def focus_after(action: str) -> Optional[str]:
    """The control the keyboard goes to after ``action`` (None: it stays where it is)."""
    return FOCUS_AFTER.get(action)


class PanelPresenter:
    """The panel's state between and during turns; ``shown()`` says what to draw."""

    def __init__(self):
        self.offer = Offer()
        self.cards = CardState()  # which cards show (ui.card_state)
        self.hint = None          # the first-run card's line while no model is set
        self.queued = None        # a message Enter queued while a turn ran
        self.editing = False      # Edit pressed: the next Send replaces the last turn
        # Whether the message box holds text: an Edit is said only while it does (status()).
        self.box_has_text = False
        self.reset()

    def reset(self) -> None:
        """A chat shown afresh (replayed): nothing of it seen yet. A queued message and
        an Edit in progress are the user's, not the chat's: they stay (New chat ends them)."""
        self.busy = False
        self.state = READY        # the turn's state in words
        self.said = None          # a sentence an action said, until the state next changes
        self.stopping = False
        self.asked = False        # a message of the user's was seen
        self.usage = None         # this turn's usage so far
        self.last_turn = ""       # the last finished turn's usage, in words
        self.context = None       # (tokens, window) of the last request
        self.offer.take()

    # -- events in: the chat ---------------------------------------------------
    def see(self, entries: Iterable[Any], busy: bool) -> None:
        """A batch of log entries (events.Entry), and whether a turn runs after it."""
        for role, payload in entries:
            if role == ev.USER:
                self.asked = True
                self.usage = None
                self._state(CONNECTING)
            else:
                self._event(payload)
        self.busy = busy
        if not busy:
            self.stopping = False

    def _event(self, event: ev.Event) -> None:
        kind = event.kind
        if kind == ev.STATUS:
            if event.text == ev.RUNNING:
                self._state(running(event.name or ""))
            elif event.text in WORDS:
                self._state(WORDS[event.text])
        elif kind == ev.CONTEXT:
            usage = event.usage or {}
            if usage.get("tokens") is not None and usage.get("window"):
                self.context = (usage["tokens"], usage["window"])
        elif kind == ev.USAGE:
            self.usage = event.usage
        elif kind == ev.ERROR:
            self._state(ERROR_STATUS)
        elif kind == ev.DONE:
            self._state(ENDED.get(event.finish_reason, READY))
            self.last_turn = format_usage(self.usage)
            self.stopping = False

    def _state(self, words: str) -> None:
        if words != self.state:
            self.state = words
            self.said = None      # the turn's news replaces what an action said
            self.offer.take()

    # -- events in: the user's actions -------------------------------------------
    def sent(self) -> None:
        """A message went: the turn is connecting (its user entry says so again)."""
        self.busy = True
        self.stopping = False
        self.editing = False
        self.offer.take()
        self._state(CONNECTING)
        self.said = None

    def stop(self) -> None:
        self.stopping = True
        self.said = None

    def say(self, sentence: str) -> None:
        """An action's one sentence; it takes back an offer it does not word."""
        self.offer.status_shown(sentence)
        self.said = sentence

    def quiet(self, sentence: str) -> None:
        """``sentence`` is done with (/test's report is in the chat): the state shows
        again, unless something else was said meanwhile (an offer keeps its own)."""
        if self.said == sentence:
            self.said = None

    def queue(self, text: str) -> None:
        """Enter while a turn runs: the message waits and goes when the answer ends."""
        self.queued = text if self.queued is None else self.queued + "\n\n" + text
        self.said = None

    def turn_ended(self, failed: bool) -> Tuple[Optional[str], Optional[str]]:
        """The turn ended: (a queued message to send now, one to put back in the box).

        A stopped or failed turn keeps the message for the user to send or change."""
        queued, self.queued = self.queued, None
        if queued is None:
            return None, None
        if failed:
            self.said = QUEUE_KEPT
            return None, queued
        return queued, None

    def new_chat(self, undo: Any) -> None:
        """New chat: a fresh start; ``undo`` (not None) brings the last chat back, offered
        with its sentence until used, withdrawn or timed out."""
        self.reset()
        self.queued = None
        self.editing = False
        if undo is not None:
            self.offer.start(UNDO, NEW_CHAT, undo)
            self.said = NEW_CHAT

    def undo_expired(self, undo: Any) -> bool:
        """Undo's time is up: True when it still showed (its sentence goes with it)."""
        if self.offer.expire(undo):
            if self.said == NEW_CHAT:
                self.said = None
            return True
        return False

    def take_undo(self) -> Optional[Any]:
        """Undo pressed: what the offer held (None when it had ended)."""
        value = self.offer.take()
        if self.said == NEW_CHAT:
            self.said = None
        return value

    def undone(self) -> None:
        self.said = CHAT_BACK

    def edit(self) -> None:
        """Edit: the last message is back in the box; the next Send replaces its turn."""
        self.editing = True
        self.box_has_text = True
        self.say(EDITING)

    def box_changed(self, has_text: bool) -> None:
        """After Edit the status says so while the box holds a message (status()): an
        emptied box has nothing to send, so the idle status shows until new text comes."""
        self.box_has_text = has_text
        if not has_text and self.said == EDITING:
            self.said = None

    def see_live(self, entries: Iterable[Any], busy: bool) -> None:
        """A batch as it comes (not a replay): a turn the panel did not start itself (a
        quick action, a slash command) ends an Edit, whose last turn is no longer last."""
        entries = list(entries)
        if any(role == ev.USER for role, _payload in entries):
            self.edit_ended()
        self.see(entries, busy)

    def edit_ended(self) -> None:
        self.editing = False
        if self.said == EDITING:
            self.said = None

    # -- a panel taken down and made again ------------------------------------------
    def leave(self, draft: str, chat: Optional[str] = None) -> Optional[Left]:
        """The panel goes: what the user left in it (None when nothing)."""
        if not draft and self.queued is None and not self.editing:
            return None
        return Left(draft, self.queued, self.editing, chat)

    def take_up(self, left: Left, busy: bool, failed: bool,
                chat: Optional[str] = None) -> Tuple[str, bool]:
        """A new panel takes up what the last one left: (the box's text, whether the
        queued message goes now). It waits while a turn runs; when the turn ended
        meanwhile it goes (send_left()), or, after a stopped or failed turn, comes back
        into the box before the draft (as turn_ended does). Another chat shown since
        (History, another window's New chat) ends the Edit, and the message waits in
        the box: it was meant for the other chat."""
        same = left.chat == chat
        self.editing = left.editing and same
        self.queued = left.queued
        box, now = left.draft, False
        if self.queued is not None and not (busy and same):
            if failed or not same:
                _send, keep = self.turn_ended(True)
                box = keep + ("\n\n" + box if box else "")
                if not same:
                    self.said = None      # no answer of that chat stopped: nothing to say
            else:
                now = True
        self.box_has_text = bool(box)
        return box, now

    def send_left(self, busy: bool) -> Optional[str]:
        """The queued message take_up said goes now: it, or None (taken already, or a
        turn runs again: it waits for that one's end)."""
        if busy:
            return None
        send, _keep = self.turn_ended(False)
        return send

    # -- state out ---------------------------------------------------------------
    def status(self) -> str:
        """The status line in the user's language (the state is kept in English, as the
        catalog's keys; a sentence an action said is translated already or is a key)."""
        if self.said is not None:
            text = self.said
        elif self.stopping and self.busy:
            text = STOPPING
        elif self.editing and self.box_has_text and not self.busy:
            text = EDITING        # the user's, so it outlives a replay (a new width)
        elif not self.busy and not self.asked and self.state == READY and self.hint:
            text = self.hint
        else:
            text = self.state
        text = tr(text)
        if self.queued is not None and self.busy:
            text += "\n" + queued_line(self.queued)    # its own line: never the part cut
        return text

    def details(self) -> str:
        lines = []
        if self.context is not None:
            lines.append(tr(CONTEXT_TIP) % (short_count(self.context[0]),
                                            short_count(self.context[1])))
        if self.last_turn:
            lines.append(tr(LAST_TURN) % self.last_turn)
        return "\n".join(lines)

    def shown(self) -> Shown:
        label, tip = STOP if self.busy else SEND
        return Shown(self.status(), self.details(), self.busy, (tr(label), tr(tip)),
                     self.offer.button == UNDO)

"""One chat per document: the conversation, its worker thread, and event delivery.

The sidebar may destroy and rebuild its panel at any time, so the chat state
lives here, keyed by the document, and a fresh panel replays ``session.log``.
A turn runs on a worker thread (HTTP must never block the UI); its events are
queued and handed to listeners on the main thread in batches, at most 10 a
second, with adjacent text pieces merged, so a fast stream costs the UI a
bounded number of repaints. The headless runner drives the same class.

With the keep_chats setting on, the session starts from the document's last
kept chat and keeps each turn's result when it ends (office.chat_store);
History, Retry and Edit work on the session's conversation and log together.
"""

import logging
import threading
import time
from typing import Callable, List, Optional, Tuple

import unohelper
from com.sun.star.util import XCloseListener

from marginalia import events as ev
from marginalia import threads
from marginalia.errors import Cancelled, MarginaliaError, user_sentence
from marginalia.chat import history
from marginalia.office import chat_sources, chat_store, mainthread, source_turn

log = logging.getLogger("marginalia.chat")

Entry = ev.Entry     # the user's message or an event of the turn
Listener = Callable[[List[Entry]], None]

_sessions = {}
_sessions_lock = threading.Lock()
# Told a document's id as a panel turn starts there (must return at once).
_starting = []


def session_for(ctx, doc, recover=True) -> "ChatSession":
    """The document's ChatSession, created on first use (``recover``: then checks the
    profile name after a crash; never while an agent's edit may have it swapped)."""
    key = doc.RuntimeUID
    with _sessions_lock:
        session = _sessions.get(key)
        if session is None:
            session = _sessions[key] = ChatSession(ctx, doc, key)
            if recover:
                _recover_author(ctx)
    if not session.restored:
        # Outside the lock: from a job's thread this waits for the main thread,
        # which may itself be asking for a session.
        mainthread.run_sync(ctx, session.restore)
    return session


def _recover_author(ctx):
    try:
        from marginalia.writer.turn import recover_author
        recover_author(ctx)
    except Exception:
        log.exception("could not check the profile name after a crash")


def _drop(key):
    with _sessions_lock:
        _sessions.pop(key, None)


class _Pump:
    """Carries entries from any thread to the main thread, coalesced."""

    # Each panel update has a fixed main-thread cost (insert, scroll, repaint:
    # about 2 ms whatever the transcript's length, see bench/bench_panel.py);
    # 10 a second still reads as a smooth stream and keeps a fast stream at a
    # few percent of the main thread.
    INTERVAL = 0.1

    def __init__(self, ctx, deliver):
        self._ctx = ctx
        self._deliver = deliver
        self._lock = threading.Lock()
        self._pending = []
        self._scheduled = False
        self._last = 0.0

    def push(self, entry: Tuple[int, Entry]) -> None:
        with self._lock:
            self._pending.append(entry)
            if self._scheduled:
                return
            self._scheduled = True
            delay = self._last + self.INTERVAL - time.monotonic()
        if delay <= 0:
            mainthread.post(self._ctx, self._drain)
        else:
            threads.later(delay, mainthread.post, self._ctx, self._drain)

    def _drain(self):
        with self._lock:
            batch, self._pending = self._pending, []
            self._scheduled = False
            self._last = time.monotonic()
        if batch:
            self._deliver(batch)


class _CloseWatch(unohelper.Base, XCloseListener):
    """Stops the document's turn when the document closes."""

    def __init__(self, session):
        self._session = session

    def queryClosing(self, event, gets_ownership):
        pass

    def notifyClosing(self, event):
        self._closed()

    def disposing(self, event):
        self._closed()

    def _closed(self):
        try:
            self._session.document_closed()
        except Exception:            # never into the closing document's code
            log.exception("ending the chat of a closed document failed")


class ChatSession:
    """The chat of one document: its conversation, log, listeners and running turn."""

    def __init__(self, ctx, doc, key):
        from marginalia.chat.loop import Conversation
        self.ctx = ctx
        self.doc = doc
        self.key = key
        self.conversation = Conversation()
        self.log = []
        self.settings_override = None  # a dict of Settings fields (headless runner)
        self.sources = chat_sources.ChatSources(ctx)   # kept with the chat, as its log is
        self._listeners = []
        self._pump = _Pump(ctx, self._deliver)
        self._cancel = None
        self._running = False
        self._generation = 0
        self._closed = False
        self.restored = False
        self.panel_left = None         # what a panel the sidebar took down left (ui.status.Left)
        self.kept = chat_store.DocChats(ctx, doc, self._keeping, self._expired)
        try:
            doc.addCloseListener(_CloseWatch(self))
        except Exception:
            log.exception("could not watch the document for closing")

    # -- listeners (main thread) ---------------------------------------------------
    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def _deliver(self, batch):
        """Hand a batch to the listeners; they also get one, maybe empty, when a turn ends.

        A turn cleared by New chat has its entries dropped, but its end still
        reaches the listeners (as an empty batch), so they learn from ``busy``
        that the session is idle without polling it.
        """
        kept = []
        ended = False
        for gen, (role, payload) in batch:
            if role == "event" and payload.kind == ev.DONE:
                # The turn's one DONE is its last entry (see _run): busy turns
                # False here, on the main thread, as listeners get the DONE.
                self._running = False
                ended = True
            # Entries of a turn that New chat cleared may still arrive: drop them.
            if gen == self._generation:
                kept.append(ev.Entry(role, payload))
        batch = ev.merge_entries(kept)
        if not batch and not ended:
            return
        self.log.extend(batch)
        if ended:
            self._keep()
        for fn in list(self._listeners):
            try:
                fn(batch)
            except Exception:
                log.exception("chat listener failed")

    def _push(self, generation, entry):
        self._pump.push((generation, entry))

    # -- turns -------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """True from send() until the turn's DONE (sent after its undo step closed) is delivered."""
        return self._running

    def send(self, text: str, action=None) -> bool:
        """Start a turn on a worker thread; False when one is running or text is empty.

        ``action`` (office.quick_actions.QuickAction) makes it a quick action's
        turn: ``text`` is what the transcript shows, the action says what the
        model is sent and puts the answer in the document.
        """
        text = (text or "").strip()
        if not text or self.busy or self._closed:
            return False
        from marginalia.chat.transport import CancelToken
        # Busy first: from here on an outside agent's calls on the document are refused.
        self._running = True
        for fn in list(_starting):              # office.mcp_turns: an agent's turn ends
            fn(self.key)
        self._push(self._generation, ev.Entry.user(text))
        self._cancel = CancelToken()
        threads.start(self._run, text, self._cancel, self._generation, action,
                      name="marginalia-turn")
        return True

    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()

    def new_chat(self):
        """Start a new conversation (stopping a running turn first); the old one stays kept.

        Returns what ``undo_new_chat`` needs to bring the old one back.
        """
        undo = (self.conversation.messages, list(self.log), self.kept.chat, self.sources.state())
        self._replace([], [])
        self.sources.restore(None)
        self.kept.start_new()
        return undo

    def undo_new_chat(self, undo) -> bool:
        """New chat's Undo: the chat before it again, while nothing new was said."""
        if self.busy or self.log:
            return False
        messages, log_entries, chat, sources = undo
        self._replace(messages, log_entries)
        self.sources.restore(sources)
        self.kept.chat = chat
        return True

    def _replace(self, messages, log_entries) -> None:
        from marginalia.chat.loop import Conversation
        self.stop()
        self._generation += 1
        self.conversation = Conversation(messages)
        self.log = list(log_entries)

    # -- kept chats (main thread) ------------------------------------------------
    def _keeping(self) -> bool:
        from marginalia.office import settings_store
        from marginalia import policy
        override = self.settings_override or {}
        user_keeps = (override["keep_chats"] if "keep_chats" in override
                      else settings_store.load(self.ctx, with_key=False).keep_chats)
        # Chat history off by the administrator holds for the runners' override too.
        return policy.keeps_chats(settings_store.load_policy(self.ctx), user_keeps)

    def _expired(self, updated: float) -> bool:
        from marginalia.office import settings_store
        from marginalia import policy
        return policy.expired(settings_store.load_policy(self.ctx), updated)

    def restore(self) -> None:
        """Show the document's last kept chat, once, when the session is made."""
        if self.restored:
            return
        self.restored = True
        try:
            if self._keeping():
                chat = self.kept.restore()
                if chat is not None and not self.log:
                    self._replace(chat.messages, chat.log)
                    self.sources.restore(chat.sources)
            else:
                self.kept.shelf()     # removes what the administrator's days rule out
        except Exception:
            log.exception("could not restore the document's chat")

    def _keep(self) -> None:
        try:
            self.kept.save_later(self.conversation.messages, self.log, self.sources.state())
        except Exception:
            # The chat goes on; only keeping it failed (a read-only document, say).
            log.exception("could not keep the chat")

    def open_chat(self, chat_id: str) -> bool:
        """Show a kept chat of this document instead of the current one."""
        if self.busy:
            return False
        chat = self.kept.open(chat_id)
        if chat is None:
            return False
        self._replace(chat.messages, chat.log)
        self.sources.restore(chat.sources)
        return True

    def delete_chat(self, chat_id: str) -> bool:
        """Delete a kept chat; True when it was the shown one (a new chat replaced it)."""
        shown = chat_id == self.kept.chat.chat_id and not self.busy
        if shown:
            self.new_chat()
        self.kept.delete(chat_id)
        return shown

    def forget_chats(self) -> int:
        """Remove every kept chat of this document; the panel starts empty."""
        if self.busy:
            self.stop()
        self._replace([], [])
        return self.kept.forget()

    def take_back_last_turn(self) -> Optional[str]:
        """Remove the last user turn (messages and log); its message, or None.

        Regenerate sends it again; Edit and resend gives it back to the box.
        """
        if self.busy:
            return None
        cut = history.last_turn_start(self.conversation.messages, self.log)
        if cut is None:
            return None
        text = self.log[cut[1]][1]
        self._replace(self.conversation.messages[:cut[0]], self.log[:cut[1]])
        return text

    def cut_back(self, message_index: int, log_index: int) -> None:
        """Keep the chat up to (not including) a user turn (Restore; office.restore)."""
        self._replace(self.conversation.messages[:message_index], self.log[:log_index])
        self._keep()

    def document_closed(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.stop()
        self.kept.flush()
        self._listeners = []
        _drop(self.key)

    def _settings(self):
        """The user's settings with the override on top (main thread)."""
        from marginalia.office import settings_store
        from marginalia.ui import admin_locks
        override = dict(self.settings_override or {})
        # What an administrator locked holds for the runners' overrides too.
        for name in admin_locks.held(settings_store.locked(self.ctx)):
            override.pop(name, None)
        if ("endpoint" in override and "api_key" not in override
                and not settings_store.load_policy(self.ctx).key_from_admin):
            # The stored key belongs to the stored endpoint's server: an override
            # pointing elsewhere gets that server's own key, or none.
            settings = settings_store.load(self.ctx, with_key=False)
            override["api_key"] = settings_store.load_key(self.ctx, override["endpoint"])
        else:
            settings = settings_store.load(self.ctx)
        settings = settings.copy(**override) if override else settings
        # The administrator's policy, checked before any request of the turn.
        refused = settings_store.refusal(self.ctx, settings)
        if refused is not None:
            raise refused
        return settings

    def _run(self, text: str, cancel, generation: int, action=None) -> None:
        """The worker: one turn, ended by exactly one DONE, pushed last.

        This is the one place a turn's end is decided. The loop's DONE is held
        until the undo step has closed (end_turn is a main-thread call), so a
        listener that sees DONE sees an idle session with its document settled.
        A turn that failed outside the loop gets one ERROR sentence and a DONE
        "error"; one stopped there gets a DONE "cancelled" (the panel says Stopped).
        """
        from marginalia.chat import budget, loop, window
        from marginalia.chat.transport import ChatClient
        from marginalia.office import settings_store
        from marginalia.writer.toolbox import WriterToolbox
        ends = []

        def emit(event):
            if event.kind == ev.DONE:
                ends.append(event)
            else:
                self._push(generation, ev.Entry.event(event))
        finish = "error"
        toolbox = None
        try:
            # Main thread: the key store may ask for the master password (not two threads).
            settings = mainthread.run_sync(self.ctx, self._settings)
            rules = mainthread.run_sync(self.ctx, lambda: settings_store.load_policy(self.ctx))
            if action is not None and action.track_changes:
                settings = settings.copy(track_changes=True)
            runner = lambda fn: mainthread.run_sync(self.ctx, fn)  # noqa: E731
            toolbox = WriterToolbox(self.ctx, self.doc, settings, runner, rules,
                                    seen=self.conversation.seen,
                                    post=lambda fn: mainthread.post(self.ctx, fn))
            # The toolbox titles the turn's undo step after the request.
            toolbox.begin_turn(action.title if action is not None else text)
            # Asked of the server (cached); a probe that fails falls back quietly.
            fits = window.window_for(settings, cancel)
            if action is None:
                # The chat's sources: read, their tools registered, named in the prompt.
                sources = source_turn.begin(self.sources, toolbox.registry, fits, emit, runner,
                                            cancel)
                context, attachments = toolbox.for_turn(budget.inline_chars(fits), sources,
                                                        text)
                if settings.answer_language == "document":
                    settings = settings.copy(answer_language=toolbox.document_language or "")
                result = loop.run_turn(ChatClient(settings), self.conversation, text,
                                       toolbox.registry, settings, emit, cancel,
                                       context=context, window=fits, sources=sources,
                                       attachments=attachments)
                cited = source_turn.end(self.sources, result.text)
                if cited is not None:
                    emit(cited)
            else:
                # The action's message carries its text; no tools: the answer is the output.
                result = loop.run_turn(ChatClient(settings), self.conversation, action.message,
                                       None, settings, emit, cancel, window=fits,
                                       base_prompt=action.system_prompt)
                if result.error is None and not result.cancelled:
                    for event in action.apply(toolbox, result.text):
                        emit(event)
        except Cancelled:
            finish = "cancelled"
        except Exception as exc:
            if not isinstance(exc, MarginaliaError):
                log.exception("chat turn failed")
            emit(ev.Event(ev.ERROR, message=user_sentence(exc)))
        finally:
            if toolbox is not None:
                try:
                    toolbox.end_turn()
                except Exception:
                    # The document may be gone; the undo context closes with it.
                    log.exception("ending the turn failed")
                # The turn's change records, settled as it ended (writer.ledger).
                for change in toolbox.changes():
                    source_turn.drew_on(self.sources, change)    # the card names its source
                    self._push(generation, ev.Entry.event(ev.Event(ev.CHANGE,
                                                                   change=change.to_dict())))
            self._push(generation, ev.Entry.event(ends[0] if ends
                                                  else ev.Event(ev.DONE, finish_reason=finish)))


"""Where a document's chats are kept: its id in the file, its chats in the profile.

The document carries one user-defined property, ``MarginaliaChat`` (an id,
nothing else: in .odt meta.xml, in .docx docProps/custom.xml), so a copy sent
to someone else carries no conversation. The chats themselves are JSON files
under ``$(user)/marginalia/chats/<id>/`` (chat.history does the files).

Save As gives the document a new id just before it is stored (OnSaveAs), so
the new file starts its own history with the current chat, and the old file
keeps its own; a failed Save As puts the old id back. An untitled document
keeps its id through its first save.

Main-thread calls, except the file writes, which ``save_later`` runs on a
worker (one at a time per document, newest wins) so Writer never waits on a
disk; ``flush`` waits for them (closing, tests, the job service).
"""

import logging
import os
import threading
from typing import Any, Callable, List, Optional

import unohelper
from com.sun.star.document import XDocumentEventListener

from marginalia import threads
from marginalia.chat import history

log = logging.getLogger("marginalia.chats")

PROPERTY = "MarginaliaChat"
REMOVABLE = 128          # com.sun.star.beans.PropertyAttribute.REMOVABLE


def default_chats_dir(ctx) -> str:
    """``<profile>/user/marginalia/chats`` as a system path."""
    from marginalia.writer import profile
    return os.path.join(profile.folder(ctx), "chats")


def _user_properties(doc):
    return doc.getDocumentProperties().getUserDefinedProperties()


def doc_id(doc) -> Optional[str]:
    """The document's chat id, or None when it never had one kept."""
    try:
        props = _user_properties(doc)
        if props.getPropertySetInfo().hasPropertyByName(PROPERTY):
            value = props.getPropertyValue(PROPERTY)
            return str(value) if value else None
    except Exception:
        log.exception("could not read the document's chat id")
    return None


def set_doc_id(doc, value: str) -> None:
    props = _user_properties(doc)
    if props.getPropertySetInfo().hasPropertyByName(PROPERTY):
        props.setPropertyValue(PROPERTY, value)
    else:
        props.addProperty(PROPERTY, REMOVABLE, value)


class _SaveAsWatch(unohelper.Base, XDocumentEventListener):
    def __init__(self, on_event: Callable[[str], None]):
        self._on_event = on_event

    def documentEventOccured(self, event):
        try:
            self._on_event(event.EventName)
        except Exception:
            log.exception("handling %s failed", event.EventName)

    def disposing(self, event):
        pass


class DocChats:
    """One document's kept chats: the id, the shelf, the chat being written."""

    def __init__(self, ctx, doc, enabled: Callable[[], bool],
                 expired: Callable[[float], bool] = lambda _updated: False):
        self.ctx = ctx
        self.doc = doc
        self.enabled = enabled
        # The administrator's kept days (policy.expired): older chats are removed
        # whenever the document's chats are read.
        self.expired = expired
        self.chats_dir = None          # set on first use, or by the headless runner
        self.chat = history.KeptChat()  # the chat the panel shows (its id, its dates)
        self._lock = threading.Lock()
        self._writes: List[threads.Worker] = []
        self._latest_write = 0
        self._old_id = None
        self.notes: List[str] = []     # sentences about unreadable files, shown once
        try:
            doc.addDocumentEventListener(_SaveAsWatch(self._document_event))
        except Exception:
            log.exception("could not watch the document for Save As")

    # -- where ---------------------------------------------------------------------
    def folder(self) -> str:
        if self.chats_dir is None:
            self.chats_dir = default_chats_dir(self.ctx)
        return self.chats_dir

    def shelf(self, create: bool = False) -> Optional[history.Shelf]:
        """The document's shelf; with ``create``, the id is made if there is none."""
        ident = doc_id(self.doc)
        if ident is None:
            if not create:
                return None
            ident = history.new_id()
            set_doc_id(self.doc, ident)
        shelf = history.Shelf(self.folder(), ident)
        for summary in shelf.summaries():
            if self.expired(summary.updated):
                shelf.delete(summary.chat_id)
        return shelf

    # -- reading -------------------------------------------------------------------
    def take_notes(self, shelf: Optional[history.Shelf]) -> List[str]:
        notes = list(shelf.notes) if shelf is not None else []
        if shelf is not None:
            del shelf.notes[:]
        return notes

    def restore(self) -> Optional[history.KeptChat]:
        """The document's last chat (it becomes the current one), or None."""
        shelf = self.shelf()
        if shelf is None:
            return None
        chat = shelf.latest()
        self.notes = self.take_notes(shelf)
        if chat is not None:
            self.chat = chat
        return chat

    def open(self, chat_id: str) -> Optional[history.KeptChat]:
        self.flush()
        shelf = self.shelf()
        chat = shelf.load(chat_id) if shelf is not None else None
        self.notes = self.take_notes(shelf)
        if chat is not None:
            self.chat = chat
        return chat

    def summaries(self) -> List[history.ChatSummary]:
        self.flush()
        shelf = self.shelf()
        if shelf is None:
            return []
        out = shelf.summaries()
        self.notes = self.take_notes(shelf)
        return out

    # -- writing -------------------------------------------------------------------
    def start_new(self) -> None:
        """The next save starts a new chat file; the old one stays in the history."""
        self.chat = history.KeptChat()

    def save_later(self, messages: List[dict], log_entries: List[Any],
                   sources: Optional[dict] = None) -> None:
        """Keep the current chat (copies taken now), written on a worker; ``sources``:
        the chat's sources as office.chat_sources.ChatSources.state() gives them."""
        if not log_entries or not self.enabled():
            return
        shelf = self.shelf(create=True)
        chat = self.chat
        chat.messages, chat.log, chat.sources = list(messages), list(log_entries), sources
        snapshot = history.KeptChat(chat.chat_id, chat.created, 0.0,
                                    list(messages), list(log_entries), sources)
        with self._lock:
            self._latest_write += 1
            number = self._latest_write

        def write():
            with self._lock:
                if number != self._latest_write:
                    return            # a newer state of this chat is on its way
                try:
                    shelf.save(snapshot)
                    self.chat.updated = snapshot.updated
                except Exception:
                    log.exception("could not keep the chat in %s", shelf.folder)
        self._writes = [t for t in self._writes if t.is_alive()]
        self._writes.append(threads.start(write, name="marginalia-keep"))

    def flush(self, timeout: float = 5.0) -> None:
        for thread in list(self._writes):
            thread.join(timeout)

    def delete(self, chat_id: str) -> None:
        self.flush()
        shelf = self.shelf()
        if shelf is not None:
            shelf.delete(chat_id)

    def forget(self) -> int:
        self.flush()
        shelf = self.shelf()
        self.start_new()
        return shelf.forget() if shelf is not None else 0

    # -- Save As -------------------------------------------------------------------
    def _document_event(self, name: str) -> None:
        if name == "OnSaveAs":
            ident = doc_id(self.doc)
            if ident is None or not self.doc.getURL():
                return        # nothing kept yet, or an untitled document's first save
            self.flush()
            self._old_id = ident
            set_doc_id(self.doc, history.new_id())
            # The new file continues the current chat as its own history.
            if self.chat.log and self.enabled():
                self.save_later(self.chat.messages, self.chat.log, self.chat.sources)
        elif name == "OnSaveAsFailed" and self._old_id is not None:
            set_doc_id(self.doc, self._old_id)
            self._old_id = None
        elif name == "OnSaveAsDone":
            self._old_id = None

"""The sources of one chat: a sources.index.Library filled through office.source_reader.

A chat keeps its sources by path, title and stamp (Library.to_state), never their
text; a chat opened again reads them anew before its next turn, and says so in
one sentence when a file has changed since it was added, moved away, or cannot
be read any more. The same check runs before every turn on the files already
read: a source edited meanwhile is read again, so the model never cites a
passage the file no longer has.

Threads: ``add_file``, ``add_document`` and ``refresh`` read through
LibreOffice, so they take ``run`` (office.mainthread.run_sync bound to the
context) and are called from a worker or a job's thread; the rest is plain
data. The Library is safe to fill from a worker while the main thread lists it,
so a source is indexed outside this object's lock (a big one takes seconds, and
the panel's scope line takes the lock on the main thread). A read fills the
library of the chat it started in: a chat switched meanwhile (New chat, another
kept chat) never gets it, and the user is told to add it again.
"""

import logging
import os
import threading
from typing import Any, Callable, Dict, List, Optional

from marginalia.errors import Cancelled
from marginalia.i18n.catalog import tr
from marginalia.office import source_reader
from marginalia.office.writer_docs import writer_documents
from marginalia.sources import citations
from marginalia.sources.index import Library
from marginalia.sources.model import Source

log = logging.getLogger("marginalia.sources")

Run = Callable[[Callable[[], Any]], Any]


def _system_path(url: str) -> str:
    """The file of a document's URL, as the system writes it (a Windows drive or a
    UNC share too); "" for a document with no file or not on a file system."""
    if not url.startswith("file:"):
        return ""
    import uno
    try:
        return uno.fileUrlToSystemPath(url)
    except Exception:
        return ""


class ChatSources:
    """One chat's sources: the Library, and the sentences about them not yet shown."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.library = Library()
        # What the model is told of the last answer's quotes not found (sources.citations.notice).
        self.told: Optional[str] = None
        self._lock = threading.RLock()
        self._generation = 0       # one more at each restore: another chat's library

    # -- the list ------------------------------------------------------------------
    def sources(self) -> List[Source]:
        with self._lock:
            return self.library.sources()

    def __bool__(self) -> bool:
        return bool(self.sources())

    def listing(self) -> List[Dict[str, Any]]:
        """Each source as the panel and the jobs show it."""
        out = []
        for source in self.sources():
            out.append({"id": source.id, "name": source.name, "title": source.title,
                        "path": source.path, "read": source.loaded,
                        "passages": len(self.library.passages(source.id))})
        return out

    def add_file(self, path: str, run: Run) -> Source:
        """Read a file and add it (again, when it is already a source); raises
        source_reader.Unreadable with the sentence to show."""
        path = os.path.abspath(path)
        library, generation = self._current()
        blocks = source_reader.read_file(self.ctx, path, run)
        source = library.add(os.path.basename(path), path, blocks, source_reader.stamp_of(path))
        self._still(generation, source.name)
        return source

    def add_document(self, doc: Any, run: Run) -> Source:
        """Add an open Writer document as it is now (by its file, when it has one)."""
        from marginalia.writer import read
        library, generation = self._current()
        title, url = run(lambda: (read.title(doc), doc.getURL()))
        blocks = source_reader.read_open(doc, run)
        path = _system_path(url)
        source = library.add(title, path, blocks, source_reader.stamp_of(path) if path else None)
        self._still(generation, source.title)
        return source

    def _current(self):
        with self._lock:
            return self.library, self._generation

    def _still(self, generation: int, name: str) -> None:
        """Raise Unreadable when the chat changed since ``generation`` (the source went
        into the library of the chat the read began in, which is not shown now)."""
        with self._lock:
            if generation != self._generation:
                raise source_reader.Unreadable(
                    tr("The chat changed while %s was being read: add it again to this "
                       "chat.") % name)

    def remove(self, source_id: str) -> bool:
        with self._lock:
            return self.library.remove(source_id)

    def for_insert(self, answer: str) -> citations.ForInsert:
        """The answer as Insert puts it in, with the notes its keys get; as written, with
        none, when the chat has no sources (its [n] are then not citations)."""
        if not self.sources():
            return citations.ForInsert(answer)
        with self._lock:
            return citations.for_insert(answer, self.library)

    # -- kept with the chat --------------------------------------------------------
    def state(self) -> Optional[Dict[str, Any]]:
        """What the chat file keeps (None without sources: old chats stay as they were)."""
        with self._lock:
            return self.library.to_state() if self.library.sources() else None

    def restore(self, state: Optional[Dict[str, Any]]) -> None:
        """The sources of a chat opened again: listed, read before the next turn."""
        with self._lock:
            self.library = Library.from_state(state) if state else Library()
            self.told = None
            self._generation += 1

    # -- before a turn -------------------------------------------------------------
    def refresh(self, run: Run, cancel: Any = None) -> List[str]:
        """Read the sources not read yet or changed since; one sentence per problem.
        Raises errors.Cancelled when ``cancel`` (the turn's CancelToken) is set."""
        notes = []
        # Filled outside the lock (see the module's doc), the library of this chat.
        library = self._current()[0]
        for source in library.sources():
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            try:
                note = self._refresh_one(library, source, run, cancel)
            except Cancelled:
                raise
            except source_reader.Unreadable as exc:
                note = str(exc)
            except Exception:
                log.exception("reading a source again failed")
                note = tr("Marginalia could not read %s again.") % source.name
            if note:
                notes.append(note)
        return notes

    def _refresh_one(self, library: Library, source: Source, run: Run,
                     cancel: Any = None) -> Optional[str]:
        if not source.path:
            if source.loaded:
                return None
            doc = run(lambda: _open_by_title(self.ctx, source.title))
            if doc is None:
                return (tr("The document %s is not open any more: it is left out of this "
                           "turn.") % source.title)
            blocks = source_reader.read_open(doc, run)
            library.fill(source.id, blocks, None)
            return None
        stamp = source_reader.stamp_of(source.path)
        if stamp is None:
            library.fill(source.id, None, source.stamp)
            return (tr("%(name)s is no longer at %(folder)s (moved or deleted): it is left out "
                       "until it is added again.")
                    % {"name": source.name, "folder": os.path.dirname(source.path)})
        if source.loaded and _same(stamp, source.stamp):
            return None
        changed = source.stamp is not None and not _same(stamp, source.stamp)
        blocks = source_reader.read_file(self.ctx, source.path, run, cancel=cancel)
        library.fill(source.id, blocks, stamp)
        if changed:
            return (tr("%s has changed since it was added to this chat: it was read again as "
                       "it is now.") % source.name)
        return None


def _same(a, b) -> bool:
    return b is not None and a[0] == b[0] and abs(a[1] - b[1]) < 1e-3


def _open_by_title(ctx: Any, title: str) -> Any:
    """The open Writer document with this title, or None (main thread)."""
    from marginalia.writer import read
    found = writer_documents(ctx, lambda doc: read.title(doc) == title)
    return found[0] if found else None


def open_documents(ctx: Any, exclude: Any = None) -> List[Any]:
    """The open Writer documents a user may add as sources (not ``exclude``; main thread)."""
    if exclude is None:
        return writer_documents(ctx)
    uid = exclude.RuntimeUID
    return writer_documents(ctx, lambda doc: doc.RuntimeUID != uid)

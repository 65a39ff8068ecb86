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
data. A lock keeps the panel's Add and Remove from racing a turn's refresh.
"""

import logging
import os
import threading
from typing import Any, Callable, Dict, List, Optional

from marginalia.errors import Cancelled
from marginalia.office import source_reader
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
        blocks = source_reader.read_file(self.ctx, path, run)
        with self._lock:
            return self.library.add(os.path.basename(path), path, blocks,
                                    source_reader.stamp_of(path))

    def add_document(self, doc: Any, run: Run) -> Source:
        """Add an open Writer document as it is now (by its file, when it has one)."""
        from marginalia.writer import read
        title, url = run(lambda: (read.title(doc), doc.getURL()))
        blocks = source_reader.read_open(doc, run)
        path = _system_path(url)
        with self._lock:
            return self.library.add(title, path, blocks,
                                    source_reader.stamp_of(path) if path else None)

    def remove(self, source_id: str) -> bool:
        with self._lock:
            return self.library.remove(source_id)

    def notes_for(self, answer: str) -> Optional[Dict[int, str]]:
        """The footnotes Insert gives the answer's citation keys (writer.footnotes)."""
        if not self.sources():
            return None
        from marginalia.writer import footnotes
        with self._lock:
            return footnotes.notes_for(answer, self.library)

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

    # -- before a turn -------------------------------------------------------------
    def refresh(self, run: Run, cancel: Any = None) -> List[str]:
        """Read the sources not read yet or changed since; one sentence per problem.
        Raises errors.Cancelled when ``cancel`` (the turn's CancelToken) is set."""
        notes = []
        for source in self.sources():
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            try:
                note = self._refresh_one(source, run, cancel)
            except Cancelled:
                raise
            except source_reader.Unreadable as exc:
                note = str(exc)
            except Exception:
                log.exception("reading a source again failed")
                note = "Marginalia could not read %s again." % source.name
            if note:
                notes.append(note)
        return notes

    def _refresh_one(self, source: Source, run: Run, cancel: Any = None) -> Optional[str]:
        if not source.path:
            if source.loaded:
                return None
            doc = run(lambda: _open_by_title(self.ctx, source.title))
            if doc is None:
                return ("The document %s is not open any more: it is left out of this turn."
                        % source.title)
            blocks = source_reader.read_open(doc, run)
            with self._lock:
                self.library.fill(source.id, blocks, None)
            return None
        stamp = source_reader.stamp_of(source.path)
        if stamp is None:
            with self._lock:
                self.library.fill(source.id, None, source.stamp)
            return ("%s is no longer at %s (moved or deleted): it is left out until it is "
                    "added again." % (source.name, os.path.dirname(source.path)))
        if source.loaded and _same(stamp, source.stamp):
            return None
        changed = source.stamp is not None and not _same(stamp, source.stamp)
        blocks = source_reader.read_file(self.ctx, source.path, run, cancel=cancel)
        with self._lock:
            self.library.fill(source.id, blocks, stamp)
        if changed:
            return ("%s has changed since it was added to this chat: it was read again as it "
                    "is now." % source.name)
        return None


def _same(a, b) -> bool:
    return b is not None and a[0] == b[0] and abs(a[1] - b[1]) < 1e-3


def _open_by_title(ctx: Any, title: str) -> Any:
    """The open Writer document with this title, or None (main thread)."""
    from marginalia.writer import read
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    components = desktop.getComponents().createEnumeration()
    while components.hasMoreElements():
        doc = components.nextElement()
        try:
            if doc.supportsService("com.sun.star.text.TextDocument") and read.title(doc) == title:
                return doc
        except Exception:
            continue
    return None


def open_documents(ctx: Any, exclude: Any = None) -> List[Any]:
    """The open Writer documents a user may add as sources (not ``exclude``; main thread)."""
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    out = []
    components = desktop.getComponents().createEnumeration()
    while components.hasMoreElements():
        doc = components.nextElement()
        try:
            if not doc.supportsService("com.sun.star.text.TextDocument"):
                continue
            if exclude is not None and doc.RuntimeUID == exclude.RuntimeUID:
                continue
            out.append(doc)
        except Exception:
            continue
    return out

"""Kept chats: one JSON file per chat, in a folder per document (pure).

A document carries only an id (office.chat_store puts it in the document's own
properties); its chats live in the user profile, ``<chats>/<document id>/<chat
id>.json``, so a copy of the file sent to someone else carries no chat. A file
holds both what the model needs to continue (the conversation, every tool call
paired with its result) and what the panel shows (the log it replays).

Writes are atomic: a temporary file in the same folder, flushed, then
``os.replace``; an interrupted write leaves the old file whole and a temporary
that the next write of that folder removes. A file that cannot be read is
renamed aside (``.unreadable``) with one sentence, and never stops the others.
"""

import json
import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from marginalia import events as ev
from marginalia.document.docview import short
from marginalia.i18n.catalog import tr

FORMAT = 1
SUFFIX = ".json"
TEMP_PREFIX = ".writing-"
ASIDE_SUFFIX = ".unreadable"
TITLE_LIMIT = 60
# Status events only animate a running turn; nothing replays them.
_NOT_KEPT = frozenset([ev.STATUS, ev.TOOL_CALL_STARTED])

Said = ev.Said            # a user message as the log keeps it (events.Said)
Entry = ev.Entry


class HistoryUnreadable(Exception):
    """A kept chat's file is damaged or not ours; str() is the sentence for the user."""


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class KeptChat:
    """One chat of a document: the model's messages, the panel's log, and its sources
    (sources.index.Library.to_state: paths, titles and stamps, never their text)."""

    chat_id: str = field(default_factory=new_id)
    created: float = field(default_factory=time.time)
    updated: float = 0.0
    messages: List[Dict[str, Any]] = field(default_factory=list)
    log: List[Entry] = field(default_factory=list)
    sources: Optional[Dict[str, Any]] = None

    @property
    def title(self) -> str:
        for role, payload in self.log:
            if role == "user":
                return short(str(payload), TITLE_LIMIT)
        return ""


@dataclass
class ChatSummary:
    chat_id: str
    title: str
    updated: float


# -- entries <-> JSON ----------------------------------------------------------
def entry_to_dict(entry: Entry) -> Optional[Dict[str, Any]]:
    """A log entry as a kept chat holds it (events.Entry.to_dict); None for what is not
    kept (status lines)."""
    role, payload = entry
    if role == ev.EVENT and payload.kind in _NOT_KEPT:
        return None
    out = ev.Entry(role, payload).to_dict()
    if role == ev.EVENT and payload.kind == ev.TOOL_RESULT:
        # The panel shows the summary; the full result is in the tool message.
        out.pop("result", None)
    return out


def entry_from_dict(data: Dict[str, Any]) -> Entry:
    return ev.Entry.from_dict(data)


def to_json(chat: KeptChat) -> Dict[str, Any]:
    log: List[Dict[str, Any]] = []
    cited: List[Dict[str, Any]] = []
    for entry in chat.log:
        data = entry_to_dict(entry)
        if data is None:
            continue
        if data.get("type") == ev.CITATIONS:
            # Outside the log: a version before sources reads every log entry as an
            # Event it knows and sets the whole file aside on one it does not.
            cited.append({"after": len(log), "citations": data.get("citations")})
        else:
            log.append(data)
    out = {"format": FORMAT, "id": chat.chat_id, "title": chat.title,
           "created": chat.created, "updated": chat.updated or time.time(),
           "messages": chat.messages, "log": log}
    if chat.sources:
        out["sources"] = chat.sources       # absent for a chat without: older readers skip it
    if cited:
        out["citations"] = cited            # likewise
    return out


def _with_citations(log: List[Entry], cited: Any) -> List[Entry]:
    """The log with the citations kept beside it back in place, each after the entry
    it followed; a damaged list is dropped (the answers stay, their lists do not)."""
    if not isinstance(cited, list):
        return log
    out = list(log)
    good = [(c["after"], n, c["citations"]) for n, c in enumerate(cited)
            if isinstance(c, dict) and isinstance(c.get("after"), int)
            and isinstance(c.get("citations"), dict)]
    for after, _, citations in sorted(good, reverse=True):   # the last first
        out.insert(min(max(after, 0), len(log)),
                   ev.Entry.event(ev.Event(ev.CITATIONS, citations=citations)))
    return out


def from_json(data: Any) -> KeptChat:
    """A KeptChat from parsed JSON; ValueError or TypeError when it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("not a kept chat")
    messages = data["messages"]
    if not isinstance(messages, list) or not all(
            isinstance(m, dict) and isinstance(m.get("role"), str) for m in messages):
        raise ValueError("bad messages")
    log = _with_citations([entry_from_dict(d) for d in data["log"]], data.get("citations"))
    sources = data.get("sources")
    return KeptChat(str(data["id"]), float(data.get("created") or 0),
                    float(data.get("updated") or 0), paired(messages), log,
                    sources if isinstance(sources, dict) else None)


def paired(messages: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The messages with every tool call answered and every tool result asked for.

    The loop always leaves them so; a file edited by hand or cut short may
    not, and servers refuse a call without its result. An assistant message
    whose calls lack results loses those calls (and becomes a plain answer).
    """
    out = []
    i = 0
    while i < len(messages):
        message = messages[i]
        i += 1
        if message.get("role") == "tool":
            continue          # a result whose call was not kept
        calls = message.get("tool_calls") if message.get("role") == "assistant" else None
        if not calls:
            out.append(message)
            continue
        results = []
        while i < len(messages) and messages[i].get("role") == "tool":
            results.append(messages[i])
            i += 1
        answered = set(r.get("tool_call_id") for r in results)
        kept = [c for c in calls if isinstance(c, dict) and c.get("id") in answered]
        message = dict(message)
        if kept:
            message["tool_calls"] = kept
        else:
            message.pop("tool_calls", None)
            message["content"] = message.get("content") or ""
        out.append(message)
        ids = set(c.get("id") for c in kept)
        out.extend(r for r in results if r.get("tool_call_id") in ids)
    return out


# -- files ---------------------------------------------------------------------
def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (temporary file, then rename)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    temp = os.path.join(folder, "%s%s" % (TEMP_PREFIX, new_id()))
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.remove(temp)
        except OSError:
            pass   # never created, or already gone
        raise


def set_aside(path: str) -> str:
    """Rename an unreadable chat file out of the way; the sentence to show."""
    aside = path + ASIDE_SUFFIX
    try:
        os.replace(path, aside)
        return tr("A saved chat of this document could not be read (it was kept as %s); the "
                  "others are unaffected.") % os.path.basename(aside)
    except OSError:
        return tr("A saved chat of this document could not be read (it could not be moved "
                  "aside); the others are unaffected.")


def read_chat(path: str) -> KeptChat:
    """A chat file; HistoryUnreadable (with its sentence) when it cannot be used."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        return from_json(data)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise HistoryUnreadable(str(exc))


class Shelf:
    """The kept chats of one document: the folder ``<chats>/<document id>``.

    Unreadable files met on the way are set aside; their sentences collect in
    ``notes`` for the panel to show once.
    """

    def __init__(self, chats_dir: str, doc_id: str):
        self.folder = os.path.join(chats_dir, doc_id)
        self.notes: List[str] = []

    def path(self, chat_id: str) -> str:
        return os.path.join(self.folder, chat_id + SUFFIX)

    def _files(self) -> List[str]:
        """Chat files, newest first (by modification time: no file is parsed)."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        paths = [os.path.join(self.folder, n) for n in names
                 if n.endswith(SUFFIX) and not n.startswith(".")]
        stamped = []
        for p in paths:
            try:
                stamped.append((os.stat(p).st_mtime, p))
            except OSError:
                pass   # removed meanwhile
        return [p for _t, p in sorted(stamped, reverse=True)]

    def _read(self, path: str) -> Optional[KeptChat]:
        try:
            return read_chat(path)
        except HistoryUnreadable:
            if os.path.exists(path):
                self.notes.append(set_aside(path))
            return None

    def latest(self) -> Optional[KeptChat]:
        """The most recently saved readable chat, or None."""
        for path in self._files():
            chat = self._read(path)
            if chat is not None:
                return chat
        return None

    def load(self, chat_id: str) -> Optional[KeptChat]:
        return self._read(self.path(chat_id))

    def summaries(self) -> List[ChatSummary]:
        """Every readable chat (first message, date), newest first."""
        out = []
        for path in self._files():
            chat = self._read(path)
            if chat is not None:
                out.append(ChatSummary(chat.chat_id, chat.title or "(empty chat)",
                                       chat.updated))
        return sorted(out, key=lambda s: s.updated, reverse=True)

    def save(self, chat: KeptChat) -> None:
        chat.updated = time.time()
        text = json.dumps(to_json(chat), ensure_ascii=False, separators=(",", ":"))
        write_atomic(self.path(chat.chat_id), text)
        self._sweep()

    def _sweep(self) -> None:
        """Remove temporaries an interrupted write left behind (not a running one's)."""
        cutoff = time.time() - 60
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        for name in names:
            if name.startswith(TEMP_PREFIX):
                path = os.path.join(self.folder, name)
                try:
                    if os.stat(path).st_mtime < cutoff:
                        os.remove(path)
                except OSError:
                    pass   # another writer's, finished meanwhile

    def delete(self, chat_id: str) -> None:
        try:
            os.remove(self.path(chat_id))
        except FileNotFoundError:
            pass

    def forget(self) -> int:
        """Remove every chat of the document (unreadable ones too); how many went."""
        removed = 0
        try:
            names = os.listdir(self.folder)
        except OSError:
            return 0
        for name in names:
            try:
                os.remove(os.path.join(self.folder, name))
                removed += name.endswith(SUFFIX)
            except OSError:
                pass   # a folder or a file gone meanwhile: nothing of ours to keep
        try:
            os.rmdir(self.folder)
        except OSError:
            pass   # not empty: something not ours is in it
        return removed


# -- the last turn -------------------------------------------------------------
def last_turn_start(messages: List[Dict[str, Any]], log: List[Entry]) -> Optional[Tuple[int, int]]:
    """(index in messages, index in log) where the last user turn begins, or None."""
    m = next((i for i in range(len(messages) - 1, -1, -1)
              if messages[i].get("role") == "user"), None)
    g = next((i for i in range(len(log) - 1, -1, -1) if log[i][0] == "user"), None)
    if m is None or g is None:
        return None
    return m, g


def last_answer(log: List[Entry]) -> str:
    """The answer text of the last turn: what its final round wrote (no tool chatter)."""
    start = next((i for i in range(len(log) - 1, -1, -1) if log[i][0] == "user"), None)
    if start is None:
        return ""
    pieces: List[str] = []
    called = set()
    for role, payload in log[start + 1:]:
        if role != "event":
            continue
        if payload.kind == ev.TEXT:
            pieces.append(payload.text or "")
        elif payload.kind == ev.TOOL_CALL:
            called.add(payload.call_id)
            pieces = []
        elif payload.kind == ev.RECLASSIFY or (payload.kind == ev.TOOL_RESULT
                                               and payload.call_id in called):
            # Text before a tool call was the model thinking aloud; before a
            # RECLASSIFY it was R1 reasoning. A quick action's result (no call
            # before it) follows its answer: that answer stays the last one.
            pieces = []
    return "".join(pieces).strip()

"""The Library: a chat's sources, their passages, and BM25 search over them.

Ranking is Okapi BM25 (k1 = 1.2, b = 0.75) over every passage of every source
read, with the usual idf log(1 + (N - df + 0.5) / (df + 0.5)) so a word found
everywhere still counts a little and never below zero. Each source keeps its
own postings, so adding or removing one touches nothing else; the collection's
figures (N, df, the mean length) are summed over the sources at search time.

A phrase in double quotes in the query ("net revenue") ranks the passages
holding it exactly above those that only hold its words: its bonus is the best
plain score of the search.

Passages shown to the model get citation keys, numbered in the order they were
first shown and kept for the chat, so [3] means the same passage in every turn.
Each key keeps a digest of the text it was given for: a source read again whose
passage there now holds other text loses that key (it would cite words the
model never saw), and numbers are never given twice.
Threads: the turn's worker searches while the panel's main thread may add or
remove a source or list the keys. The sources are swapped, never changed in
place (a search works on the set it started with), and the keys change under a
lock, so neither side sees a half-made change.

The chat keeps ``to_state()``: which sources (path, title, stamp) and the keys,
never their text; a restored Library holds the sources unread until the office
side reads them again (``fill``).
"""

import hashlib
import heapq
import math
import re
import threading
from bisect import bisect_right
from typing import Any, Dict, Iterable, List, Optional, Tuple

from marginalia.sources.model import Block, Passage, Source, Stamp
from marginalia.sources.passages import cut
from marginalia.sources.text import normalise, tokens

K1 = 1.2
B = 0.75
OVERHEAD = 100      # characters a passage's key and location line take in a tool's answer
ELLIPSIS_GAP = 300  # most characters the words an ellipsis leaves out may span in a quote

_PHRASE = re.compile(r"[\"\u201c\u201d\u201e\u00ab\u00bb]([^\"\u201c\u201d\u201e\u00ab\u00bb]+)"
                     r"[\"\u201c\u201d\u201e\u00ab\u00bb]")

Ref = Tuple[str, int]


class _Entry:
    """One source read: its passages, their normalised text, and its postings."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.passages = cut(source)
        # One normalised string for the source, passage i at starts[i]: quotes that run
        # from one passage into the next are found, and no passage's text is kept twice.
        norms = [normalise(p.text) for p in self.passages]
        self.starts: List[int] = []
        at = 0
        for norm in norms:
            self.starts.append(at)
            at += len(norm) + 1
        self.full = " ".join(norms)
        self.lengths: List[int] = []
        self.postings: Dict[str, Dict[int, int]] = {}
        for index, passage in enumerate(self.passages):
            terms = tokens(passage.heading + "\n" + passage.text if passage.heading
                           else passage.text)
            self.lengths.append(len(terms))
            for term in terms:
                row = self.postings.get(term)
                if row is None:
                    self.postings[term] = {index: 1}
                else:
                    row[index] = row.get(index, 0) + 1
        self.chars = sum(len(p.text) for p in self.passages)

    def holds(self, index: int, phrase: str) -> bool:
        """Whether passage ``index`` holds the normalised phrase."""
        end = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.full)
        return self.full.find(phrase, self.starts[index], end) >= 0

    def find(self, parts: List[str]) -> Optional[int]:
        """The passage where the normalised ``parts`` start, found in this order, each
        piece after the first within ELLIPSIS_GAP characters of the one before, or None."""
        at = _find_words(self.full, parts[0], 0)
        while at >= 0:
            end = at + len(parts[0])
            for part in parts[1:]:
                end = _find_words(self.full, part, end, end + ELLIPSIS_GAP + len(part))
                if end < 0:
                    break
                end += len(part)
            else:
                return bisect_right(self.starts, at) - 1
            at = _find_words(self.full, parts[0], at + 1)
        return None


def _wordy(char: str) -> bool:
    # Letters and digits of scripts that space their words; CJK runs have no boundaries.
    return char.isalnum() and ord(char) < 0x2E80


def _find_words(full: str, phrase: str, start: int, end: Optional[int] = None) -> int:
    """Where ``phrase`` stands in ``full[start:end]`` as whole words ("4% rise" is not
    in "14% rise"), or -1."""
    end = len(full) if end is None else min(end, len(full))
    at = full.find(phrase, start, end)
    while at >= 0:
        after = at + len(phrase)
        if not (_wordy(phrase[0]) and at > 0 and _wordy(full[at - 1])) and not (
                _wordy(phrase[-1]) and after < len(full) and _wordy(full[after])):
            return at
        at = full.find(phrase, at + 1, end)
    return -1


class Library:
    """A chat's sources, searchable; ids "S1", "S2"... never reused within the chat."""

    def __init__(self) -> None:
        self._sources: Dict[str, Source] = {}
        self._entries: Dict[str, _Entry] = {}
        self._next = 1
        self._keys: Dict[int, Ref] = {}
        self._key_of: Dict[Ref, int] = {}
        self._shown: Dict[Ref, Passage] = {}      # keyed passages, kept if their source goes
        self._digests: Dict[int, str] = {}         # key: digest of its passage's text
        self._next_key = 1
        self._lock = threading.Lock()             # for the keys, and the id counter

    # ------------------------------------------------------------ the sources

    def add(self, title: str, path: str, blocks: Optional[List[Block]],
            stamp: Stamp = None) -> Source:
        """Add a source (or read again the one with this path, or title without a path)."""
        with self._lock:
            source = self._same(title, path)
            if source is None:
                source = Source("S%d" % self._next, title, path, None, stamp)
                self._next += 1
                self._sources = dict(self._sources, **{source.id: source})
        return self.fill(source.id, blocks, stamp)

    def fill(self, source_id: str, blocks: Optional[List[Block]], stamp: Stamp = None) -> Source:
        """Give a source (restored, or changed) its blocks as read now, and index them."""
        source = self._sources[source_id]
        source.blocks = list(blocks) if blocks is not None else None
        source.stamp = stamp
        # The slow part, outside the lock: the panel's main thread may list meanwhile.
        entry = _Entry(source) if source.blocks is not None else None
        with self._lock:      # two fills at once must not each drop the other's entry
            entries = dict(self._entries)
            entries.pop(source_id, None)
            if entry is not None and source_id in self._sources:
                entries[source_id] = entry
                self._drop_changed_keys(source_id, entry.passages)
            self._entries = self._in_order(entries)
        return source

    def _drop_changed_keys(self, source_id: str, passages: List[Passage]) -> None:
        # Called under self._lock.
        for key, ref in list(self._keys.items()):
            digest = self._digests.get(key)
            if ref[0] != source_id or digest is None:
                continue          # another source, or a key kept before digests were
            if ref[1] < len(passages) and _digest(passages[ref[1]].text) == digest:
                continue
            del self._keys[key]
            self._key_of.pop(ref, None)
            self._shown.pop(ref, None)
            self._digests.pop(key, None)

    def remove(self, source_id: str) -> bool:
        """Drop a source; False when there was none by that id."""
        with self._lock:
            found = source_id in self._sources
            self._sources = {k: v for k, v in self._sources.items() if k != source_id}
            self._entries = {k: v for k, v in self._entries.items() if k != source_id}
        return found

    def _in_order(self, entries: Dict[str, _Entry]) -> Dict[str, _Entry]:
        """The entries in the sources' order: a re-read source keeps its place in ties."""
        return {k: entries[k] for k in self._sources if k in entries}

    def sources(self) -> List[Source]:
        """The sources in the order they were added."""
        return list(self._sources.values())

    def source(self, name: str) -> Optional[Source]:
        """The source with this id ("S2"), file name or title (case-insensitive), or None."""
        sources = self._sources
        if name in sources:
            return sources[name]
        wanted = name.strip().casefold()
        for source in sources.values():
            if wanted in (source.id.casefold(), source.name.casefold(), source.title.casefold()):
                return source
        return None

    def passages(self, source_id: str) -> List[Passage]:
        entry = self._entries.get(source_id)
        return list(entry.passages) if entry else []

    def _same(self, title: str, path: str) -> Optional[Source]:
        for source in self._sources.values():
            if (path and source.path == path) or (not path and not source.path
                                                  and source.title == title):
                return source
        return None

    # ------------------------------------------------------------ search and read

    def search(self, query: str, k: int = 5,
               budget_chars: Optional[int] = None) -> List[Tuple[Passage, float]]:
        """The ``k`` best passages for the query, best first, as (passage, score).

        With ``budget_chars``, only as many as fit it (text plus OVERHEAD each), but
        always the best one: the caller cuts it to the room there is.
        """
        entries = list(self._entries.values())
        terms = list(dict.fromkeys(tokens(query)))
        count = sum(len(e.lengths) for e in entries)
        if not terms or not count or k <= 0:
            return []
        mean = sum(sum(e.lengths) for e in entries) / count
        scores: Dict[Tuple[int, int], float] = {}
        for term in terms:
            rows = [(slot, e.postings.get(term)) for slot, e in enumerate(entries)]
            df = sum(len(row) for _, row in rows if row)
            if not df:
                continue
            idf = math.log(1.0 + (count - df + 0.5) / (df + 0.5))
            for slot, row in rows:
                if not row:
                    continue
                lengths = entries[slot].lengths
                for index, tf in row.items():
                    norm = K1 * (1.0 - B + B * lengths[index] / mean)
                    key = (slot, index)
                    scores[key] = scores.get(key, 0.0) + idf * tf * (K1 + 1.0) / (tf + norm)
        if not scores:
            return []
        phrases = [normalise(p) for p in _PHRASE.findall(query) if normalise(p)]
        if phrases:
            bonus = max(scores.values())
            for (slot, index) in scores:
                hits = sum(1 for phrase in phrases if entries[slot].holds(index, phrase))
                if hits:
                    scores[(slot, index)] += bonus * hits
        best = heapq.nsmallest(k, scores.items(), key=lambda item: (-item[1], item[0]))
        found = [(entries[slot].passages[index], score) for (slot, index), score in best]
        return _within(found, budget_chars)

    def read(self, source_id: str, index: int, neighbours: int = 1) -> List[Passage]:
        """Passage ``index`` of the source with up to ``neighbours`` on each side.

        Raises KeyError for a source not in the library (or not read), IndexError for a
        passage it does not have.
        """
        entry = self._entries.get(source_id)
        if entry is None:
            raise KeyError(source_id)
        if not 0 <= index < len(entry.passages):
            raise IndexError(index)
        neighbours = max(0, neighbours)
        return entry.passages[max(0, index - neighbours):index + neighbours + 1]

    def total_chars(self) -> int:
        """The characters of every source read, as passages with their key lines."""
        return sum(e.chars + OVERHEAD * len(e.passages) for e in self._entries.values())

    def whole_fits(self, budget_chars: int) -> bool:
        """Whether every source, whole, fits the budget (then they may go in as they are)."""
        return bool(self._entries) and self.total_chars() <= budget_chars

    def find(self, quote: str, source_ids: Optional[Iterable[str]] = None) -> Optional[Passage]:
        """The passage where ``quote`` (compared normalised) starts, or None."""
        # "..." in a quotation stands for left-out words: its pieces must come in order.
        parts = [p.strip() for p in normalise(quote).split("...")]
        parts = [p for p in parts if p]
        if not parts:
            return None
        wanted = list(source_ids) if source_ids is not None else list(self._entries)
        for source_id in wanted:
            entry = self._entries.get(source_id)
            index = entry.find(parts) if entry else None
            if index is not None:
                return entry.passages[index]
        return None

    # ------------------------------------------------------------ citation keys

    def key(self, passage: Passage) -> int:
        """The passage's citation key, given the first time it is shown: 1, 2, 3..."""
        ref = passage.ref
        with self._lock:
            key = self._key_of.get(ref)
            if key is None:
                key = self._next_key
                self._next_key += 1
                self._keys[key] = ref
                self._key_of[ref] = key
                self._digests[key] = _digest(passage.text)
            self._shown[ref] = passage
        return key

    def cited(self, key: int) -> Optional[Passage]:
        """The passage a key names (also when its source was removed since), or None."""
        with self._lock:
            ref = self._keys.get(key)
        if ref is None:
            return None
        entry = self._entries.get(ref[0])
        if entry is not None and ref[1] < len(entry.passages):
            return entry.passages[ref[1]]
        with self._lock:
            return self._shown.get(ref)

    def keys(self) -> Dict[int, Passage]:
        """Every key with the passage it names (keys whose passage is unknown left out)."""
        out = {}
        with self._lock:
            keys = list(self._keys)
        for key in keys:
            passage = self.cited(key)
            if passage is not None:
                out[key] = passage
        return out

    # ------------------------------------------------------------ kept with the chat

    def to_state(self) -> Dict[str, Any]:
        """What the chat keeps: the sources by path, title and stamp, and the keys; no text."""
        with self._lock:
            keys = sorted(self._keys.items())
            digests = dict(self._digests)
            next_key = self._next_key
        return {"next": self._next, "next_key": next_key,
                "sources": [{"id": s.id, "title": s.title, "path": s.path,
                             "stamp": list(s.stamp) if s.stamp else None}
                            for s in self._sources.values()],
                "keys": [[key, ref[0], ref[1]] + ([digests[key]] if key in digests else [])
                         for key, ref in keys]}

    @classmethod
    def from_state(cls, state: Any) -> "Library":
        """A Library with the kept sources unread (``fill`` them); a broken state gives an
        empty one, never an exception: a chat must open whatever its file holds."""
        library = cls()
        if not isinstance(state, dict):
            return library
        for item in state.get("sources") or ():
            try:
                stamp = item.get("stamp")
                source = Source(str(item["id"]), str(item.get("title") or ""),
                                str(item.get("path") or ""), None,
                                (int(stamp[0]), float(stamp[1])) if stamp else None)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                continue
            library._sources[source.id] = source
        numbers = [int(s.id[1:]) for s in library._sources.values() if s.id[1:].isdigit()]
        try:
            library._next = max([int(state.get("next") or 1)] + [n + 1 for n in numbers])
        except (TypeError, ValueError):
            library._next = max([1] + [n + 1 for n in numbers])
        for row in state.get("keys") or ():
            try:
                key, ref = int(row[0]), (str(row[1]), int(row[2]))
            except (TypeError, ValueError, IndexError):
                continue
            library._keys[key] = ref
            library._key_of[ref] = key
            if len(row) > 3 and isinstance(row[3], str):
                library._digests[key] = row[3]
        try:
            next_key = int(state.get("next_key") or 1)
        except (TypeError, ValueError):
            next_key = 1
        library._next_key = max([next_key] + [k + 1 for k in library._keys])
        return library


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _within(found: List[Tuple[Passage, float]],
            budget_chars: Optional[int]) -> List[Tuple[Passage, float]]:
    if budget_chars is None:
        return found
    out, used = [], 0
    for passage, score in found:
        size = len(passage.text) + OVERHEAD
        if out and used + size > budget_chars:
            break
        out.append((passage, score))
        used += size
    return out

"""The model's two source tools, search_sources and read_source, over a Library.

Their answers are plain text the model reads: each passage under a line giving
its citation key, where it is and how to read on::

    [2] report.pdf, § Results, p. 3 (source S1, passage 4)
    Net revenue rose by 12 % ...

Both are sized tools: the registry passes ``budget``, the characters left in the
context window, and an answer never holds more (nor more than the ``budget``
given to ``register``). Passages that do not fit are left out and said so; a
first passage alone too long is cut between words, with how to read the rest.
"""

from typing import Any, Dict, List, Optional

from marginalia.document import tool_lines
from marginalia.errors import ToolError
from marginalia.i18n.catalog import N_
from marginalia.sources.index import Library
from marginalia.sources.model import Passage

DEFAULT_BUDGET = 8000     # characters one answer may hold when the window leaves more
MAX_LIMIT = 10
# What each tool does, as the user's "Couldn't …" line finishes it (msgids; ui.tool_words
# reads them too).
ACTIONS = {"search_sources": N_("search the sources"), "read_source": N_("read the source")}
NO_ROOM = "No room is left in this chat for a passage; answer with what you have."

SEARCH_DESCRIPTION = (
    "Search the sources the user gave this chat (files, other documents) for passages "
    "about a query; returns the best passages, best first, each under a key like [3] with "
    "its source and location. Use words likely to be in the text; put an exact phrase in "
    "double quotes. When you use a passage, cite it by its key, e.g. [3], right after the "
    "claim; quote only text that is in the passage, word for word, in quotation marks.")
READ_DESCRIPTION = (
    "Read a passage of a source with the passages around it (to see a passage's context or "
    "read on after search_sources). Cite what you use by the keys shown, e.g. [3]; quote "
    "only text that is in the passages, word for word.")

SEARCH_SCHEMA: Dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string",
                  "description": "Words to look for; an exact phrase in double quotes."},
        "limit": {"type": "integer", "description": "How many passages at most (1-10)."},
    },
    "required": ["query"],
}
READ_SCHEMA: Dict[str, Any] = {
    "type": "object",
    "properties": {
        "source": {"type": "string",
                   "description": "The source's id (like S1) or file name, as shown."},
        "passage": {"type": "integer", "description": "The passage number, as shown."},
        "neighbours": {"type": "integer",
                       "description": "How many passages before and after to add (0-3)."},
    },
    "required": ["source", "passage"],
}


def _head(library: Library, passage: Passage) -> str:
    return "[%d] %s (source %s, passage %d)" % (library.key(passage), passage.location(),
                                                passage.source_id, passage.index)


def _cut(text: str, room: int) -> str:
    """The text's start, cut between words to fit ``room`` characters with the mark."""
    mark = " \u2026"
    if len(text) <= room:
        return text
    room = max(0, room - len(mark))
    head = text[:room]
    space = head.rfind(" ")
    if space > room // 2:
        head = head[:space]
    return head.rstrip() + mark


def _render(library: Library, passages: List[Passage], budget: int,
            more: str) -> str:
    """Passages under their key lines, as many as fit ``budget``; ``more`` says what
    to do about the ones left out (it is told only when some are)."""
    parts: List[str] = []
    used = 0
    for n, passage in enumerate(passages):
        head = _head(library, passage)
        block = head + "\n" + passage.text
        left = len(passages) - n
        tail = ("\n\n(%d more passage%s did not fit: %s)" % (left - 1, "" if left == 2 else "s",
                                                             more)) if left > 1 else ""
        if used + len(block) + 2 + len(tail) <= budget:
            parts.append(block)
            used += len(block) + 2
            continue
        if not parts:
            # The first passage alone is too long: its start, and how to read it.
            note = ("\n(cut to fit: read_source source %s passage %d with neighbours 0 "
                    "reads it whole)" % (passage.source_id, passage.index))
            room = budget - len(head) - 1 - len(note) - len(tail)
            if room < 40:
                return NO_ROOM[:budget]
            parts.append(head + "\n" + _cut(passage.text, room) + note)
        skipped = len(passages) - len(parts)
        if skipped:
            told = "\n\n(%d more passage%s did not fit: %s)" % (
                skipped, "" if skipped == 1 else "s", more)
            if used + len(told) <= budget or not parts:
                parts.append(told.strip())
        break
    return "\n\n".join(parts)[:budget]


def search_sources(library: Library, query: str, limit: int = 5,
                   budget: Optional[int] = None) -> str:
    """The ranked passages for a query, with keys, sized to ``budget`` characters."""
    budget = budget or DEFAULT_BUDGET
    if not library.sources():
        raise ToolError("This chat has no sources.")
    if not isinstance(query, str) or not query.strip():
        raise ToolError("Give a query: words to look for.", tool_lines.did_not_fit_request())
    try:
        limit = max(1, min(MAX_LIMIT, int(limit)))
    except (TypeError, ValueError):
        limit = 5
    found = library.search(query, k=limit)
    if not found:
        return "No passage of the sources matches %s. Try other words." % _quoted(query)
    return _render(library, [p for p, _ in found], budget,
                   "search with fewer passages or other words")


def read_source(library: Library, source: str, passage: int, neighbours: int = 1,
                budget: Optional[int] = None) -> str:
    """A passage and its neighbours, with keys, sized to ``budget`` characters."""
    budget = budget or DEFAULT_BUDGET
    found = library.source(str(source))
    if found is None:
        names = ", ".join("%s (%s)" % (s.id, s.name) for s in library.sources()) or "none"
        raise ToolError("There is no source %s. The sources: %s." % (_quoted(source), names))
    count = len(library.passages(found.id))
    if not found.loaded:
        raise ToolError("The source %s could not be read." % found.name)
    try:
        passage = int(passage)      # a model may send "4"
    except (TypeError, ValueError):
        passage = -1
    if not 0 <= passage < count:
        raise ToolError("%s has passages 0 to %d." % (found.name, count - 1),
                        tool_lines.did_not_fit_request())
    try:
        neighbours = max(0, min(3, int(neighbours)))
    except (TypeError, ValueError):
        neighbours = 1
    passages = library.read(found.id, passage, neighbours)
    return _render(library, passages, budget, "read with fewer neighbours")


def _quoted(text: Any) -> str:
    return "\u201c%s\u201d" % str(text)[:80]


def whole_text(library: Library) -> str:
    """Every source whole, each passage under its key line: for sources small enough
    to go into the request as they are (Library.whole_fits)."""
    parts = []
    for source in library.sources():
        for passage in library.passages(source.id):
            parts.append(_head(library, passage) + "\n" + passage.text)
    return "\n\n".join(parts)


def register(registry: Any, library: Library, budget: int = DEFAULT_BUDGET) -> None:
    """Register search_sources and read_source over ``library`` into a ToolRegistry;
    ``budget``: the most characters one answer holds, whatever room the window leaves."""
    cap = int(budget)

    def sized(room: Optional[int]) -> int:
        return min(cap, room) if room else cap

    def search(query: str, limit: int = 5, budget: Optional[int] = None) -> str:
        return search_sources(library, query, limit, sized(budget))

    def read(source: str, passage: int, neighbours: int = 1,
             budget: Optional[int] = None) -> str:
        return read_source(library, source, passage, neighbours, sized(budget))

    registry.register("search_sources", SEARCH_DESCRIPTION, SEARCH_SCHEMA, search, sized=True,
                      action=ACTIONS["search_sources"])
    registry.register("read_source", READ_DESCRIPTION, READ_SCHEMA, read, sized=True,
                      action=ACTIONS["read_source"])

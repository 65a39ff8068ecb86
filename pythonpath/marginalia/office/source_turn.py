"""A chat turn's side of its sources: before it, the tools and the prompt; after, the citations.

Before: the sources not read yet (a chat opened again) or changed on disk are
read (one NOTICE sentence each for a file moved, changed or unreadable);
search_sources and read_source join the turn's tools, sized to the room the
window leaves; the system message names the sources, and holds them whole
when all of them fit in half the room a document may take inline
(chat.budget.inline_chars). The model is also told of the last answer's
quotes that were not found.

After: the answer's [n] keys are matched to the passages shown under them and
its quotes looked up in the sources (sources.citations); one CITATIONS event
carries both to the panel and the runner. The keys are listed as the model
wrote them: the answer already stands in the panel with those numbers. An
edit whose new text is found in a source names that passage's place on its
change record, which the change card's review list shows (drew_on).
"""

import logging
import re
from typing import Any, Callable, Optional

from marginalia import events as ev
from marginalia.chat import budget, prompt
from marginalia.sources import citations, tools

log = logging.getLogger("marginalia.sources")

# The most characters one search_sources / read_source answer may hold.
TOOL_BUDGET = tools.DEFAULT_BUDGET
# Shortest room a sized source answer gets even in a small window.
TOOL_FLOOR = 1500
PREVIEW = 600         # characters of a cited passage the event carries (the panel's tooltip)


def begin(sources: Any, registry: Any, window: Any, emit: Callable[[ev.Event], None],
          run: Callable, cancel: Any = None) -> Optional[str]:
    """Ready the turn's sources; the system message's sources part, or None without.
    Raises errors.Cancelled when the turn is stopped while its sources are read."""
    if sources is None or not sources.sources():
        return None
    for note in sources.refresh(run, cancel):
        emit(ev.Event(ev.NOTICE, message=note))
    library = sources.library
    room = budget.inline_chars(window)
    tools.register(registry, library, max(TOOL_FLOOR, min(TOOL_BUDGET, room)))
    names = [(s.id, s.name) for s in library.sources() if s.loaded]
    if not names:
        return None
    whole = tools.whole_text(library) if library.whole_fits(room // 2) else ""
    told, sources.told = sources.told, None
    return prompt.sources_section(names, whole, told)


def end(sources: Any, answer: str) -> Optional[ev.Event]:
    """The CITATIONS event for the turn's answer, or None when it cites and quotes nothing."""
    if sources is None or not sources.sources() or not answer:
        return None
    library = sources.library
    numbered = citations.number(answer, library.keys())
    checks = citations.check_quotes(answer, library)
    sources.told = citations.notice(checks)
    if not numbered.citations and not checks and not numbered.unknown:
        return None
    cited = [{"key": c.key, "number": c.number, "location": c.passage.location(),
              "source": c.passage.source_id, "passage": c.passage.index,
              "text": c.passage.text[:PREVIEW]} for c in numbered.citations]
    quotes = [{"quote": q.quote, "found": q.found, "key": q.key,
               "location": q.passage.location() if q.passage is not None else None}
              for q in checks]
    return ev.Event(ev.CITATIONS, citations={"cited": cited, "quotes": quotes,
                                             "unknown": list(numbered.unknown)})


_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")
WINDOW = 8            # words in a run of an edit's new text looked up in the sources
MAX_LOOKUPS = 40


def drew_on(sources: Any, change: Any) -> None:
    """Name on ``change`` (document.change_log.Change) the source passage its new text
    comes from: a sentence of it, or a run of WINDOW words, found word for word there."""
    if sources is None or not sources.sources() or not getattr(change, "after", ""):
        return
    words = change.after.split()
    runs = [s.strip().rstrip(".!?;:") for s in _SENTENCE.split(change.after)
            if len(s.split()) >= 6]
    runs += [" ".join(words[i:i + WINDOW]) for i in range(0, max(1, len(words) - WINDOW + 1),
                                                          WINDOW // 2)]
    library = sources.library
    for run in runs[:MAX_LOOKUPS]:
        if len(run.split()) < min(WINDOW, 6):
            continue
        try:
            passage = library.find(run)
        except Exception:
            log.exception("looking up an edit in the sources failed")
            return
        if passage is not None:
            change.source = passage.location()
            return

"""A tool call's line in the conversation, written for the user, not the model (pure).

The registry's summaries are written for the model's log ("replace_text
failed: No match for “Costs rose”; nothing was changed. Use search_document
first ..."): the panel shows what happened to the user's document in plain
words ("Couldn't find “Costs rose” — nothing changed") and leaves out advice
addressed to the model and tool names.
"""

import re
from typing import Optional

from marginalia.document.tool_specs import SPECS

# What each tool does, as "Couldn't ..." would finish it; its line when done; the
# status line while it runs (the loop says "Running replace_text…"): its declaration's words.
ACTIONS = {spec.name: spec.words.action for spec in SPECS}
DONE = {spec.name: spec.words.done for spec in SPECS}
RUNNING = {spec.name: spec.words.running for spec in SPECS}
# The chat's source tools (marginalia.sources.tools) are no document tools: their words here.
ACTIONS.update(search_sources="search the sources", read_source="read the source")
DONE.update(search_sources="Searched the sources", read_source="Read a source passage")
RUNNING.update(search_sources="Searching the sources\u2026",
               read_source="Reading a source passage\u2026")
WORKING = "Working on the document\u2026"
NOTHING_CHANGED = " \u2014 nothing changed"
_NO_MATCH = re.compile("^No match for (\u201c.*?\u201d)")
_TOOL_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")
_SENTENCE = re.compile(r"(?<=[.;])\s+")


def _action(name: Optional[str]) -> str:
    return ACTIONS.get(name or "", "do that")


def _for_user(reason: str) -> str:
    """The reason's sentences that speak to the user: none naming a tool or advising one."""
    kept = []
    for sentence in _SENTENCE.split(reason.strip()):
        if _TOOL_NAME.search(sentence) or sentence.startswith(("Use ", "Ask ", "Call ", "Give ")):
            continue
        kept.append(sentence.rstrip(" ;."))
    return "; ".join(s for s in kept if s)


def running(name: str) -> str:
    """The status line while the tool ``name`` runs, in the user's words."""
    return RUNNING.get(name, WORKING)


def tool_line(name: Optional[str], ok: Optional[bool], summary: Optional[str]) -> str:
    """One short line for a finished tool call."""
    name = name or ""
    summary = (summary or "").strip()
    if ok:
        if not summary or summary == name:
            return DONE.get(name, "Done")
        return summary
    if summary.endswith(" cancelled"):
        return "Stopped before it could %s" % _action(name)
    if summary.startswith("Unknown tool"):
        return "The model asked for something Marginalia cannot do"
    reason = summary.split(" failed", 1)[1].lstrip(": ") if " failed" in summary else summary
    if reason == "bad arguments":
        return "Couldn't %s: the model's request was incomplete" % _action(name)
    found = _NO_MATCH.match(reason)
    if found:
        return "Couldn't find %s%s" % (found.group(1), NOTHING_CHANGED)
    said = _for_user(reason)
    if not said:
        return "Couldn't %s" % _action(name)
    said = said.replace("; nothing was changed", "").replace("nothing was changed", "")
    if said[1:2].islower():
        said = said[0].lower() + said[1:]
    changed = "nothing was changed" in reason or "nothing was inserted" in reason
    return "Couldn't %s: %s%s" % (_action(name), said.strip(" ;") or "it failed",
                                  NOTHING_CHANGED if changed else "")

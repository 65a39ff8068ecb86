"""A tool call's line in the conversation, written for the user, not the model (pure).

The registry's summaries are written for the model's log ("replace_text
failed: No match for “Costs rose”; nothing was changed. Use search_document
first ..."): the panel shows what happened to the user's document in plain
words ("Couldn't find “Costs rose” — nothing changed") and leaves out advice
addressed to the model and tool names. A call's phrase (i18n.phrase) is that line
as data, in the user's language.
"""

import re
from typing import Any, Optional

from marginalia.document import tool_lines
from marginalia.document.tool_specs import SPECS
from marginalia.i18n import phrase
from marginalia.i18n.catalog import N_, tr
from marginalia.sources import tools as source_tools

# What each tool does, as "Couldn't ..." would finish it; its line when done; the
# status line while it runs (the loop says "Running replace_text…"): its declaration's words.
ACTIONS = {spec.name: spec.words.action for spec in SPECS}
DONE = {spec.name: spec.words.done for spec in SPECS}
RUNNING = {spec.name: spec.words.running for spec in SPECS}
# The chat's source tools are no document tools: their actions are sources.tools' own (its
# registration fills refusals with them), their other words here.
# All in English here, translated where a line is written. A refusal comes with its
# phrase (document.tool_lines, the registry fills its action); only a refusal without
# one (a tool's rarer ones, a chat kept before phrases) is read from its English.
ACTIONS.update(source_tools.ACTIONS)
DONE.update(search_sources=N_("Searched the sources"), read_source=N_("Read a source passage"))
RUNNING.update(search_sources=N_("Searching the sources\u2026"),
               read_source=N_("Reading a source passage\u2026"))
WORKING = N_("Working on the document\u2026")
NOTHING_CHANGED = N_("%s \u2014 nothing changed")     # after a line: what was not done
_TOOL_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")
_SENTENCE = re.compile(r"(?<=[.;])\s+")
# Sentences that advise the model ("Leave that passage as it is, or ask the user ..."):
# they start so, or speak of "the user"; the panel leaves them out.
_ADVICE = re.compile(r"^(use|ask|call|give|leave|read|retry|try|to|if|put|select|check|"
                     r"delete|some of its)\b|\bthe user\b", re.IGNORECASE)
# A reason's first word that reads lower-case after "Couldn't ...: " (names keep theirs).
_COMMON = ("The", "That", "This", "Nothing", "A", "An", "It", "Inside", "There")


def _action(name: Optional[str]) -> str:
    words = ACTIONS.get(name or "") or tool_lines.DO_THAT
    return tr(words)


def _lower(text: str) -> str:
    return text[0].lower() + text[1:] if text.split(" ", 1)[0] in _COMMON + (
        "Paragraph", "Paragraphs") else text


def _for_user(reason: str) -> str:
    """The reason's sentences that speak to the user: none naming a tool or advising one."""
    kept = []
    for sentence in _SENTENCE.split(reason.strip()):
        if _TOOL_NAME.search(sentence) or _ADVICE.search(sentence):
            continue
        kept.append(sentence.rstrip(" ;."))
    return "; ".join(s for s in kept if s)


def running(name: str) -> str:
    """The status line while the tool ``name`` runs, in the user's words."""
    words = RUNNING.get(name, WORKING)
    return tr(words)


def tool_line(name: Optional[str], ok: Optional[bool], summary: Optional[str],
              said: Any = None) -> str:
    """One short line for a finished tool call; ``said`` is the tool's own phrase for it
    (i18n.phrase, or its JSON form from a kept chat), read in the user's language."""
    name = name or ""
    found = phrase.said(said)
    if found is not None:
        return found.words()
    summary = (summary or "").strip()
    if ok:
        if not summary or summary == name:
            words = DONE.get(name) or N_("Done")
            return tr(words)
        return summary
    # A refusal without a phrase (a kept chat from before, a tool's rarer refusals): its
    # sentences for the user, none addressed to the model.
    reason = summary.split(" failed", 1)[1].lstrip(": ") if " failed" in summary else summary
    changed = "nothing was changed" in reason.lower() or "nothing was inserted" in reason
    said = _for_user(reason)
    if not said:
        return tr("Couldn't %s") % _action(name)
    said = re.sub("(; )?nothing was changed", "", said, flags=re.IGNORECASE)
    said = _lower(said).strip(" ;") or tr("it failed")
    return _unchanged(tr("Couldn't %(action)s: %(reason)s") % {"action": _action(name),
                                                               "reason": said}, changed)


def _unchanged(line: str, changed: bool) -> str:
    return tr(NOTHING_CHANGED) % line if changed else line


def _sentence(said: Any) -> Optional[str]:
    """A refusal's phrase as one sentence; None when there is none (or it is not one)."""
    found = phrase.said(said)
    return found.words() + "." if found is not None else None


def in_user_words(reason: str, said: Any = None) -> str:
    """A sentence that may be a tool's refusal worded for the model (the change card's
    Apply runs the tools): its phrase in the user's words, anything else as it is (the
    card's own sentences speak to the user already)."""
    return _sentence(said) or reason


def refusal(reason: str, said: Any = None) -> str:
    """A refusal as the one sentence an error line shows (a quick action's output refused
    by the document): the user's words (its phrase when the refuser wrote one), never
    the model's instructions."""
    found = _sentence(said)
    if found:
        return found
    kept = [s for s in _SENTENCE.split(reason.strip())
            if not (_TOOL_NAME.search(s) or _ADVICE.search(s))]
    return " ".join(kept) if kept else tr("Marginalia could not change the text there.")

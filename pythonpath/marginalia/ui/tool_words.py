"""A tool call's line in the conversation, written for the user, not the model (pure).

The registry's summaries are written for the model's log ("replace_text
failed: No match for “Costs rose”; nothing was changed. Use search_document
first ..."): the panel shows what happened to the user's document in plain
words ("Couldn't find “Costs rose” — nothing changed") and leaves out advice
addressed to the model and tool names.
"""

import re
from typing import Optional

# What each tool does, as "Couldn't ..." would finish it.
ACTIONS = {
    "get_document_info": "look at the document",
    "read_document": "read the document",
    "search_document": "search the document",
    "get_selection": "read the selection",
    "replace_text": "change the text",
    "insert_paragraphs": "add the paragraphs",
    "replace_paragraphs": "rewrite the paragraphs",
    "delete_paragraphs": "delete the paragraphs",
    "replace_selection": "replace the selection",
    "set_paragraph_style": "set the paragraph style",
    "format_text": "format the text",
    "add_comment": "add the comment",
    "insert_table": "insert the table",
}
DONE = {
    "get_document_info": "Looked at the document",
    "read_document": "Read the document",
    "search_document": "Searched the document",
    "get_selection": "Read the selection",
    "replace_text": "Changed the text",
    "insert_paragraphs": "Added paragraphs",
    "replace_paragraphs": "Rewrote paragraphs",
    "delete_paragraphs": "Deleted paragraphs",
    "replace_selection": "Replaced the selection",
    "set_paragraph_style": "Set a paragraph style",
    "format_text": "Formatted text",
    "add_comment": "Added a comment",
    "insert_table": "Inserted a table",
}
# The status line while a call runs (the loop says "Running replace_text…").
RUNNING = {
    "get_document_info": "Looking at the document\u2026",
    "read_document": "Reading the document\u2026",
    "search_document": "Searching the document\u2026",
    "get_selection": "Reading the selection\u2026",
    "replace_text": "Changing the text\u2026",
    "insert_paragraphs": "Adding paragraphs\u2026",
    "replace_paragraphs": "Rewriting paragraphs\u2026",
    "delete_paragraphs": "Deleting paragraphs\u2026",
    "replace_selection": "Replacing the selection\u2026",
    "set_paragraph_style": "Setting a paragraph style\u2026",
    "format_text": "Formatting text\u2026",
    "add_comment": "Adding a comment\u2026",
    "insert_table": "Inserting a table\u2026",
}
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

"""How a round of calls stays in the history, and when it ends the turn (pure).

Two cases keep calls as text instead of tool messages: a request that sent no tools (a
server without tool calls may refuse tool messages), and, in the rewrite protocol, a
round that made its edits and nothing else, which ends the turn (chat.loop): no round
for a summary a small model only echoes, or repeats the call; remembered as the block
the model wrote, since a chat template may refuse a user message right after tool
results (Mistral's).
"""

import json
from typing import Any, Dict, List, Optional, Tuple

from marginalia.chat.textcalls import EDIT_FENCE

def _written(call: Dict[str, Any]) -> str:
    """A call of the written edit as the block the model wrote."""
    try:
        text = json.loads(call["arguments"]).get("text", "")
    except (ValueError, AttributeError):
        text = ""
    return "%s\n%s\n```" % (EDIT_FENCE, text)


def as_text(messages: List[Dict[str, Any]], at: int, calls: List[Dict[str, Any]],
            said: Optional[List[str]] = None, fence_tool: Optional[str] = None) -> None:
    """Keep an exchange as text: the answer (``messages[at-1]``) with its fenced block(s)
    again and no tool calls, the results (``messages[at:]``) in one user message after
    it. With ``said`` (the turn ended on these calls, all made) no results follow: the
    written edit is its block, another call what it did ("Replaced 3 occurrences...")."""
    results = messages[at:]
    del messages[at:]
    parts = [(messages[at - 1].get("content") or "").strip()]
    for position, call in enumerate(calls):
        if said is None or call.get("name") == fence_tool:
            parts.append(_written(call))
        elif position < len(said):
            parts.append(said[position])
    messages[at - 1] = {"role": "assistant", "content": "\n\n".join(p for p in parts if p)}
    if said is None:
        text = "\n".join(str(r.get("content", "")) for r in results)
        messages.append({"role": "user", "content": "[The result of your edit] " + text})


# A question answered with an edit that was no edit ("```edit\n4\n```" for "how many
# paragraphs?": the 1.5B imitates its earlier turn's block): told to answer in words.
ANSWER_IN_WORDS = ("The user asked a question, and that was no edit of the document: "
                   "answer the question in words, with no edit block.")


def settle(messages: List[Dict[str, Any]], at: int, calls: List[Dict[str, Any]],
           done: List[Tuple[Tuple[str, bool], str]], registry: Any, fence_tool: Optional[str],
           rewrite: Any, tools_sent: Any, asked: bool = False) -> bool:
    """After a round's calls ran (``done``: ((name, ok), summary) each, their results from
    ``messages[at]`` on): True when the turn ends here (see the module docstring).
    ``asked``: the user's message is a question."""
    if rewrite is not None and done and all(ok and registry.edits(name)
                                            for (name, ok), _said in done):
        as_text(messages, at, calls, [said for _call, said in done], fence_tool)
        return True
    if asked and fence_tool and done and all(name == fence_tool and not ok
                                             for (name, ok), _said in done):
        for message in messages[at:]:
            message["content"] = ANSWER_IN_WORDS
    if not tools_sent:
        as_text(messages, at, calls)
    return False

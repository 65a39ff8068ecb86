"""A text answer that tried to call a tool and missed (pure).

Small local models often write a call into their answer instead of making it:
"Here is the fix: {"name": "replace_text", ...}", a call in prose, Python style
``replace_text(search="x")``, a block chat.textcalls could not read. Such text
is not executed (only a message that is nothing but calls is, see textcalls),
but it shows what the model meant, so the loop tells it once that nothing
changed and lets it call the tool properly (chat.loop, NUDGE).

Only a named offered tool counts: an answer that merely talks about editing
is an answer, and a question must never be pushed into an edit.
"""

import logging
import re
from typing import Any, Dict, Iterable, List, Optional

NUDGE = ("Nothing changed: you wrote the call to %s as text instead of calling the tool. "
         "Call it now as a tool call, without explaining it. If no change is needed, say so "
         "in one sentence.")

_OPENING = NUDGE.split("%s")[0]
# The ways a call is written as text (%s: the tool's name): a JSON "name" field, Python
# style with keywords or a dict, the name and its arguments object ("Replace_text, {...").
_CALLS = (r"""["']?name["']?\s*[:=]\s*["'](?:functions\.)?%s["']""",
          r"(?<![\w.])(?:functions\.)?%s\s*\(\s*(?:\)|\w+\s*=|\{)",
          r"(?<![\w.])%s\W{0,4}\{\s*[\"']\w+[\"']\s*:")

log = logging.getLogger("marginalia.chat.misfire")


def misfired(text: str, names: Iterable[str]) -> Optional[str]:
    """The offered tool ``text`` writes a call to, or None."""
    if not text:
        return None
    lowered = text.lower()
    for name in names:
        if name.lower() not in lowered:     # cheap: most answers name no tool at all
            continue
        quoted = re.escape(name)
        for pattern in _CALLS:
            if re.search(pattern % quoted, text, re.IGNORECASE):
                return name
    return None


def tell(messages: List[Dict[str, Any]], content: str, names: Iterable[str]) -> Optional[int]:
    """When ``content`` (the last message, the model's answer) misfired a call, append the
    nudge and return where the answer sits; else None."""
    name = misfired(content, names)
    if name is None:
        return None
    log.info("the model wrote a call to %s as text; asked it to call the tool", name)
    messages.append({"role": "user", "content": NUDGE % name})
    return len(messages) - 2


def forget(messages: List[Dict[str, Any]], at: Optional[int]) -> None:
    """The misfired answer and the nudge leave the history when the turn ends: the user
    never wrote the nudge, and later requests need only the call that followed."""
    if at is None or len(messages) < at + 2:
        return
    nudge = messages[at + 1]
    if nudge.get("role") == "user" and str(nudge.get("content", "")).startswith(_OPENING):
        del messages[at:at + 2]

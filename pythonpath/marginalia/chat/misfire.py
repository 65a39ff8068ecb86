"""A text answer that tried to call a tool and missed (pure).

Small local models often write a call into their answer instead of making it:
"Here is the fix: {"name": "replace_text", ...}", a call in prose, Python style
``replace_text(search="x")``, a block chat.textcalls could not read. Such text
is not executed (only a message that is nothing but calls is, see textcalls),
but it shows what the model meant, so the loop tells it once that nothing
changed and lets it call the tool properly (chat.loop, NUDGE).

Only a call counts: one naming an offered tool, or a call-shaped object
({"name": ..., "arguments": ...}) naming a tool that does not exist (told the
tools there are). An answer that merely talks about editing is an answer, and
a question must never be pushed into an edit.
"""

import logging
import re
from typing import Any, Dict, Iterable, List, Optional

NUDGE = ("Nothing changed: you wrote the call to %s as text instead of calling the tool. "
         "Call it now as a tool call, without explaining it. If no change is needed, say so "
         "in one sentence.")

# A call-shaped answer naming a tool that does not exist ("search_text" for search_document).
NUDGE_UNKNOWN = ("Nothing changed: there is no tool named %s. Call one of the tools you were "
                 "given (%s) as a tool call, or answer in one sentence.")

# The rewrite protocol's edit is written, not called (chat.prompt, textcalls).
NUDGE_WRITTEN = ("Nothing changed: to change the document, write the changed lines in a "
                 "block fenced as edit (```edit ... ```), without explaining it. If no "
                 "change is needed, say so in one sentence.")

_OPENING = "Nothing changed: "
_NAMED = re.compile(r"""["']name["']\s*:\s*["'](?:functions\.)?([A-Za-z_][\w.-]{0,63})["']""")
_ARGUMENTS = re.compile(r"""["'](?:arguments|parameters)["']\s*:""")
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


def tell(messages: List[Dict[str, Any]], content: str, names: Iterable[str],
         written: Optional[str] = None) -> Optional[int]:
    """When ``content`` (the last message, the model's answer) misfired a call, append the
    nudge and return where the answer sits; else None. ``written``: the tool the model
    calls by writing a fenced block (it is not offered as a function)."""
    names = list(names) + ([written] if written else [])
    name = misfired(content, names)
    if name is not None and name == written:
        log.info("the model wrote a call to %s in prose; asked it for the block", name)
        told = NUDGE_WRITTEN
    elif name is not None:
        log.info("the model wrote a call to %s as text; asked it to call the tool", name)
        told = NUDGE % name
    else:
        unknown = unknown_call(content, names)
        if unknown is None:
            return None
        log.info("the model wrote a call to a tool that does not exist; told it the tools")
        told = NUDGE_UNKNOWN % (unknown, ", ".join(names))
    messages.append({"role": "user", "content": told})
    return len(messages) - 2


def unknown_call(text: str, names: Iterable[str]) -> Optional[str]:
    """The name a call-shaped answer ({"name": ..., "arguments": ...}) gives a tool that is
    not offered, or None."""
    if not text or not _ARGUMENTS.search(text):
        return None
    found = _NAMED.search(text)
    if found is None or found.group(1) in set(names):
        return None
    return found.group(1)


def forget(messages: List[Dict[str, Any]], at: Optional[int]) -> None:
    """The misfired answer and the nudge leave the history when the turn ends: the user
    never wrote the nudge, and later requests need only the call that followed."""
    if at is None or len(messages) < at + 2:
        return
    nudge = messages[at + 1]
    if nudge.get("role") == "user" and str(nudge.get("content", "")).startswith(_OPENING):
        del messages[at:at + 2]

"""Tool calls written as bare JSON blocks: whether a whole message is nothing else.

The JSON-block part of ``textcalls`` (see its docstring for when a block
counts): a verdict "yes" / "no" / "maybe" on the text so far, so that the
filter holds a message back only while it can still become calls. The
object is read leniently (``json_repair``); what it must be is strict: only
call keys, an offered tool's name, arguments that are an object.
"""

import json
import re
from typing import Any, Dict, Iterable, List, Tuple

from marginalia.chat import json_repair

FENCE = "```"
# Keys of a call written as JSON (Llama 3.2 adds "type": "function").
_CALL_KEYS = frozenset(["name", "arguments", "parameters", "type", "id"])
# Keys a call's JSON may open with: OpenAI's own shapes, copied into the text by
# models that saw them in their prompt, nest the call in "function" or "tool_calls".
_FIRST_KEYS = _CALL_KEYS | frozenset(["function", "tool_calls"])
FENCE_LANGS = ("", "json", "tool_call", "tool_calls")
_STRING = r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'"""
_FIRST_KEY = re.compile(r"\{\s*\{?\s*(%s|[A-Za-z_]\w*)\s*:\s*(%s)?" % (_STRING, _STRING))
# Chat-template tokens a server left in the text around a call (ChatML for Qwen,
# Llama 3, Phi-3): not words of the answer, so a call may be surrounded by them.
LEFTOVERS = ("<|im_start|>assistant", "<|im_start|>", "<|im_end|>", "<|endoftext|>",
             "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>", "<|end|>", "<|assistant|>",
             "<|start_header_id|>assistant<|end_header_id|>",
             # Qwen2.5's template lists the tools between <tools> tags: a small model
             # then writes its call between them (seen with Qwen2.5-Coder 1.5B).
             "<tools>", "</tools>")
NO, MAYBE, YES = "no", "maybe", "yes"
_NOT_STRING = re.compile(r"\s*[^\s'\"]")


def tool_name_in(name, names):
    """``name`` as offered: "functions.replace_text" (OpenAI's namespace, seen in
    small models' text) is "replace_text" when that is an offered tool."""
    name = name.strip()
    if name not in names and "." in name and name.rsplit(".", 1)[1] in names:
        return name.rsplit(".", 1)[1]
    return name


def unwrap_call(obj, names):
    """(name, arguments, id) of a call object in any shape a model writes, or None."""
    if not isinstance(obj, dict):
        return None
    function = obj.get("function")
    call_id = obj.get("id")
    if isinstance(function, dict):          # {"type": "function", "function": {...}}
        obj = function
    name = obj.get("name")
    if name is None and isinstance(function, str):
        name = function                     # {"function": "replace_text", "arguments": ...}
    if not isinstance(name, str) or not name.strip():
        return None
    args = obj.get("arguments", obj.get("parameters"))
    return tool_name_in(name, names), args, (call_id if isinstance(call_id, str) else None)


def _block_call(obj, names):
    """The call one object written as a JSON block stands for, or None."""
    if not isinstance(obj, dict):
        return None
    inner = obj.get("function")
    if isinstance(inner, dict):
        if not frozenset(["function", "type", "id"]).issuperset(obj) or \
                not _CALL_KEYS.issuperset(inner):
            return None
    elif not (_CALL_KEYS | frozenset(["function"])).issuperset(obj):
        return None
    found = unwrap_call(obj, names)
    if found is None:
        return None
    name, args, _ = found
    if isinstance(args, str):
        try:
            args = json_repair.loads(args)
        except ValueError:
            return None
    if name not in names or not isinstance(args, dict):
        return None
    return {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}


def _block_calls(value, names):
    """The calls a value written as a JSON block stands for (a call or a list), or None."""
    if isinstance(value, dict) and list(value) == ["tool_calls"]:
        value = value["tool_calls"]
    items = value if isinstance(value, list) else [value]
    calls = [_block_call(item, names) for item in items]
    return calls if calls and None not in calls else None


def _unquote(token):
    """A key or value the first-key pattern matched, unquoted; None when unreadable."""
    if token[:1] not in ("'", '"'):
        return token
    try:
        return json_repair.loads(token)
    except ValueError:
        return None


def _opening(text, pos, names):
    """NO when an object's first key already tells it is JSON for the user, else MAYBE."""
    first = _FIRST_KEY.match(text, pos)
    if first is None:
        return MAYBE                       # not far enough yet, or unreadable: read it
    key = _unquote(first.group(1))
    if key not in _FIRST_KEYS:
        return NO
    value = _unquote(first.group(2)) if first.group(2) else None
    if key == "type" and first.group(2) and value != "function":
        return NO                           # {"type": "object", ...}: a schema, GeoJSON
    if key == "id" and not first.group(2) and _NOT_STRING.match(text, first.end()):
        return NO                           # {"id": 0, ...}: a record; call ids are strings
    if key == "name" and first.group(2):
        name = _unquote(first.group(2))
        if not isinstance(name, str) or tool_name_in(name, names) not in names:
            return NO
    return MAYBE


def _value_at(text, pos, names, final):
    """(verdict, calls, end) for the JSON value that starts at ``text[pos]``, "{" or "["."""
    start = pos
    if text[pos] == "[":                    # a list of calls
        start = json_repair.skip_space(text, pos + 1)
        if start == len(text):
            return MAYBE, None, pos
        if text[start] != "{":
            return NO, None, pos
        # Judged by its first item as soon as that is read: a long list of records
        # for the user is shown at once, not held and read again with every piece.
        try:
            item, _end = json_repair.read_value(text, start, False)
            if _block_call(item, names) is None:
                return NO, None, pos
        except json_repair.Incomplete:
            pass
        except ValueError:
            return NO, None, pos
    if _opening(text, start, names) == NO:
        return NO, None, pos
    try:
        value, end = json_repair.read_value(text, pos, final)
    except json_repair.Incomplete:
        return MAYBE, None, pos
    except ValueError:
        return NO, None, pos
    calls = _block_calls(value, names)
    if not calls:
        return NO, None, pos
    # A stray closing brace after a call: small models miscount them.
    after = json_repair.skip_space(text, end)
    while text.startswith("}", after):
        end = after + 1
        after = json_repair.skip_space(text, end)
    return YES, calls, end


def _skip_filler(text, pos):
    """Past whitespace and chat-template leftovers."""
    while True:
        pos = json_repair.skip_space(text, pos)
        for token in LEFTOVERS:
            if text.startswith(token, pos):
                pos += len(token)
                break
        else:
            return pos


def _fenced_at(text, pos, names, final):
    """(verdict, calls, end) for the fenced block that starts at ``text[pos]``."""
    newline = text.find("\n", pos)
    if newline < 0:
        info = text[pos + len(FENCE):].strip().lower()
        return (MAYBE if any(lang.startswith(info) for lang in FENCE_LANGS) else NO), \
            None, pos
    if text[pos + len(FENCE):newline].strip().lower() not in FENCE_LANGS:
        return NO, None, pos         # ```python and the like: a code block to show
    start = json_repair.skip_space(text, newline)
    if start == len(text):
        return MAYBE, None, pos
    if text[start] not in "{[":
        return NO, None, pos
    verdict, calls, end = _value_at(text, start, names, final)
    if verdict != YES:
        return verdict, None, pos
    close = json_repair.skip_space(text, end)
    if text.startswith(FENCE, close):
        return YES, calls, close + len(FENCE)
    if FENCE.startswith(text[close:]):
        # The closing fence has not come (yet): at the message's end, do without it.
        return (YES, calls, len(text)) if final else (MAYBE, None, pos)
    return NO, None, pos


def _partial_filler(text, pos):
    """True when ``text[pos:]`` may still become a fence or a chat-template leftover."""
    rest = text[pos:]
    if text.endswith("<|im_start|>", 0, pos) and "assistant".startswith(rest):
        return True                 # the role after ChatML's start token is on its way
    return FENCE.startswith(rest) or any(token.startswith(rest) for token in LEFTOVERS)


def json_block_calls(text: str, names: Iterable[str],
                     final: bool = False) -> Tuple[str, List[Dict[str, Any]]]:
    """Whether ``text`` is only tool calls written as JSON blocks: (verdict, calls).

    The verdict is "yes" (calls holds them), "no", or, while more text may
    still come, "maybe"; ``final`` says the message has ended.
    """
    names = frozenset(names)
    calls = []
    pos = _skip_filler(text, 0)
    while pos < len(text):
        if text[pos] in "{[":
            verdict, found, end = _value_at(text, pos, names, final)
            after = json_repair.skip_space(text, end)
            if verdict == YES and after < len(text) and text[after] not in "{[<" \
                    and "\n" not in text[end:after]:
                verdict = NO             # more on the object's own line: prose
        elif text.startswith(FENCE, pos):
            verdict, found, end = _fenced_at(text, pos, names, final)
        else:
            verdict = MAYBE if _partial_filler(text, pos) else NO
        if verdict != YES:
            return (MAYBE if verdict == MAYBE and not final else NO), []
        calls.extend(found)
        pos = _skip_filler(text, end)
    if calls:
        return YES, calls
    return (NO if final else MAYBE), []

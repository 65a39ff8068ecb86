"""Tool calls that local models write as text instead of structured ``tool_calls``.

Recognised formats:

* Hermes / Qwen: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``,
  possibly several blocks, the last one sometimes left unclosed at EOS.
* Mistral: ``[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]`` (older
  tokenizers) or ``[TOOL_CALLS]name[ARGS]{...}`` repeated per call (v11+,
  optionally with ``[CALL_ID]id`` before ``[ARGS]``).
* Llama 3.x: ``<|python_tag|>{"name": ..., "parameters": {...}}``, several
  objects separated by ``;`` (best effort: Python-code calls are not parsed).
* JSON blocks (small models on llama.cpp and Ollama, e.g. Qwen2.5-Coder
  with a stock template): the whole message is one or more
  ``{"name": ..., "arguments": {...}}`` objects, each in a json code fence
  or alone on its lines. Plain JSON is also what a user may ask to see, so
  this counts only when the message is nothing but such blocks (whitespace
  aside), each names a tool the request offered, its arguments (or
  "parameters") are an object or a JSON string of one, and no structured
  call arrived.

``TextCallFilter`` sits on the displayed answer text while it streams: the
markup must never show, so text from a possible opening marker on is held
back, and from a full marker on everything is kept aside until ``finish()``
parses it. The stream accumulator uses the parsed calls only when no
structured tool calls arrived. Markup that does not parse is released as
plain text at the end, so a botched call is visible instead of vanishing.
A message that starts with ``{`` or a fence is held back while it can still
be JSON calls (at most ``JSON_HOLD_LIMIT`` characters), and released as text
the moment it cannot: another key, an unknown tool, prose after a block.
"""

import json
import re
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Tuple

HERMES = "<tool_call>"
HERMES_END = "</tool_call>"
MISTRAL = "[TOOL_CALLS]"
LLAMA = "<|python_tag|>"
MARKERS = (HERMES, MISTRAL, LLAMA)

_decoder = json.JSONDecoder()

FENCE = "```"
JSON_HOLD_LIMIT = 8192      # characters of a message held back while it may be JSON calls
# Keys of a call written as JSON (Llama 3.2 adds "type": "function").
_CALL_KEYS = frozenset(["name", "arguments", "parameters", "type", "id"])
_FIRST_KEY = re.compile(r'\{\s*"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*")?')
_NO, _MAYBE, _YES = "no", "maybe", "yes"


def tool_names(schemas: Optional[Iterable[Mapping[str, Any]]]) -> List[str]:
    """The function names of the tool schemas a request offers."""
    names = []
    for schema in schemas or ():
        function = schema.get("function") if isinstance(schema, Mapping) else None
        if isinstance(function, Mapping) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def _partial_at(text):
    """Index where a proper prefix of a marker ends ``text``, else len(text)."""
    # Every marker holds exactly one "<" or "[", at its start.
    floor = max(0, len(text) - len(LLAMA) + 1)
    best = len(text)
    for opener in ("<", "["):
        start = text.rfind(opener, floor)
        if start >= 0 and start < best:
            tail = text[start:]
            for marker in MARKERS:
                if marker.startswith(tail):
                    best = start
                    break
    return best


def _call(obj):
    """A call dict from a parsed JSON object, or None when it names no function."""
    if not isinstance(obj, dict):
        return None
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return None
    args = obj.get("arguments", obj.get("parameters"))
    if args is None:
        args = "{}"
    elif not isinstance(args, str):
        args = json.dumps(args, ensure_ascii=False)
    call = {"name": name, "arguments": args}
    if isinstance(obj.get("id"), str) and obj["id"]:
        call["id"] = obj["id"]      # Mistral writes its 9-character ids too
    return call


def _json_values(text):
    """Decode consecutive JSON values separated by whitespace, commas or ``;``.

    Returns (values, leftover text that is not JSON).
    """
    values = []
    pos = 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,;":
            pos += 1
        if pos >= len(text):
            return values, ""
        try:
            value, pos = _decoder.raw_decode(text, pos)
        except ValueError:
            return values, text[pos:]
        values.append(value)


def _calls_from_values(values):
    calls = []
    for value in values:
        items = value if isinstance(value, list) else [value]
        for item in items:
            call = _call(item)
            if call is None:
                return None
            calls.append(call)
    return calls


def _parse_hermes(body, calls, leftovers):
    pos = 0
    while True:
        start = body.find(HERMES, pos)
        if start < 0:
            leftovers.append(body[pos:])
            return
        leftovers.append(body[pos:start])
        end = body.find(HERMES_END, start)
        inner = body[start + len(HERMES):end if end >= 0 else len(body)]
        found, rest = _json_values(inner)
        parsed = _calls_from_values(found) if found and not rest.strip() else None
        stop = len(body) if end < 0 else end + len(HERMES_END)
        if parsed:
            calls.extend(parsed)
        else:
            leftovers.append(body[start:stop])
        pos = stop


def _parse_mistral(body, calls, leftovers):
    for segment in body.split(MISTRAL)[1:]:
        text = segment.strip()
        if text[:1] in ("[", "{"):
            found, rest = _json_values(text)
            parsed = _calls_from_values(found) if found else None
        elif "[ARGS]" in text:
            # v11 tokenizer: name[ARGS]{...}, optionally name[CALL_ID]id[ARGS]{...}
            head, _, args = text.partition("[ARGS]")
            name, _, call_id = head.partition("[CALL_ID]")
            found, rest = _json_values(args)
            obj = {"name": name.strip(), "arguments": found[0] if found else None}
            if call_id.strip():
                obj["id"] = call_id.strip()
            parsed = _calls_from_values([obj]) if len(found) == 1 else None
        else:
            parsed, rest = None, ""
        if parsed:
            calls.extend(parsed)
            leftovers.append(rest)
        else:
            leftovers.append(MISTRAL + segment)


def _parse_llama(body, calls, leftovers):
    found, rest = _json_values(body[len(LLAMA):])
    parsed = _calls_from_values(found) if found else None
    if parsed:
        calls.extend(parsed)
        leftovers.append(rest)
    else:
        leftovers.append(body)


def _json_block_call(obj, names):
    """The call an object written as a JSON block stands for, or None."""
    if not isinstance(obj, dict) or not _CALL_KEYS.issuperset(obj):
        return None
    name = obj.get("name")
    args = obj.get("arguments", obj.get("parameters"))
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            return None
    if not isinstance(name, str) or name not in names or not isinstance(args, dict):
        return None
    return {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}


def _object_at(text, pos, names):
    """(verdict, call, end) for the object that starts at ``text[pos]``, a "{"."""
    first = _FIRST_KEY.match(text, pos)
    if first is None:
        rest = text[pos + 1:].lstrip()
        return (_MAYBE if rest[:1] in ("", '"') else _NO), None, pos
    # Settle early what the object's first key already tells: JSON for the user.
    key, value = first.group(1), first.group(2)
    if key not in _CALL_KEYS:
        return _NO, None, pos
    if key == "name" and value:
        try:
            if json.loads(value) not in names:
                return _NO, None, pos
        except ValueError:
            return _NO, None, pos
    try:
        obj, end = _decoder.raw_decode(text, pos)
    except ValueError:
        return _MAYBE, None, pos
    call = _json_block_call(obj, names)
    return (_YES, call, end) if call else (_NO, None, pos)


def _skip_space(text, pos):
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _fenced_at(text, pos, names, final):
    """(verdict, call, end) for the fenced block that starts at ``text[pos]``."""
    newline = text.find("\n", pos)
    if newline < 0:
        info = text[pos + len(FENCE):].strip().lower()
        return (_MAYBE if "json".startswith(info) else _NO), None, pos
    if text[pos + len(FENCE):newline].strip().lower() not in ("", "json"):
        return _NO, None, pos         # ```python and the like: a code block to show
    start = _skip_space(text, newline)
    if start == len(text):
        return _MAYBE, None, pos
    if text[start] != "{":
        return _NO, None, pos
    verdict, call, end = _object_at(text, start, names)
    if verdict != _YES:
        return verdict, None, pos
    close = _skip_space(text, end)
    if text.startswith(FENCE, close):
        return _YES, call, _skip_space(text, close + len(FENCE))
    if FENCE.startswith(text[close:]):
        # The closing fence has not come (yet): at the message's end, do without it.
        return (_YES, call, len(text)) if final else (_MAYBE, None, pos)
    return _NO, None, pos


def json_block_calls(text: str, names: Iterable[str],
                     final: bool = False) -> Tuple[str, List[Dict[str, Any]]]:
    """Whether ``text`` is only tool calls written as JSON blocks: (verdict, calls).

    The verdict is "yes" (calls holds them), "no", or, while more text may
    still come, "maybe"; ``final`` says the message has ended.
    """
    calls = []
    pos = _skip_space(text, 0)
    while pos < len(text):
        if text[pos] == "{":
            verdict, call, end = _object_at(text, pos, names)
            after = _skip_space(text, end)
            if verdict == _YES and after < len(text) and "\n" not in text[end:after]:
                verdict = _NO             # more on the object's own line: prose
        elif text.startswith(FENCE, pos):
            verdict, call, after = _fenced_at(text, pos, names, final)
        else:
            verdict = _MAYBE if FENCE.startswith(text[pos:]) else _NO
        if verdict != _YES:
            return (_MAYBE if verdict == _MAYBE and not final else _NO), []
        calls.append(call)
        pos = after
    if calls:
        return _YES, calls
    return (_NO if final else _MAYBE), []


def parse(markup: str) -> Tuple[List[Dict[str, Any]], str]:
    """Parse text that starts at a marker: returns (calls, text that was not a call)."""
    calls, leftovers = [], []
    if markup.startswith(HERMES):
        _parse_hermes(markup, calls, leftovers)
    elif markup.startswith(MISTRAL):
        _parse_mistral(markup, calls, leftovers)
    elif markup.startswith(LLAMA):
        _parse_llama(markup, calls, leftovers)
    else:
        leftovers.append(markup)
    return calls, "".join(leftovers).strip()


class TextCallFilter:
    """``feed(text) -> displayed text``; ``finish() -> (displayed tail, calls)``.

    ``tool_names`` are the tools the request offered; without them no JSON
    block is taken for a call.
    """

    def __init__(self, tool_names: Iterable[str] = ()) -> None:
        self._held = ""                              # a possible partial marker at the end
        self._markup: Optional[List[str]] = None     # parts from the first full marker on
        self._names = frozenset(tool_names)
        self._opening = bool(self._names)            # the message may still be JSON calls
        self._json = ""                              # the text held back meanwhile

    @property
    def tool_names(self) -> FrozenSet[str]:
        """The offered tool names this filter was made with."""
        return self._names

    def passthrough(self) -> bool:
        """True when text without "<" or "[" would be displayed unchanged."""
        return not self._held and self._markup is None and not self._opening

    def feed(self, text: str) -> str:
        """Pass answer text through, keeping back anything that may be call markup."""
        if self._markup is not None:
            self._markup.append(text)
            return ""
        if self._opening:
            text = self._json_release(text)
            if not text:
                return ""
        if self._held:
            text = self._held + text
            self._held = ""
        if "<" not in text and "[" not in text:
            return text
        first = -1
        for marker in MARKERS:
            at = text.find(marker)
            if at >= 0 and (first < 0 or at < first):
                first = at
        if first >= 0:
            self._markup = [text[first:]]
            return text[:first]
        cut = _partial_at(text)
        self._held = text[cut:]
        return text[:cut]

    def _json_release(self, text):
        """The text to go on with once the message cannot be JSON calls, else "" (held)."""
        held = self._json + text
        if len(held) <= JSON_HOLD_LIMIT and (
                not held.strip() or json_block_calls(held, self._names)[0] != _NO):
            self._json = held
            return ""
        self._opening = False
        self._json = ""
        return held

    def raw_pending(self) -> str:
        """The text fed but not displayed yet (held or markup), clearing it."""
        pending = self._json + self._held + "".join(self._markup or ())
        self._json = self._held = ""
        self._markup = None
        return pending

    def finish(self, calls_allowed: bool = True) -> Tuple[str, List[Dict[str, Any]]]:
        """End of the response: returns (text still to display, parsed calls).

        Without ``calls_allowed`` (a structured call came, or an error) a
        message of JSON blocks is released as the text it then is.
        """
        shown = ""
        if self._opening:
            held, self._json = self._json, ""
            self._opening = False
            verdict, calls = json_block_calls(held, self._names, final=True)
            if verdict == _YES and calls_allowed:
                return "", calls
            shown = self.feed(held)
        held, self._held = self._held, ""
        if self._markup is None:
            return shown + held, []
        markup = "".join(self._markup)
        self._markup = None
        calls, leftover = parse(markup)
        return shown + leftover, calls

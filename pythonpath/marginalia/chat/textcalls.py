"""Tool calls that local models write as text instead of structured ``tool_calls``.

Recognised formats:

* Hermes / Qwen: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``,
  possibly several blocks, the last one sometimes left unclosed at EOS.
* Mistral: ``[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]`` (older
  tokenizers) or ``[TOOL_CALLS]name[ARGS]{...}`` repeated per call (v11+,
  optionally with ``[CALL_ID]id`` before ``[ARGS]``).
* Llama 3.x: ``<|python_tag|>{"name": ..., "parameters": {...}}``, several
  objects separated by ``;`` (best effort: Python-code calls are not parsed).

``TextCallFilter`` sits on the displayed answer text while it streams: the
markup must never show, so text from a possible opening marker on is held
back, and from a full marker on everything is kept aside until ``finish()``
parses it. The stream accumulator uses the parsed calls only when no
structured tool calls arrived. Markup that does not parse is released as
plain text at the end, so a botched call is visible instead of vanishing.
"""

import json
from typing import Any, Dict, List, Optional, Tuple

HERMES = "<tool_call>"
HERMES_END = "</tool_call>"
MISTRAL = "[TOOL_CALLS]"
LLAMA = "<|python_tag|>"
MARKERS = (HERMES, MISTRAL, LLAMA)

_decoder = json.JSONDecoder()


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
    """``feed(text) -> displayed text``; ``finish() -> (displayed tail, calls)``."""

    def __init__(self) -> None:
        self._held = ""                              # a possible partial marker at the end
        self._markup: Optional[List[str]] = None     # parts from the first full marker on

    def passthrough(self) -> bool:
        """True when text without "<" or "[" would be displayed unchanged."""
        return not self._held and self._markup is None

    def feed(self, text: str) -> str:
        """Pass answer text through, keeping back anything that may be call markup."""
        if self._markup is not None:
            self._markup.append(text)
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

    def raw_pending(self) -> str:
        """The text fed but not displayed yet (held or markup), clearing it."""
        pending = self._held + "".join(self._markup or ())
        self._held = ""
        self._markup = None
        return pending

    def finish(self) -> Tuple[str, List[Dict[str, Any]]]:
        """End of the response: returns (text still to display, parsed calls)."""
        held, self._held = self._held, ""
        if self._markup is None:
            return held, []
        markup = "".join(self._markup)
        self._markup = None
        calls, leftover = parse(markup)
        return leftover, calls

"""Tool calls that local models write as text instead of structured ``tool_calls``.

Recognised formats:

* Hermes / Qwen: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``,
  possibly several blocks, the last one sometimes left unclosed at EOS.
* Mistral: ``[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]`` (older
  tokenizers) or ``[TOOL_CALLS]name[ARGS]{...}`` repeated per call (v11+,
  optionally with ``[CALL_ID]id`` before ``[ARGS]``).
* Llama 3.x: ``<|python_tag|>{"name": ..., "parameters": {...}}``, several
  objects separated by ``;`` (best effort: Python-code calls are not parsed).
* The rewrite protocol's fenced edit (chat.prompt teaches it where the server has
  no tool calls): a code fence whose language is "edit" holds the new lines; each such
  block is a call of the edit tool with its body as ``text``, the prose around
  it stays the answer. Only with ``fence_tool`` (the registry has that tool).
* JSON blocks (small models on llama.cpp and Ollama, e.g. Qwen2.5-Coder
  with a stock template, Llama 3.2 on Ollama): the whole message is one or
  more ``{"name": ..., "arguments": {...}}`` objects (or lists of them), each
  in a code fence (no language, ``json`` or ``tool_call``) or alone on its
  lines. Plain JSON is also what a user may ask to see, so this counts only
  when the message is nothing but such blocks (whitespace and chat-template
  leftovers such as ``<|im_end|>`` aside), each names a tool the request
  offered, its arguments (or "parameters") are an object or a string of one,
  and no structured call arrived. Inside that frame the near-misses small
  models write are forgiven (see ``json_repair``: doubled braces, Python
  literals, trailing commas), and so are the OpenAI shapes
  ``{"function": {"name": ..., "arguments": ...}}`` and ``{"tool_calls": [...]}``
  and a ``functions.`` prefix on the name. The verdict is ``jsonblocks``'.

``TextCallFilter`` sits on the displayed answer text while it streams: the
markup must never show, so text from a possible opening marker on is held
back, and from a full marker on everything is kept aside until ``finish()``
parses it. The stream accumulator uses the parsed calls only when no
structured tool calls arrived. Markup that does not parse is released as
plain text at the end, so a botched call is visible instead of vanishing.
A message that starts with ``{``, ``[``, a fence or a template leftover is held back while it can still
be JSON calls (at most ``JSON_HOLD_LIMIT`` characters), and released as text
the moment it cannot: another key, an unknown tool, prose after a block.
"""

import json
import re
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Tuple

from marginalia.chat import json_repair, linecalls
from marginalia.chat.jsonblocks import (FENCE, FENCE_LANGS, LEFTOVERS, NO, YES,
                                          json_block_calls, unwrap_call)

HERMES = "<tool_call>"
HERMES_END = "</tool_call>"
MISTRAL = "[TOOL_CALLS]"
LLAMA = "<|python_tag|>"
MARKERS = (HERMES, MISTRAL, LLAMA)
EDIT_FENCE = "```edit"      # the rewrite protocol's fenced edit (chat.prompt.FENCE)
# A call in a JSON block amid prose, taken in the rewrite protocol (TextCallFilter).
JSON_FENCES = ("```json", "```tool_call")

JSON_HOLD_LIMIT = 8192      # characters of a message held back while it may be JSON calls
_JUDGED = 256               # held this long, an opening that is no call was told apart
_SETTLES = re.compile(r"[\]}\n`]")


def tool_names(schemas: Optional[Iterable[Mapping[str, Any]]]) -> List[str]:
    """The function names of the tool schemas a request offers."""
    names = []
    for schema in schemas or ():
        function = schema.get("function") if isinstance(schema, Mapping) else None
        if isinstance(function, Mapping) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def _partial_at(text, markers=MARKERS):
    """Index where a proper prefix of a marker ends ``text``, else len(text)."""
    floor = max(0, len(text) - max(len(m) for m in markers) + 1)
    best = len(text)
    for marker in markers:
        # A marker's first character opens it: "<", "[" or the fence's backtick.
        start = text.find(marker[0], floor)
        while 0 <= start < best:
            if marker.startswith(text[start:]):
                best = start
                break
            start = text.find(marker[0], start + 1)
    return best


def _call(obj, names=()):
    """A call dict from a parsed object after a marker, or None when it names no function."""
    found = unwrap_call(obj, names)
    if found is None:
        return None
    name, args, call_id = found
    if args is None:
        args = "{}"
    elif isinstance(args, str):
        try:
            parsed = json_repair.loads(args)
        except ValueError:
            parsed = None                   # left for the tool to report as bad arguments
        if isinstance(parsed, dict):
            args = json.dumps(parsed, ensure_ascii=False)
    else:
        args = json.dumps(args, ensure_ascii=False)
    call = {"name": name, "arguments": args}
    if call_id:
        call["id"] = call_id                # Mistral writes its 9-character ids too
    return call


def _json_values(text):
    """Decode consecutive (lenient) JSON values separated by whitespace, commas or ``;``.

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
            value, pos = json_repair.read_value(text, pos)
        except ValueError:
            return values, text[pos:]
        values.append(value)


def _calls_from_values(values, names):
    calls = []
    for value in values:
        items = value if isinstance(value, list) else [value]
        for item in items:
            call = _call(item, names)
            if call is None:
                return None
            calls.append(call)
    return calls


def _unfence(text):
    """The body of a code fence a model put inside its ``<tool_call>`` block."""
    body = text.strip()
    newline = body.find("\n")
    if body.startswith(FENCE) and newline >= 0 and \
            body[len(FENCE):newline].strip().lower() in FENCE_LANGS:
        body = body[newline + 1:].rstrip()
        if body.endswith(FENCE):
            body = body[:-len(FENCE)]
    return body


def _parse_hermes(body, names, calls, leftovers):
    pos = 0
    while True:
        start = body.find(HERMES, pos)
        if start < 0:
            leftovers.append(body[pos:])
            return
        leftovers.append(body[pos:start])
        end = body.find(HERMES_END, start)
        inner = _unfence(body[start + len(HERMES):end if end >= 0 else len(body)])
        found, rest = _json_values(inner)
        parsed = _calls_from_values(found, names) if found and not rest.strip() else None
        stop = len(body) if end < 0 else end + len(HERMES_END)
        if parsed:
            calls.extend(parsed)
        else:
            leftovers.append(body[start:stop])
        pos = stop


def _parse_mistral(body, names, calls, leftovers):
    for segment in body.split(MISTRAL)[1:]:
        text = segment.strip()
        if text[:1] in ("[", "{"):
            found, rest = _json_values(text)
            parsed = _calls_from_values(found, names) if found else None
        elif "[ARGS]" in text:
            # v11 tokenizer: name[ARGS]{...}, optionally name[CALL_ID]id[ARGS]{...}
            head, _, args = text.partition("[ARGS]")
            name, _, call_id = head.partition("[CALL_ID]")
            found, rest = _json_values(args)
            obj = {"name": name.strip(), "arguments": found[0] if found else None}
            if call_id.strip():
                obj["id"] = call_id.strip()
            parsed = _calls_from_values([obj], names) if len(found) == 1 else None
        else:
            parsed, rest = None, ""
        if parsed:
            calls.extend(parsed)
            leftovers.append(rest)
        else:
            leftovers.append(MISTRAL + segment)


def _parse_llama(body, names, calls, leftovers):
    found, rest = _json_values(body[len(LLAMA):])
    parsed = _calls_from_values(found, names) if found else None
    if parsed:
        calls.extend(parsed)
        leftovers.append(rest)
    else:
        leftovers.append(body)


def _parse_fences(body, fence_tool, names, calls, leftovers):
    """Each fenced edit a call of ``fence_tool`` with its body as ``text``, each JSON block
    that holds calls of offered tools those calls; the prose between the blocks is kept,
    and so is a block that is no call. A block left open at the end runs to the end."""
    pos = 0
    openers = (EDIT_FENCE,) + JSON_FENCES
    while True:
        found = [(body.find(o, pos), o) for o in openers if body.find(o, pos) >= 0]
        if not found:
            leftovers.append(body[pos:])
            return
        start, opener = min(found)
        leftovers.append(body[pos:start])
        line_end = body.find("\n", start)
        if line_end < 0:
            leftovers.append(body[start:])      # a marker with nothing after it
            return
        close = body.find("```", line_end)
        inner = body[line_end + 1:close if close >= 0 else len(body)]
        stop = len(body) if close < 0 else close + 3
        if opener == EDIT_FENCE:
            calls.append({"name": fence_tool, "arguments": json.dumps(
                {"text": inner.strip("\n")}, ensure_ascii=False)})
        else:
            values, rest = _json_values(inner)
            parsed = _calls_from_values(values, names) if values and not rest.strip() else None
            if parsed and all(c["name"] in names for c in parsed):
                calls.extend(parsed)
            else:
                leftovers.append(body[start:stop])
        pos = stop


def parse(markup: str, names: Iterable[str] = (),
          fence_tool: Optional[str] = None) -> Tuple[List[Dict[str, Any]], str]:
    """Parse text that starts at a marker: returns (calls, text that was not a call).

    ``names`` (the offered tools) only serve to read "functions.NAME" as NAME;
    ``fence_tool`` is the tool a fenced edit calls.
    """
    names = frozenset(names)
    calls, leftovers = [], []
    if fence_tool and markup.startswith((EDIT_FENCE,) + JSON_FENCES):
        _parse_fences(markup, fence_tool, names, calls, leftovers)
    elif markup.startswith(HERMES):
        _parse_hermes(markup, names, calls, leftovers)
    elif markup.startswith(MISTRAL):
        _parse_mistral(markup, names, calls, leftovers)
    elif markup.startswith(LLAMA):
        _parse_llama(markup, names, calls, leftovers)
    else:
        leftovers.append(markup)
    leftover = "".join(leftovers)
    if calls:
        for token in LEFTOVERS:
            leftover = leftover.replace(token, "")
    if fence_tool and markup.startswith((EDIT_FENCE,) + JSON_FENCES) and leftover.strip():
        # The prose after a block follows what was shown before it: a paragraph apart.
        return calls, "\n" + leftover.strip()
    return calls, leftover.strip()


class TextCallFilter:
    """``feed(text) -> displayed text``; ``finish() -> (displayed tail, calls)``.

    ``tool_names`` are the tools the request offered; without them no JSON
    block is taken for a call. ``fence_tool``: the tool a fenced edit calls (it
    need not be offered: a server without tool calls is taught the fence).
    """

    def __init__(self, tool_names: Iterable[str] = (), fence_tool: Optional[str] = None,
                 bare_lines: bool = False) -> None:
        self._held = ""                              # a possible partial marker at the end
        self._markup: Optional[List[str]] = None     # parts from the first full marker on
        # The fence tool is not offered as a function, but a JSON call of it is one.
        self._names = frozenset(tool_names) | frozenset([fence_tool] if fence_tool else [])
        self.fence_tool = fence_tool
        # An answer of nothing but numbered lines is the fence tool's edit too (linecalls),
        # held back while it may be one; and a call in a JSON block amid prose is made
        # (the 1.5B explains a call and shows it rather than making it). Not for a
        # question: its answer may show lines, or a call, without meaning them.
        self.bare_lines = bool(fence_tool) and bare_lines
        self._markers = MARKERS + ((EDIT_FENCE,) if fence_tool else ()) + (
            JSON_FENCES if self.bare_lines else ())
        self._lines_opening = self.bare_lines
        self._lines = ""
        self._opening = bool(self._names)            # the message may still be JSON calls
        self._json = ""                              # the text held back meanwhile

    @property
    def tool_names(self) -> FrozenSet[str]:
        """The offered tool names this filter was made with."""
        return self._names

    def passthrough(self) -> bool:
        """True when text without "<" or "[" (nor "`" with a fence tool) would be displayed
        unchanged."""
        return not self._held and self._markup is None and not self._opening and \
            not self._lines_opening

    def feed(self, text: str) -> str:
        """Pass answer text through, keeping back anything that may be call markup."""
        if self._markup is not None:
            self._markup.append(text)
            return ""
        if self._opening:
            text = self._json_release(text)
            if not text:
                return ""
        if self._lines_opening:
            text = self._lines_release(text)
            if not text:
                return ""
        if self._held:
            text = self._held + text
            self._held = ""
        if "<" not in text and "[" not in text and not (self.fence_tool and "`" in text):
            return text
        first = -1
        for marker in self._markers:
            at = text.find(marker)
            if at >= 0 and (first < 0 or at < first):
                first = at
        if first >= 0:
            self._markup = [text[first:]]
            return text[:first]
        cut = _partial_at(text, self._markers)
        self._held = text[cut:]
        return text[:cut]

    def _json_release(self, text):
        """The text to go on with once the message cannot be JSON calls, else "" (held)."""
        held = self._json + text
        # Read again only when a piece may settle it (a value closed, a new line, a fence)
        # once the start is judged: reading the whole held text with every piece made a
        # long JSON answer cost seconds.
        unsettled = len(self._json) > _JUDGED and not _SETTLES.search(text)
        if len(held) <= JSON_HOLD_LIMIT and (
                not held.strip() or unsettled or json_block_calls(held, self._names)[0] != NO):
            self._json = held
            return ""
        self._opening = False
        self._json = ""
        return held

    def _lines_release(self, text):
        """The text to go on with once the answer cannot be numbered lines, else "" (held)."""
        held = self._lines + text
        if len(held) <= linecalls.HOLD_LIMIT and \
                linecalls.judge(held, False).verdict == linecalls.MAYBE:
            self._lines = held
            return ""
        self._lines_opening = False
        self._lines = ""
        return held

    def raw_pending(self) -> str:
        """The text fed but not displayed yet (held or markup), clearing it."""
        pending = self._json + self._lines + self._held + "".join(self._markup or ())
        self._json = self._lines = self._held = ""
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
            if verdict == YES and calls_allowed:
                return "", calls
            shown = self.feed(held)
        if self._lines_opening:
            held, self._lines = self._lines, ""
            self._lines_opening = False
            found = linecalls.judge(held, True)
            if found.verdict == linecalls.YES and calls_allowed:
                return shown + found.intro, [{"name": self.fence_tool, "arguments": json.dumps(
                    {"text": found.body}, ensure_ascii=False)}]
            shown += self.feed(held)
        held, self._held = self._held, ""
        if self._markup is None:
            return shown + held, []
        markup = "".join(self._markup)
        self._markup = None
        calls, leftover = parse(markup, self._names, self.fence_tool)
        return shown + leftover, calls

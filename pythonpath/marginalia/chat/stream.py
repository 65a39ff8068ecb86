"""StreamAccumulator: parsed chat-completion chunks in, events and one result out.

I/O-free: the transport feeds SSE events (``feed_sse``) or parsed chunks
(``feed``) and calls ``finish()`` at end of body; each call returns the
events it caused. ``result()`` is what the turn loop acts on.

Each ``choices[0].delta`` is normalised for the provider quirks listed in
docs (provider-streams.md), then handed to the vendored ``deltamerge``
merger, which owns the structure (tool-call arguments, reasoning_details,
raw reasoning_content). Displayed text and readable reasoning are split out
here, because they pass through the ``<think>`` splitter and the text tool
call filter first. Which call a tool-call fragment belongs to is decided by
``toolroute.CallRouter``.

Mid-stream errors (``{"error": ...}``, ``event: error``, finish_reason
"error", a chunk that is not JSON, a last event cut off by the end of the
body) keep the text that streamed, record the error, ignore the rest of the
stream and make ``result().tool_calls`` empty: none of that response's calls
may run. A body that ends with neither a finish reason nor ``[DONE]`` was cut
(a killed server, a proxy's timeout, a dropped network): an error too, with
``result().cut`` set. A finish reason without ``[DONE]`` is complete (some servers
never send it).
"""

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

import deltamerge

from marginalia.chat import thinking, window_errors
from marginalia.chat.window_errors import Refusal
from marginalia.chat.server_errors import STREAM_CUT, clean_message
from marginalia.chat.sse import SSEEvent
from marginalia.chat.textcalls import TextCallFilter, tool_names
from marginalia.chat.toolroute import CallRouter, arguments_text, is_json, new_call_id
from marginalia.events import (DONE, ERROR, REASONING, RECLASSIFY, TEXT, TOOL_CALL_STARTED,
                               USAGE, Event)
from marginalia.i18n.catalog import tr

# eos / eos_token: llama.cpp forks and some vLLM builds; "" is sent by a few gateways.
_FINISH_ALIASES = {"eos": "stop", "eos_token": "stop", "": None}

_decode = json.JSONDecoder().raw_decode

# Delta keys handled here rather than by the merger.
_SPLIT_KEYS = frozenset(["content", "reasoning", "tool_calls", "function_call"])


def _error_sentence(error):
    """One plain sentence from a provider error payload (dict, JSON text or anything)."""
    if isinstance(error, str):
        try:
            error = json.loads(error)      # event: error / bare error: lines carry JSON text
        except ValueError:
            pass
    if isinstance(error, dict) and error.get("error") is not None:
        error = error["error"]
    message = error
    if isinstance(error, dict):
        message = error.get("message") or error.get("code") or ""
    # Never a web page or a traceback (a proxy's page, a Python server's crash).
    message = clean_message(message) if isinstance(message, str) else None
    if not message:
        return tr("The model server reported an error while answering.")
    if message[-1] not in ".!?":
        message += "."
    return tr("The model server reported an error: %s") % message


@dataclass
class StreamResult:
    """The outcome of one streamed response (see ARCHITECTURE.md for the fields).

    ``tool_calls`` are {"id", "name", "arguments" (JSON text)} dicts, plus
    "extra_content" when Gemini sent one; ``error`` is a sentence or None.
    """

    content: str = ""
    reasoning: str = ""
    tool_calls: List[Dict[str, Any]] = field(default_factory=list)
    finish_reason: Optional[str] = None
    usage: Optional[Dict[str, Any]] = None
    error: Optional[str] = None
    done: bool = False
    reasoning_content: Optional[str] = None
    reasoning_details: Optional[List[Any]] = None
    too_long: Optional[Refusal] = None     # refused for length before anything streamed
    cut: bool = False                      # the body ended before the answer did

    def assistant_message(self) -> Dict[str, Any]:
        """The assistant message to append to history, in OpenAI format.

        ``reasoning_content`` (DeepSeek) and ``reasoning_details`` (OpenRouter)
        are included whenever the provider sent them: the turn loop keeps or
        strips them per provider (DeepSeek wants reasoning_content only on
        messages with tool calls within a turn and rejects it elsewhere).
        """
        message = {"role": "assistant",
                   "content": self.content if (self.content or not self.tool_calls) else None}
        if self.tool_calls:
            calls = []
            for call in self.tool_calls:
                item = {"id": call["id"], "type": "function",
                        "function": {"name": call["name"], "arguments": call["arguments"]}}
                if call.get("extra_content") is not None:
                    item["extra_content"] = call["extra_content"]   # Gemini thought signature
                calls.append(item)
            message["tool_calls"] = calls
        if self.reasoning_content:
            message["reasoning_content"] = self.reasoning_content
        if self.reasoning_details:
            message["reasoning_details"] = self.reasoning_details
        return message


class StreamAccumulator:
    """Reduces one streamed response.

    ``tools`` are the tool schemas the request offered (see textcalls).
    """

    def __init__(self, id_factory: Optional[Callable[[], str]] = None,
                 tools: Optional[Sequence[Mapping[str, Any]]] = None,
                 fence_tool: Optional[str] = None, bare_lines: bool = False) -> None:
        self._new_id = id_factory or new_call_id
        self._merger = deltamerge.DeltaAccumulator()
        self._think = thinking.ThinkSplitter()
        # The request's tool schemas: a JSON block naming one of them is a call.
        self._textcalls = TextCallFilter(tool_names(tools), fence_tool, bare_lines)
        self._content = []
        self._reasoning = []
        self._router = CallRouter()
        self._calls = self._router.calls
        self._text_calls = []     # calls parsed from the text, at finish
        # Named calls whose id may still come with the next fragment (a late id, adopted).
        self._waiting = []
        self._plain = False       # think splitter and text-call filter both pass text through
        self._finish_reason = None
        self._usage = None
        self._error = None
        self._too_long = None
        self._cut = False
        self._done = False
        self._finished = False

    # -- input -----------------------------------------------------------

    def feed_sse(self, event: SSEEvent) -> List[Event]:
        """Handle one SSEEvent: [DONE], event: error, JSON decoding, error payloads."""
        if self._done or self._finished or self._error is not None:
            return []
        data = event.data
        if event.event == "error":
            return [] if self._refused(data) else self._fail(_error_sentence(data))
        if data[:1] != "{":
            stripped = data.strip()
            if stripped == "[DONE]":
                self._done = True
                return []
            if not stripped:
                return []
        try:
            # raw_decode skips json.loads' wrappers; trailing junk is still refused.
            try:
                chunk, end = _decode(data)
            except ValueError:
                chunk, end = json.loads(data), len(data)    # leading whitespace
            if end != len(data) and not data[end:].isspace():
                raise ValueError("trailing data")
        except ValueError:
            if not event.complete:
                self._cut = True                 # the body ended inside this event
                return self._fail(tr(STREAM_CUT))
            return self._fail(tr("The model server sent a garbled answer stream."))
        return self.feed(chunk)

    def feed(self, chunk: Any) -> List[Event]:
        """Handle one parsed chunk; returns the events it caused."""
        if self._finished or self._error is not None or not isinstance(chunk, dict):
            return []
        if chunk.get("error") is not None:
            # OpenAI, OpenRouter, Anthropic compat, llama.cpp: error payload mid-stream.
            return [] if self._refused(chunk) else self._fail(_error_sentence(chunk["error"]))
        events = []
        reason = None
        # Empty choices: usage chunks, Azure prompt-filter chunks. Perplexity's
        # "chat.completion.done" object is read like any other chunk.
        choices = chunk.get("choices")
        if choices and isinstance(choices, list) and isinstance(choices[0], dict):
            choice = choices[0]
            delta = choice.get("delta")
            if delta and isinstance(delta, dict):
                # Mistral puts the last delta and the finish reason in one chunk: delta first.
                content = delta.get("content")
                size = len(delta)
                if type(content) is str and (size == 1 or (size == 2 and "role" in delta)):
                    if self._plain and "<" not in content and "[" not in content and (
                            "`" not in content or self._textcalls.fence_tool is None):
                        # Hot path: plain answer text, nothing held back anywhere.
                        if content:
                            self._content.append(content)
                            events.append(Event(TEXT, text=content))
                    else:
                        self._text(content, events)
                elif not (size == 1 and self._arguments_fast(delta)):
                    self._apply(delta, events)
            reason = choice.get("finish_reason")
        usage = chunk.get("usage")
        if usage and type(usage) is dict:
            self._usage = usage                       # cumulative: last non-null wins
            events.append(Event(USAGE, usage=usage))
        if type(reason) is str:
            reason = _FINISH_ALIASES.get(reason, reason)
            if reason == "error":
                # OpenRouter: a finish reason of "error" is an error too.
                events.extend(self._fail(tr("The model server stopped the answer with an error.")))
            elif reason is not None:
                self._finish_reason = reason
        return events

    def finish(self, body_ended: bool = True) -> List[Event]:
        """End of body: flush held text, parse text tool calls, emit DONE (once).

        ``body_ended`` is False when the reading stopped for another reason (the user's
        Stop, a broken connection the caller reports): a missing finish reason then
        says nothing."""
        if self._finished:
            return []
        events = []
        if (body_ended and self._error is None and not self._done
                and self._finish_reason is None):
            self._cut = True        # nothing said the answer was over: never act on it
            events.extend(self._fail(tr(STREAM_CUT)))
        if self._error is None:
            self._announce(self._waiting, events)
        for kind, text in self._think.finish():
            self._piece(kind, text, events)
        # Text calls count only when no structured call arrived, and never after an error.
        allowed = self._error is None and not any(c.name for c in self._calls)
        tail, calls = self._textcalls.finish(allowed)
        if tail:
            self._content.append(tail)
            events.append(Event(TEXT, text=tail))
        if calls and allowed:
            for call in calls:
                call["id"] = call.get("id") or self._new_id()
                call["arguments"] = arguments_text(call.get("arguments"))
                self._text_calls.append(call)
                events.append(Event(TOOL_CALL_STARTED, call_id=call["id"], name=call["name"]))
        self._finished = True
        events.append(Event(DONE, finish_reason=self._finish_reason))
        return events

    # -- output ----------------------------------------------------------

    def result(self) -> StreamResult:
        """The response so far (complete after finish()) as a StreamResult."""
        snap = self._merger.snapshot()
        details = snap.get("reasoning_details") or None
        return StreamResult(
            content="".join(self._content), reasoning="".join(self._reasoning),
            tool_calls=self._tool_calls(snap) if self._error is None else [],
            finish_reason=self._finish_reason, usage=self._usage, error=self._error,
            too_long=self._too_long, cut=self._cut,
            done=self._done, reasoning_content=snap.get("reasoning_content") or None,
            reasoning_details=details)

    @property
    def structured_calls(self) -> bool:
        """True when tool calls came as tool_calls deltas, not written in the text."""
        return any(call.name for call in self._calls)

    def _tool_calls(self, snap):
        if any(call.name for call in self._calls):
            calls = self._router.finished(snap.get("tool_calls") or (), self._new_id)
        else:
            calls = [dict(call) for call in self._text_calls]
        if self._finish_reason == "length":
            # Cut off by the token limit: never run a call whose arguments were truncated.
            calls = [call for call in calls if is_json(call["arguments"])]
        return calls

    # -- internals -------------------------------------------------------

    def _refused(self, payload):
        """A length refusal sent as the stream's first event (a 200 with the error inside):
        kept, with no ERROR event, so the loop can fit the request and send it again.
        True when it was one."""
        if self._content or self._reasoning or self._calls:
            return False
        text = payload if isinstance(payload, str) else json.dumps(payload)
        refused = window_errors.refusal(200, text.encode("utf-8"))
        if refused is None:
            return False
        self._too_long = refused
        self._error = _error_sentence(payload)
        return True

    def _fail(self, message):
        """Record a mid-stream error; text held back so far is released first."""
        events = []
        for kind, text in self._think.finish():
            self._piece(kind, text, events)
        tail, _ = self._textcalls.finish(False)    # calls of a failed response never run
        if tail:
            self._content.append(tail)
            events.append(Event(TEXT, text=tail))
        self._error = message
        events.append(Event(ERROR, message=message))
        return events

    def _text(self, text, events):
        """Content text: through the think splitter, then the text-call filter."""
        for kind, piece in self._think.feed(text):
            self._piece(kind, piece, events)
        self._plain = self._think.passthrough() and self._textcalls.passthrough()

    def _arguments_fast(self, delta):
        """Hot path for an OpenAI argument fragment of a known call; False if not one."""
        fragments = delta.get("tool_calls")
        if type(fragments) is not list or len(fragments) != 1:
            return False
        fragment = fragments[0]
        if type(fragment) is not dict or len(fragment) != 2:
            return False
        function = fragment.get("function")
        index = fragment.get("index")
        if type(function) is not dict or len(function) != 1 or type(index) is not int \
                or type(function.get("arguments")) is not str:
            return False
        call = self._router.at_index(index)
        if call is None or call.pos != index or self._waiting:
            return False
        # Already normalised: same index, no id, type or name to track.
        self._merger.add(delta)
        return True

    def _piece(self, kind, text, events):
        if kind == thinking.TEXT:
            shown = self._textcalls.feed(text)
            if shown:
                self._content.append(shown)
                events.append(Event(TEXT, text=shown))
        elif kind == thinking.REASONING:
            self._reasoning.append(text)
            events.append(Event(REASONING, text=text))
        else:
            # R1 template: all the answer so far was reasoning (see thinking.py).
            shown = "".join(self._content)
            moved = (shown + self._textcalls.raw_pending()).rstrip()
            self._reasoning.append(moved)
            self._content = []
            self._textcalls = TextCallFilter(self._textcalls.tool_names,
                                             self._textcalls.fence_tool,
                                             self._textcalls.bare_lines)
            self._plain = False
            if shown:
                # What was shown as answer moves to the thinking pane (ui.transcript).
                events.append(Event(RECLASSIFY, text=moved))

    def _apply(self, delta, events):
        rest = {}
        for key, value in delta.items():
            if key not in _SPLIT_KEYS:
                rest[key] = value
        # Readable reasoning: OpenRouter sends the same text as `reasoning` and in
        # `reasoning_details`; show it once, from the details. Newer vLLM sends
        # `reasoning` and `reasoning_content` with the same text: take `reasoning`.
        details = delta.get("reasoning_details")
        if details and isinstance(details, list):
            readable = thinking.readable_details(details)
        else:
            readable = delta.get("reasoning")
            if not isinstance(readable, str) or not readable:
                readable = delta.get("reasoning_content")
        if readable and isinstance(readable, str):
            self._reasoning.append(readable)
            events.append(Event(REASONING, text=readable))
        content = delta.get("content")
        if isinstance(content, str):
            self._text(content, events)
        elif isinstance(content, list):
            self._parts(content, events)
        fragments = delta.get("tool_calls")
        if not fragments and isinstance(delta.get("function_call"), dict):
            fragments = [{"function": delta["function_call"]}]   # legacy function_call
        if fragments and isinstance(fragments, list):
            routed = []
            touched = []
            for fragment in fragments:
                if isinstance(fragment, dict):
                    call, normalised = self._router.route(fragment)
                    routed.append(normalised)
                    touched.append(call)
            rest["tool_calls"] = routed
            # Calls left waiting for their id by the previous fragment: it had its chance.
            self._announce(self._waiting, events)
            ready, waiting = [], []
            for call in touched:
                if call.name and not call.started and call not in ready + waiting:
                    # Calls after a waiting one wait too, so announcements keep call order.
                    (waiting if call.call_id is None or waiting else ready).append(call)
            self._announce(ready, events)
            self._waiting = waiting
        if rest:
            self._merger.add(rest)

    def _announce(self, calls, events):
        """TOOL_CALL_STARTED once per named call, with a generated id if none came."""
        for call in calls:
            if call.name and not call.started:
                call.started = True
                if call.call_id is None:
                    call.call_id = self._new_id()   # none, or one the provider reused
                events.append(Event(TOOL_CALL_STARTED, call_id=call.call_id, name=call.name))

    def _parts(self, parts, events):
        """Magistral: content as a list of text and thinking parts."""
        for part in parts:
            if isinstance(part, str):
                self._text(part, events)
            elif not isinstance(part, dict):
                continue
            elif part.get("type") == "thinking":
                thought = part.get("thinking")
                if isinstance(thought, str):
                    thought = [{"text": thought}]
                for item in thought or ():
                    text = item.get("text") if isinstance(item, dict) else item
                    if isinstance(text, str) and text:
                        self._reasoning.append(text)
                        events.append(Event(REASONING, text=text))
            elif isinstance(part.get("text"), str):
                self._text(part["text"], events)

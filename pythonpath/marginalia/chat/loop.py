"""The turn loop: ask the model, run the tools it calls, ask again, until it answers.

``run_turn`` is called on a worker thread and reports through ``on_event``
(the closed vocabulary of events.py). It never raises for tool problems or
server errors: those end as one ERROR event and a TurnResult. The history it
leaves behind is always valid to send again:

* Every assistant tool call gets exactly one tool message with its id, in order, also
  when the turn is stopped mid-tool ("Cancelled by the user.").
* A stream that was stopped or broke keeps its text, marked " [stopped]" or
  " [interrupted]"; its tool calls are dropped, since none of them ran. One the
  connection cut (no finish reason came) ends the turn with finish_reason "cut".
* Reasoning echo is decided per message, not per provider: the current
  turn's assistant messages carry back ``reasoning_details`` (OpenRouter
  wants them echoed unchanged in a tool loop) and, when they hold tool
  calls, ``reasoning_content`` (DeepSeek requires it there and rejects it
  elsewhere). Both are stripped from earlier turns. Gemini's
  ``extra_content`` on a tool call is part of the call and always kept.
* Usage: each request reports cumulative usage (only its last value counts); the turn's
  is the sum of those over its requests.
* With a context window, each request is fitted to it (chat.budget): the
  history is sent shortened, never the history itself changed; the reading
  tools get the room left; the server's prompt_tokens calibrate the estimate.
* A call repeated with the same arguments and result is told so; a third time ends the
  turn (chat.repeats).
* A request refused as too long is fitted to the window the server names (or the likely
  one) and sent again, once per turn; a silent cut is told once per chat (chat.window_errors).
* An answer that wrote a call to an offered tool as text is told once per turn that
  nothing changed, and asked again; both leave the history when the turn ends (chat.misfire).
* The rewrite protocol (``attachments``): system message and tools fixed for the chat,
  what changes on the user's message (chat.attach); a round of edits only, all made,
  ends the turn; such rounds, and those of a request without tools, stay text (rounds).
"""

import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, List, Optional, Tuple

from marginalia.chat import (attach, budget, linecalls, misfire, rounds, textcalls,
                             window as server_window, window_errors)
from marginalia.chat.endpoint import build_body
from marginalia.config import Settings
from marginalia.document import tool_lines
from marginalia.errors import Cancelled, MarginaliaError
from marginalia.i18n import formats
from marginalia.i18n.catalog import tr
from marginalia.events import (CONNECTING, CONTEXT, DONE, ERROR, NOTICE, RUNNING, STATUS,
                               TOOL_CALL, TOOL_RESULT, WAITING, Event)
from marginalia.chat.forward import Forwarder
from marginalia.chat.prompt import system_prompt  # noqa: F401 (re-exported)
from marginalia.chat.repeats import REPEATED, STUCK, RepeatWatch
from marginalia.chat.conversation import Conversation, add_usage  # noqa: F401 (re-exported)
from marginalia.chat.sse import SSEDecoder
from marginalia.chat.stream import StreamAccumulator
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.toolschema import compact_tools

if TYPE_CHECKING:   # the loop takes any client with open_stream (the tests' fake model too)
    from marginalia.chat.transport import CancelToken, ChatClient

log = logging.getLogger("marginalia.chat.loop")

CANCELLED_RESULT = "Cancelled by the user."
NO_EDITS = ("Edits are unavailable with this model: it cannot call tools, so it answers in "
            "the chat only.")
STOPPED = " [stopped]"
INTERRUPTED = " [interrupted]"


@dataclass
class TurnResult:
    """What a turn did, for callers without an event listener (tests, scripts).
    ``text`` and ``reasoning`` join the rounds' answers; how the turn finished is its DONE
    event's ``finish_reason``."""

    text: str = ""
    reasoning: str = ""
    usage: Optional[dict] = None
    rounds: int = 0
    tool_calls: List[Tuple[str, bool]] = field(default_factory=list)  # (name, ok), in order
    error: Optional[str] = None
    cancelled: bool = False


def run_turn(client: "ChatClient", conversation: Conversation, user_text: str,
             registry: Optional[ToolRegistry], settings: Settings,
             on_event: Callable[[Event], None], cancel: "CancelToken",
             context: Optional[str] = None,
             window: Optional[budget.Window] = None,
             base_prompt: Optional[str] = None, sources: Optional[str] = None,
             attachments: Optional[attach.Attachments] = None) -> TurnResult:
    """Run one user turn to its end; returns a TurnResult (see the module docstring).

    With a ``window`` every request is fitted to it (chat.budget) and a CONTEXT
    event reports its size; without one the history goes as it is. ``attachments``
    makes it a turn of the rewrite protocol (``context`` and ``sources`` are then
    not used: they are in the attachments).
    """
    turn = _Turn(client, conversation, registry, settings, on_event, cancel, context, window)
    turn.base_prompt = base_prompt
    turn.sources = sources         # what the system message says of the chat's sources
    turn.attachments = attachments
    # The tool an edit written as text calls (chat.textcalls): the rewrite protocol's.
    turn.fence_tool = "edit" if attachments is not None and turn.registry.has("edit") else None
    return turn.run(user_text)


class _Turn:
    def __init__(self, client, conversation, registry, settings, on_event, cancel, context,
                 window=None):
        self.client = client
        self.conversation = conversation
        # No registry means no tools: a call the model makes anyway (a text call
        # from a local model) still gets an error result, not an exception.
        self.registry = registry if registry is not None else ToolRegistry()
        self.settings = settings
        self.on_event = on_event
        self.cancel = cancel
        self.context = context
        self.result = TurnResult()
        self.status = None
        self.texts = []
        self.reasonings = []
        self.window = window
        self.calibration = budget.calibration_for(settings.endpoint or "", settings.model or "")
        self.tools_size = 0
        self.read_limit = None     # characters a reading tool may return (sized to the room left)
        self.unsent = False        # the user's message did not fit: nothing was sent
        self.fitted = None
        self.watch = RepeatWatch()
        self.base_prompt = None    # the system prompt's first part, when not the chat's
        self.sources = None
        self.resent_shorter = False  # a refusal for length was answered by a resend already
        self.nudged = None         # where the answer that wrote a call as text sits, once told
        self.attachments = None    # the rewrite protocol's (chat.attach)
        self.user_text, self.fence_tool = "", None
        self.said = []             # each call's summary, in order (result.tool_calls')

    def emit(self, event):
        self.on_event(event)

    def set_status(self, state, name=None, arguments=None):
        """Say the turn's state (events.STATES) when it changes; the panel words it."""
        if (state, name, arguments) != self.status:
            self.status = (state, name, arguments)
            self.emit(Event(STATUS, text=state, name=name, arguments=arguments))

    def fail(self, message, emit=True):
        self.result.error = message
        if emit:
            self.emit(Event(ERROR, message=message))

    def run(self, user_text):
        result = self.result
        turn_start = len(self.conversation)
        self.user_text = user_text
        self.conversation.append(attach.user_message(user_text, self.attachments,
                                                     self.conversation.messages))
        tools = self.fit_tools(self.registry.schemas())
        max_rounds = max(1, int(self.settings.max_rounds or 1))
        finish = None
        while True:
            if self.cancel.cancelled:
                self.keep_partial("", STOPPED)
                finish = self.stopped()
                break
            result.rounds += 1
            try:
                stream = self.request(turn_start, tools)
            except _ToolsRefused:
                # Ollama: "<model> does not support tools". The model still chats.
                tools = []
                self.tools_size = 0
                self.emit(Event(NOTICE, message=NO_EDITS))
                result.rounds -= 1
                continue
            except _TooLong as refused:
                if not self.shrink(refused.args[0]):
                    self.keep_partial("", INTERRUPTED)    # never two user messages in a row
                    finish = "error"
                    break
                tools = self.fit_tools(self.registry.schemas()) if tools else tools
                result.rounds -= 1
                continue
            if self.unsent:
                finish = "error"
                break
            if stream.error is not None or result.cancelled:
                self.keep_partial(stream.content, STOPPED if result.cancelled else INTERRUPTED)
                # A cut answer ends as "cut": the panel says so and offers Retry.
                finish = self.stopped() if result.cancelled else (
                    "cut" if stream.cut else "error")
                break
            self.conversation.append(stream.assistant_message())
            finish = stream.finish_reason
            if not stream.tool_calls:
                if tools and result.rounds < max_rounds and self.nudge(stream.content, tools):
                    continue
                break
            at, made = len(self.conversation), len(result.tool_calls)
            if not self.run_tools(stream.tool_calls):
                finish = self.stopped()
                break
            if rounds.settle(self.conversation.messages, at, stream.tool_calls,
                                list(zip(result.tool_calls[made:], self.said[made:])),
                                self.registry, self.fence_tool, self.attachments, tools,
                                linecalls.asks(self.user_text)):
                break
            if self.watch.stuck is not None:
                self.fail(STUCK % self.watch.stuck)
                finish = "repeating"
                break
            if result.rounds >= max_rounds:
                self.fail("The model was still calling tools after %d rounds, so the turn "
                          "stopped; send a message to let it continue." % max_rounds)
                finish = "max_rounds"
                break
        misfire.forget(self.conversation.messages, self.nudged)
        result.text = "\n\n".join(t for t in self.texts if t)
        result.reasoning = "\n\n".join(r for r in self.reasonings if r)
        self.status = None
        self.emit(Event(DONE, finish_reason=finish))
        return result

    def stopped(self):
        self.result.cancelled = True
        return "cancelled"

    def fit_tools(self, tools):
        """The tool schemas to send: compact ones when the full set takes an eighth of it."""
        if self.window is None or not tools:
            return tools
        self.tools_size = budget.text_size(json.dumps(tools))
        if self.calibration.tokens(self.tools_size) > self.window.tokens // 8:
            tools = compact_tools(tools)
            self.tools_size = budget.text_size(json.dumps(tools))
        return tools

    def shrink(self, refusal):
        """Take the window a length refusal names; False when this turn already resent once."""
        sent = self.fitted.tokens if self.fitted else self.calibration.tokens(
            sum(map(budget.message_size, self.conversation.messages)))
        if self.resent_shorter:
            named = refusal.window or (self.window.tokens if self.window else sent)
            self.fail(tr(window_errors.STILL_TOO_LONG) % formats.number(named))
            return False
        self.resent_shorter = True
        if refusal.prompt_tokens and self.fitted is not None:
            # llama.cpp counts the refused prompt: the best calibration there is.
            self.calibration.observe(self.fitted.size, len(self.fitted.messages) + 1,
                                     refusal.prompt_tokens)
        tokens = window_errors.window_after(refusal, sent, self.window and self.window.tokens)
        log.info("server refused %d estimated tokens as too long; window now %d", sent, tokens)
        self.window = server_window.learn(self.settings, tokens)
        self.emit(Event(NOTICE, message=tr(window_errors.SHRUNK) % formats.number(tokens)))
        return True

    def fit(self, system, history, turn_start):
        """The history fitted to the window (chat.budget); None when even the message won't fit."""
        window = self.window
        fitted = budget.fit(system, self.tools_size, history, turn_start, window.tokens,
                            self.calibration,
                            budget.reserve_for(window.tokens, self.settings.max_tokens))
        if fitted.error is not None:
            self.fail(fitted.error)
            if self.result.rounds == 1:    # forget the message, so the next one starts clean
                del self.conversation.messages[turn_start:]
            self.unsent = True
            return None
        self.read_limit = fitted.read_limit(self.calibration.ratio)
        squeezed = fitted.shortened or fitted.dropped or fitted.cut
        if squeezed and window.hint and budget.tell_once((self.settings.endpoint, window.hint)):
            self.emit(Event(NOTICE, message=window.hint))
        self.emit(Event(CONTEXT, usage={"tokens": fitted.tokens, "window": window.tokens}))
        self.fitted = fitted
        return fitted.messages

    def observe(self, usage):
        """Calibrate on the server's count for the request just sent, and show it."""
        prompt = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        if self.window is None or not isinstance(prompt, int) or isinstance(prompt, bool):
            return
        fitted = self.fitted
        if window_errors.may_cut(self.window.source) and window_errors.truncated(
                prompt, fitted.tokens, usage, calibrated=self.calibration.observed > 0):
            # Ollama cut the prompt silently: no calibration from that count, and a
            # window smaller than budgeted, remembered for the next request.
            if "cut silently" not in self.conversation.told:
                self.conversation.told.add("cut silently")
                self.emit(Event(NOTICE, message=window_errors.cut_silently(prompt, fitted.tokens)))
            self.window = server_window.learn(
                self.settings, window_errors.window_after_cut(prompt, fitted.tokens))
        else:
            self.calibration.observe(fitted.size, len(fitted.messages) + 1, prompt)
        answer = usage.get("completion_tokens")
        used = prompt + (answer if isinstance(answer, int) else 0)
        self.emit(Event(CONTEXT, usage={"tokens": used, "window": self.window.tokens}))

    def request(self, turn_start, tools):
        """One streamed request; returns its StreamResult (``error`` set on failure)."""
        # Numbered lines alone are an edit, unless the user asked a question (linecalls).
        accumulator = StreamAccumulator(tools=tools, fence_tool=self.fence_tool,
                                        bare_lines=not linecalls.asks(self.user_text))
        decoder = SSEDecoder()
        prior_usage = self.result.usage
        forward = Forwarder(self.emit, self.set_status, prior_usage)
        stream = None
        error, cut = None, False
        try:
            rewrite = self.attachments is not None
            system = system_prompt(self.settings, None if rewrite else self.context,
                                   bool(tools), self.base_prompt,
                                   None if rewrite else self.sources, rewrite)
            history = self.conversation.for_request(turn_start)
            if self.window is not None:
                history = self.fit(system, history, turn_start)
                if history is None:
                    return accumulator.result()
            history = attach.render(history, self.attachments)
            body = build_body(self.settings, [{"role": "system", "content": system}] + history,
                              tools)
            self.set_status(CONNECTING)
            stream = self.client.open_stream(body, self.cancel)
            self.set_status(WAITING)
            for data in stream:
                if self.cancel.cancelled:
                    raise Cancelled()   # a client that does not poll the token itself
                for event in decoder.feed(data):
                    forward(accumulator.feed_sse(event))
                if forward.error_shown:
                    break              # the server reported an error: the rest is moot
            for event in decoder.close():
                forward(accumulator.feed_sse(event))
            forward(accumulator.finish())
        except Cancelled:
            self.result.cancelled = True
            forward(accumulator.finish(body_ended=False), text_only=True)
        except MarginaliaError as exc:
            if getattr(exc, "no_tools", False) and tools:
                raise _ToolsRefused()
            if getattr(exc, "too_long", None) is not None:
                raise _TooLong(exc.too_long)
            error = str(exc)
            cut = getattr(exc, "cut", False)
            forward(accumulator.finish(body_ended=False), text_only=True)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        outcome = accumulator.result()
        if outcome.too_long is not None and error is None and not self.result.cancelled:
            raise _TooLong(outcome.too_long)     # refused inside a 200 stream: as a 400
        self.texts.append(outcome.content)
        self.reasonings.append(outcome.reasoning)
        if outcome.usage:
            self.result.usage = add_usage(prior_usage, outcome.usage)
            self.observe(outcome.usage)
        if error is not None:
            outcome.error = error
            outcome.cut = cut
            outcome.tool_calls = []
            self.fail(error)
        elif outcome.error is not None:
            self.fail(outcome.error, emit=not forward.error_shown)
        if self.result.cancelled:
            outcome.tool_calls = []
        return outcome

    def nudge(self, content, tools):
        """After an answer that wrote a call as text: tell the model once (chat.misfire)."""
        if self.nudged is None:
            self.nudged = misfire.tell(self.conversation.messages, content,
                                       textcalls.tool_names(tools), self.fence_tool)
            return self.nudged is not None
        return False

    def keep_partial(self, content, marker):
        """Keep a stopped or broken answer's text in history, marked, with no tool calls."""
        content = content or ""
        last = self.conversation.messages[-1] if len(self.conversation) else {}
        if not content and last.get("role") == "tool":
            return   # the tool results already close the exchange
        # An assistant message even when empty: chat templates (Gemma, Mistral)
        # refuse two user messages in a row.
        self.conversation.append({"role": "assistant",
                                  "content": content + marker if content else marker.strip()})

    def run_tools(self, calls):
        """Run the calls in order; False if cancelled (every call still gets a result)."""
        for position, call in enumerate(calls):
            if self.cancel.cancelled:
                self.cancel_rest(calls[position:])
                return False
            name = call["name"]
            self.set_status(RUNNING, name, call["arguments"])
            self.emit(Event(TOOL_CALL, call_id=call["id"], name=name,
                            arguments=call["arguments"]))
            try:
                outcome = self.registry.call(name, call["arguments"], limit=self.read_limit)
            except Cancelled:
                stopped = self.registry.said(name, tool_lines.stopped())
                self.emit(Event(TOOL_RESULT, call_id=call["id"], name=name, ok=False,
                                result=CANCELLED_RESULT, summary="%s cancelled" % name,
                                phrase=stopped.to_dict()))
                self.cancel_rest(calls[position:])
                return False
            content = outcome.content
            if self.watch.seen_before(name, call["arguments"], content):
                content += "\n" + REPEATED
            self.emit(Event(TOOL_RESULT, call_id=call["id"], name=name, ok=outcome.ok,
                            result=content, summary=outcome.summary,
                            phrase=outcome.phrase.to_dict() if outcome.phrase else None))
            self.conversation.append({"role": "tool", "tool_call_id": call["id"],
                                      "content": content})
            self.result.tool_calls.append((name, outcome.ok))
            self.said.append(outcome.summary)
        return True

    def cancel_rest(self, calls):
        for call in calls:
            self.conversation.append({"role": "tool", "tool_call_id": call["id"],
                                      "content": CANCELLED_RESULT})


class _ToolsRefused(Exception):
    """The server refused the request because the model cannot call tools."""


class _TooLong(Exception):
    """The server refused the request as too long (its one argument: the Refusal)."""

"""Fitting a request into the model's context window.

Pure and cheap: sizes are UTF-8 byte counts of the text parts of each message
(``len`` for ASCII text), turned into tokens by a ratio that starts cautious
and is calibrated by the ``prompt_tokens`` the server reports for the request
we estimated. A local server that runs out of window cuts the prompt from the
front without saying so (Ollama, llama.cpp), so nothing is sent that the
estimate says would not fit.

Over budget, ``fit`` changes only the copy it sends, in this order:

1. old tool results (every round but the latest) become a one-line note
   naming the tool and the size that was there, oldest first;
2. the oldest whole turns before the current one are dropped, so a tool call
   and its results always leave together and history stays valid;
3. the oldest rounds of the current turn (an assistant message with tool
   calls and its results) are dropped;
4. what is left of the current turn (never the user's message) is cut,
   largest first, with a note saying so.

The user's message alone not fitting is one sentence instead of a request.
"""

import math
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from marginalia.chat import attach
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr

Message = Dict[str, Any]

RATIO = 0.32             # tokens per byte before any calibration: cautious for English
MIN_RATIO, MAX_RATIO = 0.12, 1.0
OVERHEAD = 6             # tokens a chat template adds around each message
MARGIN = 0.06            # of the window, kept free for the estimate's error
NOTE_ROOM = 160          # bytes a shortened result's note takes
MIN_READ = 600           # the smallest read limit worth offering a tool, in characters
INLINE_MAX = 6000        # characters of a short document the system message shows whole

PLACEHOLDER = '{"note": "arguments removed to fit the context window"}'
# The user's sentences (a turn's error, shown in the panel): in the user's language.
TOO_LONG = N_("Your message is too long for this model's context window (about %(size)s "
              "tokens, %(room)s fit); shorten it or choose a model with a larger window.")
NO_FIT = ("This turn's tool results no longer fit the model's context window, so the turn "
          "stopped; send a message to go on.")
NO_ROOM = N_("This model's context window (%s tokens) is too small for Marginalia's "
             "instructions and tools; give the model a larger context window.")


def text_size(text: Any) -> int:
    """Bytes of ``text`` in UTF-8 (a token covers fewer bytes of CJK or accented text)."""
    if not text:
        return 0
    if not isinstance(text, str):
        text = str(text)
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def message_size(message: Message) -> int:
    """The bytes of what a message sends: its text, tool calls and ids."""
    content = message.get("content")
    if isinstance(content, list):       # content parts: only the text ones are counted
        size = sum(text_size(part.get("text")) for part in content if isinstance(part, dict))
    else:
        size = text_size(content)
    # A user message's attachments (chat.attach), folded into its text when sent.
    size += text_size(attach.size(message))
    for call in message.get("tool_calls") or ():
        function = call.get("function") or {}
        size += text_size(function.get("name")) + text_size(function.get("arguments")) + 24
    if message.get("tool_call_id"):
        size += 24
    return size


def reserve_for(window: int, max_tokens: Optional[int] = None) -> int:
    """Tokens kept for the answer: the user's max_tokens, else an eighth of the window."""
    if max_tokens:
        return min(int(max_tokens), window // 2)
    return max(256, min(4096, window // 8))


def short_count(tokens: int) -> str:
    """5210 -> "5.2k", 32768 -> "32k", 900 -> "900": the meter's numbers, never rounded up."""
    if tokens < 1000:
        return str(int(tokens))
    if tokens < 10000:
        tenths = int(tokens / 100)
        if tenths % 10 == 0:
            return "%dk" % (tenths // 10)
        return formats.decimal(tenths / 10.0, 1) + "k"     # 5,2k where a comma is the mark
    return "%dk" % int(tokens / 1000)


class Calibration:
    """Tokens per byte and per message for one server and model, learned from its counts.

    Each request's (bytes, messages, reported prompt_tokens) is kept, the last
    few of them; two or more that differ enough give both numbers by least
    squares (a chat template's cost per message is not the tokenizer's per
    byte), otherwise the ratio alone is fitted with the default per message.
    """

    KEEP = 8

    def __init__(self, ratio: float = RATIO, overhead: float = OVERHEAD) -> None:
        self.ratio = ratio
        self.overhead = overhead
        self.observed = 0
        self._points: List[Tuple[int, int, float]] = []

    def tokens(self, size: int, messages: int = 0) -> int:
        return int(math.ceil(size * self.ratio + self.overhead * messages))

    def observe(self, size: int, messages: int, prompt_tokens: Any) -> None:
        """Learn from the server's count of a request of ``size`` bytes in ``messages``."""
        if not isinstance(prompt_tokens, (int, float)) or isinstance(prompt_tokens, bool):
            return
        if size <= 0 or prompt_tokens <= 0:
            return
        if prompt_tokens < self.tokens(size, messages) * 0.5:
            # Far fewer tokens than sent: a prompt cache answered part of it
            # (Ollama counts only what it evaluated), not a cheaper tokenizer.
            return
        self._points = (self._points + [(size, messages, float(prompt_tokens))])[-self.KEEP:]
        self.observed += 1
        if not self._solve():
            seen = sum((p - OVERHEAD * m) / float(s) for s, m, p in self._points)
            self.ratio = min(MAX_RATIO, max(MIN_RATIO, seen / len(self._points)))
            self.overhead = OVERHEAD

    def _solve(self) -> bool:
        points = self._points
        if len(points) < 2:
            return False
        sxx = sum(s * s for s, _m, _p in points)
        sxm = sum(s * m for s, m, _p in points)
        smm = sum(m * m for _s, m, _p in points)
        sxy = sum(s * p for s, _m, p in points)
        smy = sum(m * p for _s, m, p in points)
        det = sxx * smm - sxm * sxm
        if det <= 1e-6 * sxx * smm:     # the requests are too alike to tell the two apart
            return False
        ratio = (sxy * smm - sxm * smy) / det
        overhead = (sxx * smy - sxm * sxy) / det
        if not (MIN_RATIO <= ratio <= MAX_RATIO and 0 <= overhead <= 40):
            return False
        self.ratio, self.overhead = ratio, overhead
        return True


_calibrations: Dict[Tuple[str, str], Calibration] = {}


def calibration_for(server: str, model: str) -> Calibration:
    """The process's calibration for a server and model, made on first use."""
    key = (server, model)
    found = _calibrations.get(key)
    if found is None:
        found = _calibrations[key] = Calibration()
    return found


@dataclass
class Fit:
    """A request's history cut to the window, and what it cost."""

    messages: List[Message]
    tokens: int = 0          # the whole prompt's estimate: system, tools and messages
    size: int = 0            # the bytes behind that estimate, for calibration
    window: int = 0
    room: int = 0            # tokens left for the next tool result
    shortened: int = 0       # tool results made a note
    dropped: int = 0         # messages left out
    cut: int = 0             # messages cut short
    error: Optional[str] = None

    def read_limit(self, ratio: float) -> int:
        """Characters a reading tool may return so its answer still fits next time."""
        return max(MIN_READ, int(self.room / max(ratio, MIN_RATIO) * 0.8))


def _note(message: Message, names: Dict[str, str], size: int) -> str:
    name = names.get(message.get("tool_call_id") or "", "a tool")
    return ("[An earlier result of %s (%d characters) was removed to fit the context window; "
            "call it again if it is needed.]" % (name, size))


def _call_names(messages: List[Message]) -> Dict[str, str]:
    names = {}
    for message in messages:
        for call in message.get("tool_calls") or ():
            names[call.get("id") or ""] = (call.get("function") or {}).get("name") or "a tool"
    return names


def _cut_text(text: str, keep: int) -> str:
    keep = max(0, keep)
    return text[:keep] + "\n[\u2026 cut here to fit the context window: %d more characters]" % (
        len(text) - keep)


def fit(system: str, tools_size: int, messages: List[Message], turn_start: int, window: int,
        calibration: Calibration, reserve: int) -> Fit:
    """Fit ``messages`` (the request's history, without the system message) into ``window``.

    ``turn_start`` is the index of the current turn's user message; ``tools_size``
    the bytes of the tool schemas sent. ``messages`` is not changed.
    """
    ratio = calibration.ratio
    per_message = int(math.ceil(calibration.overhead / ratio))
    usable = (window - reserve - int(window * MARGIN)) / ratio
    fixed = text_size(system) + per_message + tools_size
    limit = int(usable) - fixed
    costs = [message_size(m) + per_message for m in messages]
    out = Fit(list(messages), window=window)
    if limit <= 0:
        out.error = tr(NO_ROOM) % formats.number(window)
        return out
    turn_start = min(max(0, turn_start), len(messages))
    if turn_start < len(messages) and costs[turn_start] > limit:
        out.error = tr(TOO_LONG) % {
            "size": formats.number(calibration.tokens(costs[turn_start])),
            "room": formats.number(max(0, calibration.tokens(limit)))}
        return out
    total = sum(costs)
    keep = [True] * len(messages)
    if total > limit:
        total = _shrink(out, costs, keep, total, limit, turn_start)
        if total > limit:
            out.error = NO_FIT
    if out.dropped:
        out.messages = [m for m, k in zip(out.messages, keep) if k]
    out.size = fixed + total - per_message * (len(out.messages) + 1)
    out.tokens = calibration.tokens(out.size, len(out.messages) + 1)
    out.room = max(0, int((limit - total) * ratio))
    return out


def _latest_round(messages: List[Message], turn_start: int) -> int:
    """Where the latest round's assistant message is (len(messages) when none in this turn)."""
    for index in range(len(messages) - 1, turn_start, -1):
        if messages[index].get("role") == "assistant":
            return index
    return len(messages)


def _shrink(out: Fit, costs: List[int], keep: List[bool], total: int, limit: int,
            turn_start: int) -> int:
    messages = out.messages
    latest = _latest_round(messages, turn_start)
    names = _call_names(messages)
    # 1. Old tool results become notes, oldest first.
    for index in range(latest):
        if total <= limit:
            return total
        message = messages[index]
        if message.get("role") == "tool" and costs[index] > NOTE_ROOM * 2:
            note = _note(message, names, len(message.get("content") or ""))
            total += _swap(messages, costs, index, dict(message, content=note))
            out.shortened += 1
    # 2. The oldest whole turns go; 3. then the oldest rounds of this one.
    starts = [i for i in range(turn_start) if messages[i].get("role") == "user"] + [turn_start]
    rounds = [i for i in range(turn_start + 1, latest) if messages[i].get("role") == "assistant"]
    spans = list(zip(starts, starts[1:])) + list(zip(rounds, rounds[1:] + [latest]))
    for start, end in spans:
        if total <= limit:
            return total
        for index in range(start, end):
            if keep[index]:
                keep[index] = False
                total -= costs[index]
                out.dropped += 1
    # 4. Cut what is left of this turn, largest first (the user's message stays whole).
    rest = sorted((i for i in range(turn_start + 1, len(messages)) if keep[i]),
                  key=lambda i: -costs[i])
    for index in rest:
        if total <= limit:
            break
        message = messages[index]
        content = message.get("content")
        if not isinstance(content, str) or not content:
            continue
        text = _cut_text(content, len(content) - (total - limit) - NOTE_ROOM)
        total += _swap(messages, costs, index, dict(message, content=text))
        out.cut += 1
    # 5. Arguments the model wrote in this round, as a last resort.
    for index in rest:
        if total <= limit:
            break
        message = messages[index]
        if message.get("tool_calls"):
            calls = [dict(c, function=dict(c.get("function") or {}, arguments=PLACEHOLDER))
                     for c in message["tool_calls"]]
            total += _swap(messages, costs, index, dict(message, tool_calls=calls))
            out.cut += 1
    return total


def _swap(messages: List[Message], costs: List[int], index: int, new: Message) -> int:
    """Put ``new`` in place of message ``index``; returns how its cost changed."""
    delta = message_size(new) - message_size(messages[index])
    costs[index] += delta
    messages[index] = new
    return delta


@dataclass
class Window:
    """The context window a request is fitted to, and where that number came from."""

    tokens: int
    source: str = ""                 # "ollama /api/ps", "setting", "default"...
    model_max: Optional[int] = None  # the model's own maximum, when the server runs it smaller
    hint: Optional[str] = None       # told once when the request needed more (Ollama)


def inline_chars(window: Optional[Window]) -> int:
    """How long a document may be to go whole into the system message: an eighth of the
    window at most (the turn's reads and answers need the rest), never over INLINE_MAX."""
    if window is None:
        return INLINE_MAX
    return max(0, min(INLINE_MAX, int(window.tokens / 8 / RATIO)))


_told = set()


def tell_once(key: Any) -> bool:
    """True the first time ``key`` is asked about in this process."""
    if key in _told:
        return False
    _told.add(key)
    return True

"""A server refusing a request for its length, and the window size it names (pure).

Servers word it each their own way; these are the ones seen in the wild:

* llama.cpp server: a JSON error of type ``exceed_context_size_error`` with
  ``n_ctx`` and ``n_prompt_tokens`` ("request (8708 tokens) exceeds the
  available context size (8192 tokens), try increasing it"; older builds:
  "the request exceeds the available context size. try increasing the
  context size or enable context shift", sometimes with a 200 or 500 status).
  Servers built on it (ds4) use the type ``context_exceeded`` with the same fields.
* OpenAI and vLLM: "This model's maximum context length is 4096 tokens.
  However, you requested ..."; OpenAI's code ``context_length_exceeded``.
* LM Studio: "... the model is loaded with context length of only 4096 tokens,
  which is not enough", "(n_keep: 13055>= n_ctx: 4096)", "Input length 6491
  exceeds context length 1500".
* llama-cpp-python: "Requested tokens (5000) exceed context window of 4096".
* Ollama-like servers: "the request exceeds the available context size", no number.
"""

import json
import re
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from marginalia.i18n.catalog import N_, tr

_TYPES = ("exceed_context_size_error", "context_exceeded", "context_length_exceeded")

# Each pattern's group is the window; the first one found wins.
_NUMBERS = [re.compile(p, re.I) for p in (
    r"maximum context length is (\d[\d,]*) tokens",
    r"available context size \((\d[\d,]*) tokens\)",
    r"context length of only (\d[\d,]*) tokens",
    r"n_ctx:? *(\d+)",
    r"exceeds? context (?:length|window) (?:of )?(\d[\d,]*)",
    r"context window (?:is|of) *(\d[\d,]*)",
    r"(\d[\d,]*) maximum context length",
)]
_TOO_LONG = re.compile(
    r"exceeds? the available context size|maximum context length|context length of only"
    r"|greater than the context length|exceeds? context (?:length|window)"
    r"|prompt is too long|too large for model with \d+ maximum context length"
    r"|context_length_exceeded|exceed_context_size", re.I)


@dataclass
class Refusal:
    """A request refused as too long; ``window`` when the server said how big it is."""

    window: Optional[int] = None
    prompt_tokens: Optional[int] = None    # the server's own count of what was sent


def _number(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str) and value.replace(",", "").isdigit():
        return int(value.replace(",", "")) or None
    return None


def _errors(data: Any) -> Iterator[dict]:
    """The error objects in a body: {"error": {...}}, {"error": "..."}, or a list of them."""
    if isinstance(data, list):
        for item in data:
            for found in _errors(item):
                yield found
    elif isinstance(data, dict):
        inner = data.get("error")
        if isinstance(inner, dict):
            yield inner
        elif isinstance(inner, str):
            yield {"message": inner}
        elif "message" in data or "type" in data:
            yield data


def refusal(status: int, body: bytes) -> Optional[Refusal]:
    """A Refusal when the error ``body`` says the request was too long, else None."""
    if 200 <= status < 300 and b"error" not in body:
        return None
    text = body[:20000].decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    for error in _errors(data):
        kind = " ".join(str(error.get(key) or "") for key in ("type", "code"))
        message = error.get("message") if isinstance(error.get("message"), str) else ""
        if _MAX_TOKENS.search(message):
            continue        # the answer's room (the Max tokens setting), not the prompt
        if any(name in kind for name in _TYPES) or _TOO_LONG.search(message):
            return Refusal(_number(error.get("n_ctx")) or _window_in(message),
                           _number(error.get("n_prompt_tokens")))
    if data is None and _TOO_LONG.search(text) and not _MAX_TOKENS.search(text):
        return Refusal(_window_in(text))
    return None


# vLLM: "'max_tokens' or 'max_completion_tokens' is too large: 9000. This model's maximum
# context length is 8192 tokens and your request has 120 input tokens".
_MAX_TOKENS = re.compile(r"max_(?:completion_)?tokens", re.I)


def _window_in(text: str) -> Optional[int]:
    for pattern in _NUMBERS:
        found = pattern.search(text)
        if found:
            return _number(found.group(1))
    return None


_SIZES = (2048, 4096, 8192, 16384, 32768, 65536, 131072)
SHRINK = 0.8            # a resend fitted to a window the estimate already "fit"


def guess_window(sent_tokens: int) -> int:
    """The likely window of a server that refused ``sent_tokens`` without saying its size.

    Windows are set in round sizes; the largest such size below what was refused
    is the best guess (Ollama's default 4,096 under a 4,568-token request).
    """
    below = [size for size in _SIZES if size < sent_tokens]
    return below[-1] if below else max(1024, sent_tokens // 2)


def window_after_cut(prompt_tokens: int, sent: int) -> int:
    """The likely window of a server that kept ``prompt_tokens`` of ``sent`` (it holds them)."""
    return next((size for size in _SIZES if size >= prompt_tokens), prompt_tokens)


# A server that counted clearly less than what was sent, and about a round window's
# worth, cut the prompt (Ollama keeps what fits in num_ctx). Small requests are not
# judged, as a fixed template overhead weighs more there.
TRUNCATED_RATIO = 0.8
# Before the server's first count the estimate is cautious (0.32 tokens per byte; English
# prose is ~0.23 with Qwen's tokenizer), so an honest count can be 0.7 of it: only a far
# smaller one is a cut. At 0.8, a first request of ~1,700 tokens read as "cut to 2,048".
UNCALIBRATED_RATIO = 0.65
TRUNCATED_MIN = 1024
FULL_RATIO = 0.75       # a cut prompt fills its window at least this far


# Where a Window's size came from (budget.Window.source), as chat.window names it.
FROM_REFUSAL = "the server's refusal"
FROM_SERVER = " server"          # after the server's kind: "llamacpp server"


def may_cut(source: str) -> bool:
    """False when the window was read from a server that refuses an overlong prompt instead
    of cutting it (llama.cpp, LM Studio, vLLM: "<kind> server"), or learned from a refusal."""
    return not (source.endswith(FROM_SERVER) or source == FROM_REFUSAL)


def truncated(prompt_tokens: int, estimate: int, usage: Optional[dict] = None,
              calibrated: bool = True) -> bool:
    """True when the server's prompt count shows it silently cut the request (Ollama).

    Only a count that fills a round window nearly to the top is such a cut: Ollama
    keeps what fits in num_ctx. A small count is no cut, since some servers count
    only what the prompt cache did not hold (or report 0); cached tokens, when the
    usage says them, count too. ``calibrated``: the estimate has learned from this
    server's counts already.
    """
    details = (usage or {}).get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    counted = prompt_tokens + (cached if isinstance(cached, int) and cached > 0 else 0)
    ratio = TRUNCATED_RATIO if calibrated else UNCALIBRATED_RATIO
    if estimate < TRUNCATED_MIN or counted >= estimate * ratio:
        return False
    holds = next((size for size in _SIZES if size >= counted), None)
    return holds is not None and counted >= holds * FULL_RATIO


def window_after(refusal: Refusal, sent: int, budgeted: Optional[int]) -> int:
    """The window to fit the resend to: the one named, else a guess below what was refused."""
    if refusal.window:
        if budgeted and refusal.window >= budgeted:
            # Already fitted to that window and still refused: our estimate is low.
            return int(budgeted * SHRINK)
        return refusal.window
    tokens = guess_window(refusal.prompt_tokens or sent)
    if budgeted and tokens >= budgeted:
        tokens = guess_window(budgeted)     # our estimate was low: go below the budget itself
    return tokens


def cut_silently(prompt_tokens: int, estimate: int) -> str:
    """The one sentence telling the user the server cut the chat, with the fix."""
    return tr(CUT_SILENTLY) % {"read": "{:,}".format(prompt_tokens),
                               "sent": "{:,}".format(estimate)}


# The user's sentences (a notice or the turn's error in the panel; the model never reads
# them). chat.loop formats them: tr(SHRUNK) % tokens.
SHRUNK = N_("The server's context window is %s tokens; older parts of the chat were "
            "shortened to fit.")
STILL_TOO_LONG = N_("The server refused the request as too long for its context window (%s "
                    "tokens) even after the chat was shortened; start a new chat or give the "
                    "model a larger context window.")
CUT_SILENTLY = N_("The server read only about %(read)s of the %(sent)s tokens sent, so it "
                  "dropped part of the chat without saying so; raise the model's context "
                  "length (for Ollama, num_ctx in a Modelfile or OLLAMA_CONTEXT_LENGTH when "
                  "starting it).")

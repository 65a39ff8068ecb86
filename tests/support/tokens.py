"""A stand-in for a server's tokenizer, and a scripted model that counts what it is sent.

``count`` is deterministic and deliberately not the budget's own formula: a
token per ``per`` UTF-8 bytes of every text a message carries, plus a few
template tokens per message and the tool schemas as JSON. Tests use it as
"the server's real count" that the budget must calibrate to and stay under.
"""

import copy
import json
import math

from tests.support.sse_server import chunk, sse_body, text_delta, finish, tool_call_delta


def _text(value):
    return value if isinstance(value, str) else ""


def count(body, per=3.6, template=5):
    """The prompt tokens of a chat request body, as this pretend tokenizer counts them."""
    size = 0
    for message in body.get("messages") or ():
        size += len(_text(message.get("content")).encode("utf-8"))
        for call in message.get("tool_calls") or ():
            function = call.get("function") or {}
            size += len(_text(function.get("arguments")).encode("utf-8")) + 12
    if body.get("tools"):
        size += len(json.dumps(body["tools"]).encode("utf-8"))
    return int(math.ceil(size / per)) + template * len(body.get("messages") or ())


def answer(text, prompt_tokens):
    """SSE bytes of a text answer reporting ``prompt_tokens``."""
    return _bytes([text_delta(text, role=True), finish("stop"),
                   chunk(no_choices=True, usage={"prompt_tokens": prompt_tokens,
                                                 "completion_tokens": 7,
                                                 "total_tokens": prompt_tokens + 7})])


def calls(items, prompt_tokens):
    """SSE bytes of tool calls, items are (id, name, arguments dict)."""
    chunks = [chunk({"role": "assistant"})]
    for index, (call_id, name, arguments) in enumerate(items):
        chunks.append(tool_call_delta(index, id=call_id, name=name,
                                      arguments=json.dumps(arguments)))
    chunks += [finish("tool_calls"),
               chunk(no_choices=True, usage={"prompt_tokens": prompt_tokens,
                                             "completion_tokens": 9,
                                             "total_tokens": prompt_tokens + 9})]
    return _bytes(chunks)


def _bytes(chunks):
    return "".join(sse_body(chunks)).encode("utf-8")


class CountingModel(object):
    """A client for run_turn: counts each request, then plays the next scripted reply.

    A reply is a function of the request's token count returning SSE bytes
    (``answer`` or ``calls`` above, partially applied). ``per`` is the
    tokenizer's bytes per token.
    """

    def __init__(self, replies, per=3.6):
        self.replies = list(replies)
        self.per = per
        self.bodies = []
        self.counts = []

    def open_stream(self, body, cancel):
        self.bodies.append(copy.deepcopy(body))
        tokens = count(body, self.per)
        self.counts.append(tokens)
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        return iter([reply(tokens)])

"""Feeding SSE bytes through the decoder and the accumulator, as the turn loop does (tests)."""

from marginalia.chat.sse import SSEDecoder
from marginalia.chat.stream import StreamAccumulator


def counter_ids():
    state = {"n": 0}

    def make():
        state["n"] += 1
        return "gen_%d" % state["n"]
    return make


def run(reads, **kwargs):
    """Feed reads through SSEDecoder + StreamAccumulator; returns (events, accumulator)."""
    decoder = SSEDecoder()
    acc = StreamAccumulator(id_factory=counter_ids(), **kwargs)
    out = []
    for read in reads:
        for sse in decoder.feed(read):
            out.extend(acc.feed_sse(sse))
    for sse in decoder.close():
        out.extend(acc.feed_sse(sse))
    out.extend(acc.finish())
    return out, acc

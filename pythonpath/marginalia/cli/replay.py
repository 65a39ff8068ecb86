"""Replay a recorded SSE body: ``python -m marginalia.cli.replay FILE.sse``.

Prints one JSON object with what the turn loop would act on: content,
reasoning, tool_calls ([{id, name, arguments}], arguments a JSON string),
finish_reason, usage (the provider's object or null) and error (null or a
sentence). It runs the same SSEDecoder + StreamAccumulator path as a live
turn, so a stream that errored shows no tool calls. Generated ids (when the
provider sent none) are random, as they are live.
"""

import json
import sys
from typing import Any, Callable, Dict, List, Optional

from marginalia.chat.sse import SSEDecoder
from marginalia.chat.stream import StreamAccumulator, StreamResult

READ_SIZE = 4096    # feed in network-sized reads, as the transport does


def replay_bytes(body: bytes, id_factory: Optional[Callable[[], str]] = None) -> StreamResult:
    """Decode and accumulate a whole SSE body; returns the StreamResult."""
    decoder = SSEDecoder()
    acc = StreamAccumulator(id_factory=id_factory)
    for start in range(0, len(body), READ_SIZE):
        for event in decoder.feed(body[start:start + READ_SIZE]):
            acc.feed_sse(event)
    for event in decoder.close():
        acc.feed_sse(event)
    acc.finish()
    return acc.result()


def summary(result: StreamResult) -> Dict[str, Any]:
    """The JSON-ready summary printed by the command."""
    return {
        "content": result.content,
        "reasoning": result.reasoning,
        "tool_calls": [{"id": c["id"], "name": c["name"], "arguments": c["arguments"]}
                       for c in result.tool_calls],
        "finish_reason": result.finish_reason,
        "usage": result.usage,
        "error": result.error,
    }


def main(argv: Optional[List[str]] = None) -> int:
    """The command: print the summary of FILE.sse; 2 for bad usage, 1 if unreadable."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("Usage: python -m marginalia.cli.replay FILE.sse\n")
        return 2
    try:
        with open(args[0], "rb") as handle:
            body = handle.read()
    except (IOError, OSError) as exc:
        sys.stderr.write("Cannot read %s: %s.\n" % (args[0], exc.strerror or exc))
        return 1
    sys.stdout.write(json.dumps(summary(replay_bytes(body)), ensure_ascii=False, indent=2))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

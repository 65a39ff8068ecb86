"""The closed vocabulary of events a chat turn emits.

The stream accumulator, the turn loop, the sidebar panel, the tests and the
headless runner all speak only these kinds; the panel renders by kind.
"""

from dataclasses import dataclass
from typing import Any, Dict, Optional

TEXT = "text"                    # text: a piece of the answer
REASONING = "reasoning"          # text: a piece of readable thinking
RECLASSIFY = "reclassify"        # text: the response's answer so far was reasoning (R1 </think>)
TOOL_CALL_STARTED = "tool_call_started"  # call_id, name: known before arguments finish
TOOL_CALL = "tool_call"          # call_id, name, arguments (JSON string): about to run
TOOL_RESULT = "tool_result"      # call_id, name, ok, result (str), summary (one line)
USAGE = "usage"                  # usage: dict (cumulative for the request or the turn)
STATUS = "status"                # text: connecting, thinking, writing, running a tool
CONTEXT = "context"              # usage: {"tokens": prompt size, "window": the model's window}
ERROR = "error"                  # message: one plain sentence
NOTICE = "notice"                # message: one plain sentence the user should know, not an error
CHANGE = "change"                # change: dict (document.change_log.Change.to_dict): one edit
CITATIONS = "citations"          # citations: {"cited": [{key, location, source, passage, text}],
                                 #   "quotes": [{quote, found, key}]}: under an answer from sources
DONE = "done"                    # finish_reason

KINDS = frozenset([TEXT, REASONING, RECLASSIFY, TOOL_CALL_STARTED, TOOL_CALL, TOOL_RESULT,
                   USAGE, STATUS, CONTEXT, ERROR, NOTICE, CHANGE, CITATIONS, DONE])


@dataclass
class Event:
    """One thing that happened during a turn; fields not used by a kind are None.

    Made for every streamed delta, so kept to plain attribute stores (the stream
    bench measures it); equal when every field is.
    """

    kind: str
    text: Optional[str] = None
    call_id: Optional[str] = None
    name: Optional[str] = None
    arguments: Optional[str] = None
    ok: Optional[bool] = None
    result: Optional[str] = None
    summary: Optional[str] = None
    usage: Optional[Dict[str, Any]] = None
    message: Optional[str] = None
    finish_reason: Optional[str] = None
    change: Optional[Dict[str, Any]] = None
    citations: Optional[Dict[str, Any]] = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError("unknown event kind %r" % (self.kind,))

    def to_dict(self) -> Dict[str, Any]:
        """The event as a JSON-ready dict holding only the fields that are set."""
        out: Dict[str, Any] = {"type": self.kind}
        for field, value in self.__dict__.items():
            if value is not None and field != "kind":
                out[field] = value
        return out

    def __repr__(self) -> str:
        return "Event(%r)" % (self.to_dict(),)


def merge_entries(entries: list) -> list:
    """Join adjacent text (and adjacent reasoning) deltas of a chat log's entries
    (("event", Event) or ("user", message)) into one event each: a batch for the
    panel costs one repaint per run of pieces, not one per piece."""
    out = []
    for entry in entries:
        prev = out[-1] if out else None
        if (prev is not None and entry[0] == "event" and prev[0] == "event"
                and entry[1].kind in (TEXT, REASONING) and entry[1].kind == prev[1].kind):
            out[-1] = ("event", Event(prev[1].kind, text=prev[1].text + entry[1].text))
        else:
            out.append(entry)
    return out

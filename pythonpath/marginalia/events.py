"""The closed vocabulary of events a chat turn emits.

The stream accumulator, the turn loop, the sidebar panel, the tests and the
headless runner all speak only these kinds; the panel renders by kind.
"""

from dataclasses import dataclass
import time
from typing import Any, Dict, NamedTuple, Optional, Union

TEXT = "text"                    # text: a piece of the answer
REASONING = "reasoning"          # text: a piece of readable thinking
RECLASSIFY = "reclassify"        # text: the response's answer so far was reasoning (R1 </think>)
TOOL_CALL_STARTED = "tool_call_started"  # call_id, name: known before arguments finish
TOOL_CALL = "tool_call"          # call_id, name, arguments (JSON string): about to run
TOOL_RESULT = "tool_result"      # call_id, name, ok, result (str), summary (one line)
USAGE = "usage"                  # usage: dict (cumulative for the request or the turn)
STATUS = "status"                # text: the turn's state (STATES); name, arguments: the tool
CONTEXT = "context"              # usage: {"tokens": prompt size, "window": the model's window}
ERROR = "error"                  # message: one plain sentence
NOTICE = "notice"                # message: one plain sentence the user should know, not an error
CHANGE = "change"                # change: dict (document.change_log.Change.to_dict): one edit
CITATIONS = "citations"          # citations: {"cited": [{key, location, source, passage, text}],
                                 #   "quotes": [{quote, found, key}]}: under an answer from sources
DONE = "done"                    # finish_reason

KINDS = frozenset([TEXT, REASONING, RECLASSIFY, TOOL_CALL_STARTED, TOOL_CALL, TOOL_RESULT,
                   USAGE, STATUS, CONTEXT, ERROR, NOTICE, CHANGE, CITATIONS, DONE])

# A STATUS event's state inside a turn. The loop names states, never words them: the
# panel words them for the user (ui.status), a running tool by what it does (ui.tool_words).
CONNECTING = "connecting"        # a request is being sent
WAITING = "waiting"              # sent; the model has not begun
THINKING = "thinking"            # readable thinking streams
WRITING = "writing"              # the answer streams
RUNNING = "running"              # a tool: the event's name (and arguments once known)
STATES = frozenset([CONNECTING, WAITING, THINKING, WRITING, RUNNING])


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
    phrase: Optional[Dict[str, Any]] = None     # the summary as data (i18n.phrase), JSON-ready
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


class Said(str):
    """A user message as the log keeps it: its text, and when it was sent (``at``, in
    seconds since the epoch; 0 for a chat kept before the time was), which Restore
    shows to tell two like messages apart."""

    def __new__(cls, text: str, at: Optional[float] = None) -> "Said":
        said = super().__new__(cls, text)
        said.at = time.time() if at is None else float(at)
        return said


USER = "user"
EVENT = "event"


class Entry(NamedTuple):
    """One entry of a chat's log: the user's message (``role`` USER, ``payload`` its text,
    a Said) or an Event of the turn (``role`` EVENT).

    A tuple, so ``role, payload = entry`` reads it; ``to_dict`` and ``from_dict`` are its
    one JSON form, which kept chats (chat.history) and the office's jobs (chat.poll) use.
    """

    role: str
    payload: Union[str, Event]

    @classmethod
    def user(cls, text: str, at: Optional[float] = None) -> "Entry":
        return cls(USER, text if isinstance(text, Said) and at is None else Said(text, at))

    @classmethod
    def event(cls, event: Event) -> "Entry":
        return cls(EVENT, event)

    def to_dict(self) -> Dict[str, Any]:
        """The entry as JSON: an event's ``to_dict``, or {"type": "user", "text", "at"}
        ("at" only when the send time is known)."""
        if self.role == USER:
            at = getattr(self.payload, "at", 0)
            out: Dict[str, Any] = {"type": USER, "text": str(self.payload)}
            if at:
                out["at"] = at
            return out
        return self.payload.to_dict()

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Entry":
        """The entry ``to_dict`` gave (or a kept chat of any earlier version wrote);
        ValueError or TypeError when it is not one."""
        kind = data.get("type")
        if kind == USER:
            return cls(USER, Said(str(data.get("text", "")), _moment(data.get("at"))))
        values = dict((k, v) for k, v in data.items() if k != "type")
        return cls(EVENT, Event(kind, **values))


def _moment(value: Any) -> float:
    """A kept send time as seconds since the epoch; 0 (unknown) for anything that is
    not one a clock could show (a damaged or hand-edited file)."""
    try:
        at = float(value or 0)
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return at if 0 < at < 1e11 else 0.0


def merge_entries(entries: list) -> list:
    """Join adjacent text (and adjacent reasoning) deltas of a chat log's entries
    into one event each: a batch for the panel costs one repaint per run of pieces,
    not one per piece."""
    out = []
    for entry in entries:
        prev = out[-1] if out else None
        if (prev is not None and entry[0] == EVENT and prev[0] == EVENT
                and entry[1].kind in (TEXT, REASONING) and entry[1].kind == prev[1].kind):
            out[-1] = Entry.event(Event(prev[1].kind, text=prev[1].text + entry[1].text))
        else:
            out.append(entry)
    return out

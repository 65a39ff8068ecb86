"""The closed vocabulary of events a chat turn emits.

The stream accumulator, the turn loop, the sidebar panel, the tests and the
headless runner all speak only these kinds; the panel renders by kind.
"""

TEXT = "text"                    # text: a piece of the answer
REASONING = "reasoning"          # text: a piece of readable thinking
TOOL_CALL_STARTED = "tool_call_started"  # call_id, name: known before arguments finish
TOOL_CALL = "tool_call"          # call_id, name, arguments (JSON string): about to run
TOOL_RESULT = "tool_result"      # call_id, name, ok, result (str), summary (one line)
USAGE = "usage"                  # usage: dict (cumulative for the request or the turn)
STATUS = "status"                # text: connecting, thinking, writing, running a tool
ERROR = "error"                  # message: one plain sentence
DONE = "done"                    # finish_reason

KINDS = frozenset([TEXT, REASONING, TOOL_CALL_STARTED, TOOL_CALL, TOOL_RESULT,
                   USAGE, STATUS, ERROR, DONE])


class Event(object):
    """One thing that happened during a turn; fields not used by a kind are None."""

    __slots__ = ("kind", "text", "call_id", "name", "arguments", "ok", "result",
                 "summary", "usage", "message", "finish_reason")

    def __init__(self, kind, text=None, call_id=None, name=None, arguments=None,
                 ok=None, result=None, summary=None, usage=None, message=None,
                 finish_reason=None):
        if kind not in KINDS:
            raise ValueError("unknown event kind %r" % (kind,))
        self.kind = kind
        self.text = text
        self.call_id = call_id
        self.name = name
        self.arguments = arguments
        self.ok = ok
        self.result = result
        self.summary = summary
        self.usage = usage
        self.message = message
        self.finish_reason = finish_reason

    def to_dict(self):
        """The event as a JSON-ready dict holding only the fields that are set."""
        out = {"type": self.kind}
        for field in self.__slots__[1:]:
            value = getattr(self, field)
            if value is not None:
                out[field] = value
        return out

    def __eq__(self, other):
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "Event(%r)" % (self.to_dict(),)

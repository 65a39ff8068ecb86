"""One request's events passed on to its turn (chat.loop): usage made turn-wide, the
turn's state said as the answer arrives, DONE held back (the turn sends one, at its very
end), and whether the server reported an error (the rest of the stream is moot)."""

from typing import Any, Callable, Iterable, Optional

from marginalia.chat.conversation import add_usage
from marginalia.events import (DONE, ERROR, REASONING, RECLASSIFY, RUNNING, TEXT, THINKING,
                               TOOL_CALL_STARTED, USAGE, WRITING, Event)


class Forwarder:
    """Passes one request's accumulator events on through ``emit``; ``status(state, name)``
    says the turn's state."""

    def __init__(self, emit: Callable[[Event], None], status: Callable[..., None],
                 prior_usage: Optional[Any]) -> None:
        self.emit = emit
        self.status = status
        self.prior_usage = prior_usage
        self.error_shown = False

    def __call__(self, events: Iterable[Event], text_only: bool = False) -> None:
        for event in events:
            kind = event.kind
            if kind == DONE:
                continue           # the turn sends one DONE at its very end
            if text_only and kind not in (TEXT, REASONING, RECLASSIFY):
                continue
            if kind == USAGE:
                event = Event(USAGE, usage=add_usage(self.prior_usage, event.usage))
            elif kind == TEXT:
                self.status(WRITING)
            elif kind == TOOL_CALL_STARTED:
                self.status(RUNNING, event.name)
            elif kind == REASONING:
                self.status(THINKING)   # shown or not is the panel's choice
            elif kind == ERROR:
                self.error_shown = True
            self.emit(event)

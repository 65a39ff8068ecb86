"""The office's questions to the user about agents' edits (mcp.questions holds the rules).

One ``Questions`` for the office process: office.mcp_backend asks from the HTTP threads,
each panel's agent row (office.agent_banner) shows those on its own document and answers
from the main thread. ``listen(ctx, fn)`` posts ``fn(open questions)`` to the main thread on
every change, as office.mcp_turns' listeners are. ``wait_seconds`` is how long a call with no
form to show waits for the panel (tests lower it: the mcp.ask_wait job command).
"""

from typing import Any, Callable, Dict, List

from marginalia.mcp import questions
from marginalia.office import mainthread

QUESTIONS = questions.Questions()
PANEL = "panel"
CLIENT = "agent's client"
wait_seconds = [questions.WAIT]


def listen(ctx: Any, fn: Callable[[List[Dict[str, Any]]], None]) -> Callable:
    """Call ``fn(open)`` on the main thread at each change; returns what ``forget`` takes."""
    def heard(shown):
        mainthread.post(ctx, lambda: fn(shown))
    QUESTIONS.add_listener(heard)
    return heard


def forget(heard: Callable) -> None:
    QUESTIONS.remove_listener(heard)


def answer(question_id: str, allow: bool) -> bool:
    """The panel's answer (Allow once / Refuse)."""
    return QUESTIONS.answer(question_id, allow, PANEL)

"""One eval task: a source document, the user's messages, a checker (pure).

Each checker gets the saved result (odf.Doc, the body as if tracked changes
were accepted) and the chat's answer text (the last turn's, when a task has
several messages), and returns None or one line on why the task failed.
Checkers judge the outcome, not the route: any tool sequence that leaves the
right document passes. Every checker also asks that the paragraphs the task
does not concern are left word for word (checks.intact).
"""

from dataclasses import dataclass
from typing import Callable, List, Optional

from marginalia.eval.odf import Doc, Source

Checker = Callable[[Doc, str], Optional[str]]


@dataclass
class Task:
    name: str
    title: str
    source: List[Source]
    messages: List[str]              # one chat turn each, in order
    check: Checker
    mode: str = "direct"             # direct, tracked or comments


def p(text: str, style: str = "Text body", keep_out: bool = False) -> Source:
    return (style, text, keep_out)


def h(text: str, level: int = 1) -> Source:
    return ("Heading %d" % level, text, False)


TASKS: List[Task] = []


def task(name: str, title: str, source: List[Source], messages: List[str],
         mode: str = "direct") -> Callable[[Checker], Checker]:
    """Register the decorated checker as task ``name``."""
    def register(check: Checker) -> Checker:
        TASKS.append(Task(name, title, source, messages, check, mode))
        return check
    return register

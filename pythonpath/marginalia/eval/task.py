"""One eval task: a source document, the user's messages, a checker (pure).

Each checker gets the saved result (odf.Doc, the body as if tracked changes
were accepted) and the chat's answer text (the last turn's, when a task has
several messages), and returns None or one line on why the task failed.
Checkers judge the outcome, not the route: any tool sequence that leaves the
right document passes. Every checker also asks that the paragraphs the task
does not concern are left word for word (checks.intact).

A task's source is either its paragraphs, written as an .odt here, or a file
(``file``): a real document of the shared corpus, written elsewhere. A file
task's checker gets a third argument, the original as the office read it
(saved as .odt before the first turn), and compares with it (checks.kept).
"""

from dataclasses import dataclass
from typing import Callable, List, Optional

from marginalia.eval.odf import Doc, Source

Checker = Callable[[Doc, str], Optional[str]]
FileChecker = Callable[[Doc, str, Doc], Optional[str]]     # result, answer, original


@dataclass
class Task:
    name: str
    title: str
    source: List[Source]             # the paragraphs; empty for a file task
    messages: List[str]              # one chat turn each, in order
    check: Callable[..., Optional[str]]   # a Checker, or a FileChecker for a file task
    mode: str = "direct"             # direct, tracked or comments
    file: str = ""                   # a file task's document, by its name in the corpus

    def judge(self, doc: Doc, answer: str, original: Optional[Doc] = None) -> Optional[str]:
        """The checker's verdict; a file task needs the ``original`` it was read as."""
        if self.file:
            if original is None:
                raise ValueError("the file task %s needs its original" % self.name)
            return self.check(doc, answer, original)
        return self.check(doc, answer)


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


def file_task(name: str, title: str, file: str, messages: List[str],
              mode: str = "direct") -> Callable[[FileChecker], FileChecker]:
    """Register the decorated checker as task ``name`` on the corpus document ``file``."""
    def register(check: FileChecker) -> FileChecker:
        TASKS.append(Task(name, title, [], messages, check, mode, file))
        return check
    return register

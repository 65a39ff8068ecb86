"""Hand-made eval results for the checkers' pure tests (no office).

A task's source as the reader makes of it, with paragraphs replaced, dropped or
inserted and comments added; and the verdicts, asserted with the reason shown.
"""

from marginalia.eval import catalog, odf
from marginalia.eval.odf import Comment

TASKS = catalog.by_name()
B = "Text body"


def doc_of(source, tracked=0, kinds=()):
    """What the reader makes of ``source`` written as an .odt (the same path as a result);
    ``tracked`` regions of ``kinds`` ("deletion", ...) as a tracked result would have."""
    doc = odf.parse_content(odf.content_xml(source).encode("utf-8"))
    doc.tracked = tracked or len(kinds)
    doc.tracked_kinds = list(kinds)
    return doc


def edited(name, changes, tracked=0, kinds=()):
    """The task's source with paragraphs replaced: {index: (style, text) or None to drop}."""
    out = []
    for index, block in enumerate(TASKS[name].source):
        change = changes.get(index, block)
        if change is not None:
            out.append((change[0], change[1], block[2] if len(change) < 3 else change[2]))
    return doc_of(out, tracked, kinds)


def inserted(name, at, blocks):
    source = list(TASKS[name].source)
    return doc_of(source[:at] + blocks + source[at:])


def comment_on(name, index, text):
    doc = doc_of(TASKS[name].source)
    doc.comments.append(Comment(text, index))
    return doc


def registered_by(module):
    """The names of the tasks ``module`` registered (its checkers are its own functions)."""
    return {name for name, task in TASKS.items() if task.check.__module__ == module.__name__}


def passes(name, doc, answer="Done.", original=None):
    reason = TASKS[name].judge(doc, answer, original)
    assert reason is None, reason


def fails(name, doc, words, answer="Done.", original=None):
    """The task fails ``doc`` with one line holding ``words``."""
    reason = TASKS[name].judge(doc, answer, original)
    assert reason and words in reason and "\n" not in reason, reason
    return reason

"""The checks an edit passes before it is made that the user may waive once (main thread).

``check`` is what the toolbox runs on every edit call's plan, before anything changes:

- the keep-out check (writer.plan.check_keep_out), leaving out the marks the user let in
  for this one call (``box.allowed``, mcp.questions.Allowance);
- for an outside agent's turn (``box.asking``) applying edits directly, the size of a
  deletion: one that would remove many words at once (mcp.questions.is_large) is refused
  unless the user allowed it.

For an agent's turn a refusal here also says what the user could be asked, as data
(``box.asked``, an mcp.questions.Ask); office.mcp_backend asks and runs the call again with
the answer. The panel's own turns are never asked: their user is the one watching, and the
keep-out check stays as it was.
"""

import logging
from typing import Any

from marginalia.document import change_log as cl
from marginalia.document import tool_lines
from marginalia.document.tool_specs import DELETE, FOUND, REPLACE
from marginalia.errors import ToolError
from marginalia.i18n.phrase import phrase, phrase_n
from marginalia.mcp import questions
from marginalia.writer import keepout, plan

log = logging.getLogger("marginalia.writer")

# The arguments holding a call's new text (document.tool_specs), one per tool.
NEW_TEXT = ("markdown", "replacement", "text")
LARGE = ("Nothing was changed: this would delete %d words (%s) at once, which the user "
         "allows only when asked.")


def words(text: Any) -> int:
    """Words in ``text``: runs of characters holding a letter or digit (markdown's marks,
    list bullets and lone punctuation are none)."""
    if not isinstance(text, str):
        return 0
    return sum(1 for token in text.split() if any(c.isalnum() for c in token))


def check(box: Any, call: Any) -> None:
    """Raise (ToolError) when the call may not be made unasked; see the module's words."""
    allowed = box.allowed
    found = keepout.marks(box.doc)
    if allowed.marks:
        found = [mark for mark in found if mark[0] not in allowed.marks]
    try:
        plan.check_keep_out(box.doc, call, found)
    except keepout.KeptOut as exc:
        if box.asking and exc.name:
            box.asked = questions.Ask(questions.KEPT_OUT, exc.span, exc.where, mark=exc.name)
        raise
    if not box.asking or allowed.large or box.mode != cl.DIRECT or \
            call.spec.kind not in (DELETE, REPLACE) or call.problem:
        return
    try:
        removed = _removed(box.doc, call)
    except Exception:       # a target Writer cannot read out: the edit is not held up for it
        log.exception("could not count the words %s would delete", call.spec.name)
        return
    if not questions.is_large(removed, lambda: words(box.doc.getText().getString())):
        return
    where = tool_lines.place(call.first, call.last) if call.first else \
        phrase("several places")
    box.asked = questions.Ask(questions.LARGE, where.english(), where, words=removed)
    raise ToolError(LARGE % (removed, where.english()), phrase_n(
        "Asked before deleting %(n)d word at once \u2014 nothing changed yet",
        "Asked before deleting %(n)d words at once \u2014 nothing changed yet", removed))


def _removed(doc: Any, call: Any) -> int:
    """How many more words the call's targets hold than the text that replaces them."""
    ranges = plan.targets(doc, call)
    before = sum(words(rng.getString()) for rng in ranges)
    if call.spec.kind == DELETE:
        return before
    new = next((call.arguments[name] for name in NEW_TEXT if name in call.arguments), "")
    after = words(new) * (len(ranges) if call.spec.target == FOUND else 1)
    return max(0, before - after)

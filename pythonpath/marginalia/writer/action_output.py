"""A quick action's target in the document and what becomes of its answer there.

``capture`` records, when the action starts, the range it works on (the
selection, a found text, the whole body, or the cursor) and that range's
paragraphs. The answer arrives later, so ``apply`` first checks that the text
is still what was sent: if the user changed it meanwhile, nothing is written
and the answer stays in the chat. Then, by output mode:

* replace / suggest: as many plain paragraphs as were selected rewrite each
  paragraph in place (writer.rewrite: unchanged words keep their format, the
  paragraph its style); any other shape is written as markdown over the
  selection. Suggest runs the same with changes recorded (the turn's frame
  switches recording on and names the AI as author).
* comment: a comment by the AI anchored on the range.
* below: the answer as real structure in new paragraphs after the range.
* panel: nothing; the answer is in the chat.

Runs on the main thread inside the turn's undo step (WriterToolbox.run_edit).
"""

from typing import Any, List, Optional

from marginalia.document import answer_fit
from marginalia.document import markdown as md
from marginalia.errors import ToolError
from marginalia.i18n.catalog import N_, tr, trn
from marginalia import prompt_library as pl
from marginalia.writer import answer, read, rewrite
from marginalia.writer.bodymap import start_cursor
from marginalia.writer.block_tools import forward, replace_selection
from marginalia.writer.text_tools import check_writable, insert_comment

CHANGED = N_("The text changed while Marginalia was working on it, so the answer was not put "
             "in the document; it is in the chat.")
NO_SELECTION = N_("%s works on selected text: select some text first.")


class Target:
    """The range an action works on and its paragraphs' text when it started."""

    def __init__(self, doc: Any, rng: Any, paragraphs: List[Any], whole: bool):
        self.doc = doc
        self.range = rng
        self.pieces = paragraphs           # one cursor per paragraph of the range
        self.old = [p.getString() for p in paragraphs]
        self.whole = whole

    @property
    def text(self) -> str:
        """The text as the model gets it: paragraphs separated by a blank line."""
        return "\n\n".join(self.old).strip("\n") if any(self.old) else ""

    @property
    def empty(self) -> bool:
        return not self.text


def _paragraphs(text: Any, rng: Any) -> List[Any]:
    """One cursor per paragraph piece of ``rng`` (the first and last may be partial)."""
    out = []
    walker = text.createTextCursorByRange(rng.getStart())
    for _guard in range(100000):
        piece = text.createTextCursorByRange(walker.getStart())
        piece.gotoEndOfParagraph(True)
        # compareRegionEnds(a, b) <= 0: a ends where b ends or after it.
        if text.compareRegionEnds(piece, rng) <= 0:
            # gotoRange(..., True) only ever widens a selection: start again collapsed.
            piece = text.createTextCursorByRange(walker.getStart())
            piece.gotoRange(rng.getEnd(), True)
            out.append(piece)
            break
        out.append(piece)
        if not walker.gotoNextParagraph(False):
            break
    return out


def capture(doc: Any, rng: Any = None, whole: bool = False) -> Target:
    """The target: ``rng``, the whole body (``whole``), or the view's selection or cursor."""
    if whole:
        rng = start_cursor(doc.getText())
        rng.gotoEnd(True)
    elif rng is None:
        controller = doc.getCurrentController()
        sel = controller.getSelection()
        if sel is not None and sel.supportsService("com.sun.star.text.TextRanges") \
                and sel.getCount():
            rng = sel.getByIndex(0)     # the first range of a multi-selection
        else:
            rng = controller.getViewCursor()
    text = rng.getText()
    cursor = forward(text, rng)
    pieces = _paragraphs(text, cursor) if cursor.getString() else [cursor]
    return Target(doc, cursor, pieces, whole)


def _unchanged(target: Target) -> None:
    if [p.getString() for p in target.pieces] != target.old:
        raise ToolError(tr(CHANGED))


def _replace(target: Target, reply: str) -> str:
    new = answer_fit.paragraphs_for(target.old, reply)
    if new is not None:
        for piece, old, text in reversed(list(zip(target.pieces, target.old, new))):
            rewrite.replace_range(piece, text, old)
        if len(new) < 2:
            return tr("Replaced the selection")
        return trn("Replaced the %d selected paragraph", "Replaced the %d selected paragraphs",
                   len(new)) % len(new)
    # Another shape (more or fewer paragraphs, a list, formatting): the replace tool's
    # markdown writer does it, on the captured range selected again.
    target.doc.getCurrentController().select(target.range)
    read.invalidate()
    return replace_selection(target.doc, answer_fit.clean(reply)).summary


def _below(target: Target, reply: str) -> str:
    blocks = md.parse(answer_fit.clean(reply))
    if not blocks:
        raise ToolError(tr("The answer has no text to insert."))
    text = target.range.getText()
    cursor = text.createTextCursorByRange(target.range.getEnd())
    cursor.gotoEndOfParagraph(False)
    made = answer.write_at(target.doc, text, cursor, blocks)
    return trn("Inserted %d paragraph below", "Inserted %d paragraphs below", made) % made


def _comment(target: Target, reply: str) -> str:
    note = answer_fit.comment_text(reply)
    if not note:
        raise ToolError(tr("The answer has no text for a comment."))
    insert_comment(target.doc, target.range, note)
    return tr("Added the answer as a comment")


def apply(target: Target, mode: str, reply: str) -> Optional[str]:
    """Put the answer where ``mode`` says; the line for the transcript (None: panel)."""
    if mode == pl.PANEL:
        return None
    if not answer_fit.clean(reply):
        raise ToolError(tr("The answer was empty; nothing was changed."))
    if target.doc.isReadonly():
        raise ToolError(tr("The document is read-only; the answer is in the chat."))
    _unchanged(target)
    check_writable([target.range], "That part of the document")
    if mode in (pl.REPLACE, pl.SUGGEST):
        if target.empty:
            return _below(target, reply)
        return _replace(target, reply)
    if mode == pl.COMMENT:
        return _comment(target, reply)
    return _below(target, reply)

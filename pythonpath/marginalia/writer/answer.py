"""An answer from the chat put into the document at the user's cursor, as real structure.

The panel's Insert button: the answer's markdown becomes headings, lists,
tables and formatted runs through the same writer (writer.edit.write_blocks)
the insert_paragraphs tool uses, inside one undo step, recorded as the
assistant's tracked change when the user's settings say so. Main thread.
"""

from typing import Any, Dict, Optional

from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

from marginalia.document import markdown as md
from marginalia.errors import ToolError
from marginalia.writer import edit, read
from marginalia.writer.text_tools import check_writable
from marginalia.writer.turn import Turn

UNDO_REQUEST = "insert answer"


def _body_style(cursor: Any) -> str:
    """The style new body paragraphs take: the cursor's own, unless it is a heading or list."""
    try:
        outline, numbering, style = cursor.getPropertyValues(
            ("OutlineLevel", "NumberingStyleName", "ParaStyleName"))
    except Exception:
        return "Standard"
    return "Standard" if outline or numbering else style


def _empty_paragraph_at(text: Any, cursor: Any) -> None:
    """Split the paragraph at ``cursor`` so it sits in an empty paragraph of its own."""
    if not cursor.isStartOfParagraph():
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
    if not cursor.isEndOfParagraph():
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
        cursor.gotoPreviousParagraph(False)


def write_at(doc: Any, text: Any, cursor: Any, blocks: list) -> int:
    """Write ``blocks`` in an empty paragraph of their own at ``cursor``; the blocks made."""
    style = _body_style(cursor)
    _empty_paragraph_at(text, cursor)
    styles = edit.Styles(doc, style)
    return edit.write_blocks(doc, cursor, blocks, styles, edit.ListState(styles))


def insert_at_cursor(ctx: Any, doc: Any, markdown: str, track_changes: bool,
                     notes: Optional[Dict[int, str]] = None,
                     citations_as: str = "footnotes") -> int:
    """Write ``markdown`` at the view cursor (after a selection); the blocks made.

    ``notes`` ({citation key: text}, writer.footnotes.notes_for): the answer's [n]
    keys become footnotes (or endnotes) with those texts, in the same undo step, or
    stay as written with the texts listed after the answer (sources.cite_as).

    Raises ToolError with the sentence for the user when it cannot be done;
    nothing is changed then.
    """
    from marginalia.sources import cite_as
    style = cite_as.style(citations_as)
    if notes and style == cite_as.LIST:
        markdown, notes = cite_as.with_list(markdown or "", notes), None
    blocks = md.parse(markdown or "")
    if not blocks:
        raise ToolError("The last answer has no text to insert.")
    if doc.isReadonly():
        raise ToolError("The document is read-only; nothing was inserted.")
    view = doc.getCurrentController().getViewCursor()
    body = doc.getText()
    try:
        body.compareRegionEnds(view.getEnd(), body.getEnd())
        in_body = True
    except Exception:
        in_body = False      # the cursor is in a table, frame, header or footnote
    if not in_body:
        raise ToolError("Put the cursor in the main text, outside tables and frames, "
                        "to insert the answer there.")
    check_writable([view], "The place at the cursor")
    turn = Turn(ctx, doc, track_changes)
    turn.begin(UNDO_REQUEST)
    try:
        turn.before_edit()
        turn.open_edit()
        doc.lockControllers()
        try:
            with turn.author():
                cursor = body.createTextCursorByRange(view.getEnd())
                # A cursor at the insertion point would move past the new text: one a
                # character before it stays where the answer begins.
                before = body.createTextCursorByRange(view.getEnd())
                first = not before.goLeft(1, False)
                made = write_at(doc, body, cursor, blocks)
                if notes:
                    from marginalia.writer import footnotes
                    footnotes.place(doc, body, body.getStart() if first else before, cursor,
                                    notes, cite_as.SERVICES[style])
            view.gotoRange(cursor.getEnd(), False)
        finally:
            read.invalidate()
            doc.unlockControllers()
            turn.close_edit()
    finally:
        turn.end()
    return made

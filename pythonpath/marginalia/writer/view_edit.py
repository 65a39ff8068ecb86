"""Edits that Writer records as tracked changes only when they come through its view.

Setting ``ParaStyleName`` on a range applies the style untracked even while
changes are recorded (seen on 7.4): Reject then has nothing to take back. The
view's Apply Style command (``.uno:StyleApply``) records a ParagraphFormat
change that Reject undoes, but only for a selection within one paragraph (over
two it records nothing). So a recorded style change puts the cursor in each
paragraph in turn, runs that command, and gives the user's selection back.
The command takes the style's own (programmatic) name on 7.4 and 25.2 alike; the
view's name of a renamed style ("Body Text" for "Text body", "Block Quotation" for
"Quotations") applies nothing on 25.2, so it is only tried second.
Main thread.
"""

from typing import Any, List

from marginalia.document import tool_lines
from marginalia.errors import ToolError
from marginalia.writer import selection

EMPTY = ("That paragraph is empty: Writer cannot record a style change on an empty "
         "paragraph as a suggestion, so nothing was changed.")
NOT_RECORDED = ("Writer could not record that style change as a suggestion here; nothing "
                "was changed.")


def _dispatch(doc: Any, command: str, **arguments: Any) -> None:
    import uno
    from com.sun.star.beans import PropertyValue
    ctx = uno.getComponentContext()
    helper = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.frame.DispatchHelper", ctx)
    args = []
    for name, value in arguments.items():
        prop = PropertyValue()
        prop.Name, prop.Value = name, value
        args.append(prop)
    frame = doc.getCurrentController().getFrame()
    helper.executeDispatch(frame, command, "", 0, tuple(args))


_LISTS = ("NumberingStyleName", "ListId", "NumberingLevel", "NumberingIsNumber")
# The list styles LibreOffice's Word importers make (.docx: WWNum1, .doc: WW8Num1).
WORD_LISTS = ("WWNum", "WW8Num")


def _own_list(cursor: Any) -> Any:
    """(style, list attributes) of a paragraph whose list is set on it, not by its style,
    by Word's importer (its list styles are WWNum<n>); None for any other. Asked of the
    paragraph itself: a cursor in it reports the list as not set there (7.4 and 25.2).
    Not an ODF list item: setting its list again made Reject give it the next list's
    number (odt_listBlocks.odt in the corpus), and Writer takes its style back whole."""
    from com.sun.star.beans.PropertyState import DIRECT_VALUE
    span = cursor.getText().createTextCursorByRange(cursor.getStart())
    span.gotoEndOfParagraph(True)
    paragraph = span.createEnumeration().nextElement()
    if paragraph.getPropertyState("NumberingStyleName") != DIRECT_VALUE or not str(
            paragraph.getPropertyValue("NumberingStyleName")).startswith(WORD_LISTS):
        return None
    return cursor.getPropertyValue("ParaStyleName"), cursor.getPropertyValues(_LISTS)


def _keep_list(cursor: Any, own: Any, name: str) -> None:
    """Apply Style takes a Word list item's list away; the direct edit (the style set as a
    property) keeps it and moves its level as the new style says. So the paragraph is
    put back as it was and given the style as the direct edit gives it: the accepted
    suggestion is then the direct edit."""
    if own is None or tuple(cursor.getPropertyValues(_LISTS)) == tuple(own[1]):
        return
    cursor.setPropertyValue("ParaStyleName", own[0])
    for prop, value in zip(_LISTS, own[1]):
        cursor.setPropertyValue(prop, value)
    cursor.setPropertyValue("ParaStyleName", name)


def apply_paragraph_style(doc: Any, spans: List[Any], name: str) -> None:
    """Give every paragraph of ``spans`` the paragraph style ``name`` (its programmatic name);
    recorded as a tracked change when the document records changes. (Apply Style takes a
    Word list item's numbering away, which the property keeps: there an accepted
    suggestion and the direct edit differ, Writer's doing.)"""
    if not doc.getPropertyValue("RecordChanges"):
        # Not recorded: the property, a run at a time. Not Apply Style: Writer's Redo
        # of it (7.4) drops the paragraph's character formatting.
        for span in spans:
            span.setPropertyValue("ParaStyleName", name)
        return
    if doc.getCurrentController() is None:
        raise ToolError(NOT_RECORDED, tool_lines.style_not_recorded())
    shown = doc.getStyleFamilies().getByName("ParagraphStyles").getByName(name) \
        .getPropertyValue("DisplayName")
    names = (name,) if shown == name else (name, shown)
    text = doc.getText()
    first = True
    with selection.around(doc) as controller:
        for span in spans:
            cursor = text.createTextCursorByRange(span.getStart())
            end = span.getEnd()
            while True:
                if _empty(text, cursor):
                    # Writer records no style change on an empty paragraph: changed, it
                    # could not be rejected. It keeps its style (nothing shows there).
                    if not cursor.gotoNextParagraph(False) or \
                            text.compareRegionStarts(cursor, end) < 0:
                        break
                    continue
                controller.select(cursor)
                own = _own_list(cursor)
                for given in names:
                    _dispatch(doc, ".uno:StyleApply", Style=given, FamilyName="ParagraphStyles")
                    if cursor.getPropertyValue("ParaStyleName") == name:
                        break
                if cursor.getPropertyValue("ParaStyleName") != name:
                    if first:
                        # Nothing changed yet.
                        raise ToolError(NOT_RECORDED, tool_lines.style_not_recorded())
                    # Some paragraphs have it: the toolbox takes the call's step back.
                    raise RuntimeError("Apply Style left a paragraph as it was")
                first = False
                _keep_list(cursor, own, name)
                if not cursor.gotoNextParagraph(False) or \
                        text.compareRegionStarts(cursor, end) < 0:
                    break
    if first:
        # Every paragraph was empty: nothing changed.
        raise ToolError(EMPTY, tool_lines.style_not_recorded())


def _empty(text: Any, cursor: Any) -> bool:
    probe = text.createTextCursorByRange(cursor)
    probe.gotoEndOfParagraph(True)
    return probe.getString() == ""

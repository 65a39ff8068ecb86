"""Edits that Writer records as tracked changes only when they come through its view.

Setting ``ParaStyleName`` on a range applies the style untracked even while
changes are recorded (seen on 7.4): Reject then has nothing to take back. The
view's Apply Style command (``.uno:StyleApply``) records a ParagraphFormat
change that Reject undoes, but only for a selection within one paragraph (over
two it records nothing). So a style change puts the cursor in each paragraph
in turn, runs that command, and gives the user's selection back; recorded or
not, so the direct edit and an accepted suggestion are one edit. Main thread.
"""

import contextlib
from typing import Any, Iterator, List

from marginalia.errors import ToolError

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


def _copy(selection: Any) -> Any:
    """What to select again later: a text selection's first range as a cursor of its own
    (the selection object follows the view's cursor), anything else as it is."""
    try:
        rng = selection.getByIndex(0)
        return rng.getText().createTextCursorByRange(rng)
    except Exception:
        return selection


@contextlib.contextmanager
def kept_selection(doc: Any) -> Iterator[Any]:
    """Around work that moves the view's selection: the user's is selected again after."""
    controller = doc.getCurrentController()
    kept = _copy(controller.getSelection()) if controller is not None else None
    try:
        yield controller
    finally:
        if kept is not None:
            controller.select(kept)


def apply_paragraph_style(doc: Any, spans: List[Any], name: str) -> None:
    """Give every paragraph of ``spans`` the paragraph style ``name`` (its programmatic name)
    as the view's Apply Style does, recorded or not: the direct edit and an accepted
    suggestion are then one edit (the property alone kept a Word list item's numbering,
    which Apply Style takes away)."""
    if doc.getCurrentController() is None:
        if doc.getPropertyValue("RecordChanges"):
            raise ToolError(NOT_RECORDED)
        # No view (a document loaded without one): the property, a run at a time.
        for span in spans:
            span.setPropertyValue("ParaStyleName", name)
        return
    shown = doc.getStyleFamilies().getByName("ParagraphStyles").getByName(name) \
        .getPropertyValue("DisplayName")
    text = doc.getText()
    with kept_selection(doc) as controller:
        if controller is None:
            raise ToolError(NOT_RECORDED)
        for span in spans:
            cursor = text.createTextCursorByRange(span.getStart())
            end = span.getEnd()
            while True:
                controller.select(cursor)
                _dispatch(doc, ".uno:StyleApply", Style=shown, FamilyName="ParagraphStyles")
                if cursor.getPropertyValue("ParaStyleName") != name:
                    # Only the first can fail: each paragraph takes the same command.
                    raise ToolError(NOT_RECORDED)
                if not cursor.gotoNextParagraph(False) or \
                        text.compareRegionStarts(cursor, end) < 0:
                    break

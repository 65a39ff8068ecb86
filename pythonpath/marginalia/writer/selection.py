"""The user's selection, given back after the card's own work moved it.

Accept and Reject select each tracked change for Writer's commands, Apply
selects a proposal's anchor, Undo selects what it brought back: each leaves
the view with a selection the user never made (one letter, or half a word),
and the panel's scope line would then send the next message about it. So the
card keeps the user's selection before it acts (``keep``) and gives it back
after (``give_back``): the same text, selected again; or, when that text was
changed meanwhile, the cursor at its start with nothing selected. Never a
selection of the card's making. Main thread.
"""

import contextlib
import logging
from typing import Any, Iterator, Optional

log = logging.getLogger("marginalia.writer")


class Kept:
    """A selection as it was: a cursor of its own over its first range (the selection
    object follows the view) and its text; or a selected object (a frame, a shape)."""

    def __init__(self, cursor: Any = None, text: str = "", thing: Any = None):
        self.cursor = cursor
        self.text = text
        self.thing = thing


def keep(doc: Any) -> Optional[Kept]:
    """The view's selection now (None when there is no view)."""
    try:
        controller = doc.getCurrentController()
        selection = controller.getSelection()
    except Exception:
        return None
    try:
        rng = selection.getByIndex(0)
        cursor = rng.getText().createTextCursorByRange(rng)
        return Kept(cursor, cursor.getString())
    except Exception:
        return Kept(thing=selection)


def same(doc: Any, kept: Optional[Kept]) -> bool:
    """Whether the view's selection is still ``kept``'s range (the user did not move);
    for a selected object (Go to a table), whether one of its kind still is."""
    if kept is None:
        return False
    if kept.cursor is None:
        try:
            selection = doc.getCurrentController().getSelection()
            return kept.thing is not None and \
                selection.getImplementationName() == kept.thing.getImplementationName()
        except Exception:
            return False
    try:
        rng = doc.getCurrentController().getSelection().getByIndex(0)
        text = kept.cursor.getText()
        return text.compareRegionStarts(rng, kept.cursor) == 0 and \
            text.compareRegionEnds(rng, kept.cursor) == 0
    except Exception:
        return False


def give_back(doc: Any, kept: Optional[Kept]) -> None:
    """Select ``kept`` again, or put the cursor at its start when its text changed;
    with nothing kept, collapse whatever the card's work selected. Never raises."""
    try:
        controller = doc.getCurrentController()
        if controller is None:
            return
        if kept is not None and kept.thing is not None:
            try:
                controller.select(kept.thing)
                return
            except Exception:
                kept = None     # the object is gone: no selection at all
        if kept is not None:
            cursor = kept.cursor
            if cursor.getString() != kept.text:
                cursor.collapseToStart()
            controller.select(cursor)
            return
        controller.getViewCursor().collapseToStart()
    except Exception:
        log.exception("could not give the selection back")
        try:
            doc.getCurrentController().getViewCursor().collapseToStart()
        except Exception:
            pass


@contextlib.contextmanager
def around(doc: Any, kept: Optional[Kept] = None) -> Iterator[Any]:
    """Around work that moves the view's selection: ``kept`` (by default the selection
    now) is given back after. Yields the controller."""
    kept = kept if kept is not None else keep(doc)
    try:
        yield doc.getCurrentController()
    finally:
        give_back(doc, kept)

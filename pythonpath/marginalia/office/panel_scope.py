"""The line above the message box saying what the model will see: the selection or the document.

A selection-change listener on the document's controller; bursts of changes
(Shift+arrows) are coalesced into one count posted to the main thread, so
keeping the line current costs one getString per burst, not per key.
"""

import logging

import unohelper
from com.sun.star.view import XSelectionChangeListener

from marginalia.office import mainthread
from marginalia.office.control_events import detach
from marginalia.ui.transcript import scope_line

log = logging.getLogger("marginalia.panel")


class ScopeWatch(unohelper.Base, XSelectionChangeListener):
    """Calls ``show(sentence)`` whenever what the model would be told about changes."""

    def __init__(self, ctx, document, show):
        self.ctx = ctx
        self._show = show
        self._pending = False
        self._controller = None
        try:
            self._controller = document.getCurrentController()
            self._controller.addSelectionChangeListener(self)
        except Exception:
            log.exception("could not follow the selection")
        self._update()

    def selectionChanged(self, event):
        if not self._pending:
            self._pending = True
            try:
                mainthread.post(self.ctx, self._update)
            except Exception:        # never into VCL's event loop
                self._pending = False
                log.exception("could not follow the selection")

    def _update(self):
        self._pending = False
        if self._controller is None:
            return
        try:
            self._show(scope_line(_selected_text(self._controller)))
        except Exception:
            log.exception("could not read the selection")

    def refresh(self) -> None:
        """Say it again now (the chat's sources changed)."""
        self._update()

    def disposing(self, event):
        self._controller = None

    def dispose(self):
        controller, self._controller = self._controller, None
        if controller is not None:
            detach(controller.removeSelectionChangeListener, self)


def _selected_text(controller) -> str:
    selection = controller.getSelection()
    if selection is None or not hasattr(selection, "getCount"):
        return ""       # a frame or a shape: the model is told of the document
    if selection.getCount() < 1:
        return ""
    first = selection.getByIndex(0)
    return first.getString() if hasattr(first, "getString") else ""

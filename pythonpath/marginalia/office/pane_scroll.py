"""The conversation pane's scroll bar, read and moved through its accessibility object.

UNO gives an edit control no scroll position. Its VCL scroll bar is an
accessible child of the edit's peer (role SCROLL_BAR, with XAccessibleValue;
measured on LibreOffice 7.4: the value is the view's top in pixels, the
maximum the text's height, the bar as tall as the view). Setting its value
scrolls the view as dragging the bar does, and it reports VALUE_CHANGED when
the wheel or the bar moves the view. Keys that move the cursor scroll without
that event, so each append reads the bar again rather than trusting events.
Where no bar is found, ``read`` gives None and the cursor decides (ui.follow).
That is so on LibreOffice 25.2: a multi-line edit's accessible there is an
AccessibleEdit with no children (its scroll bars are not in the tree), and its
character bounds are all zero, so nothing in UNO tells where the view is; an
append then follows the end whenever the cursor is at it, as before issue 24.
Main thread.
"""

import contextlib
import logging
from typing import Callable, Optional

import unohelper
from com.sun.star.accessibility import XAccessibleEventListener

from marginalia.office.control_events import detach, guarded
from marginalia.ui.follow import Scroll

log = logging.getLogger("marginalia.panel")

SCROLL_BAR = 50        # com.sun.star.accessibility.AccessibleRole.SCROLL_BAR
VALUE_CHANGED = 11     # com.sun.star.accessibility.AccessibleEventId.VALUE_CHANGED


class PaneScroll(unohelper.Base, XAccessibleEventListener):
    """One pane's vertical scroll bar; ``on_scrolled`` hears the user move it."""

    def __init__(self, control, on_scrolled: Callable[[], None]):
        self._control = control
        self._bar = None
        self._on_scrolled = on_scrolled
        self._ours = 0              # inside ours(): the view moves for the panel, not the user

    def _find(self):
        if self._bar is None:
            context = self._control.getPeer().getAccessibleContext()
            # The pane has no horizontal bar (no HScroll): the one bar is the vertical one.
            for i in range(context.getAccessibleChildCount()):
                child = context.getAccessibleChild(i).getAccessibleContext()
                if child.getAccessibleRole() == SCROLL_BAR:
                    child.addAccessibleEventListener(self)
                    self._bar = child
                    break
        return self._bar

    def read(self) -> Optional[Scroll]:
        try:
            bar = self._find()
            if bar is None:
                return None
            return Scroll(int(bar.getCurrentValue()), int(bar.getMaximumValue()),
                          bar.getSize().Height)
        except Exception:
            log.exception("could not read the conversation's scroll bar")
            self._bar = None        # looked for again next time (the peer may be new)
            return None

    @contextlib.contextmanager
    def ours(self):
        """The view moves inside are the panel's own (an append scrolls to its cursor):
        not heard as the user's scroll, and not run through Python per event."""
        self._ours += 1
        try:
            yield
        finally:
            self._ours -= 1

    def move(self, value: Optional[int] = None) -> None:
        """Put the view's top at ``value``, or show the end (the bar keeps it in range)."""
        with self.ours():
            try:
                bar = self._find()      # a rebuilt panel moves its view before any append
                if bar is not None:
                    bar.setCurrentValue(bar.getMaximumValue() if value is None else value)
            except Exception:
                log.exception("could not scroll the conversation")
                self._bar = None

    # XAccessibleEventListener
    def notifyEvent(self, event):
        if event.EventId == VALUE_CHANGED and not self._ours:
            guarded(self._on_scrolled, "following the conversation's scroll")

    def disposing(self, event):
        self._bar = None

    def dispose(self) -> None:
        bar, self._bar = self._bar, None
        if bar is not None:
            detach(bar.removeAccessibleEventListener, self)

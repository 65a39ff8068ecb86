"""One listener that runs a function when a control is used: the dialogs' and cards' adapter.

Buttons (action), list and check boxes (item), text fields (text) and the
registry (changes) all just mean "run fn". A failure is logged, never let
into VCL's event loop, which would only show the user a bare UNO error.
"""

import logging
from typing import Any, Callable

import unohelper
from com.sun.star.awt import XActionListener, XItemListener, XTextListener
from com.sun.star.util import XChangesListener

log = logging.getLogger("marginalia.controls")


def guarded(fn: Callable[..., None], what: str, *args: Any) -> None:
    """Run ``fn(*args)`` for a UNO listener: an error is logged, never let into VCL's event
    loop (there it ends LibreOffice with "Unspecified Application Error")."""
    try:
        fn(*args)
    except Exception:
        log.exception("%s failed", what)


def detach(remove: Callable[[Any], None], listener: Any) -> None:
    """Take a listener off something that may already be gone (its window closed)."""
    try:
        remove(listener)
    except Exception:
        pass  # already disposed: nothing left to detach


class Call(unohelper.Base, XActionListener, XItemListener, XTextListener, XChangesListener):
    """Runs ``fn()`` for any of the events above; ``what`` names it in the log."""

    def __init__(self, fn: Callable[[], None], what: str) -> None:
        self._fn = fn
        self._what = what

    def actionPerformed(self, event):
        self._run()

    def itemStateChanged(self, event):
        self._run()

    def textChanged(self, event):
        self._run()

    def changesOccurred(self, event):
        self._run()

    def _run(self):
        guarded(self._fn, self._what)

    def disposing(self, event):
        pass

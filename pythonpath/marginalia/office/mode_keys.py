"""The apply-mode switch by keyboard: a choice takes Enter or Space, Escape leaves it.

The switch (the change card's tray) is a drop-down list. Closed, VCL moves its selection
on every arrow key or letter and tells the item listener at once, so a stray letter typed
into it (Editing options puts the keyboard there) changed how every edit is applied, the
status line alone saying so (issue 39). Here a selection that follows a key is held, the
status saying how to take it: Enter or Space takes it; Escape, or leaving the switch, puts
the saved mode back, and Escape hands the keyboard back to Editing options. A click, or
Enter in the opened list (Alt+Down), chooses at once.

The keys come from the toolkit's key handler, which VCL asks before any window acts on a
key: the list's own key listeners hear nothing (the key goes to a window inside the list),
and the toolkit forgets its handlers when the toolkit object is let go, so it is kept.
"""

from typing import Any, Callable

import unohelper
from com.sun.star.awt import XFocusListener, XKeyHandler
from com.sun.star.awt.Key import DOWN, ESCAPE, F4, RETURN, SPACE, TAB
from com.sun.star.awt.KeyModifier import MOD2

from marginalia.document import change_log as cl
from marginalia.i18n.catalog import tr
from marginalia.office import mainthread
from marginalia.office.control_events import guarded
from marginalia.ui import change_list as wording


class ModeKeys(unohelper.Base, XKeyHandler, XFocusListener):
    """Watches the switch's keys and focus; ``chosen()`` is the card's item listener's way
    in, ``dispose()`` takes the key handler off."""

    def __init__(self, ctx: Any, box: Any, say: Callable[[str], None],
                 revert: Callable[[], None], leave: Callable[[], None]) -> None:
        self._ctx = ctx
        self._box = box            # the switch
        self._say = say            # the panel's status line
        self._revert = revert      # the switch shows the saved mode again
        self._leave = leave        # the keyboard back to Editing options
        self._focused = False      # the switch has the keyboard
        self._keyed = False        # the last key there moved the selection (not Enter)
        self.pending = False       # a selection waits for Enter
        self._toolkit = ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.awt.Toolkit", ctx)
        self._toolkit.addKeyHandler(self)
        box.addFocusListener(self)

    def dispose(self) -> None:
        try:
            self._toolkit.removeKeyHandler(self)
        except Exception:
            pass                   # the office is closing

    def chosen(self) -> None:
        """The switch's selection changed (by the user): taken or held, a turn later."""
        mainthread.post(self._ctx, lambda: guarded(self._decide, "mode switch"))

    def _decide(self) -> None:
        if self._keyed:
            self.pending = True
            self._hold()
        else:
            self.pending = False
            self._save()

    def _label(self):
        pos = self._box.getSelectedItemPos()
        return wording.MODE_LABELS[pos] if 0 <= pos < len(wording.MODE_LABELS) else None

    def _save(self) -> None:
        """The selection becomes the apply mode of new turns, and is said."""
        from marginalia.office import settings_store
        chosen = self._label()
        if chosen is not None:
            settings = settings_store.load(self._ctx)
            settings_store.save(self._ctx, settings.copy(**cl.mode_fields(chosen[0])))
            self._say(tr(wording.MODE_SET) % tr(chosen[1]))

    def _hold(self) -> None:
        chosen = self._label()
        if chosen is not None:
            self._say(tr(wording.MODE_HELD) % tr(chosen[1]))

    def _back(self) -> None:
        self.pending = False
        self._keyed = False
        self._revert()

    # -- XKeyHandler: every key of the office, asked first -------------------------------
    def keyPressed(self, event) -> bool:
        if not self._focused:
            return False
        code = event.KeyCode
        if code in (RETURN, SPACE):
            self._keyed = False
            if self.pending:
                self.pending = False
                guarded(self._save, "mode switch")
        elif code == ESCAPE:
            guarded(self._back, "mode switch")
            guarded(self._leave, "mode switch")
            return True            # Escape is this switch's: nothing else acts on it
        elif code in (F4, TAB) or (code == DOWN and event.Modifiers & MOD2):
            self._keyed = False    # the list opens (its Enter chooses), or the focus moves
        else:
            self._keyed = True
        return False

    def keyReleased(self, event) -> bool:
        return False

    # -- XFocusListener ---------------------------------------------------------------
    def focusGained(self, event) -> None:
        self._focused = True

    def focusLost(self, event) -> None:
        self._focused = False
        if self.pending:
            guarded(self._back, "mode switch")

    def disposing(self, event) -> None:
        pass

"""Toolkit listeners of the chat panel: plain callables behind UNO listener interfaces.

``Listener`` forwards actions, keys, text changes, clicks and resizes;
``PanelKeys`` sees keys before the sidebar and the edits do (Escape stops a
turn, Ctrl+C in a pane copies without the soft breaks). Main thread.
"""

import unohelper
from com.sun.star.awt import (XActionListener, XFocusListener, XKeyHandler, XKeyListener,
                              XMouseListener, XTextListener, XWindowListener)

from marginalia.office.control_events import guarded

KEY_C = 514                # com.sun.star.awt.Key.C
KEY_INSERT = 1286          # com.sun.star.awt.Key.INSERT (Ctrl+Insert copies too)
KEY_ESCAPE = 1281          # com.sun.star.awt.Key.ESCAPE
MOD_SHIFT = 1              # com.sun.star.awt.KeyModifier.SHIFT
MOD_CTRL = 2               # com.sun.star.awt.KeyModifier.MOD1


def _call(fn, *args):
    guarded(fn, "a panel event handler", *args)


class Listener(unohelper.Base, XActionListener, XKeyListener, XWindowListener, XTextListener,
               XMouseListener):
    """Forwards toolkit events to plain callables; an error is logged, never raised."""

    def __init__(self, on_action=None, on_key=None, on_resize=None, on_text=None,
                 on_click=None, on_key_up=None):
        self._on_action = on_action
        self._on_key = on_key
        self._on_key_up = on_key_up
        self._on_resize = on_resize
        self._on_text = on_text
        self._on_click = on_click

    def actionPerformed(self, event):
        if self._on_action:
            _call(self._on_action)

    def keyPressed(self, event):
        if self._on_key:
            _call(self._on_key, event)

    def keyReleased(self, event):
        if self._on_key_up:
            _call(self._on_key_up)

    def textChanged(self, event):
        if self._on_text:
            _call(self._on_text)

    def mousePressed(self, event):
        if self._on_click:
            _call(self._on_click)

    def mouseReleased(self, event):
        pass

    def mouseEntered(self, event):
        pass

    def mouseExited(self, event):
        pass

    def windowResized(self, event):
        if self._on_resize:
            _call(self._on_resize)

    def windowMoved(self, event):
        pass

    def windowShown(self, event):
        if self._on_resize:
            _call(self._on_resize)

    def windowHidden(self, event):
        pass

    def disposing(self, event):
        pass


class PanelKeys(unohelper.Base, XKeyHandler, XFocusListener):
    """Sees keys before the sidebar does (the sidebar sends Escape to the document).

    A toolkit key handler gets every key of the application first, with the
    top window as its source; so we follow the focus of our own controls and
    act only while one of them has it. Escape is taken only when the panel
    says it stopped something; Ctrl+C only in a pane that copies itself
    (``on_copy(name)`` returns True). Every other key goes on unchanged.
    """

    def __init__(self, on_escape, on_copy):
        self._on_escape = on_escape
        self._on_copy = on_copy
        self.focus_inside = False
        self.focused = None            # the name of our control that has the focus

    def keyPressed(self, event):
        if not self.focus_inside:
            return False
        try:
            if event.KeyCode == KEY_ESCAPE:
                return bool(self._on_escape())
            copy = event.Modifiers & MOD_CTRL and event.KeyCode in (KEY_C, KEY_INSERT)
            if copy and not event.Modifiers & MOD_SHIFT:
                return bool(self._on_copy(self.focused))
        except Exception:
            return False  # never swallow a key because of our own trouble
        return False

    def keyReleased(self, event):
        return False

    def focusGained(self, event):
        self.focus_inside = True

    def focusLost(self, event):
        self.focus_inside = False

    def disposing(self, event):
        pass


class FocusName(unohelper.Base, XFocusListener):
    """Tells PanelKeys which of our controls has the focus."""

    def __init__(self, keys: PanelKeys, name: str):
        self._keys = keys
        self._name = name

    def focusGained(self, event):
        self._keys.focused = self._name

    def focusLost(self, event):
        if self._keys.focused == self._name:
            self._keys.focused = None

    def disposing(self, event):
        pass

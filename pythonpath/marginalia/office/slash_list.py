"""The list of prompts under the chat box while a slash command is typed.

Typing "/" in the message box shows the matching prompts (ui.slash) in a list
box laid over the bottom of the conversation, just above the box; entries too
wide for it are shortened (office.text_fit). The focus stays in the message box: a
toolkit key handler takes Up and Down (move in the list), Tab and Enter
(complete the command, so Enter does not send) and Escape (close the list)
while the list shows and the box has the focus; every other key goes on to
the box. A double click on an entry completes it too. The same list offers
the chat's sources after "@" (ui.mentions; office.quick_panel makes that one with
its own ``matcher``, ``completer`` and ``chosen``). Main thread.
"""

import logging

import unohelper
from com.sun.star.awt import XActionListener, XFocusListener, XKeyHandler, XTextListener

from marginalia.office import text_fit
from marginalia.i18n.catalog import N_
from marginalia.ui import slash

log = logging.getLogger("marginalia.slash")

KEY_DOWN, KEY_UP = 1024, 1025        # com.sun.star.awt.Key
KEY_RETURN, KEY_ESCAPE, KEY_TAB = 1280, 1281, 1282
MODIFIERS = 1 | 2 | 4                # shift, mod1, mod2
ROW = 17
SHOWN = 8                            # entries shown at once, at the most
POSSIZE = 15
# The lists' accessible names: English, translated where the view names the controls.
ACCESSIBLE_NAME = N_("Prompts")
MENTIONS_NAME = N_("Sources to mention")
# The lists the panel makes (office.panel_view: before the conversation, so that VCL
# paints them over it), by their key there.
LISTS = (("slash_list", ACCESSIBLE_NAME), ("mention_list", MENTIONS_NAME))


class _Events(unohelper.Base, XTextListener, XKeyHandler, XFocusListener, XActionListener):
    """Forwards the message box's and the list's events to the SlashList."""

    def __init__(self, owner):
        self._owner = owner

    def textChanged(self, event):
        self._owner.guard(self._owner.update)

    def keyPressed(self, event):
        try:
            return bool(self._owner.key(event))
        except Exception:
            log.exception("slash list key failed")
            return False     # never swallow a key because of our own trouble

    def keyReleased(self, event):
        return False

    def focusGained(self, event):
        self._owner.focused = True

    def focusLost(self, event):
        self._owner.focused = False

    def actionPerformed(self, event):
        # A double click on an entry (not a single one: selecting an entry from
        # code reports an item change too).
        self._owner.guard(self._owner.complete)

    def disposing(self, event):
        pass


class SlashList:
    """The list box of one panel, following the text of its message box."""

    def __init__(self, ctx, view, library, matcher=None, completer=None, chosen=None,
                 name=ACCESSIBLE_NAME, key="slash_list"):
        self._view = view
        self._library = library            # () -> the prompt library (read when "/" starts)
        # text -> the entries to offer; (text, entry) -> the box's text once one is chosen;
        # chosen(entry) after that. The defaults are the slash commands'.
        self._matcher = matcher or self._prompts
        self._completer = completer or (lambda _text, match: slash.completion(match.key))
        self._chosen = chosen
        self._input = view.controls["input"]
        self._matches = []
        self.focused = False
        self._completing = False
        smgr = ctx.ServiceManager
        self.control = view.controls[key]    # made by the view, hidden, named ``name``
        self._events = _Events(self)
        self._input.addTextListener(self._events)
        self._input.addFocusListener(self._events)
        self.control.addActionListener(self._events)
        self._toolkit = smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", ctx)
        self._toolkit.addKeyHandler(self._events)

    @property
    def visible(self) -> bool:
        return bool(self._matches)

    def guard(self, fn):
        try:
            fn()
        except Exception:
            log.exception("slash list failed")

    def items(self):
        return [m.label for m in self._matches]

    def update(self) -> None:
        """Show the prompts matching the box's text, or hide the list."""
        if self._completing:
            return
        found = self._matcher(self._input.getText())
        if [m.key for m in found] == [m.key for m in self._matches]:
            return
        self._matches = found
        if not found:
            self.control.setVisible(False)
            return
        labels = text_fit.fit_items(self.control, [m.label for m in found],
                                    self._input.getPosSize().Width)
        self.control.removeItems(0, self.control.getItemCount())
        self.control.addItems(labels, 0)
        self._shown = labels
        self._choose(0)
        self._place()
        self.control.setVisible(True)

    def _choose(self, pos: int) -> None:
        """Select an entry; a shortened one's whole text becomes the list's tooltip."""
        self.control.selectItemPos(pos, True)
        model = self.control.getModel()
        self._tip = getattr(self, "_tip", None) or model.HelpText   # the list's own, first
        model.HelpText = text_fit.whole([m.label for m in self._matches], self._shown, pos,
                                        self._tip)

    def _prompts(self, text):
        return slash.matches(self._library(), text) if slash.typed_word(text) is not None \
            else []

    def _place(self) -> None:
        """Over the bottom of the conversation, just above the box: the status line and
        Send below the box stay in sight, and the conversation has room for several."""
        box = self._input.getPosSize()
        room = box.Y - self._view.controls["transcript"].getPosSize().Y
        height = min(len(self._matches), SHOWN) * ROW + 4
        height = max(min(height, room), min(len(self._matches), 2) * ROW + 4)
        self.control.setPosSize(box.X, box.Y - height, box.Width, height, POSSIZE)

    def key(self, event) -> bool:
        """The toolkit's key handler: True when the key was the list's."""
        if not self._matches or not self.focused or event.Modifiers & MODIFIERS:
            return False
        code = event.KeyCode
        if code in (KEY_DOWN, KEY_UP):
            pos = self.control.getSelectedItemPos()
            step = 1 if code == KEY_DOWN else -1
            pos = max(0, min(len(self._matches) - 1, pos + step))
            self._choose(pos)
            self.control.makeVisible(pos)
            return True
        if code in (KEY_TAB, KEY_RETURN):
            self.complete()
            return True
        if code == KEY_ESCAPE:
            self.hide()
            return True
        return False

    def complete(self) -> None:
        """Put the chosen command in the box, ready for its argument or for Enter."""
        pos = self.control.getSelectedItemPos()
        if not self._matches or pos < 0:
            return
        match = self._matches[pos]
        self.hide()
        self._completing = True
        try:
            self._view.keep_input(self._completer(self._input.getText(), match))
        finally:
            self._completing = False
        self._view.focus_input()
        if self._chosen is not None:
            self._chosen(match)

    def hide(self) -> None:
        self._matches = []
        self.control.setVisible(False)

    def dispose(self) -> None:
        try:
            self._toolkit.removeKeyHandler(self._events)
        except Exception:
            pass     # the toolkit is shutting down: nothing left to detach

"""The chat panel's controls: built in code inside a UnoControlContainer.

Owns the windows and nothing else: it knows how to lay itself out, append
text at the end of a pane and show a status; office.panel decides what to show.
All methods run on the VCL main thread.
"""

import uno
import unohelper
from com.sun.star.awt import (XActionListener, XFocusListener, XKeyHandler, XKeyListener,
                              XWindowListener)

from marginalia.ui import panel_layout
from marginalia.document.docview import utf16_len
from marginalia.ui.history_menu import ANSWER_BUTTONS
from marginalia.ui.transcript import READY, trim_point

KEY_RETURN = 1280          # com.sun.star.awt.Key.RETURN
KEY_ESCAPE = 1281          # com.sun.star.awt.Key.ESCAPE
MOD_SHIFT = 1              # com.sun.star.awt.KeyModifier.SHIFT
POSSIZE = 15               # com.sun.star.awt.PosSize.POSSIZE
THINKING_BACKGROUND = 0xF1EEF8
THINKING_TEXT = 0x5A5570
CHAT_BACKGROUND = 0xFFFFFF
# The edit control's work per append still grows with its paragraph count
# (about 1 ms more per update with 200 KB of short lines), so a pane keeps the
# last KEEP_CHARS or so: past TRIM_AT the oldest whole blocks give way to a
# note, in one replace every ~40,000 characters streamed.
TRIM_AT = 120000
KEEP_CHARS = 80000
TRIMMED_NOTE = "(Earlier messages of this chat are no longer shown here.)\n\n"

# name: (model service, accessible name / tooltip, model properties)
CONTROLS = (
    ("new_chat", "Button", "New chat", {"Label": "New chat"}),
    ("thinking_toggle", "Button", "Hide thinking", {"Label": "Hide thinking"}),
    ("thinking", "Edit", "Thinking", {
        "MultiLine": True, "ReadOnly": True, "VScroll": True, "AutoVScroll": True,
        "BackgroundColor": THINKING_BACKGROUND, "TextColor": THINKING_TEXT}),
    ("transcript", "Edit", "Conversation", {
        "MultiLine": True, "ReadOnly": True, "VScroll": True, "AutoVScroll": True,
        "BackgroundColor": CHAT_BACKGROUND}),
    ("input", "Edit", "Message", {"MultiLine": True, "VScroll": True, "AutoVScroll": True}),
    ("status", "FixedText", "Status", {"Label": READY, "NoLabel": True,
                                          "MultiLine": True}),
    ("send", "Button", "Send", {"Label": "Send", "DefaultButton": False}),
    ("history", "Button", "This document's chats, export, forget", {"Label": "History"}),
) + tuple((name, "Button", tip, {"Label": label, "Enabled": False})
          for name, label, tip in ANSWER_BUTTONS)
# Buttons whose press goes to the panel's on_action(name).
ACTIONS = ("history",) + tuple(name for name, _label, _tip in ANSWER_BUTTONS)


def _selection(start, end):
    return uno.createUnoStruct("com.sun.star.awt.Selection", start, end)


class _Listener(unohelper.Base, XActionListener, XKeyListener, XWindowListener):
    """Forwards toolkit events to plain callables; the callables catch their own errors."""

    def __init__(self, on_action=None, on_key=None, on_resize=None):
        self._on_action = on_action
        self._on_key = on_key
        self._on_resize = on_resize

    def actionPerformed(self, event):
        if self._on_action:
            self._on_action()

    def keyPressed(self, event):
        if self._on_key:
            self._on_key(event)

    def keyReleased(self, event):
        pass

    def windowResized(self, event):
        if self._on_resize:
            self._on_resize()

    def windowMoved(self, event):
        pass

    def windowShown(self, event):
        if self._on_resize:
            self._on_resize()

    def windowHidden(self, event):
        pass

    def disposing(self, event):
        pass


class _EscapeHandler(unohelper.Base, XKeyHandler, XFocusListener):
    """Sees Escape before the sidebar does (the sidebar sends it to the document).

    A toolkit key handler gets every key of the application first, with the
    top window as its source; so we follow the focus of our own controls and
    take Escape only while one of them has it, and only when the panel says
    it stopped something. Every other key goes on unchanged.
    """

    def __init__(self, on_escape):
        self._on_escape = on_escape
        self.focus_inside = False

    def keyPressed(self, event):
        if event.KeyCode != KEY_ESCAPE or not self.focus_inside:
            return False
        try:
            return bool(self._on_escape())
        except Exception:
            return False  # never swallow a key because of our own trouble

    def keyReleased(self, event):
        return False

    def focusGained(self, event):
        self.focus_inside = True

    def focusLost(self, event):
        self.focus_inside = False

    def disposing(self, event):
        pass


class PanelView:
    """The controls of one panel, inside the sidebar's parent window."""

    def __init__(self, ctx, parent, on_send, on_stop_key, on_new_chat, on_toggle_thinking,
                 on_action=None):
        self.ctx = ctx
        self.parent = parent
        self.thinking_visible = True
        self.card = None                  # the first-run card (office.setup_card) while shown
        self.strip = None                 # the change card (office.change_card)
        self._busy_shown = False          # the button starts as Send
        self._lengths = {"transcript": 0, "thinking": 0}
        smgr = ctx.ServiceManager
        self.container = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlContainer", ctx)
        self.container.setModel(smgr.createInstanceWithContext(
            "com.sun.star.awt.UnoControlContainerModel", ctx))
        self.container.createPeer(parent.getToolkit(), parent)
        self.controls = {}
        for name, kind, label, props in CONTROLS:
            model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%sModel" % kind, ctx)
            # HelpText is the tooltip; VCL also falls back to it for the accessible name
            # of controls without a label, which is how screen readers and tests find them.
            model.HelpText = label
            for key, value in props.items():
                setattr(model, key, value)
            control = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%s" % kind, ctx)
            control.setModel(model)
            self.container.addControl(name, control)
            self.controls[name] = control
        self._on_send, self._on_stop_key = on_send, on_stop_key
        self._keys = {
            "input": _Listener(on_key=self._input_key),
            "transcript": _Listener(on_key=self._pane_key),
            "thinking": _Listener(on_key=self._pane_key),
        }
        for name, listener in self._keys.items():
            self.controls[name].addKeyListener(listener)
        self._actions = {
            "send": _Listener(on_action=on_send),
            "new_chat": _Listener(on_action=on_new_chat),
            "thinking_toggle": _Listener(on_action=on_toggle_thinking),
        }
        if on_action is not None:
            for name in ACTIONS:
                self._actions[name] = _Listener(on_action=lambda n=name: on_action(n))
        for name, listener in self._actions.items():
            self.controls[name].addActionListener(listener)
        self._toolkit = smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", ctx)
        self._escape = _EscapeHandler(on_stop_key)
        for control in self.controls.values():
            control.addFocusListener(self._escape)
        self._toolkit.addKeyHandler(self._escape)
        self._resize = _Listener(on_resize=self.relayout)
        parent.addWindowListener(self._resize)
        self.container.setVisible(True)
        self.relayout()

    @property
    def window(self):
        return self.container.getPeer()

    # -- layout --------------------------------------------------------------
    def relayout(self) -> None:
        size = self.parent.getPosSize()
        self.container.setPosSize(0, 0, size.Width, size.Height, POSSIZE)
        top = self.card.place(0, 0, size.Width) if self.card is not None else 0
        if self.strip is not None:
            top += self.strip.place(0, top, size.Width)
        boxes = panel_layout.layout(size.Width, size.Height, self.thinking_visible, top)
        for name, (x, y, w, h) in boxes.items():
            control = self.controls[name]
            control.setPosSize(x, y, w, max(h, 1), POSSIZE)
        self.controls["thinking"].setVisible(self.thinking_visible)

    def set_thinking_visible(self, visible: bool) -> None:
        self.thinking_visible = visible
        label = "Hide thinking" if visible else "Show thinking"
        self.controls["thinking_toggle"].getModel().Label = label
        self.relayout()

    # -- text ----------------------------------------------------------------
    # Text goes to the peer (the VCL edit), never through the UnoControlEdit:
    # UnoEditControl.insertText is getText() + replaceAt + setText() of the
    # whole string, so every append re-laid out the entire pane (measured on
    # LibreOffice 7.4: 140 ms per append into 200 KB of short lines, 0.9 s into
    # a 20 KB paragraph). The peer's insertText edits the text engine in place
    # (0.5 ms and 1.5 ms for the same appends). It does not write back to the
    # model, so the model's Text goes stale while streaming; set_text therefore
    # also goes through the peer, whose setText syncs the model once.
    def _text_peer(self, pane):
        return self.controls[pane].getPeer()

    def append(self, pane: str, text: str) -> None:
        """Insert text at the end of a pane; cost follows len(text), not the pane's length.

        The view follows the end while the cursor sits there; a user who put
        the cursor or a selection elsewhere (to read or copy) keeps it.
        """
        if not text:
            return
        peer = self._text_peer(pane)
        end = self._lengths[pane]
        before = peer.getSelection()
        following = min(before.Min, before.Max) >= end
        peer.insertText(_selection(end, end), text)
        end += utf16_len(text)
        self._lengths[pane] = end
        if end > TRIM_AT:
            removed = self._trim(peer)
            end = self._lengths[pane] = end - removed
            before = _selection(max(0, before.Min - removed), max(0, before.Max - removed))
        peer.setSelection(_selection(end, end) if following else before)

    def _trim(self, peer) -> int:
        """Replace the oldest blocks with TRIMMED_NOTE; returns the net UTF-16 units removed."""
        text = peer.getText()
        cut = trim_point(text, KEEP_CHARS)
        if cut <= len(TRIMMED_NOTE):
            return 0          # no line break in the last KEEP_CHARS: keep it all
        cut16 = utf16_len(text[:cut])
        peer.insertText(_selection(0, cut16), TRIMMED_NOTE)
        return cut16 - utf16_len(TRIMMED_NOTE)

    def set_text(self, pane: str, text: str) -> None:
        if len(text) > TRIM_AT:      # a rebuilt panel replaying a long chat
            cut = trim_point(text, KEEP_CHARS)
            if cut > 0:
                text = TRIMMED_NOTE + text[cut:]
        self._text_peer(pane).setText(text)
        self._lengths[pane] = utf16_len(text)

    def set_status(self, text: str) -> None:
        self.controls["status"].getModel().Label = text

    def set_busy(self, busy: bool) -> None:
        # One button: Send while idle, Stop while a turn runs (its label is its accessible name).
        # Called for every batch the panel shows: only a change touches the button.
        if busy == self._busy_shown:
            return
        self._busy_shown = busy
        label = "Stop" if busy else "Send"
        model = self.controls["send"].getModel()
        model.Label = label
        model.HelpText = "Stop the answer" if busy else "Send the message"

    def enable(self, names, enabled: bool) -> None:
        """Enable or grey out buttons (the answer row follows the chat's state)."""
        for name in names:
            model = self.controls[name].getModel()
            if model.Enabled != enabled:
                model.Enabled = enabled

    def take_input(self) -> str:
        text = self.controls["input"].getText()
        return text

    def clear_input(self) -> None:
        self.controls["input"].setText("")

    def keep_input(self, text: str) -> None:
        """Put a message that was not sent back, the cursor at its end."""
        peer = self.controls["input"].getPeer()
        peer.setText(text)
        end = utf16_len(text)
        peer.setSelection(_selection(end, end))

    def focus_input(self) -> None:
        self.controls["input"].setFocus()

    # -- keys ----------------------------------------------------------------
    def _input_key(self, event):
        # Key listeners run before the edit handles the key: Enter's newline is
        # still to come, so the send (posted) clears the field after it lands.
        if event.KeyCode == KEY_RETURN and not event.Modifiers & MOD_SHIFT:
            self._on_send(from_enter=True)
        else:
            self._pane_key(event)

    def _pane_key(self, event):
        # Usually the toolkit handler above has taken Escape already.
        if event.KeyCode == KEY_ESCAPE:
            self._on_stop_key()

    def dispose(self) -> None:
        try:
            self._toolkit.removeKeyHandler(self._escape)
        except Exception:
            pass  # the toolkit is shutting down: nothing left to detach
        try:
            self.parent.removeWindowListener(self._resize)
        except Exception:
            pass  # the parent is already gone: nothing left to detach
        self.container.dispose()

"""The chat panel's controls: built in code inside a UnoControlContainer.

Owns the windows and nothing else: it knows how to lay itself out, change
text at the end of a pane (office.panel_panes) and show a status; office.panel
decides what to show. The Tab order follows the controls' places (office.tab_order).
Colours come from the window's theme (ui.theme). All methods run on the VCL main thread.
"""

from marginalia.document.docview import utf16_len
from marginalia.office import (assistive, button_width, control_names, office_words, tab_order,
                               text_fit)
from marginalia.office.assistive import MIRRORS
from marginalia.office.pane_scroll import PaneScroll
from marginalia.office.panel_listen import FocusName, Listener, PanelKeys
from marginalia.office.panel_panes import PaneText, selection
from marginalia.office.setup_card import EXTENSION_ID
from marginalia.office.slash_list import LISTS
from marginalia.i18n.catalog import N_, tr
from marginalia.ui import bidi, panel_layout, theme
from marginalia.ui.answer_format import pane_columns
from marginalia.ui.follow import Follow
from marginalia.ui.history_menu import ANSWER_BUTTONS
from marginalia.ui.status import READY, SEND
from marginalia.ui.transcript import EMPTY_CHAT

KEY_RETURN = 1280          # com.sun.star.awt.Key.RETURN
KEY_UP = 1025              # com.sun.star.awt.Key.UP
KEY_ESCAPE = 1281          # com.sun.star.awt.Key.ESCAPE
MOD_SHIFT = 1              # com.sun.star.awt.KeyModifier.SHIFT
POSSIZE = 15               # com.sun.star.awt.PosSize.POSSIZE
PLACEHOLDER = N_("Ask about your document \u2014 Enter to send, Shift+Enter for a new line")
JUMP_LABEL = N_("\u2193 New reply below")
HIDE_THINKING = N_("Thinking \u25be")
SHOW_THINKING = N_("Thinking \u25b8")
# The same where the top row is narrow (it shares it with five icons); the name stays whole.
SHORT_TOGGLE = {HIDE_THINKING: N_("Think \u25be"), SHOW_THINKING: N_("Think \u25b8")}
# Characters of a draft line that fit one line of the message box, per pixel of width.
CHARS_PER_PIXEL = 1 / 7.0
EDIT_OPTIONS = N_("Editing options")

# name: (model kind, accessible name (a button's tooltip too), model properties), top to bottom.
# Names and labels are the catalog's English: translated as each control is made.
CONTROLS = (
    ("thinking_toggle", "Button", N_("Show or hide the thinking"), {"Label": HIDE_THINKING}),
    # The tray of edit options over the card (office.change_card): apply mode, Restore…, Keep out.
    ("edits", "Button", EDIT_OPTIONS, {"Toggle": True}),
    ("sources", "Button", N_("Sources"), {}),     # the chat's sources: add, remove (panel_sources)
    ("history", "Button", N_("History"), {}),     # this document's chats, export, forget
    ("new_chat", "Button", N_("New chat"), {}),
    ("settings", "Button", N_("Marginalia settings"), {}),
    ("thinking", "Edit", N_("Thinking"), {
        "MultiLine": True, "ReadOnly": True, "VScroll": True, "AutoVScroll": True}),
    # The button over the conversation's bottom edge comes first: VCL paints the
    # earlier of two overlapping siblings on top. So do the "/" and "@" lists
    # (office.slash_list), which lie over its bottom while a command is typed.
) + tuple((key, "ListBox", name, {"Dropdown": False}) for key, name in LISTS) + (
    ("jump", "Button", N_("Go to the newest reply"), {"Label": JUMP_LABEL}),
    ("chat_hint", "FixedText", N_("How to start"), {"Label": EMPTY_CHAT, "NoLabel": True,
                                                    "MultiLine": True}),
    ("transcript", "Edit", N_("Conversation"), {
        "MultiLine": True, "ReadOnly": True, "VScroll": True, "AutoVScroll": True}),
) + tuple((name, "Button", tip, {"Label": label, "Enabled": False})
          for name, label, tip in ANSWER_BUTTONS) + (
    ("scope", "FixedText", N_("What the model will see"), {"Label": N_("Whole document"),
                                                              "NoLabel": True}),
    # The hint before the box it lies on: VCL paints the earlier sibling on top.
    ("placeholder", "FixedText", N_("Hint"), {"Label": PLACEHOLDER, "NoLabel": True,
                                          "MultiLine": True}),
    ("input", "Edit", N_("Message"), {"MultiLine": True, "VScroll": True, "AutoVScroll": True}),
    ("status", "FixedText", N_("Status"), {"Label": READY, "NoLabel": True, "MultiLine": True}),
    ("undo", "Button", N_("Undo New chat"), {"Label": N_("Undo")}),
    ("send", "Button", N_("Send"), {"Label": N_("Send"), "DefaultButton": False}),
)
# Controls named by LibreOffice's own (translated) word for the concept (i18n.office_terms).
OFFICE_WORDS = {"undo": "undo"}
ICON_BUTTONS = ("edits", "sources", "history", "new_chat", "settings")
# Buttons whose press goes to the panel's on_action(name).
ACTIONS = ("edits", "sources", "history") + tuple(name for name, _label, _tip in ANSWER_BUTTONS)
HIDDEN_AT_START = ("jump", "undo") + tuple(key for key, _name in LISTS)


class PanelView(PaneText):
    """The controls of one panel, inside the sidebar's parent window."""

    def __init__(self, ctx, parent, on_send, on_stop_key, on_new_chat, on_toggle_thinking,
                 on_action=None, on_recall=None, on_columns=None):
        self.ctx = ctx
        # Told the conversation pane's width in characters when it changes (the
        # renderer lays tables and rules out to it, ui.answer_format).
        self._on_columns, self._columns = on_columns, None
        self.parent = parent
        self.thinking_visible = True
        self.toggle_visible = False       # shown once there is thinking to show
        self._toggle_labels = (tr(HIDE_THINKING), None)  # the toggle's label, and a short one
        self._toggle_fitted = None        # (labels, width) the toggle was last fitted to
        self._toggle_measured = ("", 0)   # (whole label, the width it needs)
        self._tabs = ()                   # the Tab order last set (office.tab_order)
        self._hint = text_fit.forms(tr(PLACEHOLDER))   # the hint, then shorter forms of it
        self._hint_fitted = None          # (box, forms) the hint was last fitted to
        self._status_h = 0                # the status line's words' height at its width
        self.card = None                  # the first-run card (office.setup_card) while shown
        self.strip = None                 # the change card (office.change_card)
        self.banner = None                # an outside agent editing (office.agent_banner)
        self._send_shown = SEND           # the one button's (label, tooltip)
        self._lengths = {"transcript": 0, "thinking": 0}
        self._items = {"transcript": [], "thinking": []}     # the panes' lists, if mirrored
        self._input_lines = panel_layout.MIN_LINES
        self.follow = Follow()            # whether the conversation follows its end
        self._jump_shown = self._undo_shown = False
        smgr = ctx.ServiceManager
        self.container = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlContainer", ctx)
        self.container.setModel(smgr.createInstanceWithContext(
            "com.sun.star.awt.UnoControlContainerModel", ctx))
        self.container.createPeer(parent.getToolkit(), parent)
        colours = self._colours()
        icons = self._icon_folder(colours)
        # With a screen reader on: finished replies are announced (announce), and where
        # multi-line Edits are opaque to it the panes are mirrored as lists.
        self.assistive = assistive.screen_reader_on()
        self.mirrored = self.assistive and assistive.edits_opaque(ctx, self.container)
        self.controls = {}
        for name, kind, label, props in (assistive.reader_controls(CONTROLS) if self.mirrored
                                         else CONTROLS):
            model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%sModel" % kind, ctx)
            label = tr(label)
            model.HelpText = control_names.tooltip(kind, label)
            for key, value in props.items():
                setattr(model, key, tr(value) if key == "Label" else value)
            if name in OFFICE_WORDS:      # LibreOffice's own word, as in its Edit menu
                model.Label = office_words.word(ctx, OFFICE_WORDS[name])
            if name in ICON_BUTTONS and icons:
                model.ImageURL = icons % name
            elif name in ICON_BUTTONS:
                model.Label = label.split(":")[0]
            if name in ("thinking", "transcript", "thinking_list", "transcript_list"):
                bg, fg = (("thinking_bg", "thinking_text") if name.startswith("thinking")
                          else ("chat_bg", "chat_text"))
                if colours:
                    model.BackgroundColor, model.TextColor = colours[bg], colours[fg]
            if name in ("placeholder", "chat_hint") and colours:
                model.TextColor = colours["thinking_text"]
            control = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%s" % kind, ctx)
            control.setModel(model)
            self.container.addControl(name, control)
            control_names.name_peer(control, kind, label)
            self.controls[name] = control
        self._on_send, self._on_stop_key, self._on_recall = on_send, on_stop_key, on_recall
        self.scroll = PaneScroll(self.controls["transcript"], self.scrolled)
        self._keys = {
            "input": Listener(on_key=self._input_key),
            # A key that moved the view (Ctrl+End) may have reached the end.
            "transcript": Listener(on_key=self._pane_key, on_key_up=self.scrolled),
            "thinking": Listener(on_key=self._pane_key),
        }
        for name, listener in self._keys.items():
            self.controls[name].addKeyListener(listener)
        self._typed = Listener(on_text=self._input_changed)
        self.controls["input"].addTextListener(self._typed)
        self._click = Listener(on_click=self.focus_input)
        for hint in ("placeholder", "chat_hint"):
            self.controls[hint].addMouseListener(self._click)
        self._actions = {
            "send": Listener(on_action=on_send),
            "new_chat": Listener(on_action=on_new_chat),
            "thinking_toggle": Listener(on_action=on_toggle_thinking),
            "jump": Listener(on_action=self.jump_to_end),
        }
        if on_action is not None:
            for name in ACTIONS + ("undo", "settings"):
                self._actions[name] = Listener(on_action=lambda n=name: on_action(n))
        for name, listener in self._actions.items():
            self.controls[name].addActionListener(listener)
        self._toolkit = smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", ctx)
        self._handler = PanelKeys(on_stop_key, self.copy_pane)
        self._focus_names = []
        for name, control in self.controls.items():
            control.addFocusListener(self._handler)
            watch = FocusName(self._handler, name)
            self._focus_names.append(watch)
            control.addFocusListener(watch)
        self._toolkit.addKeyHandler(self._handler)
        for name in HIDDEN_AT_START + (tuple(MIRRORS) if self.mirrored else ()):
            self.controls[name].setVisible(False)
        self._resize = Listener(on_resize=self.relayout)
        parent.addWindowListener(self._resize)
        self.container.setVisible(True)
        self.relayout()

    @property
    def window(self):
        return self.container.getPeer()

    # -- theme ---------------------------------------------------------------
    def _colours(self):
        """The panes' colours from the window's StyleSettings; None if it has none."""
        try:
            style = self.parent.StyleSettings
            colours = theme.pane_colours(style.FieldColor, style.FieldTextColor)
        except Exception:
            return None
        self.dark = theme.is_dark(colours["chat_bg"])
        return colours

    def _icon_folder(self, colours) -> str:
        """The icons' URL pattern (%s: the button) in the tone that suits the theme, or ""."""
        try:
            where = self.ctx.getValueByName(
                "/singletons/com.sun.star.deployment.PackageInformationProvider")
            base = where.getPackageLocation(EXTENSION_ID)
        except Exception:
            return ""
        if not base:
            return ""
        tone = "dark" if colours and theme.is_dark(colours["chat_bg"]) else "light"
        return base + "/icons/%s_" + tone + ".png"

    # -- layout --------------------------------------------------------------
    def relayout(self) -> None:
        size = self.parent.getPosSize()
        self.container.setPosSize(0, 0, size.Width, size.Height, POSSIZE)
        top = self.banner.place(0, 0, size.Width) if self.banner is not None else 0
        if self.card is not None:
            top += self.card.place(0, top, size.Width)
        if self.strip is not None:
            top += self.strip.place(0, top, size.Width)
        shown = self.thinking_visible and self._lengths["thinking"] > 0
        need = button_width.widest_need(self.controls[name] for name in panel_layout.ANSWER_ROW)
        self._status_h = self._words_height("status", panel_layout.status_width(
            size.Width, self._undo_shown))
        boxes = panel_layout.layout(size.Width, size.Height, shown, top, self._input_lines,
                                    self.toggle_visible, self._undo_shown, need,
                                    self._status_h, self._toggle_need())
        for name, (x, y, w, h) in boxes.items():
            for placed in (name, MIRRORS.get(name)) if self.mirrored else (name,):
                if placed is not None:
                    self.controls[placed].setPosSize(x, y, max(w, 1), max(h, 1), POSSIZE)
        self._fit_hint(boxes["placeholder"])
        self._fit_chat_hint(boxes["chat_hint"])
        self._tabs = tab_order.apply(self.container, self._children(), self._tabs)
        self.keep_end()
        self._tell_columns(boxes["transcript"][2])
        self.controls[MIRRORS["thinking"] if self.mirrored else "thinking"].setVisible(shown)
        self.controls["thinking_toggle"].setVisible(self.toggle_visible)
        if self.toggle_visible:
            self._fit_toggle(boxes["thinking_toggle"][2])

    def _tell_columns(self, width: int) -> None:
        if self._on_columns is None:
            return
        try:
            # The pane's own font: the width of 30 more characters, as its toolkit counts.
            pane = self.controls["transcript"]
            char = (pane.getMinimumSize(40, 1).Width - pane.getMinimumSize(10, 1).Width) / 30.0
        except Exception:
            char = 0.0                    # pane_columns falls back to a usual width
        columns = pane_columns(width, char)
        # None: a pane too narrow to tell (first layout, collapsed deck) keeps the last count.
        if columns is not None and columns != self._columns:
            self._columns = columns
            self._on_columns(columns)

    def _words_height(self, name: str, width: int, wide: bool = False) -> int:
        """The height a wrapping label's words take at ``width`` (the toolkit's measure);
        with ``wide``, a huge height where a word is wider than ``width``."""
        import uno
        try:
            need = self.controls[name].calcAdjustedSize(
                uno.createUnoStruct("com.sun.star.awt.Size", width, 0))
        except Exception:      # no peer (yet): the layout's least height
            return 0
        return 1 << 20 if wide and need.Width > width else need.Height

    def _children(self) -> dict:
        """The container's children by name: the view's, the cards'."""
        out = dict(self.controls)
        for prefix, part in (("agent_", self.banner), ("card_", self.strip)):
            out.update((prefix + n, c) for n, c in getattr(part, "controls", {}).items())
        if self.card is not None:
            out["setup_card"] = self.card.container
        return out

    def _fit_hint(self, box) -> None:
        """The longest form of the hint the box shows whole (office.text_fit.forms)."""
        hint = self.controls["placeholder"]
        if hint.getModel().Label not in self._hint:   # new words (a translation, the fit test)
            self._hint = text_fit.forms(hint.getModel().Label)
        elif self._hint_fitted == (box, self._hint):
            return                        # relayout runs on every resize and draft line
        self._hint_fitted = (box, self._hint)
        for label in self._hint:
            hint.getModel().Label = label
            if self._words_height("placeholder", box[2], wide=True) <= box[3]:
                break
        hint.getPeer().setProperty("AccessibleName", self._hint[0])   # read whole

    def _toggle_need(self) -> int:
        """The width the thinking toggle's whole label needs (measured once per label)."""
        full = self._toggle_labels[0]
        if not self.toggle_visible or not full:
            return 0
        if self._toggle_measured[0] != full:
            toggle = self.controls["thinking_toggle"]
            shown = toggle.getModel().Label
            toggle.getModel().Label = full
            self._toggle_measured = (full, button_width.widest_need((toggle,)))
            toggle.getModel().Label = shown
        return self._toggle_measured[1]

    def set_thinking_visible(self, visible: bool, label: str = None, short: str = None) -> None:
        """Open or fold the thinking pane; ``label`` names the toggle, ``short`` is its
        label where the whole one does not fit (gtk3 pads buttons more than gen)."""
        self.thinking_visible = visible
        if label is None:
            english = HIDE_THINKING if visible else SHOW_THINKING
            label, short = tr(english), short or tr(SHORT_TOGGLE[english])
        self._toggle_labels = (label, short)
        self.relayout()

    def _fit_toggle(self, width: int) -> None:
        if self._toggle_fitted == (self._toggle_labels, width):
            return                        # relayout runs on every resize and draft line
        self._toggle_fitted = (self._toggle_labels, width)
        full, short = self._toggle_labels
        toggle = self.controls["thinking_toggle"]
        model = toggle.getModel()
        # The whole label, else the short one, else only its arrow: never a cut one.
        for label in (full, short, full[-1]):
            if label:
                model.Label = label
                if button_width.widest_need((toggle,)) <= width:
                    break
        # Its name stays whole for a screen reader, whichever label shows.
        toggle.getPeer().setProperty("AccessibleName", full)

    def show_toggle(self, shown: bool) -> None:
        if shown != self.toggle_visible:
            self.toggle_visible = shown
            self.relayout()

    def set_status(self, text: str, details: str) -> None:
        """Draw the status line ui.status decided: plain words, the numbers as its tooltip."""
        model = self.controls["status"].getModel()
        if model.Label != text:
            model.Label = text
            width = self.controls["status"].getPosSize().Width
            # Only when the row's height changes (two lines at the least): not for each
            # new words' height inside it.
            row = panel_layout.status_row
            if width > 1 and row(self._words_height("status", width)) != row(self._status_h):
                self.relayout()           # more lines, or fewer: the row fits its words
        if model.HelpText != details:
            model.HelpText = details

    def set_scope(self, text: str) -> None:
        model = self.controls["scope"].getModel()
        if model.Label != text:
            model.Label = text

    def set_send(self, send) -> None:
        """One button: Send while idle, Stop while a turn runs (ui.status.SEND, STOP: its
        label, which is its accessible name, and tooltip). Only a change touches it."""
        if send == self._send_shown:
            return
        self._send_shown = send
        model = self.controls["send"].getModel()
        model.Label, model.HelpText = send

    def show(self, name: str, shown: bool) -> None:
        if name == "undo" and shown == self._undo_shown:
            return
        self.controls[name].setVisible(shown)
        if name == "undo" and shown != self._undo_shown:
            self._undo_shown = shown
            self.relayout()

    def enable(self, names, enabled: bool) -> None:
        """Enable or grey out buttons (the answer row follows the chat's state)."""
        for name in names:
            model = self.controls[name].getModel()
            if model.Enabled != enabled:
                model.Enabled = enabled

    # -- the message box -----------------------------------------------------
    def take_input(self) -> str:
        # From the peer: text that assistive tools (dictation, a screen reader's
        # EditableText) set reaches the peer, not the control's model.
        return self.controls["input"].getPeer().getText()

    def clear_input(self) -> None:
        self.controls["input"].getPeer().setText("")
        self._input_changed()

    def keep_input(self, text: str) -> None:
        """Put a message that was not sent back, the cursor at its end."""
        peer = self.controls["input"].getPeer()
        peer.setText(text)
        end = utf16_len(text)
        peer.setSelection(selection(end, end))
        self._input_changed()

    def has_focus(self) -> bool:
        """Whether the keyboard is in one of the panel's controls."""
        return bool(self._handler.focus_inside)

    def focus_input(self) -> None:
        self.controls["input"].setFocus()

    def _input_changed(self) -> None:
        """The box grows with the draft (2 to 8 lines); the hint shows while it is empty."""
        text = self.controls["input"].getPeer().getText()
        self.controls["placeholder"].setVisible(not text)
        self.set_rtl("input", bool(bidi.first_strong(text)))
        if self.mirrored:
            return                        # a single-line box keeps its height
        width = max(40, self.controls["input"].getPosSize().Width - 24)
        per_line = max(8, int(width * CHARS_PER_PIXEL))
        lines = sum(1 + len(line) // per_line for line in text.split("\n"))
        lines = max(panel_layout.MIN_LINES, min(panel_layout.MAX_LINES, lines))
        if lines != self._input_lines:
            self._input_lines = lines
            self.relayout()

    # -- keys ----------------------------------------------------------------
    def _input_key(self, event):
        # Key listeners run before the edit handles the key: Enter's newline is
        # still to come, so the send (posted) clears the field after it lands.
        if event.KeyCode == KEY_RETURN and not event.Modifiers & MOD_SHIFT:
            self._on_send(from_enter=True)
        elif event.KeyCode == KEY_UP and self._on_recall is not None \
                and not self.controls["input"].getPeer().getText():
            self._on_recall()
        else:
            self._pane_key(event)

    def _pane_key(self, event):
        # Usually the toolkit handler above has taken Escape already.
        if event.KeyCode == KEY_ESCAPE:
            self._on_stop_key()

    def dispose(self) -> None:
        self.scroll.dispose()
        try:
            self._toolkit.removeKeyHandler(self._handler)
        except Exception:
            pass  # the toolkit is shutting down: nothing left to detach
        try:
            self.parent.removeWindowListener(self._resize)
        except Exception:
            pass  # the parent is already gone: nothing left to detach
        self.container.dispose()

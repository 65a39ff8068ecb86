"""The change card at the top of the panel: "3 changes  [Review]".

Only when there is something to review (ui.change_fold: the last turn made
changes, or an earlier turn's still wait) it shows the last turn of this chat
that edited (its CHANGE events name the turn; writer.ledger keeps the live
records) in one line, lists its changes under Review (choosing one selects it
in the document, which scrolls the view there), and acts on them: Accept /
Reject one, Accept all / Reject all for that turn only, Apply a suggestion,
Undo turn. The list folds away by itself (ui.change_fold). The tray of edit
options, opened by the panel's Editing options button, holds Restore… (back
to before one of this chat's messages, office.restore), Keep out
(writer.keepout) and the apply mode switch. Wording and layout:
ui.change_list. Main thread.
"""

import contextlib
import logging
import time
from typing import Optional

import uno

from marginalia.document import change_log as cl
from marginalia.errors import MarginaliaError, user_sentence
from marginalia.i18n.catalog import N_, tr, trn
from marginalia.office import button_width, control_names, office_words, text_fit
from marginalia.office.boxes import place as place_boxes
from marginalia.office.mode_keys import ModeKeys
from marginalia.office.control_events import Call
from marginalia.ui import change_fold
from marginalia.ui import change_list as wording

log = logging.getLogger("marginalia.panel")

EXECUTE_DOWN = 1
# The tooltips (accessible names) and labels: English, translated where set (tr()).
CONTROLS = (("headline", "FixedText", N_("Changes of the last turn"),
             {"Label": "", "NoLabel": True, "MultiLine": True}),
            ("mode", "ListBox", N_("How edits are applied"), {"Dropdown": True}),
            ("changes", "ListBox", N_("This turn's changes"), {"Dropdown": False}),
            ) + tuple((name, "Button", tip, {"Label": label})
                      for name, label, tip in wording.BUTTONS)


# Buttons named by LibreOffice's own (translated) word for the concept (i18n.office_terms);
# their tooltips say what differs (only this turn's changes).
OFFICE_WORDS = {"accept": "accept", "reject": "reject", "accept_all": "accept_all",
                "reject_all": "reject_all"}

class ChangeCard:
    """The card's controls (in the panel's own container) and what they do."""

    def __init__(self, panel):
        self.panel = panel
        # What shows (the line, the list, the tray) is the presenter's (ui.card_state).
        self.cards = panel.presenter.cards
        self._turns_seen = None        # the user's messages when the card last looked
        self._log_seen = 0             # ... and the chat log's length then
        self._laid_out = None          # what the last layout showed (ui.change_fold)
        self._by_code = False          # True while the card selects a list entry itself
        self.turn = None               # the writer.ledger TurnLog shown, or None
        # Go to selects a change; the user's selection from before (writer.selection)
        # comes back after the next action, while the view still shows what Go to chose.
        self._home = None
        self._went = None
        self.render_ms = 0.0           # the last refresh's main-thread time (bench, tests)
        ctx = panel.ctx
        smgr = ctx.ServiceManager
        self.controls = {}
        self._listeners = []
        for name, kind, tip, props in CONTROLS:
            model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%sModel" % kind,
                                                   ctx)
            tip = tr(tip)
            model.HelpText = control_names.tooltip(kind, tip)
            for key, value in props.items():
                setattr(model, key, tr(value) if key == "Label" and value else value)
            if name in OFFICE_WORDS:      # LibreOffice's own word, as in Edit > Track Changes
                model.Label = office_words.word(ctx, OFFICE_WORDS[name])
            control = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%s" % kind, ctx)
            control.setModel(model)
            panel.view.container.addControl("card_" + name, control)
            control_names.name_peer(control, kind, tip)
            control.setVisible(False)
            self.controls[name] = control
            listener = Call(self._guard(name), "change card " + name)
            self._listeners.append(listener)
            if kind == "Button":
                control.addActionListener(listener)
            elif name in ("mode", "changes"):
                control.addItemListener(listener)
        # Review shows whether its list is open (a toggle: "pressed" for a screen reader).
        self.controls["review"].getModel().Toggle = True
        self.controls["mode"].getModel().StringItemList = tuple(
            tr(label) for _m, label in wording.MODE_LABELS)
        self._show_mode()
        self._mode_keys = ModeKeys(ctx, self.controls["mode"], self._say, self._show_mode,
                                   lambda: self.panel.view.controls["edits"].setFocus())
        # The Options page (or another panel's switch) may change the mode while this shows.
        from marginalia.office import mainthread, settings_store
        self._mode_watch = Call(lambda: mainthread.post(ctx, self._mode_saved),
                                "change card mode watch")
        self._unwatch = settings_store.watch(ctx, "Chat", self._mode_watch)

    # -- layout ----------------------------------------------------------------
    @property
    def shown(self) -> bool:
        """Whether the card takes any room (the summary line, or the tray while open)."""
        return self.cards.shown().changes

    def _need(self) -> int:
        return button_width.widest_need(self.controls[name] for name, _l, _t in wording.BUTTONS)

    def _headline_need(self) -> int:
        try:
            return self.controls["headline"].getPreferredSize().Width
        except Exception:
            return 0        # no peer yet: the next layout asks again

    def _list_width(self) -> int:
        return self.panel.view.parent.getPosSize().Width - 2 * wording.MARGIN

    def place(self, x: int, y: int, width: int) -> int:
        shown = self.cards.shown()
        height, boxes = wording.layout(width, y, shown.review, shown.summary, self._need(),
                                       shown.tray, self._headline_need(),
                                       button_width.widest_need([self.controls["review"]]))
        place_boxes(self.controls, boxes, x)
        return height

    # -- state -> controls -------------------------------------------------------
    def _ledger(self):
        from marginalia.writer.ledger import ledger_for
        return ledger_for(self.panel.document)

    def refresh(self) -> None:
        """Show the chat's last editing turn (after each batch, each action, a replay)."""
        from marginalia.writer import review
        started = time.perf_counter()
        ledger = self._ledger()
        numbers = cl.turns_in(self.panel.session.log)
        # The card's Accept taken back with Writer's Undo shows as open again.
        review.undone_in_writer(self.panel.document, ledger)
        self.turn = review.latest(ledger, numbers)
        changes = review.refresh(self.panel.document, ledger, self.turn) if self.turn else []
        log_now = self.panel.session.log
        self.turn_began()
        self.cards.changes_seen(
            changes, self.turn is not None and change_fold.by_last_turn(log_now, self.turn.number))
        model = self.controls["headline"].getModel()
        if model.Label != wording.headline(changes):
            model.Label = wording.headline(changes)
        box = self.controls["changes"]
        chosen = box.getSelectedItemPos() if self.cards.shown().review else -1
        # Each row whole or shortened at a word with "…", never scrolled sideways.
        full = wording.rows(changes)
        rows = text_fit.fit_items(box, full, self._list_width())
        model = box.getModel()
        if tuple(model.StringItemList) != rows:
            model.StringItemList = rows
            if 0 <= chosen < len(rows):
                self._select(box, chosen)
        # A shortened row's whole text: the tooltip of the list while it is selected (every
        # choice in the list runs this refresh). The list's own tooltip, kept from the first.
        self._tip = getattr(self, "_tip", None) or model.HelpText
        tip = text_fit.whole(full, rows, box.getSelectedItemPos(), self._tip)
        if model.HelpText != tip:
            model.HelpText = tip
        self._enable(changes)
        self._settle()
        self.render_ms = (time.perf_counter() - started) * 1000

    def turn_began(self) -> bool:
        """Whether the user sent a message since the card last looked (then the list and
        the tray fold: the answer gets the room). Cheap: it reads only the new entries."""
        entries = self.panel.session.log
        if len(entries) < self._log_seen or self._turns_seen is None:
            turns = change_fold.user_turns(entries)        # another chat, or restored
        else:
            turns = self._turns_seen + change_fold.user_turns(entries[self._log_seen:])
        began = change_fold.new_turn(self._turns_seen, turns)
        self._turns_seen, self._log_seen = turns, len(entries)
        if began:
            self.cards.turn_began()
            self._settle()
        return began

    def _settle(self) -> None:
        """Lay the panel out again when what the card shows changed its size."""
        shown = self.cards.shown()
        key = (shown, self.controls["headline"].getModel().Label)
        if key != self._laid_out:
            self._laid_out = key
            _press(self.controls["review"], shown.review)
            _press(self.panel.view.controls["edits"], shown.tray)
            self.panel.view.relayout()

    def toggle_tray(self) -> None:
        """The Editing options button: open or fold the tray; opened, the switch has the focus."""
        focus = self.cards.tray_pressed()
        self._settle()
        if focus is not None:
            self.controls[focus].setFocus()

    def _enable(self, changes) -> None:
        from marginalia.writer import review
        chosen = self.controls["changes"].getSelectedItemPos()
        undoable = self.turn is not None and not self.turn.undone and bool(self.turn.steps)
        if undoable:
            latest = review.latest(self._ledger())
            undoable = latest is not None and latest.number == self.turn.number
        states = wording.enabled(changes, chosen if chosen >= 0 else None, undoable,
                                 not self.panel.session.busy)
        for name, on in states.items():
            model = self.controls[name].getModel()
            if model.Enabled != on:
                model.Enabled = on

    def _show_mode(self) -> None:
        from marginalia.office import settings_store
        from marginalia.ui import admin_locks
        mode = cl.apply_mode(settings_store.load(self.panel.ctx, with_key=False))
        pos = [m for m, _label in wording.MODE_LABELS].index(mode)
        if self.controls["mode"].getSelectedItemPos() != pos:
            self._select(self.controls["mode"], pos)
        box = self.controls["mode"].getModel()
        # A mode an administrator locked: the switch could only pretend to change it.
        if box.Enabled and "apply_mode" in admin_locks.held(settings_store.locked(self.panel.ctx)):
            box.Enabled = False
            box.HelpText = admin_locks.help_text(box.HelpText)

    def _select(self, box, pos: int) -> None:
        """Select an entry in code. The list box tells its item listener of that too
        (VCLXListBox, at once), and it is no choice of the user's to act on."""
        self._by_code = True
        try:
            box.selectItemPos(pos, True)
        finally:
            self._by_code = False

    def _mode_saved(self) -> None:
        if not self.panel._disposed:
            self._show_mode()

    # -- actions -----------------------------------------------------------------
    def _guard(self, name):
        def run():
            if self._by_code:
                return
            try:
                if self.panel._disposed:
                    return
                before = self.cards.open_now
                acted = self.controls["changes"].getSelectedItemPos()
                getattr(self, "on_" + name)()
            except MarginaliaError as exc:
                before = None
                # Apply's refusals are the tools' own, worded for the model: the user's words.
                from marginalia.ui.tool_words import in_user_words
                self.panel.say(in_user_words(str(exc), getattr(exc, "phrase", None)))
            except Exception as exc:
                before = None
                log.exception("change card %s failed", name)
                self.panel.say(user_sentence(exc))
            try:
                self.refresh()
                if before is not None:
                    # The last open change settled: the list folds (ui.card_state).
                    self.cards.reviewed(before)
                    self._settle()
                    if name in _DECIDING:          # the keyboard moves on (_focus_after)
                        self._focus_after(acted)
            except Exception:
                log.exception("change card refresh failed")
        return run

    def _say(self, sentence: str) -> None:
        self.panel.say(sentence)

    def _focus_after(self, acted: int) -> None:
        """Not where VCL hands the keyboard when the pressed button goes grey (Undo turn,
        Accept all: one more Space undoes or accepts all): the next row to decide, or Review."""
        row = wording.next_row(self.turn.changes if self.turn else [], acted)
        if row is None or not self.cards.shown().review:
            return self.controls["review"].setFocus()
        self._select(self.controls["changes"], row)
        self._enable(self.turn.changes)
        self.controls["changes"].setFocus()

    def _chosen(self) -> Optional[cl.Change]:
        pos = self.controls["changes"].getSelectedItemPos()
        if self.turn is None or not 0 <= pos < len(self.turn.changes):
            return None
        return self.turn.changes[pos]

    def on_headline(self):
        pass

    def on_review(self) -> None:
        # Pressed while open, it closes the list (ui.change_fold.CLOSED).
        opened = self.cards.review_pressed()
        if not opened:
            with self._back_home():
                pass
        if opened and self.turn is not None:
            from marginalia.writer import ledger
            # The user may have edited since: the numbers as they are now.
            ledger.finish(self.panel.document, self._ledger(), self.turn)
            self.controls["changes"].getModel().StringItemList = ()
        self._settle()

    def on_changes(self) -> None:
        self.on_go_to()

    def on_go_to(self) -> None:
        from marginalia.writer import review, selection
        change = self._chosen()
        if change is None:
            return
        doc = self.panel.document
        if self._home is None or not selection.same(doc, self._went):
            self._home = selection.keep(doc)
        review.select(doc, self._ledger(), change)
        self._went = selection.keep(doc)

    def _back_home(self):
        """Around an action: when the view still shows what Go to selected, the user's
        selection from before Go to comes back after, however the action ends (the
        action itself gives back the one it found)."""
        from marginalia.writer import selection
        home = self._home if selection.same(self.panel.document, self._went) else None
        self._home = self._went = None
        if home is None:
            return contextlib.nullcontext()
        return selection.around(self.panel.document, home)

    def _judge(self, targets, accept) -> None:
        from marginalia.writer import review
        with self._back_home():
            done = review.judge(self.panel.ctx, self.panel.document, self._ledger(), targets,
                                accept)
        if not done:
            self._say(tr(wording.NOTHING_OPEN))
            return
        what = trn("%d change", "%d changes", done) % done
        self._say((tr(wording.ACCEPTED) if accept else tr(wording.REJECTED)) % what)

    def on_accept(self) -> None:
        change = self._chosen()
        if change is not None:
            self._judge([change], True)

    def on_reject(self) -> None:
        change = self._chosen()
        if change is not None:
            self._judge([change], False)

    def on_accept_all(self) -> None:
        if self.turn is not None:
            self._judge(self.turn.changes, True)

    def on_reject_all(self) -> None:
        if self.turn is not None:
            self._judge(self.turn.changes, False)

    def on_apply(self) -> None:
        from marginalia.writer import review
        change = self._chosen()
        if change is not None:
            with self._back_home():
                review.apply(self.panel.document, self._ledger(), change)
            self._say(tr(wording.APPLIED))

    def on_undo_turn(self) -> None:
        from marginalia.writer import review
        if self.turn is None:
            return
        try:
            with self._back_home():
                review.restore(self.panel.document, self._ledger(), self.turn.number,
                               only_latest=True)
        except review.UserEdited:
            self._say(tr(wording.USER_EDITED))
            return
        self._say(tr(wording.UNDONE))

    def on_keep_out(self) -> None:
        # One click marks; once marks exist, a menu lists them too (office.keepout_menu).
        from marginalia.office import keepout_menu
        said = keepout_menu.run(self.panel, self.controls["keep_out"])
        if said:
            self._say(said)

    def on_mode(self) -> None:
        self._mode_keys.chosen()        # taken at once, or on Enter (office.mode_keys)

    def on_restore(self) -> None:
        from marginalia.chat import rewind
        from marginalia.office.restore import restore_to
        items = wording.restore_items(rewind.user_messages(self.panel.session.log))
        if not items:
            self._say(tr(wording.NO_MESSAGES))
            return
        index = self._pick(items)
        if index is None:
            return
        with self._back_home():
            outcome = restore_to(self.panel.session, index)
            if outcome.get("question"):
                if not self.panel.actions._confirm(outcome["question"]):
                    return
                outcome = restore_to(self.panel.session, index, confirmed=True)
        if outcome.get("restored"):
            self.panel.presenter.edit_ended()
            self.panel.replay()
            self.panel.view.keep_input(outcome["text"])
            self.panel.focus_after("restore")
        self._say(outcome["sentence"])

    def _pick(self, items) -> Optional[int]:
        ctx = self.panel.ctx
        menu = ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.PopupMenu", ctx)
        for pos, (_index, label) in enumerate(items):
            menu.insertItem(pos + 1, label, 0, pos)
        button = self.controls["restore"].getPosSize()
        where = uno.createUnoStruct("com.sun.star.awt.Rectangle", button.X,
                                    button.Y + button.Height, button.Width, 0)
        chosen = menu.execute(self.panel.view.window, where, EXECUTE_DOWN)
        return items[chosen - 1][0] if 1 <= chosen <= len(items) else None

    def dispose(self) -> None:
        self._listeners = []
        self._mode_keys.dispose()
        try:
            self._unwatch()
        except Exception:
            log.exception("could not stop watching the apply mode")


_DECIDING = ("accept", "reject", "apply", "accept_all", "reject_all")


def _press(button, pressed: bool) -> None:
    """Show a toggle button pressed while what it opens is open."""
    model = button.getModel()
    state = 1 if pressed else 0
    if model.State != state:
        model.State = state

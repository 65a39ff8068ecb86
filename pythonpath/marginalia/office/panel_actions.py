"""The panel's History menu and the row of buttons acting on the last answer.

Copy puts the answer on the clipboard as HTML and plain text (ui.answer_copy); Insert writes it at the
document's cursor as real structure (writer.answer, one undo step); Retry
sends the last message again in place of its answer; Edit gives the last
message back to the message box, and the next Send replaces that turn.
History lists this document's kept chats (office.chat_store) to reopen or
delete, exports the chat as Markdown through the system file picker, and
forgets the document's chats. Wording lives in ui.history_menu. Main thread.
"""

import logging
import os
from typing import Optional

import uno
import unohelper
from com.sun.star.datatransfer import XTransferable

from marginalia.chat import history
from marginalia.errors import MarginaliaError
from marginalia.i18n.catalog import tr
from marginalia.sources import cite_as
from marginalia.ui import history_menu as hm
from marginalia.ui.chat_export import to_markdown
from marginalia.ui.status import answer_row

log = logging.getLogger("marginalia.panel")

FILESAVE_AUTOEXTENSION = 10    # com.sun.star.ui.dialogs.TemplateDescription
EXECUTE_DOWN = 1               # com.sun.star.awt.PopupMenuDirection
CHECKABLE = 1                  # com.sun.star.awt.MenuItemStyle
BUTTONS_YES_NO = 3             # com.sun.star.awt.MessageBoxButtons
YES = 2                        # com.sun.star.awt.MessageBoxResults
MARKDOWN_FILTER = "Markdown (*.md)"
HTML = "text/html"


class PlainText(unohelper.Base, XTransferable):
    """Plain text for the system clipboard."""

    def __init__(self, text):
        self._text = text
        flavor = uno.createUnoStruct("com.sun.star.datatransfer.DataFlavor")
        flavor.MimeType = "text/plain;charset=utf-16"
        flavor.HumanPresentableName = "Unicode text"
        flavor.DataType = uno.getTypeByName("string")
        self._flavor = flavor

    def getTransferData(self, flavor):
        if not flavor.MimeType.startswith("text/plain"):
            from com.sun.star.datatransfer import UnsupportedFlavorException
            raise UnsupportedFlavorException("only text/plain", self)
        return self._text

    def getTransferDataFlavors(self):
        return (self._flavor,)

    def isDataFlavorSupported(self, flavor):
        return flavor.MimeType.startswith("text/plain")


class RichText(PlainText):
    """An answer for the system clipboard: HTML (Writer pastes it formatted) and plain text
    without markdown's marks (ui.answer_copy)."""

    def __init__(self, markdown_text):
        from marginalia.ui import answer_copy
        super().__init__(answer_copy.to_plain(markdown_text))
        self._html = uno.ByteSequence(answer_copy.to_html(markdown_text).encode("utf-8"))
        flavor = uno.createUnoStruct("com.sun.star.datatransfer.DataFlavor")
        flavor.MimeType = HTML
        flavor.HumanPresentableName = "HTML"
        flavor.DataType = uno.getTypeByName("[]byte")
        self._html_flavor = flavor

    def getTransferData(self, flavor):
        if flavor.MimeType.startswith(HTML):
            return self._html
        return super().getTransferData(flavor)

    def getTransferDataFlavors(self):
        return (self._html_flavor,) + super().getTransferDataFlavors()

    def isDataFlavorSupported(self, flavor):
        return flavor.MimeType.startswith(HTML) or super().isDataFlavorSupported(flavor)


class PanelActions:
    """What History and the answer row do, for one ChatPanel."""

    def __init__(self, panel):
        self.panel = panel
        self._typed = None          # the message box's listener, added at the first Edit

    @property
    def session(self):
        return self.panel.session

    def _say(self, sentence: str) -> None:
        self.panel.say(sentence)

    @property
    def presenter(self):
        return self.panel.presenter

    def run(self, name: str) -> None:
        getattr(self, "on_" + name)()

    # -- the answer row ------------------------------------------------------
    def refresh(self) -> None:
        """Grey out what cannot act now (ui.status.answer_row)."""
        answered = bool(history.last_answer(self.session.log))
        asked = any(role == "user" for role, _payload in self.session.log)
        for name, enabled in answer_row(self.session.busy, answered, asked).items():
            self.panel.view.enable((name,), enabled)

    def on_copy(self) -> None:
        text = history.last_answer(self.session.log)
        if not text:
            return
        clipboard = self.panel.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.datatransfer.clipboard.SystemClipboard", self.panel.ctx)
        clipboard.setContents(RichText(text), None)
        self._say(hm.COPIED)

    def on_insert(self) -> None:
        from marginalia.office import settings_store
        from marginalia.writer.answer import insert_at_cursor
        text = history.last_answer(self.session.log)
        if not text or self.session.busy:
            return
        settings = settings_store.load(self.panel.ctx, with_key=False)
        # A note only where its source holds what is quoted beside it (citations.for_insert).
        prepared = self.session.sources.for_insert(text)
        try:
            insert_at_cursor(self.panel.ctx, self.panel.document, prepared.text,
                             bool(settings.track_changes), prepared.notes or None,
                             settings.citations_as)
        except MarginaliaError as exc:
            self._say(str(exc))
            return
        left = cite_as.left_out(prepared.unbacked, prepared.unknown)
        self._say(tr(hm.INSERTED) + " " + left if left else hm.INSERTED)

    def on_retry(self) -> None:
        self.presenter.edit_ended()
        text = self._take_back()
        if text is not None:
            self.panel.send_text(text)

    def on_undo(self) -> None:
        self.panel.undo_new_chat()

    def on_settings(self) -> None:
        from marginalia.office.setup_card import open_options
        open_options(self.panel.ctx, self.panel.frame)

    def on_edit(self) -> None:
        cut = history.last_turn_start(self.session.conversation.messages, self.session.log)
        if cut is None or self.session.busy:
            return
        self.panel.view.keep_input(self.session.log[cut[1]][1])
        self.presenter.edit()
        self.panel.present()
        self.panel.focus_after("edit")
        self.watch_box()

    def watch_box(self) -> None:
        """While an Edit is in progress, the status follows the box (_edited)."""
        if self._typed is None:
            from marginalia.office.panel_listen import Listener
            self._typed = Listener(on_text=self._edited)
            self.panel.view.controls["input"].addTextListener(self._typed)

    def _edited(self) -> None:
        """After Edit the status says so while the box holds a message: an emptied box
        (select all, delete) has nothing to send, so the idle status shows until the new
        text comes; Send then still replaces the last turn, as the sentence says again."""
        if self.presenter.editing:
            self.presenter.box_changed(bool(self.panel.view.take_input()))
            self.panel.present()

    def before_send(self) -> None:
        """Called as a message is sent: after Edit, it replaces the last turn."""
        if self.presenter.editing:
            self.presenter.edit_ended()
            self._take_back()

    def _take_back(self) -> Optional[str]:
        """Remove the last turn (and its edits, if they are still the newest Undo step)."""
        text = self.session.take_back_last_turn()
        if text is None:
            return None
        self._undo_turn(text)
        self.panel.replay()
        return text

    def _undo_turn(self, text: str) -> None:
        from marginalia.writer.turn import undo_title
        try:
            undo = self.panel.document.getUndoManager()
            if undo.isUndoPossible() and undo.getCurrentUndoActionTitle() == undo_title(text):
                undo.undo()
        except Exception:
            log.exception("could not undo the retried turn's edits")

    # -- History -------------------------------------------------------------
    def on_edits(self) -> None:
        """Editing options: open or fold the change card's tray (mode, Restore…, Keep out)."""
        if self.panel.changes is not None:
            self.panel.changes.toggle_tray()

    def on_history(self) -> None:
        kept = self.session.kept
        chats = kept.summaries()
        self.show_notes()
        if not chats and not kept.enabled():
            self._say(hm.KEEPING_OFF)
        items = hm.menu_items(chats, kept.chat.chat_id if self.session.log else None,
                              bool(self.session.log))
        choice = hm.chosen(self._popup(items), chats)
        if choice is None:
            return
        action, chat_id = choice
        if action == "open":
            self.presenter.edit_ended()
            if not self.session.open_chat(chat_id):
                self.show_notes()
                return
            self.panel.replay()
            self.show_notes()
        elif action == "delete":
            if self.session.delete_chat(chat_id):
                self.presenter.edit_ended()     # the shown chat, its last message with it
            self.panel.replay()
        elif action == "export":
            self.export()
        elif action == "forget" and self._confirm(hm.FORGET_QUESTION):
            self.presenter.edit_ended()
            self.session.forget_chats()
            self.panel.replay()
            self._say(hm.FORGOTTEN)

    def show_notes(self) -> None:
        """Say once that an unreadable chat file was set aside."""
        notes, self.session.kept.notes = self.session.kept.notes, []
        if notes:
            self._say(notes[-1])

    def _menu(self, items):
        smgr, ctx = self.panel.ctx.ServiceManager, self.panel.ctx
        menu = smgr.createInstanceWithContext("com.sun.star.awt.PopupMenu", ctx)
        for pos, item in enumerate(items):
            if item.item_id == 0:
                menu.insertSeparator(pos)
                continue
            menu.insertItem(item.item_id, item.label, CHECKABLE if item.checked else 0, pos)
            menu.enableItem(item.item_id, item.enabled)
            if item.checked:
                menu.checkItem(item.item_id, True)
            if item.submenu:
                menu.setPopupMenu(item.item_id, self._menu(item.submenu))
        return menu

    def on_sources(self) -> None:
        from marginalia.office.panel_sources import PanelSources
        PanelSources(self.panel, self._say).menu(lambda items: self._popup(items, "sources"))

    def _popup(self, items, under: str = "history") -> int:
        button = self.panel.view.controls[under].getPosSize()
        where = uno.createUnoStruct("com.sun.star.awt.Rectangle", button.X,
                                    button.Y + button.Height, button.Width, 0)
        return self._menu(items).execute(self.panel.view.window, where, EXECUTE_DOWN)

    def _confirm(self, question: str) -> bool:
        smgr, ctx = self.panel.ctx.ServiceManager, self.panel.ctx
        toolkit = smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", ctx)
        box = toolkit.createMessageBox(
            self.panel.view.window, uno.Enum("com.sun.star.awt.MessageBoxType", "QUERYBOX"),
            BUTTONS_YES_NO, "Marginalia", question)
        try:
            return box.execute() == YES
        finally:
            box.dispose()

    # -- Export --------------------------------------------------------------
    def export(self) -> None:
        if not self.session.log:
            self._say(hm.NOTHING_TO_EXPORT)
            return
        title = _title(self.panel.document)
        path = self._pick_file(hm.export_name(title))
        if path is None:
            return
        if not path.lower().endswith(".md"):
            path += ".md"
        try:
            history.write_atomic(path, to_markdown(self.session.log, title))
        except OSError as exc:
            self._say(tr("The chat could not be written to %(path)s (%(reason)s).")
                      % {"path": path, "reason": exc.strerror or tr("the folder refused it")})
            return
        self._say(tr(hm.EXPORTED) % os.path.basename(path))

    def _pick_file(self, name: str) -> Optional[str]:
        ctx = self.panel.ctx
        picker = ctx.ServiceManager.createInstanceWithArgumentsAndContext(
            "com.sun.star.ui.dialogs.FilePicker", (FILESAVE_AUTOEXTENSION,), ctx)
        picker.setTitle(tr("Export chat"))
        picker.appendFilter(MARKDOWN_FILTER, "*.md")
        picker.setCurrentFilter(MARKDOWN_FILTER)
        picker.setDefaultName(name)
        url = self.panel.document.getURL()
        if url:
            picker.setDisplayDirectory(url.rsplit("/", 1)[0])
        if picker.execute() != 1:
            return None
        files = picker.getFiles()
        return uno.fileUrlToSystemPath(files[0]) if files else None


def _title(doc) -> str:
    try:
        return doc.getTitle()
    except Exception:
        return ""


"""The panel's two panes (conversation and thinking): text appended at their end.

Owns how text reaches a pane and leaves it: appends that cost what their text
costs, the view following the end, trimming a long chat, the screen-reader
lists mirroring the panes, alignment by direction, and copying without the
view's soft breaks. PanelView mixes it in; all methods run on the VCL main
thread and need the view's ``ctx``, ``controls``, ``_lengths``, ``_items``,
``mirrored``, ``assistive``, ``follow`` (ui.follow), ``scroll`` (office.pane_scroll),
``_jump_shown`` and ``relayout``.
"""

import uno

from marginalia.document.docview import utf16_len
from marginalia.i18n.catalog import N_, tr
from marginalia.office import assistive
from marginalia.office.assistive import MIRRORS
from marginalia.ui import spoken
from marginalia.ui import softwrap
from marginalia.ui.transcript import trim_point

ALIGN_LEFT, ALIGN_RIGHT = 0, 2   # an Edit model's Align
# The edit control's work per append still grows with its paragraph count
# (about 1 ms more per update with 200 KB of short lines), so a pane keeps the
# last KEEP_CHARS or so: past TRIM_AT the oldest whole blocks give way to a
# note, in one replace every ~40,000 characters streamed.
TRIM_AT = 120000
KEEP_CHARS = 80000
TRIMMED = N_("(Earlier messages of this chat are no longer shown here.)")


def trimmed_note() -> str:
    """The note, in the user's language, that takes the oldest blocks' place."""
    return tr(TRIMMED) + "\n\n"


def selection(start, end):
    """An awt Selection (UTF-16 offsets, as the edit counts)."""
    return uno.createUnoStruct("com.sun.star.awt.Selection", start, end)


class PaneText:
    """The panes' text; mixed into office.panel_view.PanelView."""

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

    def append(self, pane: str, text: str, retract: str = "") -> None:
        """Replace ``retract`` at the end of a pane with ``text``: one insert, whose cost
        follows the text changed, not the pane's length.

        A cursor or selection the user put before the changed text stays. The
        conversation's view follows the end only while it shows the end
        (ui.follow): scrolled up, it stays where the user put it.
        """
        if not text and not retract:
            return
        peer = self._text_peer(pane)
        end = self._lengths[pane]
        start = max(0, end - utf16_len(retract)) if retract else end
        before = peer.getSelection()
        at_cursor = min(before.Min, before.Max) >= start
        scroll = self.scroll.read() if pane == "transcript" else None
        following = (self.follow.arriving(scroll, at_cursor) if pane == "transcript"
                     else at_cursor)
        was_empty = end == 0
        with self.scroll.ours():
            peer.insertText(selection(start, end), text)
            end = start + utf16_len(text)
            self._lengths[pane] = end
            if end > TRIM_AT:
                removed = self._trim(peer)
                end = self._lengths[pane] = end - removed
                before = selection(max(0, before.Min - removed), max(0, before.Max - removed))
            if at_cursor:
                peer.setSelection(selection(end, end))
            else:
                peer.setSelection(selection(min(before.Min, end), min(before.Max, end)))
            if scroll is not None:
                # The insert and the selection scrolled to the cursor: the view goes
                # back where the user had it, or to the new end.
                self.scroll.move(None if following else scroll.value)
        if self.mirrored and ("\n" in text or retract):
            self._mirror(pane)            # a line is complete (the last one waits for its end)
        if pane == "transcript":
            self._show_jump()
        elif was_empty and end:
            self.relayout()               # the thinking pane appears with its first words

    def _show_jump(self) -> None:
        """The conversation's overlays: the jump button while a reply is below the view,
        the hint while the chat is empty (a blank pane said nothing of what it is for)."""
        shown = self.follow.offered
        if shown != self._jump_shown:
            self._jump_shown = shown
            self.controls["jump"].setVisible(shown)
        empty = not self._lengths["transcript"] and getattr(self, "_hint_fits", True)
        if empty != getattr(self, "_hint_shown", True):
            self._hint_shown = empty
            self.controls["chat_hint"].setVisible(empty)

    def _fit_chat_hint(self, box) -> None:
        """The empty chat's hint takes its words' height; where they do not fit (a short
        pane under the first-run card), it stays away rather than show cut."""
        hint = self.controls["chat_hint"]
        x, y, w, h = box
        key = (w, hint.getModel().Label)        # relayout runs on every resize and draft line
        if getattr(self, "_chat_hint_need", (None, 0))[0] != key:
            self._chat_hint_need = (key, self._words_height("chat_hint", w))
        need = self._chat_hint_need[1]
        hint.setPosSize(x, y, w, max(min(need, h), 1), 15)     # 15: PosSize.POSSIZE
        if (0 < need <= h) != getattr(self, "_hint_fits", None):
            self._hint_fits = 0 < need <= h
            self._hint_shown = None     # its visibility is decided again
            self._show_jump()

    def scrolled(self) -> None:
        """The user moved the conversation's view (wheel, scroll bar)."""
        scroll = self.scroll.read()
        if scroll is not None:
            self.follow.scrolled(scroll)
            self._show_jump()

    def jump_to_end(self) -> None:
        """Show the conversation's end and follow it again (Send does this too)."""
        end = self._lengths["transcript"]
        self._text_peer("transcript").setSelection(selection(end, end))
        self.follow.jumped()
        self.scroll.move()
        self._show_jump()

    def keep_end(self) -> None:
        """After the pane changed size: a view that followed the end still shows it
        (VCL keeps the view's top, so a pane that shrank hid the end)."""
        if self.follow.following:
            self.scroll.move()

    def _trim(self, peer) -> int:
        """Replace the oldest blocks with trimmed_note(); returns the net UTF-16 units removed."""
        text = peer.getText()
        cut = trim_point(text, KEEP_CHARS)
        note = trimmed_note()
        if cut <= len(note):
            return 0          # no line break in the last KEEP_CHARS: keep it all
        cut16 = utf16_len(text[:cut])
        peer.insertText(selection(0, cut16), note)
        return cut16 - utf16_len(note)

    def set_text(self, pane: str, text: str) -> None:
        if len(text) > TRIM_AT:      # a rebuilt panel replaying a long chat
            cut = trim_point(text, KEEP_CHARS)
            if cut > 0:
                text = trimmed_note() + text[cut:]
        self._text_peer(pane).setText(text)
        self._lengths[pane] = utf16_len(text)
        if self.mirrored:
            self._mirror(pane)
        if pane == "transcript":
            self.jump_to_end()
        else:
            self.relayout()

    def _mirror(self, pane: str) -> None:
        self._items[pane] = assistive.mirror(self.controls[MIRRORS[pane]], self._items[pane],
                                             self._text_peer(pane).getText())

    def announce(self, answer: str) -> str:
        """A reply finished: say so where a screen reader hears it (office.assistive);
        the sentence for the status line, or "" (the presenter, ui.status, shows it)."""
        if self.assistive and answer.strip():
            if self.mirrored:
                self._mirror("thinking")
                self._mirror("transcript")
                assistive.show_answer(self.controls[MIRRORS["transcript"]],
                                      self._items["transcript"], answer)
            return spoken.announcement(answer)
        return ""

    def set_rtl(self, pane: str, rtl: bool) -> None:
        """Align a pane (or the message box) right for right-to-left text, else left.

        The alignment is the whole control's: a VCL edit has no per-paragraph one
        (ui.bidi says which text decides). Each letter keeps its own order either way.
        Under a right-to-left interface VCL swaps left and right (office.ui_language).
        """
        from marginalia.office.ui_language import mirrored
        align = ALIGN_RIGHT if rtl != mirrored(self.ctx) else ALIGN_LEFT
        model = self.controls[pane].getModel()
        if model.Align != align:
            model.Align = align

    def pane_text(self, pane: str) -> str:
        """What a pane says, without the soft breaks the view added (a copy's text)."""
        return softwrap.plain(self._text_peer(pane).getText())

    def copy_pane(self, name) -> bool:
        """Ctrl+C in a pane: its selection, soft breaks given back as spaces."""
        if name not in ("transcript", "thinking"):
            return False
        peer = self._text_peer(name)
        selected = peer.getSelectedText()
        if not selected:
            return False
        self.to_clipboard(softwrap.plain(selected).replace("\u200b", ""))
        return True

    def to_clipboard(self, text: str) -> None:
        from marginalia.office.panel_actions import PlainText
        clipboard = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.datatransfer.clipboard.SystemClipboard", self.ctx)
        clipboard.setContents(PlainText(text), None)

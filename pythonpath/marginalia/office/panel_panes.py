"""The panel's two panes (conversation and thinking): text appended at their end.

Owns how text reaches a pane and leaves it: appends that cost what their text
costs, the view following the end, trimming a long chat, the screen-reader
lists mirroring the panes, alignment by direction, and copying without the
view's soft breaks. PanelView mixes it in; all methods run on the VCL main
thread and need the view's ``ctx``, ``controls``, ``_lengths``, ``_items``,
``mirrored``, ``assistive``, ``following``, ``relayout`` and ``set_status``.
"""

import uno

from marginalia.document.docview import utf16_len
from marginalia.office import assistive
from marginalia.office.assistive import MIRRORS
from marginalia.ui import spoken
from marginalia.ui.transcript import SOFT_BREAK, trim_point

ALIGN_LEFT, ALIGN_RIGHT = 0, 2   # an Edit model's Align
# The edit control's work per append still grows with its paragraph count
# (about 1 ms more per update with 200 KB of short lines), so a pane keeps the
# last KEEP_CHARS or so: past TRIM_AT the oldest whole blocks give way to a
# note, in one replace every ~40,000 characters streamed.
TRIM_AT = 120000
KEEP_CHARS = 80000
TRIMMED_NOTE = "(Earlier messages of this chat are no longer shown here.)\n\n"


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

        The view follows the end while the cursor sits there; a user who put
        the cursor or a selection elsewhere (to read or copy) keeps it, and
        the "new reply below" button appears.
        """
        if not text and not retract:
            return
        peer = self._text_peer(pane)
        end = self._lengths[pane]
        start = max(0, end - utf16_len(retract)) if retract else end
        before = peer.getSelection()
        following = min(before.Min, before.Max) >= start
        was_empty = end == 0
        peer.insertText(selection(start, end), text)
        end = start + utf16_len(text)
        self._lengths[pane] = end
        if end > TRIM_AT:
            removed = self._trim(peer)
            end = self._lengths[pane] = end - removed
            before = selection(max(0, before.Min - removed), max(0, before.Max - removed))
        if following:
            peer.setSelection(selection(end, end))
        else:
            peer.setSelection(selection(min(before.Min, end), min(before.Max, end)))
        if self.mirrored and ("\n" in text or retract):
            self._mirror(pane)            # a line is complete (the last one waits for its end)
        if pane == "transcript":
            self._follow(following)
        elif was_empty and end:
            self.relayout()               # the thinking pane appears with its first words

    def _follow(self, following: bool) -> None:
        if following != self.following:
            self.following = following
            self.controls["jump"].setVisible(not following)

    def jump_to_end(self) -> None:
        """Show the conversation's end and follow it again (Send does this too)."""
        end = self._lengths["transcript"]
        self._text_peer("transcript").setSelection(selection(end, end))
        self._follow(True)

    def _trim(self, peer) -> int:
        """Replace the oldest blocks with TRIMMED_NOTE; returns the net UTF-16 units removed."""
        text = peer.getText()
        cut = trim_point(text, KEEP_CHARS)
        if cut <= len(TRIMMED_NOTE):
            return 0          # no line break in the last KEEP_CHARS: keep it all
        cut16 = utf16_len(text[:cut])
        peer.insertText(selection(0, cut16), TRIMMED_NOTE)
        return cut16 - utf16_len(TRIMMED_NOTE)

    def set_text(self, pane: str, text: str) -> None:
        if len(text) > TRIM_AT:      # a rebuilt panel replaying a long chat
            cut = trim_point(text, KEEP_CHARS)
            if cut > 0:
                text = TRIMMED_NOTE + text[cut:]
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

    def announce(self, answer: str) -> None:
        """A reply finished: say so where a screen reader hears it (office.assistive)."""
        if self.assistive and answer.strip():
            if self.mirrored:
                self._mirror("thinking")
                self._mirror("transcript")
                assistive.show_answer(self.controls[MIRRORS["transcript"]],
                                      self._items["transcript"], answer)
            self.set_status(spoken.announcement(answer))

    def set_rtl(self, pane: str, rtl: bool) -> None:
        """Align a pane (or the message box) right for right-to-left text, else left.

        The alignment is the whole control's: a VCL edit has no per-paragraph one
        (ui.bidi says which text decides). Each letter keeps its own order either way.
        """
        align = ALIGN_RIGHT if rtl else ALIGN_LEFT
        model = self.controls[pane].getModel()
        if model.Align != align:
            model.Align = align

    def pane_text(self, pane: str) -> str:
        """What a pane says, without the soft breaks the view added (a copy's text)."""
        return self._text_peer(pane).getText().replace(SOFT_BREAK, " ")

    def copy_pane(self, name) -> bool:
        """Ctrl+C in a pane: its selection, soft breaks given back as spaces."""
        if name not in ("transcript", "thinking"):
            return False
        peer = self._text_peer(name)
        selected = peer.getSelectedText()
        if not selected:
            return False
        self.to_clipboard(selected.replace(SOFT_BREAK, " ").replace("\u200b", ""))
        return True

    def to_clipboard(self, text: str) -> None:
        from marginalia.office.panel_actions import PlainText
        clipboard = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.datatransfer.clipboard.SystemClipboard", self.ctx)
        clipboard.setContents(PlainText(text), None)

"""The Keep out button (in the tray the panel's Editing options button opens) in a real
window: one click marks; once marks exist a menu
lists the kept-out passages, choosing one selects it in the document, and the menu's
first entry then lets Marginalia in there again.

The button is clicked with the mouse (the menu runs a loop of its own), the
menu read through accessibility and worked with the keyboard, as a user would.
Screenshots go to tests/artifacts/.
"""

import os
import re
import subprocess
import time

from tests.support import sse_server as sse
from tests.support.panel_driver import (PanelDriver, pixel, popup, screenshot, set_paragraphs,
                                        wait_for)
from tests.support.writer import select

PARAGRAPH = 41
PARAGRAPHS = ("Intro words here.", "Kept first paragraph.", "Kept second paragraph.",
              "Open middle words.", "Kept alone here.", "The end.")


def _keys(office, *keys):
    subprocess.run(["xdotool", "key", "--delay", "150"] + list(keys),
                   env=dict(os.environ, DISPLAY=office.display), check=True)


def _open_menu(office, panel):
    """Click Keep out; the entries of the menu it opens (separators left out)."""
    panel.click("Keep out")
    menu = wait_for(lambda: popup(office), what="the Keep out menu")
    names = [menu.getAccessibleChild(i).getAccessibleContext().getAccessibleName()
             for i in range(menu.getAccessibleChildCount())]
    return [n for n in names if n]


# LibreOffice 25.2 puts a bookmark's name into the paragraph's accessible text where it
# starts and ends ("#Name Bookmark Start Kept alone here.#Name Bookmark End "); 7.4 does not.
BOOKMARK_SIGN = re.compile(r"#[^\s#]+ Bookmark (?:Start|End) ?")


def _end_of(doc, paragraph):
    """The screen x just after ``paragraph``'s last character, and its line's top and
    bottom (from the document's accessible text)."""
    pending = [doc.getCurrentController().getFrame().getContainerWindow()
               .getAccessibleContext()]
    while pending:
        ctx = pending.pop()
        shown = ctx.getText() if ctx.getAccessibleRole() == PARAGRAPH else None
        if shown is not None and BOOKMARK_SIGN.sub("", shown) == paragraph:
            bounds = ctx.getCharacterBounds(shown.index(paragraph) + len(paragraph) - 1)
            where = ctx.getLocationOnScreen()
            return (where.X + bounds.X + bounds.Width, where.Y + bounds.Y,
                    where.Y + bounds.Y + bounds.Height)
        for i in range(min(ctx.getAccessibleChildCount(), 200)):
            pending.append(ctx.getAccessibleChild(i).getAccessibleContext())
    raise AssertionError("%r is not on screen" % paragraph)


def _bracket_after(office, doc, paragraph, shot):
    """Whether a grey mark (not white, not text black) shows just after ``paragraph``."""
    path = screenshot(office, shot)
    x, top, bottom = _end_of(doc, paragraph)
    for dx in range(0, 5):
        for y in (top + (bottom - top) // 3, (top + bottom) // 2):
            r, g, b = pixel(path, x + dx, y)
            if 120 < r < 245 and abs(r - g) < 16 and abs(g - b) < 16:
                return True
    return False


def _marks(office, doc):
    return [m["text"] for m in office.job("review.keepout", document=doc)["marks"]]


def test_keep_out_lists_the_passages_shows_one_and_lets_marginalia_in_again(
        gui_office, gui_doc, chat_server):
    set_paragraphs(gui_doc, *PARAGRAPHS)
    chat_server.add(sse.text_response("Hello there."))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Hi")
    panel.key("Return")
    panel.wait_transcript("Hello there.")
    panel.wait_idle()
    panel.refresh()
    # A plain answer brings no change card: Keep out waits in the Editing options tray.
    assert "Keep out" not in panel.names()
    panel.edit_options()
    # No mark yet: one click marks the selection, no menu.
    select(gui_doc, "Kept first", "Kept second")
    panel.press("Keep out")
    wait_for(lambda: "keep out of paragraphs 2\u20133" in panel.status(),
             what="the first mark (%s)" % panel.status())
    # Now the button opens the menu; its first entry marks the new selection.
    select(gui_doc, "Kept alone")
    assert _open_menu(gui_office, panel) == [
        "Keep out the selection", "Go to \u00b62\u20133 \u201cKept first paragraph.\u201d"]
    _keys(gui_office, "Down", "Return")
    wait_for(lambda: "keep out of paragraph 5" in panel.status(),
             what="the second mark (%s)" % panel.status())
    assert _marks(gui_office, gui_doc) == ["Kept first paragraph.\nKept second paragraph.",
                                           "Kept alone here."]
    # In the document, Writer shows each kept-out paragraph between faint grey brackets:
    # its own sign of a bookmark, shown with View > Field Shadings, never printed.
    select(gui_doc, "Intro")
    time.sleep(0.5)
    assert _bracket_after(gui_office, gui_doc, "Kept alone here.", "panel_keep_out_doc.png")
    assert _bracket_after(gui_office, gui_doc, "Kept first paragraph.", "panel_keep_out_doc.png")
    assert not _bracket_after(gui_office, gui_doc, "Open middle words.", "panel_keep_out_doc.png")
    helper = gui_office.create("com.sun.star.frame.DispatchHelper")
    frame = gui_doc.getCurrentController().getFrame()
    helper.executeDispatch(frame, ".uno:Marks", "", 0, ())         # Field Shadings off
    try:
        time.sleep(0.5)
        assert not _bracket_after(gui_office, gui_doc, "Kept alone here.",
                                  "panel_keep_out_no_shading.png")
    finally:
        helper.executeDispatch(frame, ".uno:Marks", "", 0, ())
    time.sleep(0.5)
    # Both passages listed, in document order, at the sidebar's default width.
    entries = _open_menu(gui_office, panel)
    assert entries[1:] == ["Go to \u00b62\u20133 \u201cKept first paragraph.\u201d",
                           "Go to \u00b65 \u201cKept alone here.\u201d"]
    time.sleep(0.5)
    screenshot(gui_office, "panel_keep_out_marks.png")
    # The last entry selects that passage in the document.
    _keys(gui_office, "End", "Return")
    wait_for(lambda: gui_doc.CurrentController.getSelection().getByIndex(0).getString()
             == "Kept alone here.", what="the passage selected")
    wait_for(lambda: panel.status().startswith("\u00b65 selected"),
             what="the sentence (%s)" % panel.status())
    screenshot(gui_office, "panel_keep_out_shown.png")
    # Selected, it is "here": the first entry takes its mark away, and only its mark.
    assert _open_menu(gui_office, panel)[0] == "Let Marginalia in here"
    _keys(gui_office, "Down", "Return")
    wait_for(lambda: "removed from paragraph 5" in panel.status(),
             what="the mark removed (%s)" % panel.status())
    assert _marks(gui_office, gui_doc) == ["Kept first paragraph.\nKept second paragraph."]

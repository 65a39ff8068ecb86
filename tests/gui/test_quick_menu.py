"""Quick actions in a real window: the Marginalia submenu on a right-click and the slash list.

The selection is right-clicked where it shows on screen (found through the
document's accessible text), the submenu's entries are read through
accessibility and Shorten is run from there with the panel closed; in the
panel, typing "/" lists the prompts under the message box, Tab completes and
Enter runs the command on the selection. Screenshots go to tests/artifacts/.
"""

import os
import subprocess
import time

from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, has_state, popup, screenshot, wait_for
from tests.support.writer import find, texts

PARAGRAPH = 41
LIST = 31


def _xdotool(office, *args):
    subprocess.run(["xdotool"] + list(args), env=dict(os.environ, DISPLAY=office.display),
                   check=True)


def _write(doc, lines):
    from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK
    text = doc.getText()
    cursor = text.createTextCursor()
    for n, line in enumerate(lines):
        if n:
            text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
        text.insertString(cursor, line, False)
    doc.getUndoManager().clear()


def _walk(ctx, limit=4000):
    pending, seen = [ctx], 0
    while pending and seen < limit:
        ctx = pending.pop()
        seen += 1
        yield ctx
        for i in range(min(ctx.getAccessibleChildCount(), 200)):
            child = ctx.getAccessibleChild(i)
            if child is not None:
                pending.append(child.getAccessibleContext())


def _screen_point(doc, needle):
    """The screen position of the middle of ``needle`` in the document (accessible text)."""
    window = doc.getCurrentController().getFrame().getContainerWindow()
    for ctx in _walk(window.getAccessibleContext()):
        if ctx.getAccessibleRole() != PARAGRAPH:
            continue
        text = ctx.getText()
        at = text.find(needle)
        if at < 0:
            continue
        bounds = ctx.getCharacterBounds(at + len(needle) // 2)
        where = ctx.getLocationOnScreen()
        return where.X + bounds.X + bounds.Width // 2, where.Y + bounds.Y + bounds.Height // 2
    raise AssertionError("%r is not on screen" % needle)


def _children(ctx):
    return [ctx.getAccessibleChild(i).getAccessibleContext()
            for i in range(ctx.getAccessibleChildCount())]


def _right_click_selection(office, doc, needle):
    # Windows of earlier tests may lie over this one (Xvfb has no window manager).
    window = doc.getCurrentController().getFrame().getContainerWindow()
    window.toFront()
    window.setFocus()
    doc.getCurrentController().select(find(doc, needle))
    x, y = _screen_point(doc, needle)
    _xdotool(office, "mousemove", str(x), str(y), "click", "3")
    try:
        menu = wait_for(lambda: popup(office), what="the context menu")
    except AssertionError:
        # Whatever the click opened elsewhere must not stay open (a menu runs a loop of its own).
        _xdotool(office, "key", "Escape")
        screenshot(office, "quick_context_menu_missing.png")
        raise
    # Out of the way, so hovering does not move the highlight the keys move.
    _xdotool(office, "mousemove", "5", "990")
    return menu


def test_right_click_shows_the_submenu_and_runs_shorten_with_the_panel_closed(
        gui_office, gui_doc, chat_server):
    _write(gui_doc, ["Intro.", "Please shorten this long and winding sentence now."])
    frame = gui_doc.getCurrentController().getFrame()
    frame.getContainerWindow().setPosSize(0, 0, 1200, 900, 15)
    gui_doc.getCurrentController().getSidebar().setVisible(False)
    time.sleep(0.5)
    menu = _right_click_selection(gui_office, gui_doc, "long and winding sentence")
    items = _children(menu)
    assert items[0].getAccessibleName() == "Marginalia"
    entries = [c.getAccessibleName() for c in _children(items[0])]
    assert entries[:7] == ["Improve writing", "Fix spelling and grammar", "Shorten", "Expand",
                           "More formal", "More friendly", "Translate to"]
    assert "Ask Marginalia\u2026" in entries
    assert entries[-1] == "Keep Marginalia out"
    # Open the submenu and choose Shorten the way a keyboard user would.
    _xdotool(gui_office, "key", "--delay", "150", "Down", "Right")
    time.sleep(0.5)
    screenshot(gui_office, "quick_context_menu.png")
    chat_server.add(sse.text_response("short sentence", pieces=3))
    _xdotool(gui_office, "key", "--delay", "150", "Down", "Down", "Return")
    wait_for(lambda: texts(gui_doc) == ["Intro.", "Please shorten this short sentence now."],
             timeout=30, what="the shortened sentence")
    sent = chat_server.chat_requests[-1].json["messages"][-1]["content"]
    assert "long and winding sentence" in sent
    undo = gui_doc.getUndoManager()
    assert undo.getCurrentUndoActionTitle() == "Marginalia: Shorten"
    built = gui_office.job("quick.menu", gui_doc)["built_ms"]
    assert built and built[-1] < 1000
    undo.undo()
    assert texts(gui_doc)[1] == "Please shorten this long and winding sentence now."
    # The next menu reuses the submenu built for the first: still all there.
    again = _children(_right_click_selection(gui_office, gui_doc, "winding"))
    assert [c.getAccessibleName() for c in _children(again[0])] == entries
    _xdotool(gui_office, "key", "Escape")


def test_tools_menu_has_marginalia_with_focus_chat_and_the_actions(gui_office, gui_doc):
    window = gui_doc.getCurrentController().getFrame().getContainerWindow()
    tools = None
    for ctx in _walk(window.getAccessibleContext(), limit=400):
        if ctx.getAccessibleName() == "Tools" and ctx.getAccessibleChildCount() > 5:
            tools = ctx
            break
    assert tools is not None, "no Tools menu"
    ours = [c for c in _children(tools) if c.getAccessibleName() == "Marginalia"]
    assert ours, [c.getAccessibleName() for c in _children(tools)]
    names = [c.getAccessibleName() for c in _children(ours[0])]
    # The context submenu's entries, Translate to and Keep out too (issue 24), in its order;
    # "" is a separator (the one after Focus stood last before its node name was fixed).
    assert names == ["Focus Marginalia chat", "", "Improve writing", "Fix spelling and grammar",
                     "Shorten", "Expand", "More formal", "More friendly", "Translate to",
                     "Explain", "Summarize", "Ask\u2026", "", "Keep Marginalia out or let it in"]
    translate = _children(ours[0])[names.index("Translate to")]
    from marginalia.ui import quick_menu as qm
    assert [c.getAccessibleName() for c in _children(translate)] == \
        [name for _code, name in qm.LANGUAGES]


def test_slash_list_completes_and_runs_on_the_selection(gui_office, gui_doc, chat_server):
    _write(gui_doc, ["Intro.", "Make this sentence much shorter please."])
    panel = PanelDriver(gui_office, gui_doc)
    panel.click("Message")
    # Down moves in the list, Tab takes the entry (the focus stays in the box).
    panel.key("slash")
    wait_for(lambda: _slash_list(panel), what="the full slash list")
    panel.key("Down", "Tab")
    wait_for(lambda: panel.read("Message") == "/fix ", what="the second entry completed")
    panel.click("Message")
    panel.key("ctrl+Home", "ctrl+shift+End", "BackSpace")
    panel.key("slash", "s", "h")
    time.sleep(1)
    screenshot(gui_office, "quick_slash_list.png")
    listing = wait_for(lambda: _slash_list(panel), what="the slash list")
    names = [c.getAccessibleName() for c in _children(listing)]
    assert names and names[0].startswith("/shorten"), names
    panel.key("Tab")
    wait_for(lambda: panel.read("Message") == "/shorten ", what="the completed command")
    assert _slash_list(panel) is None

    gui_doc.getCurrentController().select(find(gui_doc, "much shorter please"))
    chat_server.add(sse.text_response("shorter", pieces=2))
    panel.click("Message")
    panel.key("ctrl+End", "Return")
    wait_for(lambda: texts(gui_doc)[1] == "Make this sentence shorter.", timeout=30,
             what="the slash command's edit")
    panel.wait_transcript("Shorten: \u201cmuch shorter please\u201d")
    # "/test" still tests the connection; an unknown "/word" goes to the model as typed.
    chat_server.add(sse.text_response("Paths are fine.", pieces=2))
    panel.type("/usr/bin is a folder")
    panel.key("Return")
    panel.wait_transcript("Paths are fine.")
    assert chat_server.chat_requests[-1].json["messages"][-1]["content"] == \
        "/usr/bin is a folder"


def _slash_list(panel):
    """The slash list's accessible context while it shows, else None."""
    parent = panel.control("Message").getAccessibleParent().getAccessibleContext()
    for ctx in _children(parent):
        if ctx.getAccessibleName() == "Prompts" and ctx.getAccessibleChildCount():
            if has_state(ctx, "SHOWING"):
                return _items(ctx)
    return None


def _items(ctx):
    """A list box's accessible list of items (its child, or itself)."""
    for child in _children(ctx):
        if child.getAccessibleChildCount():
            return child
    return ctx

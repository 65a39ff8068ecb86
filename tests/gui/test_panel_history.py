"""The History menu in a real window: reopening an earlier chat, exporting through the picker.

The menu and the file picker are modal, so they are driven with the mouse
and the keyboard (xdotool), as a user would.
"""

import os
import subprocess
import time

from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, screenshot, wait_for

from marginalia.i18n.catalog import tr
from marginalia.ui import history_menu as hm
from marginalia.ui import status as st


def _window(panel, title):
    """True once a window with ``title`` is on the screen."""
    env = dict(os.environ, DISPLAY=panel.office.display)
    found = subprocess.run(["xdotool", "search", "--name", title], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return bool(found.stdout.strip())


def _two_chats(panel, chat_server):
    chat_server.add(sse.text_response("Answer about apples.", reasoning="Apples first."),
                    sse.text_response("Answer about pears."))
    panel.type("Tell me about apples")
    panel.key("Return")
    panel.wait_transcript("Answer about apples.")
    panel.wait_idle()
    panel.press("New chat")
    panel.type("Tell me about pears")
    panel.key("Return")
    panel.wait_transcript("Answer about pears.")
    panel.wait_idle()


def test_history_reopens_an_earlier_chat_of_the_document(gui_office, gui_doc, chat_server):
    panel = PanelDriver(gui_office, gui_doc)
    _two_chats(panel, chat_server)
    panel.click("History")
    time.sleep(0.5)
    screenshot(gui_office, "panel_history_menu.png")
    panel.key("Down", "Down", "Return")          # the second entry: the earlier chat
    shown = wait_for(lambda: "apples" in panel.transcript() and panel.transcript(),
                     what="the earlier chat in the panel")
    assert "You: Tell me about apples" in shown and "pears" not in shown
    assert "Apples first." in panel.thinking()
    # The chat goes on where it was: the next request carries its first turn.
    chat_server.add(sse.text_response("More on apples."))
    panel.type("And more?")
    panel.key("Return")
    panel.wait_transcript("More on apples.")
    panel.wait_idle()
    sent = chat_server.chat_requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[2]["content"] == "Answer about apples."


def test_export_writes_the_chat_as_markdown_through_the_file_picker(gui_office, gui_doc,
                                                                    chat_server, tmp_path):
    panel = PanelDriver(gui_office, gui_doc)
    _two_chats(panel, chat_server)
    target = str(tmp_path / "exported.md")
    panel.click("History")
    time.sleep(0.5)
    # Two chats, a separator (skipped), "Delete a chat", then "Export chat...".
    panel.key("Down", "Down", "Down", "Down", "Return")
    # No window manager on Xvfb gives the new dialog the keyboard: give it ourselves.
    wait_for(lambda: _window(panel, "Export chat"), what="the file picker")
    panel.focus_window("Export chat")
    time.sleep(0.5)
    screenshot(gui_office, "panel_export_picker.png")
    panel.key("ctrl+a")
    panel._xdotool("type", "--delay", "15", target)
    panel.key("Return")
    wait_for(lambda: os.path.exists(target), what="the exported file")
    wait_for(lambda: panel.status() == tr(hm.EXPORTED) % "exported.md", what="the export sentence")
    with open(target, encoding="utf-8") as handle:
        text = handle.read()
    assert text.startswith("# Chat about ")
    assert "## You\n\nTell me about pears\n\n## Assistant\n\nAnswer about pears.\n" in text
    assert "apples" not in text                 # only the chat the panel shows


def test_deleting_the_shown_chat_ends_an_edit_of_its_last_message(gui_office, gui_doc,
                                                                  chat_server):
    chat_server.add(sse.text_response("Answer about plums."))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Tell me about plums")
    panel.key("Return")
    panel.wait_transcript("Answer about plums.")
    panel.wait_idle()
    panel.press("Edit")
    wait_for(lambda: panel.status() == tr(hm.EDITING), what="the editing status")
    panel.click("History")
    time.sleep(0.5)
    panel.key("Down", "Down", "Right")           # Delete ▸, its only chat: the shown one
    time.sleep(0.5)
    panel.key("Return")
    wait_for(lambda: panel.transcript() == "", what="the deleted chat to leave the panel")
    # The message it would have replaced is gone: the status no longer offers to (the
    # box keeps its text, for a new chat's first message).
    wait_for(lambda: panel.status() == tr(st.READY),
             what="the edit to end (status %r)" % panel.status())
    assert panel.read("Message") == "Tell me about plums"

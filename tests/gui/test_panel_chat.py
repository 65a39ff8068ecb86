"""The chat panel in a real Writer window on Xvfb, talking to a scripted local model server.

Messages are typed on the (xdotool) keyboard into the panel found by its
accessible names; what the panel shows is read back the way a user could copy
it. The server streams thinking, a tool call that really edits the document,
and an answer.
"""

import time

from tests.support import sse_server as sse

from marginalia.ui import first_run
from marginalia.ui.status import CHAT_BACK, NEW_CHAT, STOPPED, WRITING
from marginalia.ui import transcript
from marginalia.ui.transcript import EMPTY_CHAT
from tests.support.panel_driver import PanelDriver, screenshot, wait_for

TOOL_ROUND = sse.tool_calls_response(
    [("call_1", "replace_text", {"search": "colour", "replacement": "color", "all": True})],
    reasoning="The user wants American spelling, so colour becomes color.",
    usage=sse.usage(100, 20))
ANSWER = sse.text_response("Done: both are now spelled color.", pieces=6,
                           reasoning="Both replacements worked; I can confirm.",
                           usage=sse.usage(180, 24))


def test_every_control_has_an_accessible_name(gui_office, gui_doc):
    panel = PanelDriver(gui_office, gui_doc)
    names = set(name for name, _role in panel.controls)
    for name in ("Conversation", "Message", "New chat", "Send", "Marginalia settings",
                 "History", "Whole document"):
        assert name in names
    # The thinking pane and its button appear only once a turn has thought.
    assert "Thinking" not in panel.names() and panel.thinking_toggle() is None
    # No model is set here: the status line is the message box's hint (with a model it
    # says Ready: tests/gui/test_first_run.py).
    assert panel.status() == first_run.NEEDS_MODEL
    # Tooltips are for the icon buttons: over the panes they would cover the text being
    # read, so the panes and the message box are named without one.
    for name in ("Conversation", "Message"):
        assert panel.control(name).getToolTipText() == "", name
    assert panel.control("New chat").getToolTipText() == "New chat"
    # The panel follows the deck: the conversation is as wide as the deck allows.
    deck = panel.control("Conversation").getAccessibleParent().getAccessibleContext()
    assert panel.control("Conversation").getSize().Width >= deck.getSize().Width - 20


def test_a_message_streams_thinking_a_tool_line_and_the_answer(gui_office, gui_doc, chat_server):
    gui_doc.Text.setString("The colour of the colour wheel.")
    chat_server.add(TOOL_ROUND, ANSWER)
    panel = PanelDriver(gui_office, gui_doc)
    # An empty chat says what it is for (issue 39: a blank pane and four greyed buttons).
    assert EMPTY_CHAT in panel.names()

    panel.type("Please use American spelling.")
    panel.key("Return")                         # Enter sends

    shown = panel.wait_transcript("Done: both are now spelled color.")
    panel.wait_idle()
    shown = panel.transcript()
    assert shown.startswith("You: Please use American spelling.\n")
    assert u"  \u25b8 Replaced 2 occurrences of \u201ccolour\u201d" in shown
    assert "Assistant:" in shown
    assert shown.index("Replaced 2") < shown.index("Done: both")
    assert EMPTY_CHAT not in panel.names()      # the chat is no longer empty
    # Thinking is kept out of the answer and shown in its own pane.
    assert "American spelling, so colour" not in shown
    thinking = panel.thinking()
    assert "The user wants American spelling, so colour becomes color." in thinking
    assert "Both replacements worked" in thinking
    # The status line says Ready in plain words; its tooltip has the token counts.
    assert panel.status().startswith("Ready")
    assert "tokens" in panel.status_details()
    # The tool really edited this document, and nothing was typed into it.
    assert gui_doc.Text.getString() == "The color of the color wheel."
    assert panel.read("Message") == ""
    # The request carried the typed message.
    request = chat_server.chat_requests[0].json
    assert request["messages"][-1]["content"].endswith("Please use American spelling.")
    panel.click("Message")                    # leave the cursor where a user would
    screenshot(gui_office, "panel_chat.png")


def test_shift_enter_adds_a_line_and_new_chat_clears(gui_office, gui_doc, chat_server):
    chat_server.add(sse.text_response("Two lines received.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("first line")
    panel.key("shift+Return")
    panel._xdotool("type", "second line")
    assert panel.read("Message") == "first line\nsecond line"
    assert not chat_server.chat_requests     # Shift+Enter did not send

    panel.press("Send")
    panel.wait_transcript("Two lines received.")
    panel.wait_idle()
    assert "You: first line\nsecond line\n" in panel.transcript()

    panel.press("New chat")
    wait_for(lambda: panel.transcript() == "", what="an empty transcript after New chat")
    assert panel.status() == NEW_CHAT
    assert EMPTY_CHAT in panel.names()          # the new chat's hint is back

    # Undo clicked: the chat comes back, the button hides, and the keyboard is back in the
    # message box (ui.status.focus_after), not on the hidden button.
    # (Waiting on the status line: reading the conversation would click into it.)
    panel.click("Undo")
    wait_for(lambda: panel.status() == CHAT_BACK, what="the chat back")
    assert "Undo" not in panel.names()
    panel.key("H", "i")
    assert panel.read("Message") == "Hi"
    assert "Two lines received." in panel.transcript()


def test_stop_mid_stream_keeps_what_arrived_and_frees_the_button(gui_office, gui_doc,
                                                                 chat_server):
    words = ["word%d " % i for i in range(400)]
    slow = sse.stream_response([sse.text_delta(w) for w in words] + [sse.finish()], delay=0.05)
    chat_server.add(slow)
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Write a lot.")
    panel.key("Return")
    wait_for(lambda: panel.send_label() == "Stop", what="Send to turn into Stop")
    panel.wait_transcript("word5 ")
    # The status line words the loop's state (ui.status); the numbers are its tooltip.
    wait_for(lambda: panel.status() == WRITING, what="the loop's state %r in the status" % WRITING)
    assert panel.status_details().startswith("Context: ")
    panel.press("Stop")
    panel.wait_idle(timeout=10)
    shown = panel.transcript()
    assert "word5 " in shown
    assert "word399" not in shown               # the stream was cut short
    assert panel.status().startswith(STOPPED)
    assert shown.rstrip().endswith(transcript.STOPPED_MARK + transcript.STOPPED)
    # Stopped for good: nothing more arrives afterwards.
    time.sleep(1.0)
    assert panel.transcript() == shown


def test_escape_stops_a_running_turn(gui_office, gui_doc, chat_server):
    words = ["tick%d " % i for i in range(400)]
    chat_server.add(sse.stream_response([sse.text_delta(w) for w in words] + [sse.finish()],
                                        delay=0.05))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Count slowly.")
    panel.key("Return")
    panel.wait_transcript("tick3 ")
    panel.click("Message")
    panel.key("Escape")
    panel.wait_idle(timeout=10)
    assert "tick399" not in panel.transcript()


def test_a_rebuilt_panel_shows_the_same_conversation(gui_office, gui_doc, chat_server):
    chat_server.add(sse.text_response("Remember me.", pieces=2, reasoning="A short thought."))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Hello")
    panel.key("Return")
    panel.wait_transcript("Remember me.")
    panel.wait_idle()
    before = panel.transcript()

    # Switch to another deck and back: the sidebar destroys and recreates the panel.
    sidebar = gui_doc.CurrentController.getSidebar()
    sidebar.getDecks().getByName("PropertyDeck").activate(True)
    time.sleep(0.5)
    panel.open_deck()
    panel.refresh()
    assert panel.transcript() == before
    assert "A short thought." in panel.thinking()


def _thinking_shown(panel):
    if "Thinking" not in panel.names():
        return False
    return panel.control_now(("Thinking",)).getSize().Height > 1


def test_hidden_thinking_still_arrives_and_shows_when_toggled(gui_office, gui_doc, chat_server):
    chat_server.add(sse.text_response("Answer in view.", pieces=2,
                                      reasoning="A hidden thought."))
    panel = PanelDriver(gui_office, gui_doc)
    # The Options page turns "show thinking" off; the panel applies it at the next Send.
    gui_office.job("settings.save", show_thinking=False)
    try:
        panel.type("Hello")
        panel.key("Return")
        panel.wait_transcript("Answer in view.")
        panel.wait_idle()
        # The panel hides the pane (its button offers to show it) and keeps thinking out
        # of the conversation.
        assert panel.thinking_toggle().startswith("Thought for ")
        # The button shows "Thought for N s ▸" where it fits, "N s ▸" where it does not
        # (gtk3 at the sidebar's usual width); its name stays whole either way.
        name = panel.thinking_toggle()
        assert panel.control_now((name,)).getText() in (name, name[len("Thought for "):])
        assert not _thinking_shown(panel)
        assert "A hidden thought." not in panel.transcript()
        # The core sent the reasoning anyway: showing the pane shows it, nothing was lost.
        panel.open_thinking()
        wait_for(lambda: _thinking_shown(panel), what="the thinking pane to show")
        assert "A hidden thought." in panel.thinking()
    finally:
        gui_office.job("settings.save", show_thinking=True)

"""The panel as a modern chat, in a real window (issue 13): formatted answers, text at once,
scrolling, states (stop, error and Retry, queued message, New chat's Undo), copy, themes.

Screenshots land in tests/artifacts/ (panel_formatted.png, panel_states.png,
panel_dark_rtl.png); look at them after a change to the panel's look.
"""

import os
import re
import time

from tests.support import sse_server as sse
from tests.support.panel_driver import (PanelDriver, clipboard_text, has_state, pixel,
                                        screen_share, screenshot, wait_for)

from marginalia.office.panel_view import JUMP_LABEL, PLACEHOLDER
from marginalia.ui.panel_layout import LINE
from marginalia.ui import status as st
from marginalia.ui import transcript as tr
from marginalia.ui.answer_format import BULLET, CELL, CODE

FORMATTED = ("## Costs\n\nCosts rose **12%** this spring:\n\n- Rent went up\n- Power too\n\n"
             "| Item | Cost |\n|------|-----:|\n| Rent | 1,200 |\n| Power | 300 |\n\n"
             "```python\ntotal = rent + power\n```\n\nThat is *all*.")


def _ask(panel, text, until):
    panel.type(text)
    panel.key("Return")
    panel.wait_transcript(until)
    panel.wait_idle()


SHOWN_AT = r"answer text on screen at ([\d.]+)"


def _log_times(office, pattern):
    path = os.path.join(office.profile_dir, "user", "marginalia", "marginalia.log")
    with open(path, encoding="utf-8") as handle:
        return [float(m.group(1)) for m in re.finditer(pattern, handle.read())]


def test_a_formatted_answer_shows_headings_lists_tables_and_code(gui_office, gui_doc,
                                                                 chat_server):
    chat_server.add(sse.text_response(FORMATTED, pieces=9))
    panel = PanelDriver(gui_office, gui_doc, width=1300)
    _ask(panel, "How did costs change?", "That is all.")
    shown = panel.transcript()
    assert "Costs\n\u2500\u2500\u2500\u2500\u2500\n" in shown
    assert "Costs rose 12% this spring:" in shown
    assert "  " + BULLET + "Rent went up\n  " + BULLET + "Power too" in shown
    assert "Item %s Cost\n" % CELL in shown and "Power %s 300" % CELL in shown
    assert CODE + "total = rent + power" in shown
    for raw in ("**", "## ", "```", "|---", "*all*"):
        assert raw not in shown
    # Copy gives the answer as text without markdown's marks (and as HTML: test_panel_answers).
    from marginalia.ui.answer_copy import to_plain
    panel.press("Copy")
    wait_for(lambda: clipboard_text(gui_office) == to_plain(FORMATTED),
             what="the answer on the clipboard")
    for raw in ("**", "## ", "```", "|---"):
        assert raw not in clipboard_text(gui_office)
    panel.click("Message")
    screenshot(gui_office, "panel_formatted.png")


def _focused(panel):
    panel_ctx = panel.control("Conversation").getAccessibleParent().getAccessibleContext()
    for i in range(panel_ctx.getAccessibleChildCount()):
        ctx = panel_ctx.getAccessibleChild(i).getAccessibleContext()
        if has_state(ctx, "FOCUSED"):
            return ctx.getAccessibleName()
    return None


def test_tab_goes_top_to_bottom_and_the_message_box_grows(gui_office, gui_doc, chat_server):
    chat_server.add(sse.text_response("An answer to act on.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Hi", "act on.")
    panel.click("Message")
    order = ["Message"]
    for _ in range(20):          # the sidebar's own buttons between differ by version
        panel.key("Tab")
        time.sleep(0.2)
        order.append(_focused(panel))
        if order[-1] == "Message":
            break
    # Inside the panel, top to bottom; after Send, Tab passes the sidebar's own buttons
    # (None here) and comes back in at the top.
    inside = [name for name in order if name is not None]
    # A plain answer shows no change card (issue 24, content first): the apply mode,
    # Restore and Keep out wait in the tray Editing options opens.
    assert inside == ["Message", "Send", "Editing options",
                      "Sources", "History", "New chat", "Marginalia settings",
                      "Conversation", "Copy", "Insert", "Retry", "Edit", "Message"]
    assert order[1] == "Send"
    # The box grows from 2 lines as the draft does, up to 8, and the hint goes while typing.
    panel.click("Message")
    start = panel.control("Message").getSize().Height
    assert PLACEHOLDER in panel.names()
    panel._xdotool("type", "one")
    for word in ("two", "three", "four", "five"):
        panel.key("shift+Return")
        panel._xdotool("type", word)
    wait_for(lambda: panel.control("Message").getSize().Height > start + 2 * LINE,
             what="the message box to grow")
    assert PLACEHOLDER not in panel.names()


def test_first_words_show_at_once_and_a_copy_has_no_soft_breaks(gui_office, gui_doc,
                                                               chat_server):
    # A slow local model: a first word, then a long paragraph (soft-wrapped in the pane).
    paragraph = " ".join("Sentence number %d is here." % i for i in range(60))
    response = sse.stream_response([_data("Hello"), _data(" there. "), _data(paragraph),
                                    sse.finish()])
    response["body"][1] = {"data": response["body"][1], "delay": 1.5}   # then a long pause
    chat_server.add(response)
    panel = PanelDriver(gui_office, gui_doc)
    earlier = len(_log_times(gui_office, SHOWN_AT))
    panel.type("Say hello slowly.")
    panel.key("Return")
    seen = wait_for(lambda: _log_times(gui_office, SHOWN_AT)[earlier:],
                    what="the first words on screen")
    arrived = chat_server.chat_requests[-1].at
    # The R1 hold-back kept ~256 characters off the screen; now the first word shows at once.
    assert seen[-1] - arrived < 0.3, seen[-1] - arrived
    panel.wait_transcript("Sentence number 59 is here.")
    panel.wait_idle()
    # Ctrl+C of the whole pane gives the answer's paragraph without the pane's soft breaks.
    shown = panel.transcript()
    assert ("Hello there. " + paragraph) in shown
    assert "\u200b" not in shown


def _data(text):
    return sse.text_delta(text)


def test_scrolled_up_a_new_reply_is_offered_and_send_jumps_to_the_end(gui_office, gui_doc,
                                                                       chat_server):
    lines = "\n".join("Line %d of a long answer." % i for i in range(80))
    chat_server.add(sse.text_response(lines, pieces=4))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Write 80 lines.", "Line 79 of")
    slow = [_data("word%d " % i) for i in range(60)]
    chat_server.add(sse.stream_response(slow + [sse.finish()], delay=0.1))
    panel.type("And more.")
    panel.key("Return")
    wait_for(lambda: panel.send_label() == "Stop", what="the turn to start")
    panel.click("Conversation")             # the user puts the cursor up in the text to read
    panel.key("ctrl+Home")
    wait_for(lambda: JUMP_LABEL in panel.names(), what="the new-reply-below button")
    screenshot(gui_office, "panel_scrolled_up.png")
    panel.press(JUMP_LABEL)
    wait_for(lambda: JUMP_LABEL not in panel.names(), what="the button to go once at the end")
    panel.wait_idle()
    # Scrolled up again, Send brings the view to the end and follows the new reply.
    panel.click("Conversation")
    panel.key("ctrl+Home")
    chat_server.add(sse.stream_response([_data("tail%d " % i) for i in range(20)]
                                        + [sse.finish()], delay=0.1))
    panel.type("Last one.")
    panel.key("Return")
    wait_for(lambda: panel.send_label() == "Stop", what="the last turn to start")
    panel.wait_idle()
    assert JUMP_LABEL not in panel.names()      # it followed the reply to its end
    assert "tail19" in panel.transcript()


def test_states_error_retry_up_arrow_queue_stop_and_undo(gui_office, gui_doc, chat_server):
    chat_server.add(sse.error_response(400, "The model is still loading"),
                    sse.text_response("Second try worked.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Summarise the plan.")
    panel.key("Return")
    panel.wait_transcript("\u26a0 ")
    panel.wait_idle()
    # Up arrow in the empty box gives the last message back.
    panel.click("Message")
    panel.key("Up")
    wait_for(lambda: panel.read("Message") == "Summarise the plan.", what="the recalled message")
    panel.key("ctrl+a", "BackSpace")
    # Retry sends it again.
    panel.press("Retry")
    panel.wait_transcript("Second try worked.")
    panel.wait_idle()
    assert chat_server.chat_requests[-1].json["messages"][-1]["content"].endswith(
        "Summarise the plan.")

    # Enter while a turn runs queues the message; it goes when the answer ends.
    chat_server.add(sse.stream_response([_data("slow%d " % i) for i in range(80)]
                                        + [sse.finish()], delay=0.1),
                    sse.text_response("Queued one answered.", pieces=2))
    panel.type("First of two.")
    panel.key("Return")
    wait_for(lambda: panel.send_label() == "Stop", what="the turn to start")
    panel.type("Second of two.")
    panel.key("Return")
    wait_for(lambda: st.queued_line("Second of two.") in panel.status(),
             what="the queued status (it says %r)" % panel.status())
    assert panel.read("Message") == ""
    panel.wait_transcript("Queued one answered.", timeout=60)
    panel.wait_idle()
    assert chat_server.chat_requests[-1].json["messages"][-1]["content"].endswith(
        "Second of two.")

    # Stop leaves a mark in the conversation.
    chat_server.add(sse.stream_response([_data("tick%d " % i) for i in range(200)]
                                        + [sse.finish()], delay=0.05))
    panel.type("Count.")
    panel.key("Return")
    panel.wait_transcript("tick3 ")
    panel.press("Stop")
    panel.wait_idle(timeout=10)
    assert panel.transcript().rstrip().endswith(tr.STOPPED_MARK + tr.STOPPED)
    screenshot(gui_office, "panel_states.png")

    # New chat offers Undo for a few seconds.
    before = panel.transcript()
    panel.press("New chat")
    wait_for(lambda: panel.transcript() == "", what="an empty conversation")
    assert panel.status() == st.NEW_CHAT
    panel.press("Undo")
    wait_for(lambda: panel.transcript() == before, what="the chat back after Undo")
    assert "Undo" not in panel.names()


RTL = "\u0645\u0631\u062d\u0628\u0627."                     # "Hello." in Arabic
RTL_QUESTION = "\u0628\u0627\u0644\u0639\u0631\u0628\u064a\u0629\u061f"   # "In Arabic?"


def test_an_rtl_answer_reads_right_to_left_in_the_theme_colours(gui_office, gui_doc,
                                                                chat_server):
    chat_server.add(sse.text_response(RTL + "\n\n- " + RTL, pieces=3,
                                      reasoning="Short thought."))
    panel = PanelDriver(gui_office, gui_doc)
    panel.paste(RTL_QUESTION)
    panel.key("Return")
    panel.wait_transcript(RTL)
    panel.wait_idle()
    assert RTL in panel.transcript()
    panel.open_thinking()
    panel.click("Message")
    time.sleep(0.5)
    shot = screenshot(gui_office, "panel_rtl.png")
    # Right-to-left lines sit at the right edge: with every line shorter than the pane,
    # the conversation's left quarter stays empty, while the thinking (English) starts
    # at the left.
    assert _ink(shot, panel.control("Conversation"), 0.0, 0.25) == 0.0
    assert _ink(shot, panel.control("Conversation"), 0.5, 0.85) > 0.005
    assert _ink(shot, panel.control("Thinking"), 0.0, 0.25) > 0.005
    # A draft follows its own first letter, as the user types it.
    panel.paste(RTL)
    typed = screenshot(gui_office, "panel_rtl_draft.png")
    assert _ink(typed, panel.control("Message"), 0.0, 0.25) == 0.0
    assert _ink(typed, panel.control("Message"), 0.5, 0.95) > 0.005
    # The conversation's background is the theme's field colour (white under gen), and
    # the thinking pane a faint tint of it: the panes no longer hard-code lavender.
    ctx = panel.control("Thinking")
    where, size = ctx.getLocationOnScreen(), ctx.getSize()
    rgb = pixel(shot, where.X + size.Width - 30, where.Y + size.Height - 10)
    assert min(rgb) > 200 and max(rgb) - min(rgb) < 12, rgb


def test_an_answer_in_another_script_leaves_the_conversation_where_the_user_writes(
        gui_office, gui_doc, chat_server):
    """Asked in English, an Arabic answer no longer turns the whole pane to the right
    (the earlier English lines with it): the pane runs the way the user writes."""
    chat_server.add(sse.text_response(RTL, pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("In Arabic?")
    panel.key("Return")
    panel.wait_transcript(RTL)
    panel.wait_idle()
    panel.click("Message")          # reading the pane selected it: the ink is the text's
    time.sleep(0.5)
    shot = screenshot(gui_office, "panel_rtl_answer_ltr_chat.png")
    assert _ink(shot, panel.control("Conversation"), 0.0, 0.25) > 0.005
    assert _ink(shot, panel.control("Conversation"), 0.75, 1.0) == 0.0


def _ink(path, ctx, left, right):
    """The share of dark pixels in a band of a pane (fractions of its width, the
    scroll bar and border left out)."""
    where, size = ctx.getLocationOnScreen(), ctx.getSize()
    inner = size.Width - 24
    band = (where.X + 3 + int(inner * left), where.Y + 3,
            max(1, int(inner * (right - left))), size.Height - 6)
    return screen_share(path, band, "-colorspace", "Gray", "-threshold", "60%", "-negate")

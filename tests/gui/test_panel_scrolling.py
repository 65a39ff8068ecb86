"""Scrolling and transient states in a real window (issue 24, item 5): the user's scroll wins
while an answer streams, "new reply below" stays until used or the end is reached, a
reopened chat opens at its end, and New chat's Undo ends with the sentence offering it.

The view is watched through the conversation's scroll bar (PanelDriver.view): reading the
pane's text selects all of it, which would move the very view under test.
"""

import time

from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, wait_for

from marginalia.office.panel_view import JUMP_LABEL
from marginalia.ui import status as st

LONG = "\n".join("Line %d of a long answer." % i for i in range(80))


def _ask(panel, text, until):
    panel.type(text)
    panel.key("Return")
    panel.wait_transcript(until)
    panel.wait_idle()


def _slow_lines(count, delay=0.08):
    return sse.stream_response([sse.text_delta("More line %d.\n\n" % i) for i in range(count)]
                               + [sse.finish()], delay=delay)


def _grows(panel, by=150):
    """Wait until the conversation's text is ``by`` pixels taller than now (text arrived)."""
    height = panel.view()[1]
    wait_for(lambda: panel.view()[1] > height + by, what="more of the answer to arrive")


def _settled_top(panel, quiet=0.6):
    """The view's top once it has stopped moving: the office takes a wheel's notches one by
    one after xdotool has sent them all, so the first notch's view is not yet the last."""
    last, since = panel.view()[0], time.time()
    deadline = since + 10
    while time.time() < deadline:
        time.sleep(0.1)
        top = panel.view()[0]
        if top != last:
            last, since = top, time.time()
        elif time.time() - since >= quiet:
            return top
    raise AssertionError("the view kept moving for 10 s (top %d)" % last)


def _jump_shown(panel):
    return JUMP_LABEL in panel.names()


def test_the_wheel_and_the_scroll_bar_win_while_an_answer_streams(gui_office, gui_doc,
                                                                  chat_server):
    panel = PanelDriver(gui_office, gui_doc)
    chat_server.add(sse.text_response(LONG, pieces=4), _slow_lines(200))
    _ask(panel, "Write 80 lines.", "Line 79 of")
    panel.type("And more.")
    panel.key("Return")
    wait_for(lambda: panel.send_label() == "Stop", what="the turn to start")
    _grows(panel)
    assert panel.at_end()                       # followed so far
    assert not _jump_shown(panel)

    # A few notches up: the view stays where the wheel put it while lines keep arriving.
    panel.wheel(3)
    wait_for(lambda: not panel.at_end(), what="the wheel to move the view up")
    top = _settled_top(panel)
    _grows(panel)
    assert panel.view()[0] == top
    assert _jump_shown(panel)

    # Back down to the end: following resumes and the offer goes.
    panel.wheel(-200)
    wait_for(lambda: not _jump_shown(panel), what="the offer to go at the end")
    _grows(panel)
    assert panel.at_end()

    # A click on the scroll bar's track above its thumb pages up; that view stays too.
    bar = panel.scroll_bar()
    where, size = bar.getLocationOnScreen(), bar.getSize()
    panel._xdotool("mousemove", str(where.X + size.Width // 2), str(where.Y + size.Height // 4),
                   "click", "1")
    wait_for(lambda: not panel.at_end(), what="the scroll bar to move the view up")
    top = _settled_top(panel)
    _grows(panel)
    assert panel.view()[0] == top
    assert _jump_shown(panel)

    # The answer ends (its last lines redrawn): the offer and the view stay as they were.
    panel.wait_idle(timeout=60)
    assert panel.view()[0] == top
    time.sleep(2)                  # the offer used to vanish on its own after 5-9 s
    assert _jump_shown(panel)
    assert panel.view()[0] == top

    # Scrolling to the end with no new text takes the offer away too.
    panel.wheel(-200)
    wait_for(lambda: not _jump_shown(panel), what="the offer to go at the end")
    assert panel.at_end()


def test_a_reopened_chat_opens_at_its_end(gui_office, gui_doc, chat_server):
    panel = PanelDriver(gui_office, gui_doc)
    chat_server.add(sse.text_response(LONG, pieces=4, reasoning="Lines first."),
                    sse.text_response("Answer about pears."))
    _ask(panel, "Write 80 lines.", "Line 79 of")
    panel.open_thinking()                       # the user reads the thinking: it stays open
    panel.press("New chat")
    _ask(panel, "Tell me about pears", "Answer about pears.")
    short = panel.view()[1]
    panel.click("History")
    time.sleep(0.5)
    panel.key("Down", "Down", "Return")         # the second entry: the earlier chat
    wait_for(lambda: panel.view()[1] > short + 500, what="the long chat back in the panel")
    # The thinking pane takes its share as the chat comes back; the end stays in view.
    wait_for(panel.at_end, timeout=5, what="the reopened chat at its end (view %r)"
             % (panel.view(),))
    assert not _jump_shown(panel)


def test_new_chats_undo_and_its_sentence_end_together(gui_office, gui_doc, chat_server):
    panel = PanelDriver(gui_office, gui_doc)
    chat_server.add(sse.text_response("A short answer."))
    _ask(panel, "Hello", "A short answer.")
    panel.press("New chat")
    wait_for(lambda: "Undo" in panel.names(), what="New chat's Undo")
    started = time.time()
    seen = []
    while time.time() - started < 15:
        # The button is looked at before and after the status line: the offer may end
        # between two calls, and only a look where the button stayed the same counts.
        before, status, after = "Undo" in panel.names(), panel.status(), "Undo" in panel.names()
        if before == after:
            seen.append((after, status == st.NEW_CHAT))
        if not before and not after and status != st.NEW_CHAT:
            break
        time.sleep(0.1)
    # Every look saw both or neither: the button never outlived its sentence, nor the reverse.
    assert all(undo == sentence for undo, sentence in seen), seen[-5:]
    assert seen[0] == (True, True) and seen[-1] == (False, False)
    assert time.time() - started > 5            # it was offered for its few seconds
    assert panel.status() == st.READY

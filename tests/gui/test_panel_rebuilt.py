"""A panel the sidebar takes down and makes again (the sidebar closed and opened) keeps
what the user left in it: the unsent text, a queued message, an Edit in progress."""

from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, wait_for

from marginalia.ui import status as st
from marginalia.ui.history_menu import EDITING


def _slow(word):
    """An answer long enough (40 s) to type, queue and close the sidebar during it."""
    return sse.stream_response([sse.text_delta("%s%d " % (word, i)) for i in range(400)]
                               + [sse.finish()], delay=0.1)


def _queue_during_a_turn(panel, first, second):
    panel.type(first)
    panel.key("Return")
    wait_for(lambda: panel.send_label() == "Stop", what="the turn to start")
    panel.type(second)
    panel.key("Return")
    wait_for(lambda: st.queued_line(second) in panel.status(), what="the queued status")


def test_a_queued_message_and_the_unsent_text_survive_the_panel_being_made_again(
        gui_office, gui_doc, chat_server):
    chat_server.add(_slow("slow"), sse.text_response("The queued one is answered.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    _queue_during_a_turn(panel, "Write three lines.", "Then shorten them.")
    panel.type("half a thought")
    panel.rebuild()
    assert panel.read("Message") == "half a thought"
    assert st.queued_line("Then shorten them.") in panel.status(), panel.status()
    # Stopped, the answer gives the queued message back to the box, before the draft
    # typed since (the new panel holds both).
    panel.press("Stop")
    panel.wait_idle()
    assert panel.read("Message") == "Then shorten them.\n\nhalf a thought"
    assert panel.status() == st.QUEUE_KEPT


def test_a_turn_that_ends_while_the_sidebar_is_closed_sends_the_queued_message(
        gui_office, gui_doc, chat_server):
    chat_server.add(sse.stream_response([sse.text_delta("tick%d " % i) for i in range(60)]
                                        + [sse.finish()], delay=0.1),
                    sse.text_response("The queued one is answered.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    _queue_during_a_turn(panel, "Count.", "Then stop counting.")

    def turn_ends():
        wait_for(lambda: not gui_office.job("chat.poll", document=gui_doc)["busy"],
                 timeout=60, what="the turn to end with no panel showing")
    panel.rebuild(while_closed=turn_ends)
    panel.wait_transcript("The queued one is answered.", timeout=60)
    panel.wait_idle()
    assert chat_server.chat_requests[-1].json["messages"][-1]["content"].endswith(
        "Then stop counting.")
    assert panel.read("Message") == ""


def test_an_edit_in_progress_survives_the_panel_being_made_again(gui_office, gui_doc,
                                                                 chat_server):
    chat_server.add(sse.text_response("Three lines."), sse.text_response("Two lines."))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Write three lines.")
    panel.key("Return")
    panel.wait_transcript("Three lines.")
    panel.wait_idle()
    panel.press("Edit")
    wait_for(lambda: panel.read("Message") == "Write three lines.", what="the edited message")
    wait_for(lambda: panel.status() == EDITING, what="the editing status")
    panel.rebuild()
    assert panel.read("Message") == "Write three lines."
    assert panel.status() == EDITING, panel.status()
    # The new panel follows the box (an emptied box offers nothing) and Send replaces
    # the last turn.
    panel.click("Message")
    panel.key("ctrl+a", "BackSpace")
    wait_for(lambda: panel.status() != EDITING, what="the idle status over an empty box")
    panel.type("Write two lines.")
    wait_for(lambda: panel.status() == EDITING, what="the editing status again")
    panel.key("Return")
    panel.wait_transcript("Two lines.")
    panel.wait_idle()
    sent = chat_server.chat_requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user"]
    assert sent[-1]["content"].endswith("Write two lines.")
    assert "Three lines." not in panel.transcript()

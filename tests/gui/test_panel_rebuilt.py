"""A panel the sidebar takes down and makes again (another deck chosen and this one again)
keeps what the user left in it: the unsent text, a queued message, an Edit in progress."""

from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, wait_for

from marginalia.ui import status as st
from marginalia.ui.history_menu import EDITING


def test_a_queued_message_and_the_unsent_text_survive_the_panel_being_made_again(
        gui_office, gui_doc, chat_server):
    chat_server.add(sse.stream_response([sse.text_delta("slow%d " % i) for i in range(100)]
                                        + [sse.finish()], delay=0.1),
                    sse.text_response("The queued one is answered.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Write three lines.")
    panel.key("Return")
    wait_for(lambda: panel.send_label() == "Stop", what="the turn to start")
    panel.type("Then shorten them.")
    panel.key("Return")
    wait_for(lambda: st.QUEUED_MARK in panel.status(), what="the queued status")
    panel.type("half a thought")
    panel.rebuild()
    assert panel.read("Message") == "half a thought"
    assert st.QUEUED_MARK in panel.status(), panel.status()
    # The queued message goes when the answer ends, from the new panel.
    panel.wait_transcript("The queued one is answered.", timeout=60)
    panel.wait_idle()
    assert chat_server.chat_requests[-1].json["messages"][-1]["content"].endswith(
        "Then shorten them.")
    assert panel.read("Message") == "half a thought"

    # Edit in progress: the message is back in the box, and the next Send replaces its turn.
    panel.key("ctrl+a", "BackSpace")
    panel.press("Edit")
    wait_for(lambda: panel.read("Message") == "Then shorten them.", what="the edited message")
    wait_for(lambda: panel.status() == EDITING, what="the editing status")
    panel.rebuild()
    assert panel.read("Message") == "Then shorten them."
    assert panel.status() == EDITING, gui_office.output_tail(40)

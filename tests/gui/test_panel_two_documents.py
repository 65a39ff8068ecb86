"""Two Writer windows chatting at the same time: each panel shows only its own conversation."""

from tests.support import sse_server as sse

from tests.support.panel_driver import PanelDriver, wait_for


def _slow_answer(word):
    words = ["%s%d " % (word, i) for i in range(60)]
    return sse.stream_response([sse.text_delta(w) for w in words] + [sse.finish()], delay=0.05)


def test_two_documents_chat_at_once_without_crossing(gui_office, chat_server):
    doc_a = gui_office.new_writer()
    doc_b = gui_office.new_writer()
    try:
        chat_server.add(_slow_answer("alpha"), _slow_answer("bravo"))
        panel_a = PanelDriver(gui_office, doc_a, x=0, width=800)
        panel_b = PanelDriver(gui_office, doc_b, x=800, width=800)

        panel_a.type("Question from A")
        panel_a.key("Return")
        panel_b.type("Question from B")
        panel_b.key("Return")
        # Both turns run at the same time.
        wait_for(lambda: panel_a.send_label() == "Stop" and panel_b.send_label() == "Stop",
                 what="both panels to be answering at once")

        panel_a.wait_idle(timeout=30)
        panel_b.wait_idle(timeout=30)
        # The server answered requests in arrival order: find which answer went to whom.
        served = {}
        for request, word in zip(chat_server.chat_requests, ("alpha", "bravo")):
            served[request.json["messages"][-1]["content"]] = word
        word_a = [w for q, w in served.items() if q.endswith("Question from A")][0]
        word_b = [w for q, w in served.items() if q.endswith("Question from B")][0]
        assert word_a != word_b

        shown_a, shown_b = panel_a.transcript(), panel_b.transcript()
        assert "You: Question from A" in shown_a and "Question from B" not in shown_a
        assert "You: Question from B" in shown_b and "Question from A" not in shown_b
        assert "%s59" % word_a in shown_a and word_b not in shown_a
        assert "%s59" % word_b in shown_b and word_a not in shown_b
        # Neither document received any of it.
        assert doc_a.Text.getString() == "" and doc_b.Text.getString() == ""
    finally:
        gui_office.close(doc_a)
        gui_office.close(doc_b)

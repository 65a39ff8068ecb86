"""A long conversation in the real panel: the pane keeps its latest part, long paragraphs
are shown as lines but copied whole, and the panel goes on answering (the cost per update
is bounded)."""

from tests.support import sse_server as sse

from tests.support.panel_driver import PanelDriver, screenshot

PARAGRAPH = " ".join("Sentence %d of a very long paragraph." % i for i in range(60))


def test_a_long_answer_is_trimmed_at_the_top_and_wrapped_into_lines(gui_office, gui_doc,
                                                                     chat_server):
    pieces = [sse.text_delta(PARAGRAPH + "\n\n") for _ in range(80)]     # ~180 KB
    pieces.append(sse.text_delta("THE END."))
    chat_server.add(sse.stream_response(pieces + [sse.finish()]),
                    sse.text_response("Short again.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Write a book.")
    panel.key("Return")
    panel.wait_transcript("THE END.", timeout=60)
    panel.wait_idle()
    shown = panel.transcript()
    # The oldest part gave way to a note; the end of the answer is all there.
    assert shown.startswith("(Earlier messages of this chat are no longer shown here.)\n\n")
    assert "You: Write a book." not in shown
    assert shown.rstrip().endswith("Sentence 59 of a very long paragraph.\n\nTHE END.")
    assert 60000 < len(shown) <= 120000
    # A 2 KB paragraph is shown as lines broken after sentences (tests/core), yet a copy
    # of the pane gives it back whole: the soft breaks are not text the model sent.
    last = shown.rsplit("\n\n", 2)[-2]
    assert last == PARAGRAPH

    panel.type("Thanks")
    panel.key("Return")
    shown = panel.wait_transcript("Short again.")
    assert "You: Thanks\n\nAssistant:\nShort again." in shown
    panel.wait_idle()
    panel.click("Message")
    screenshot(gui_office, "panel_long_chat.png")

"""The rewrite protocol in the panel, in a real window: the model writes the new lines in
an edit block amid its answer; the block never shows, the edit lands, the card shows it.

A scripted local server streams the answer in small pieces (the block cut across
them); what the server was sent is checked too: the document in the user's message,
not in the system message, and no tool schemas for a document shown whole.
"""

from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, screenshot, set_paragraphs, wait_for


ANSWER = ("I fixed the two words.\n```edit\n2: We will receive the guests at noon.\n"
          "3: The museum is definitely worth a visit.\n```\n")


def test_an_edit_block_is_made_never_shown_and_the_turn_ends_with_it(gui_office, gui_doc,
                                                                     chat_server):
    gui_office.job("settings.save", edit_protocol="rewrite")
    set_paragraphs(gui_doc, "Visit", "We will recieve the guests at noon.",
                   "The museum is definately worth a visit.")
    chat_server.add(sse.text_response(ANSWER, pieces=9),
                    sse.text_response("Two paragraphs changed.", pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Fix the spelling")
    panel.key("Return")
    panel.wait_transcript("I fixed the two words.")
    panel.wait_idle()
    shown = panel.transcript()
    # The block is the edit, not the answer: none of its markup or lines are shown.
    assert "```" not in shown and "2: We will" not in shown, shown
    text = gui_doc.Text.getString()
    assert "We will receive the guests at noon." in text
    assert "definitely worth" in text and "recieve" not in text
    wait_for(lambda: panel.refresh() or [name for (name, _role), _ctx in panel.controls.items()
                                         if name.startswith("2 changes")],
             what="the change card's headline")
    screenshot(gui_office, "panel_rewrite_edit.png")
    # One request: the edit ended the turn. The document went with the user's message.
    first = chat_server.chat_requests[0].json
    assert len(chat_server.chat_requests) == 1
    system, user = first["messages"][0]["content"], first["messages"][-1]["content"]
    assert "recieve" not in system and "2: We will recieve the guests at noon." in user
    assert "tools" not in first
    # The next message brings the edited document, once; one Undo takes the edit back.
    panel.type("Thanks")
    panel.key("Return")
    panel.wait_transcript("Two paragraphs changed.")
    panel.wait_idle()
    second = chat_server.chat_requests[1].json["messages"]
    assert second[0] == first["messages"][0]
    assert "2: We will receive the guests at noon." in second[-1]["content"]
    assert second[2]["content"] == ANSWER.strip().replace("words.\n```", "words.\n\n```")
    gui_doc.UndoManager.undo()
    wait_for(lambda: "recieve" in gui_doc.Text.getString(), what="the Undo")

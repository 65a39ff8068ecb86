"""The row under the conversation, in a real window: Copy, Insert, Retry, Edit.

A scripted local server answers; the buttons are pressed through
accessibility like a screen reader would, and the document, its undo stack,
the clipboard and what the server was sent are checked afterwards.
"""

import time

from tests.support import sse_server as sse
from tests.support.office import paragraphs
from tests.support.panel_driver import (PanelDriver, clipboard_text, has_state, screenshot,
                                        wait_for)

from marginalia.ui import history_menu as hm
from marginalia.ui import status, transcript

PLAN = "## Plan\n\n- First step\n- Second step\n\nA **bold** close."


def _ask(panel, text, until):
    """Send ``text`` and wait for the answer containing ``until`` to finish."""
    panel.type(text)
    panel.key("Return")
    panel.wait_transcript(until)
    panel.wait_idle()


def test_insert_puts_the_answer_at_the_cursor_as_structure_in_one_undo_step(
        gui_office, gui_doc, chat_server):
    gui_doc.Text.setString("Intro paragraph.")
    chat_server.add(sse.text_response(PLAN, pieces=5))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Draft a plan", "bold")

    panel.press("Copy")
    wait_for(lambda: panel.status() == hm.COPIED, what="the Copy sentence")
    # Issue 24: Copy put the raw markdown there. Now a rich flavour and plain text without
    # markdown's marks, read back from the clipboard.
    assert _flavours(gui_office)[:2] == ["text/html", "text/plain;charset=utf-16"]
    assert clipboard_text(gui_office) == "Plan\n\n\u2022 First step\n\u2022 Second step\n\n" \
        "A bold close."
    _pasted_formatted(gui_office)

    gui_doc.CurrentController.getViewCursor().gotoEnd(False)
    panel.press("Insert")
    wait_for(lambda: panel.status() == hm.INSERTED, what="the Insert sentence")
    paras = paragraphs(gui_doc)
    assert [p.getString() for p in paras] == ["Intro paragraph.", "Plan", "First step",
                                              "Second step", "A bold close."]
    assert paras[1].ParaStyleName == "Heading 2"
    assert paras[2].NumberingStyleName and paras[2].NumberingStyleName == \
        paras[3].NumberingStyleName
    assert paras[0].ParaStyleName == paras[4].ParaStyleName      # body text stays body text
    bold = [r for r in _runs(paras[4]) if r.getString() == "bold"]
    assert bold and bold[0].CharWeight == 150.0
    screenshot(gui_office, "panel_answer_inserted.png")

    undo = gui_doc.UndoManager
    assert undo.getCurrentUndoActionTitle() == "Marginalia: insert answer"
    undo.undo()
    assert [p.getString() for p in paragraphs(gui_doc)] == ["Intro paragraph."]


def _flavours(office):
    contents = office.create("com.sun.star.datatransfer.clipboard.SystemClipboard").getContents()
    return [flavor.MimeType for flavor in contents.getTransferDataFlavors()]


def _pasted_formatted(office):
    """Paste the clipboard into a new Writer document: the answer arrives as structure."""
    doc = office.new_writer()
    try:
        helper = office.create("com.sun.star.frame.DispatchHelper")
        helper.executeDispatch(doc.CurrentController.Frame, ".uno:Paste", "", 0, ())
        paras = [p for p in paragraphs(doc) if p.getString()]
        assert [p.getString() for p in paras] == ["Plan", "First step", "Second step",
                                                  "A bold close."]
        assert paras[0].ParaStyleName == "Heading 2"
        assert paras[1].NumberingStyleName or paras[1].NumberingIsNumber
        bold = [r for r in _runs(paras[3]) if r.getString() == "bold"]
        assert bold and bold[0].CharWeight == 150.0
        assert "#" not in doc.Text.getString() and "*" not in doc.Text.getString()
    finally:
        office.close(doc)


def _runs(paragraph):
    out = []
    enum = paragraph.createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement())
    return out


def test_retry_asks_again_in_place_of_the_answer_and_takes_its_edits_back(
        gui_office, gui_doc, chat_server):
    gui_doc.Text.setString("Our product.")
    chat_server.add(
        sse.tool_calls_response([("c1", "insert_paragraphs",
                                  {"markdown": "Slogan A", "after_paragraph": -1})]),
        sse.text_response("Added slogan A."),
        sse.text_response("Here is slogan B instead."))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Write a slogan", "Added slogan A.")
    assert "Slogan A" in gui_doc.Text.getString()

    panel.press("Retry")
    shown = panel.wait_transcript("slogan B instead")
    panel.wait_idle()
    shown = panel.transcript()
    assert shown.count("You: Write a slogan") == 1
    assert "Added slogan A." not in shown
    # The first answer's edit was the newest Undo step: Retry took it back first.
    assert "Slogan A" not in gui_doc.Text.getString()
    resent = chat_server.chat_requests[-1].json["messages"]
    assert [m["role"] for m in resent] == ["system", "user"]
    assert resent[-1]["content"].endswith("Write a slogan")
    screenshot(gui_office, "panel_answer_retry.png")


def test_an_answer_the_server_cut_says_so_keeps_its_text_and_retry_asks_again(
        gui_office, gui_doc, chat_server):
    gui_doc.Text.setString("Readers skim.")
    # Whole events, slowly and in odd pieces, then a plain close: no finish reason.
    chat_server.add(
        {"body": sse.sse_body([sse.text_delta(w) for w in
                               ("Tighten it: ", "a reader ", "can try to s")], done=False),
         "delay": 0.05, "split": [5, 3, 11]},
        sse.text_response("A reader can try to skim."))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Tighten the text", "can try to s")
    wait_for(lambda: panel.status() == status.CUT, what="the status to say the answer is cut")
    shown = panel.transcript()
    assert "Tighten it: a reader can try to s" in shown            # what came stays
    assert "closed before the answer finished" in shown
    assert shown.rstrip().endswith(transcript.STOPPED_MARK + transcript.CUT)
    assert gui_doc.Text.getString() == "Readers skim."
    assert has_state(panel.control("Retry"), "ENABLED")
    screenshot(gui_office, "panel_answer_cut.png")

    panel.press("Retry")
    panel.wait_transcript("can try to skim.")
    panel.wait_idle()
    assert panel.status().startswith(status.READY)
    assert "closed before the answer finished" not in panel.transcript()


def test_edit_gives_the_message_back_and_send_replaces_the_turn(gui_office, gui_doc,
                                                                chat_server):
    chat_server.add(sse.text_response("Answer in French."),
                    sse.text_response("Answer in German."))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Summarise in French", "Answer in French.")

    panel.press("Edit")
    wait_for(lambda: panel.status() == hm.EDITING, what="the Edit sentence")
    assert panel.read("Message") == "Summarise in French"
    _ask(panel, "Summarise in German", "Answer in German.")
    shown = panel.transcript()
    assert "French" not in shown and shown.count("You: ") == 1
    assert "You: Summarise in German" in shown
    resent = chat_server.chat_requests[-1].json["messages"]
    assert [m["role"] for m in resent] == ["system", "user"]
    assert resent[-1]["content"].endswith("Summarise in German")
    screenshot(gui_office, "panel_answer_edit.png")


def test_an_emptied_box_after_edit_shows_the_idle_status_until_text_comes_back(
        gui_office, gui_doc, chat_server):
    from marginalia.ui import status
    chat_server.add(sse.text_response("Answer in French."),
                    sse.text_response("Answer in German."))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Summarise in French", "Answer in French.")

    panel.press("Edit")
    wait_for(lambda: panel.status() == hm.EDITING, what="the Edit sentence")
    panel.click("Message")
    panel.key("ctrl+Home", "ctrl+shift+End", "BackSpace")
    # Issue 24: the status kept "Editing your last message…" over an empty box.
    wait_for(lambda: panel.status().startswith(status.READY), what="the idle status")
    # New text after it: the edit goes on, and the status says so again.
    panel.key("D", "e")
    wait_for(lambda: panel.status() == hm.EDITING, what="the Edit sentence again")
    _ask(panel, "Summarise in German", "Answer in German.")
    shown = panel.transcript()
    assert "French" not in shown and shown.count("You: ") == 1


def test_copy_is_offered_after_a_quick_action_and_copies_its_answer(gui_office, gui_doc,
                                                                   chat_server):
    from tests.support.panel_driver import has_state
    from tests.support.writer import find, texts
    gui_doc.Text.setString("Please shorten this long and winding sentence now.")
    panel = PanelDriver(gui_office, gui_doc)
    panel.click("Message")
    panel.key("slash", "s", "h")
    time.sleep(1)
    panel.key("Tab")            # the slash list completes "/shorten " and closes
    wait_for(lambda: panel.read("Message") == "/shorten ", what="the completed command")
    gui_doc.getCurrentController().select(find(gui_doc, "long and winding sentence"))
    chat_server.add(sse.text_response("short sentence", pieces=2))
    panel.click("Message")
    panel.key("ctrl+End", "Return")
    wait_for(lambda: texts(gui_doc) == ["Please shorten this short sentence now."], timeout=30,
             what="the quick action's edit")
    panel.wait_idle()
    # Issue 24: Copy was greyed out after a quick action.
    wait_for(lambda: has_state(panel.control("Copy"), "ENABLED"), what="Copy enabled")
    panel.press("Copy")
    wait_for(lambda: panel.status() == hm.COPIED, what="the Copy sentence")
    assert clipboard_text(gui_office) == "short sentence"

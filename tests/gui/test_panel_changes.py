"""The change card in a real window: Review, Accept one, Reject one, Restore.

A scripted server makes the edits; the card's buttons are pressed through
accessibility, the list and the Restore menu with the mouse and keyboard.
"""

import time

from tests.support import sse_server as sse
from tests.support.office import paragraph_texts
from tests.support.panel_driver import PanelDriver, screenshot, wait_for


def _ask(panel, text, until):
    panel.type(text)
    panel.key("Return")
    panel.wait_transcript(until)
    panel.wait_idle()


def _label(panel, start):
    """The text of the panel label beginning with ``start`` (the card's headline)."""
    found = [name for (name, role), _ctx in panel.controls.items() if name.startswith(start)]
    return found[0] if found else None


def _click_row(panel, row):
    ctx = panel.control("This turn's changes")
    where = ctx.getLocationOnScreen()
    panel._xdotool("mousemove", str(where.X + 30), str(where.Y + 9), "click", "1")
    time.sleep(0.3)
    if row:
        panel.key(*(["Down"] * row))
        time.sleep(0.3)


def _redline_authors(doc):
    enum = doc.getRedlines().createEnumeration()
    out = []
    while enum.hasMoreElements():
        out.append(enum.nextElement().getPropertyValue("RedlineAuthor"))
    return out


def test_card_reviews_selects_accepts_and_rejects_one_change(gui_office, gui_doc, chat_server):
    gui_doc.Text.setString("Sales grew in every region.\nNorth doubled, South held.")
    gui_office.job("settings.save", apply_mode="tracked", track_changes=True)
    try:
        chat_server.add(sse.tool_calls_response([
            ("c1", "replace_text", {"search": "every region", "replacement": "all regions"}),
            ("c2", "replace_text", {"search": "South held", "replacement": "South fell"})]),
            sse.text_response("Two edits made."))
        panel = PanelDriver(gui_office, gui_doc)
        _ask(panel, "Tighten it", "Two edits made.")
        panel.refresh()
        wait_for(lambda: panel.refresh() or _label(panel, "2 changes"), what="the card")
        screenshot(gui_office, "panel_change_card.png")
        panel.press("Review")
        wait_for(lambda: panel.refresh() or panel.control("Accept all"), what="the list")
        _click_row(panel, 0)
        selected = wait_for(lambda: gui_doc.CurrentController.getSelection().getByIndex(0)
                            .getString(), what="a selection in the document")
        # The tracked pieces of "every region" -> "all regions", deleted and inserted.
        assert selected.startswith("e") and "all" in selected and "very" in selected
        assert selected.endswith("regions") and "Sales" not in selected
        screenshot(gui_office, "panel_change_review.png")
        panel.press("Accept")
        wait_for(lambda: "Accepted 1 change." in panel.status(), what="the Accept sentence")
        _click_row(panel, 1)
        panel.press("Reject")
        wait_for(lambda: "Rejected 1 change." in panel.status(), what="the Reject sentence")
        assert gui_doc.Text.getString() == "Sales grew in all regions.\nNorth doubled, South held."
        assert "Marginalia (AI)" not in _redline_authors(gui_doc)
        wait_for(lambda: panel.refresh() or _label(panel, "2 changes \u00b7 1 accepted"),
                 what="the headline after review")
        screenshot(gui_office, "panel_change_reviewed.png")
    finally:
        gui_office.job("settings.save", apply_mode="direct", track_changes=False)


def test_restore_takes_the_document_and_chat_back_and_refills_the_box(gui_office, gui_doc,
                                                                     chat_server):
    gui_doc.Text.setString("Start.")
    chat_server.add(
        sse.tool_calls_response([("a", "insert_paragraphs", {"markdown": "One.",
                                                             "after_paragraph": -1})]),
        sse.text_response("Added one."),
        sse.tool_calls_response([("b", "insert_paragraphs", {"markdown": "Two.",
                                                             "after_paragraph": -1})]),
        sse.text_response("Added two."))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Add one", "Added one.")
    _ask(panel, "Add two", "Added two.")
    assert paragraph_texts(gui_doc) == ["Start.", "One.", "Two."]
    panel.refresh()
    panel.click("Restore\u2026")
    time.sleep(0.5)
    screenshot(gui_office, "panel_restore_menu.png")
    panel.key("Down", "Down", "Return")       # newest first: the second entry is "Add one"
    time.sleep(1)
    screenshot(gui_office, "panel_restore_after.png")
    wait_for(lambda: paragraph_texts(gui_doc) == ["Start."],
             what="the document restored (%s)" % panel.status())
    wait_for(lambda: panel.read("Message") == "Add one", what="the message back in the box")
    assert "Added one." not in panel.transcript()
    screenshot(gui_office, "panel_restored.png")
    # Redo brings both turns back, one step each.
    gui_doc.UndoManager.redo()
    assert paragraph_texts(gui_doc) == ["Start.", "One."]

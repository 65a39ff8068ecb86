"""Content first (issue 24, item 3) in a real window at the sidebar's default width.

A plain question shows no change card: the conversation keeps the height the
card's rows took from every chat before (headline, four buttons, the mode
switch). A turn that edits shows one line ("3 changes" with Review); Review
opens the list; the next turn folds it as it starts. The apply mode switch,
Restore… and Keep out wait in the tray the Editing options button opens.
Screenshots: tests/artifacts/panel_content_first_*.png.
"""

from tests.support import sse_server as sse
from tests.support.office import paragraph_texts
from tests.support.panel_driver import (EDIT_OPTIONS, PanelDriver, has_state, screenshot,
                                        set_paragraphs, wait_for)

# What the card took from every chat before, at this width (ui.change_list before issue 24:
# the headline, two rows of two buttons and the mode switch, 6 px margins).
OLD_CARD = 118


def _showing(panel, name):
    try:
        return has_state(panel.control_now((name,)), "SHOWING")
    except AssertionError:
        return False       # hidden: it left the accessible tree


def _pressed(panel, name):
    """Whether a toggle button says, to a screen reader, that what it opens is open."""
    button = panel.control_now((name,))
    return has_state(button, "PRESSED") or has_state(button, "CHECKED")


def _height(panel):
    return panel.control("Conversation").getSize().Height


def _ask(panel, text, until):
    panel.type(text)
    panel.key("Return")
    panel.wait_transcript(until)
    panel.wait_idle()


def test_a_plain_question_keeps_the_height_and_an_editing_turn_shows_one_line(
        gui_office, gui_doc, chat_server):
    gui_office.job("settings.save", apply_mode="direct", track_changes=False)
    set_paragraphs(gui_doc, "Teh cat sat.", "Teh dog ran.", "Teh end.")
    slow = sse.text_response("Glad it helps. Anything else?", pieces=2)
    slow["body"][2] = {"data": slow["body"][2], "delay": 3.0}   # a turn still running
    chat_server.add(
        sse.text_response("It is about a cat and a dog."),
        sse.tool_calls_response([
            ("e1", "replace_text", {"search": "Teh cat", "replacement": "The cat"}),
            ("e2", "replace_text", {"search": "Teh dog", "replacement": "The dog"}),
            ("e3", "replace_text", {"search": "Teh end", "replacement": "The end"})]),
        sse.text_response("Three typos fixed."),
        slow)
    panel = PanelDriver(gui_office, gui_doc)
    width = panel.control("Conversation").getSize().Width
    assert 150 <= width <= 230, width            # the sidebar's default width
    _ask(panel, "What is this about?", "a cat and a dog.")
    panel.refresh()
    names = panel.names()
    for chrome in ("Review", "Undo turn", "How edits are applied", "Restore\u2026", "Keep out"):
        assert chrome not in names, (chrome, names)
    plain = _height(panel)
    screenshot(gui_office, "panel_content_first_plain.png")

    # The edit options are a press away, by name (keyboard and screen readers alike).
    panel.edit_options()
    for name in ("How edits are applied", "Restore\u2026", "Keep out"):
        assert _showing(panel, name), name
    tray = _height(panel)
    assert _pressed(panel, EDIT_OPTIONS)
    # Opened, the tray has the focus (a keyboard user goes on from its first control).
    wait_for(lambda: has_state(panel.control_now(("How edits are applied",)), "FOCUSED"),
             what="the focus in the tray")
    # The tray holds what took rows from every chat before; the conversation had them back.
    assert plain - tray >= 2 * 26, (plain, tray)
    print("conversation height: plain %d, tray open %d" % (plain, tray))
    screenshot(gui_office, "panel_content_first_tray.png")
    panel.press(EDIT_OPTIONS)
    wait_for(lambda: not _showing(panel, "Keep out"), what="the tray to fold")
    assert _height(panel) == plain and not _pressed(panel, EDIT_OPTIONS)

    # A turn that edits: one line, "3 changes" beside Review.
    _ask(panel, "Fix the typos", "Three typos fixed.")
    assert paragraph_texts(gui_doc) == ["The cat sat.", "The dog ran.", "The end."]
    wait_for(lambda: panel.refresh() or "3 changes" in panel.names(), what="the summary line")
    assert _showing(panel, "Review") and not _showing(panel, "This turn's changes")
    summary = _height(panel)
    # One row, where the card took OLD_CARD px from every chat before.
    assert plain - summary <= OLD_CARD // 3, (plain, summary)
    headline = panel.control_now(("3 changes",))
    review = panel.control_now(("Review",))
    assert headline.getLocationOnScreen().Y < review.getLocationOnScreen().Y + 26
    print("conversation height with the summary line: %d" % summary)
    screenshot(gui_office, "panel_content_first_summary.png")

    # Review opens the list; the next turn folds it as it starts.
    panel.press("Review")
    wait_for(lambda: _showing(panel, "This turn's changes"), what="the review list")
    assert _showing(panel, "Undo turn") and _showing(panel, "Accept All")
    assert _pressed(panel, "Review")
    screenshot(gui_office, "panel_content_first_review.png")
    panel.type("Thanks")
    panel.key("Return")
    wait_for(lambda: not _showing(panel, "This turn's changes"),
             what="the list to fold as the turn starts")
    assert panel.send_label() == "Stop"           # folded while the answer still runs
    # The edits were made directly and this turn is a new one: nothing waits for review,
    # so the summary goes with the list at once.
    assert not _showing(panel, "Review")
    panel.wait_transcript("Anything else?")
    panel.wait_idle()
    # A plain answer after direct edits: nothing to review, the card goes altogether.
    wait_for(lambda: not _showing(panel, "Review"), what="the card to go")
    wait_for(lambda: _height(panel) == plain, what="the conversation's height back")
    screenshot(gui_office, "panel_content_first_after.png")

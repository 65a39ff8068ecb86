"""The change card in a real window: Review, Accept one, Reject one, Restore, Undo turn,
Apply in Comment only, and the apply mode switch (in the tray Editing options opens).

A scripted server makes the edits; the card's buttons are pressed through
accessibility, the list, the mode switch and the Restore menu with the mouse and
keyboard, and the user's own typing goes into the document on the keyboard.
"""

import time

from tests.support import sse_server as sse
from tests.support.office import paragraph_texts
from tests.support.panel_driver import (EDIT_OPTIONS, PanelDriver, has_state, screenshot,
                                        set_paragraphs, wait_for)
from tests.support.writer import annotations, tracked_changes

from marginalia.i18n.catalog import tr
from marginalia.ui import change_list as card

DOCUMENT_TEXT = 85    # com.sun.star.accessibility.AccessibleRole.DOCUMENT_TEXT


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
    # Named, with no tooltip over the rows but a shortened selected row's whole text
    # (office.text_fit.whole): the row as the review list could not show it.
    tip = ctx.getToolTipText()
    assert tip == "" or ("\u00b6" in tip and not tip.endswith("\u2026")), tip
    where = ctx.getLocationOnScreen()
    panel._xdotool("mousemove", str(where.X + 30), str(where.Y + 9), "click", "1")
    time.sleep(0.3)
    if row:
        panel.key(*(["Down"] * row))
        time.sleep(0.3)


def _space_on(panel, name):
    """The keyboard on button ``name``, then Space, as a keyboard user presses it."""
    panel.control(name).grabFocus()
    wait_for(lambda: _focused(panel) == name, what="the focus on %s" % name)
    panel.key("space")


def _selected_row(ctx):
    """The position of the selected row of a list's accessible context (None: none)."""
    rows = [ctx.getAccessibleChild(i).getAccessibleContext()
            for i in range(ctx.getAccessibleChildCount())]
    if len(rows) == 1 and rows[0].getAccessibleChildCount():
        return _selected_row(rows[0])           # the rows sit in the list's one child
    chosen = [i for i, row in enumerate(rows) if has_state(row, "SELECTED")]
    return chosen[0] if chosen else None


CARD = ("This turn's changes", "Review", "Go to", "Accept", "Reject", "Apply", "Accept all",
        "Reject all", "Undo turn")


def _focused(panel):
    """The name of the card's control that has the keyboard, or None."""
    panel.refresh()
    found = [name for (name, _role), ctx in panel.controls.items()
             if name in CARD and has_state(ctx, "FOCUSED")]
    return found[0] if found else None


def _showing(panel, name):
    """Whether the control ``name`` shows now (a hidden one leaves the accessible tree)."""
    try:
        return has_state(panel.control_now((name,)), "SHOWING")
    except AssertionError:
        return False


def _list_shown(panel):
    """Whether the review list shows (it folds away by itself: ui.change_fold)."""
    return _showing(panel, "This turn's changes")


def _redline_authors(doc):
    return [red["author"] for red in tracked_changes(doc)]


def _two_tracked_edits(gui_office, gui_doc, chat_server):
    """In Suggest changes, a turn of two tracked replacements; the panel, its card shown.
    (The caller puts the apply mode back.)"""
    gui_office.job("settings.save", apply_mode="tracked", track_changes=True)
    chat_server.add(sse.tool_calls_response([
        ("c1", "replace_text", {"search": "every region", "replacement": "all regions"}),
        ("c2", "replace_text", {"search": "South held", "replacement": "South fell"})]),
        sse.text_response("Two edits made."))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Tighten it", "Two edits made.")
    wait_for(lambda: panel.refresh() or _label(panel, "2 changes"), what="the card")
    return panel


def test_card_reviews_selects_accepts_and_rejects_one_change(gui_office, gui_doc, chat_server):
    gui_doc.Text.setString("Sales grew in every region.\nNorth doubled, South held.")
    try:
        panel = _two_tracked_edits(gui_office, gui_doc, chat_server)
        screenshot(gui_office, "panel_change_card.png")
        panel.press("Review")
        wait_for(lambda: panel.refresh() or panel.control("Accept All"), what="the list")
        _click_row(panel, 0)
        selected = wait_for(lambda: gui_doc.CurrentController.getSelection().getByIndex(0)
                            .getString(), what="a selection in the document")
        # The tracked pieces of "every region" -> "all regions", deleted and inserted.
        assert selected.startswith("e") and "all" in selected and "very" in selected
        assert selected.endswith("regions") and "Sales" not in selected
        screenshot(gui_office, "panel_change_review.png")
        # By keyboard (issue 39): Space on Accept, and the keyboard goes to the next row to
        # decide, not on to Reject all or Undo turn where one more Space would act on all.
        _space_on(panel, "Accept")
        wait_for(lambda: "Accepted 1 change." in panel.status(), what="the Accept sentence")
        wait_for(lambda: _focused(panel) == "This turn's changes",
                 what="the keyboard on the list (%s)" % _focused(panel))
        assert _selected_row(panel.control("This turn's changes")) == 1
        _space_on(panel, "Reject")
        wait_for(lambda: "Rejected 1 change." in panel.status(), what="the Reject sentence")
        # Nothing left to decide: the list folds, the keyboard waits on Review.
        wait_for(lambda: _focused(panel) == "Review",
                 what="the keyboard on Review (%s)" % _focused(panel))
        assert gui_doc.Text.getString() == "Sales grew in all regions.\nNorth doubled, South held."
        assert "Marginalia (AI)" not in _redline_authors(gui_doc)
        wait_for(lambda: panel.refresh() or _label(panel, "2 changes \u00b7 1 accepted"),
                 what="the headline after review")
        # Nothing left to decide: the list folds away by itself, the summary stays.
        wait_for(lambda: not _list_shown(panel), what="the list to fold")
        assert has_state(panel.control("Review"), "SHOWING")
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
    panel.edit_options()
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


def _document_view(panel):
    """The accessible document page of the panel's window (where a user clicks to type)."""
    pending = [panel.frame.ContainerWindow.getAccessibleContext()]
    while pending:
        ctx = pending.pop()
        if ctx.getAccessibleRole() == DOCUMENT_TEXT:
            return ctx
        if ctx.getAccessibleChildCount() > 60:
            continue
        for i in range(ctx.getAccessibleChildCount()):
            child = ctx.getAccessibleChild(i)
            if child is not None:
                pending.append(child.getAccessibleContext())
    raise AssertionError("no document view in the window")


def _type_in_document(panel, text):
    """Click into the page and type at the end of the text, as the user would."""
    page = _document_view(panel)
    where, size = page.getLocationOnScreen(), page.getSize()
    panel._xdotool("mousemove", str(where.X + min(size.Width // 2, 300)),
                   str(where.Y + min(size.Height // 2, 200)), "click", "1")
    time.sleep(0.3)
    panel.key("ctrl+End")
    panel._xdotool("type", "--delay", "15", text)
    time.sleep(0.3)


def _mode_shown(panel):
    """What the card's "How edits are applied" switch shows (in the Editing options tray)."""
    panel.edit_options()
    return panel.dropdown_text("How edits are applied")


def _choose_mode(panel, label):
    """Open the card's mode switch with the mouse and pick ``label`` with the keys."""
    order = ["Edit directly", "Suggest changes", "Comment only"]
    moves = order.index(label) - order.index(_mode_shown(panel))
    box = panel.control_now(("How edits are applied",))
    where, size = box.getLocationOnScreen(), box.getSize()
    panel._xdotool("mousemove", str(where.X + size.Width // 2),
                   str(where.Y + size.Height // 2), "click", "1")
    time.sleep(0.3)
    panel.key(*(["Down" if moves > 0 else "Up"] * abs(moves) + ["Return"]))
    wait_for(lambda: _mode_shown(panel) == label, what="the switch to show %r" % label)


def test_undo_turn_takes_back_that_turn_in_one_step_and_keeps_the_users_typing(
        gui_office, gui_doc, chat_server):
    set_paragraphs(gui_doc, "Draft one.", "Draft two.")
    chat_server.add(
        sse.tool_calls_response([
            ("u1", "replace_text", {"search": "Draft one", "replacement": "First draft"}),
            ("u2", "insert_paragraphs", {"markdown": "A closing line.", "after_paragraph": -1})]),
        sse.text_response("Two edits made."))
    panel = PanelDriver(gui_office, gui_doc)
    _type_in_document(panel, " Mine.")
    wait_for(lambda: paragraph_texts(gui_doc) == ["Draft one.", "Draft two. Mine."],
             what="the user's typing in the document (%r)" % paragraph_texts(gui_doc))
    _ask(panel, "Tidy it", "Two edits made.")
    assert paragraph_texts(gui_doc) == ["First draft.", "Draft two. Mine.", "A closing line."]
    panel.refresh()
    wait_for(lambda: panel.refresh() or _label(panel, "2 changes"), what="the card")
    panel.press("Review")                      # Undo turn sits with the list's buttons
    wait_for(lambda: _showing(panel, "Undo turn"), what="Undo turn")
    assert has_state(panel.control("Undo turn"), "ENABLED")
    panel.press("Undo turn")
    wait_for(lambda: "This turn's edits are undone" in panel.status(),
             what="the Undo turn sentence (%s)" % panel.status())
    # Exactly the turn's two edits are gone; the user's own typing before it stays.
    assert paragraph_texts(gui_doc) == ["Draft one.", "Draft two. Mine."]
    # The card had only that turn to show: with nothing left to review it folds away,
    # and Undo turn with it (nothing to undo twice).
    wait_for(lambda: panel.refresh() or not _label(panel, "2 changes"),
             what="the summary to go after Undo turn")
    assert not _list_shown(panel)
    assert not _showing(panel, "Undo turn")
    screenshot(gui_office, "panel_undo_turn.png")
    # It was one step: one Redo brings both edits back, one Undo takes both away again.
    manager = gui_doc.UndoManager
    manager.redo()
    assert paragraph_texts(gui_doc) == ["First draft.", "Draft two. Mine.", "A closing line."]
    manager.undo()
    assert paragraph_texts(gui_doc) == ["Draft one.", "Draft two. Mine."]
    manager.undo()      # the next step back is the user's own typing
    assert "Mine." not in gui_doc.Text.getString()


def test_comment_only_leaves_the_text_and_apply_makes_the_suggestion_real(
        gui_office, gui_doc, chat_server):
    set_paragraphs(gui_doc, "The cat sat on the mat.", "It purred.")
    gui_office.job("settings.save", apply_mode="comments", track_changes=False)
    try:
        chat_server.add(
            sse.tool_calls_response([("p1", "replace_text", {"search": "cat",
                                                             "replacement": "dog"})]),
            sse.text_response("Suggested one edit."))
        panel = PanelDriver(gui_office, gui_doc)
        _ask(panel, "Make it a dog", "Suggested one edit.")
        assert paragraph_texts(gui_doc) == ["The cat sat on the mat.", "It purred."]
        assert annotations(gui_doc) == [("Marginalia (AI)", "Replace with: dog", "cat")]
        panel.refresh()
        wait_for(lambda: panel.refresh() or _label(panel, "1 suggestion"), what="the card")
        assert _mode_shown(panel) == "Comment only"
        screenshot(gui_office, "panel_comment_only.png")
        panel.press("Review")
        wait_for(lambda: panel.refresh() or panel.control("Apply"), what="the list")
        _click_row(panel, 0)
        wait_for(lambda: has_state(panel.control("Apply"), "ENABLED"),
                 what="Apply for the chosen suggestion")
        assert not has_state(panel.control("Accept"), "ENABLED")   # nothing tracked here
        panel.press("Apply")
        wait_for(lambda: "Applied the suggestion." in panel.status(),
                 what="the Apply sentence (%s)" % panel.status())
        assert paragraph_texts(gui_doc) == ["The dog sat on the mat.", "It purred."]
        assert annotations(gui_doc) == []          # the proposing comment went with it
        wait_for(lambda: panel.refresh() or _label(panel, "1 suggestion \u00b7 1 applied"),
                 what="the headline after Apply")
        # The one suggestion settled: the list folded, Apply with it.
        wait_for(lambda: not _list_shown(panel), what="the list to fold")
        assert not _showing(panel, "Apply")
        screenshot(gui_office, "panel_comment_applied.png")
        # Applying was one step of its own: Undo brings the text and the comment back.
        gui_doc.UndoManager.undo()
        assert paragraph_texts(gui_doc) == ["The cat sat on the mat.", "It purred."]
        assert [a[1] for a in annotations(gui_doc)] == ["Replace with: dog"]
    finally:
        gui_office.job("settings.save", apply_mode="direct", track_changes=False)


def test_the_cards_mode_switch_saves_the_setting_and_the_next_turn_uses_it(
        gui_office, gui_doc, chat_server):
    gui_office.job("settings.save", apply_mode="direct", track_changes=False)
    gui_doc.Text.setString("Sales grew in every region.")
    try:
        chat_server.add(
            sse.tool_calls_response([("d1", "replace_text", {"search": "Sales",
                                                             "replacement": "Revenue"})]),
            sse.text_response("Done directly."),
            sse.tool_calls_response([("t1", "replace_text", {"search": "grew",
                                                             "replacement": "rose"})]),
            sse.text_response("Suggested as a change."),
            sse.tool_calls_response([("c1", "replace_text", {"search": "every region",
                                                             "replacement": "all regions"})]),
            sse.text_response("Suggested in a comment."))
        panel = PanelDriver(gui_office, gui_doc)
        _ask(panel, "Say revenue", "Done directly.")
        assert gui_doc.Text.getString() == "Revenue grew in every region."
        assert gui_doc.getRedlines().getCount() == 0 and annotations(gui_doc) == []
        panel.refresh()
        assert _mode_shown(panel) == "Edit directly"

        _choose_mode(panel, "Suggest changes")
        wait_for(lambda: panel.status() == "New turns: Suggest changes.",
                 what="the switch's sentence (%s)" % panel.status())
        saved = gui_office.job("settings.load")
        assert (saved["apply_mode"], saved["track_changes"]) == ("tracked", True)
        screenshot(gui_office, "panel_mode_switch.png")
        _ask(panel, "Say rose", "Suggested as a change.")
        assert "Marginalia (AI)" in _redline_authors(gui_doc)
        assert not gui_doc.RecordChanges      # only the AI's edit was tracked
        wait_for(lambda: panel.refresh() or _label(panel, "1 change"), what="the card")
        panel.press("Review")
        wait_for(lambda: panel.refresh() or has_state(panel.control("Accept All"), "ENABLED"),
                 what="Accept all for the tracked change")
        panel.press("Review")                 # fold the list again

        _choose_mode(panel, "Comment only")
        wait_for(lambda: gui_office.job("settings.load")["apply_mode"] == "comments",
                 what="Comment only saved")
        redlines = gui_doc.getRedlines().getCount()
        text = gui_doc.Text.getString()
        _ask(panel, "Say all regions", "Suggested in a comment.")
        assert gui_doc.Text.getString() == text and gui_doc.getRedlines().getCount() == redlines
        assert annotations(gui_doc) == [("Marginalia (AI)", "Replace with: all regions",
                                         "every region")]
        wait_for(lambda: panel.refresh() or _label(panel, "1 suggestion"), what="the card")
    finally:
        gui_office.job("settings.save", apply_mode="direct", track_changes=False)


def test_the_mode_switch_takes_a_key_only_with_enter_and_escape_leaves_it(gui_office,
                                                                          gui_doc):
    # Issue 39: Editing options puts the keyboard on the switch, where a stray letter
    # changed how every edit is applied, only the status line saying so.
    gui_office.job("settings.save", apply_mode="direct", track_changes=False)
    try:
        panel = PanelDriver(gui_office, gui_doc)
        panel.edit_options()
        box = panel.control_now(("How edits are applied",))
        wait_for(lambda: has_state(box, "FOCUSED"), what="the keyboard on the switch")
        panel.key("c")                        # a stray letter: Comment only is only shown
        held = tr(card.MODE_HELD) % "Comment only"
        wait_for(lambda: panel.status() == held, what="the held choice (%s)" % panel.status())
        assert gui_office.job("settings.load")["apply_mode"] == "direct"
        panel.key("Return")                   # Enter takes it
        wait_for(lambda: gui_office.job("settings.load")["apply_mode"] == "comments",
                 what="Comment only saved")
        assert panel.status() == "New turns: Comment only."
        panel.key("Up")                       # held again; Escape puts it back and leaves
        wait_for(lambda: panel.status() == tr(card.MODE_HELD) % "Suggest changes",
                 what="the held choice (%s)" % panel.status())
        panel.key("Escape")
        wait_for(lambda: _mode_shown(panel) == "Comment only", what="the saved mode shown")
        assert gui_office.job("settings.load")["apply_mode"] == "comments"
        wait_for(lambda: has_state(panel.control(EDIT_OPTIONS), "FOCUSED"),
                 what="the keyboard back on Editing options")
    finally:
        gui_office.job("settings.save", apply_mode="direct", track_changes=False)


def _scope(panel):
    """The scope line above the message box ("Whole document" or "Selection: N words")."""
    panel.refresh()
    return _label(panel, "Whole document") or _label(panel, "Selection")


def test_after_the_cards_review_undo_turn_asks_nothing_and_no_selection_strays(
        gui_office, gui_doc, chat_server):
    # Reported: after Accept or Reject on the card, Undo turn said "You edited the
    # document after this turn", and Reject left a one-letter selection behind.
    set_paragraphs(gui_doc, "Sales grew in every region.", "North doubled, South held.")
    try:
        panel = _two_tracked_edits(gui_office, gui_doc, chat_server)
        assert _scope(panel) == "Whole document"
        panel.press("Review")
        wait_for(lambda: panel.refresh() or panel.control("Accept All"), what="the list")
        _click_row(panel, 0)
        wait_for(lambda: (_scope(panel) or "").startswith("Selection"),
                 what="Go to selecting the change")
        panel.press("Accept")
        wait_for(lambda: "Accepted 1 change." in panel.status(), what="the Accept sentence")
        # The selection from before Go to is back: none, so the whole document again.
        wait_for(lambda: _scope(panel) == "Whole document",
                 what="no selection after Accept (%s)" % _scope(panel))
        _click_row(panel, 1)
        panel.press("Reject")
        wait_for(lambda: "Rejected 1 change." in panel.status(), what="the Reject sentence")
        wait_for(lambda: _scope(panel) == "Whole document",
                 what="no selection after Reject (%s)" % _scope(panel))
        assert gui_doc.CurrentController.getSelection().getByIndex(0).getString() == ""
        wait_for(lambda: panel.refresh() or _label(panel, "2 changes \u00b7 1 accepted"),
                 what="the headline after review")
        screenshot(gui_office, "panel_card_after_accept.png")
        wait_for(lambda: not _list_shown(panel), what="the reviewed list to fold")
        panel.press("Review")
        wait_for(lambda: _showing(panel, "Undo turn"), what="Undo turn")
        panel.press("Undo turn")
        wait_for(lambda: "This turn's edits are undone" in panel.status(),
                 what="Undo turn without a question (%s)" % panel.status())
        assert paragraph_texts(gui_doc) == ["Sales grew in every region.",
                                            "North doubled, South held."]
        assert gui_doc.getRedlines().getCount() == 0
        assert _scope(panel) == "Whole document"
    finally:
        gui_office.job("settings.save", apply_mode="direct", track_changes=False)


def test_restore_points_are_numbered_timed_and_restore_exactly_the_one_chosen(
        gui_office, gui_doc, chat_server):
    # Reported: two entries read the same, with no number or time; picking the older
    # one took the wrong turns out of the chat.
    set_paragraphs(gui_doc, "Start.")
    for word in ("One", "Two", "Three"):
        chat_server.add(
            sse.tool_calls_response([("i" + word, "insert_paragraphs",
                                      {"markdown": word + ".", "after_paragraph": -1})]),
            sse.text_response("Added %s." % word.lower()))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Please fix the typos", "Added one.")
    _ask(panel, "Please fix the typos", "Added two.")
    _ask(panel, "Add three", "Added three.")
    assert paragraph_texts(gui_doc) == ["Start.", "One.", "Two.", "Three."]
    panel.refresh()
    panel.edit_options()
    panel.click("Restore\u2026")
    time.sleep(0.5)
    screenshot(gui_office, "panel_restore_points.png")
    # Newest first (the first entry says so): the second "Please fix the typos"
    # (message 2) is the second entry.
    panel.key("Down", "Down", "Return")
    wait_for(lambda: paragraph_texts(gui_doc) == ["Start.", "One."],
             what="the document back to before message 2 (%s, %s)" % (
                 paragraph_texts(gui_doc), panel.status()))
    wait_for(lambda: "before message 2" in panel.status(),
             what="the restore sentence (%s)" % panel.status())
    transcript = panel.transcript()
    assert "Added one." in transcript and "Added two." not in transcript
    assert transcript.count("Please fix the typos") == 1
    assert _scope(panel) == "Whole document"


def test_the_card_names_every_paragraph_a_replace_all_changed(gui_office, gui_doc, chat_server):
    # Reported: a replace-all that changed paragraphs 2 and 3 read "¶2" on the card.
    set_paragraphs(gui_doc, "Intro.", "The cat sat.", "The cat ran.", "Dogs.", "A cat.")
    chat_server.add(sse.tool_calls_response([
        ("r1", "replace_text", {"search": "cat", "replacement": "fox", "all": True})]),
        sse.text_response("Replaced them all."))
    panel = PanelDriver(gui_office, gui_doc)
    _ask(panel, "Say fox", "Replaced them all.")
    wait_for(lambda: panel.refresh() or _label(panel, "1 change"), what="the card")
    panel.press("Review")
    listed = panel.control_now(("This turn's changes",))
    rows = wait_for(lambda: _rows(listed), what="the change's row")
    # The words first (issue 39), then every paragraph, as far as the list's width goes.
    assert rows[0].startswith("\u201ccat\u201d \u2192 \u201cfox\u201d \u00b7 \u00b62\u20133, 5"), rows


def _rows(listed):
    """The names of a list box's entries (the rows a screen reader reads)."""
    pending, out = [listed], []
    while pending:
        ctx = pending.pop(0)
        for i in range(min(ctx.getAccessibleChildCount(), 50)):
            child = ctx.getAccessibleChild(i).getAccessibleContext()
            if child.getAccessibleChildCount():
                pending.append(child)
            elif child.getAccessibleName() != listed.getAccessibleName():
                out.append(child.getAccessibleName())
    return out

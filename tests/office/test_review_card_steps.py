"""The card's own actions are not the user's edits, and the user's selection comes back.

Accept, Reject and Apply are undo steps of the card's (writer.review.card_step):
Undo turn and Restore take them back with their turn without asking, and give
the changes they settled their states back. Whatever the card's work selects,
the user's selection is given back after (writer.selection). Driven through
the review.* job commands the card runs.
"""

from tests.support.writer import annotations, build, find, redlines, select, texts, turn

START = ["Sales grew in every region.", "North doubled, South held.", "Open text stays."]


def _doc(office):
    return build(office, [("Standard", line) for line in START])


def _act(office, doc, **payload):
    return office.job("review.act", document=doc, **payload)


def _turns(office, doc):
    return office.job("review.turns", document=doc)["turns"]


def _tracked_turn(office, doc, *calls):
    results = turn(office, doc, *calls, track_changes=True)
    assert all(r["ok"] for r in results), results
    return _turns(office, doc)[-1]


TWO_EDITS = (("replace_text", {"search": "every region", "replacement": "all regions"}),
             ("replace_text", {"search": "South held", "replacement": "South fell"}))


def _selected(doc):
    return doc.getCurrentController().getSelection().getByIndex(0).getString()


def test_undo_turn_after_accept_and_reject_asks_nothing(office):
    # Reported: after Accept or Reject on the card, Undo turn said "You edited the
    # document after this turn" though the only edits were the card's.
    doc = _doc(office)
    try:
        last = _tracked_turn(office, doc, *TWO_EDITS)
        first, second = (c["id"] for c in last["changes"])
        assert _act(office, doc, action="accept", change=first) == {"done": 1}
        assert _act(office, doc, action="reject", change=second) == {"done": 1}
        assert texts(doc) == ["Sales grew in all regions.", START[1], START[2]]
        assert _act(office, doc, action="undo_turn", turn=last["number"]) == {"done": 1}
        assert texts(doc) == START and redlines(doc) == []
        states = [c["state"] for c in _turns(office, doc)[-1]["changes"]]
        assert states == ["undone", "undone"]
        # The turn, the Accept and the Reject were three steps: Redo brings each back.
        undo = doc.getUndoManager()
        for _ in range(3):
            undo.redo()
        assert texts(doc) == ["Sales grew in all regions.", START[1], START[2]]
    finally:
        office.close(doc)


def test_restore_takes_back_a_later_accept_of_an_earlier_turn_and_reopens_it(office):
    doc = _doc(office)
    try:
        one = _tracked_turn(office, doc, TWO_EDITS[0])
        two = _tracked_turn(office, doc, TWO_EDITS[1])
        # After turn two the user accepts turn one's change on the card.
        assert _act(office, doc, action="accept", change=one["changes"][0]["id"])["done"] == 1
        accepted = len(redlines(doc))
        done = _act(office, doc, action="restore", turn=two["number"])
        assert done == {"done": 1, "yours": False}
        # Back to right after turn one: its change is waiting for review again.
        assert len(redlines(doc)) > accepted
        assert "South held" in doc.getText().getString()
        turns = {t["number"]: t for t in _turns(office, doc)}
        assert turns[one["number"]]["changes"][0]["state"] == "pending"
        assert turns[two["number"]]["changes"][0]["state"] == "undone"
        # Pending again, and the card can accept it again.
        assert _act(office, doc, action="accept", change=one["changes"][0]["id"]) == \
            {"done": 1}
        assert _act(office, doc, action="restore", turn=one["number"]) == \
            {"done": 1, "yours": False}
        assert texts(doc) == START and redlines(doc) == []
    finally:
        office.close(doc)


def test_restore_after_apply_asks_nothing_and_brings_the_comment_back_then_takes_it(office):
    doc = _doc(office)
    try:
        results = turn(office, doc, ("replace_text", {"search": "every region",
                                                      "replacement": "all regions"}),
                       apply="comments")
        assert results[0]["ok"], results
        last = _turns(office, doc)[-1]
        assert _act(office, doc, action="apply", change=last["changes"][0]["id"]) == \
            {"done": 1}
        assert texts(doc)[0] == "Sales grew in all regions." and annotations(doc) == []
        assert _act(office, doc, action="restore", turn=last["number"]) == \
            {"done": 1, "yours": False}
        assert texts(doc) == START and annotations(doc) == []
    finally:
        office.close(doc)


def test_the_users_own_typing_after_a_review_is_asked_about_and_said(office):
    doc = _doc(office)
    try:
        last = _tracked_turn(office, doc, *TWO_EDITS)
        _act(office, doc, action="accept_all", turn=last["number"])
        text = doc.getText()
        text.insertString(text.getEnd(), " Mine.", False)
        assert "edited the document" in _act(office, doc, action="undo_turn",
                                              turn=last["number"])["asked"]
        asked = _act(office, doc, action="restore", turn=last["number"])
        assert "edited the document" in asked["asked"]
        assert _act(office, doc, action="restore", turn=last["number"], confirmed=True) == \
            {"done": 1, "yours": True}
        assert texts(doc) == START
    finally:
        office.close(doc)


def test_accept_reject_and_restore_give_the_users_selection_back(office):
    # Reported: after Reject or Restore Writer was left with a one-letter (or
    # scattered) selection, and the next message would have acted on it.
    doc = _doc(office)
    try:
        last = _tracked_turn(office, doc, *TWO_EDITS)
        first, second = (c["id"] for c in last["changes"])
        select(doc, "Open text")
        assert _act(office, doc, action="accept", change=first)["done"] == 1
        assert _selected(doc) == "Open text"
        # The user selects the change itself (as Go to does), and rejects it: that
        # text is gone, so the cursor stays where it was, selecting nothing.
        assert _act(office, doc, action="select", change=second)["selected"]
        assert _act(office, doc, action="reject", change=second)["done"] == 1
        assert _selected(doc) == ""
        select(doc, "stays")
        assert _act(office, doc, action="restore", turn=last["number"])["done"] == 1
        assert texts(doc) == START and _selected(doc) == "stays"
        # A cursor with no selection stays one.
        doc.getCurrentController().select(find(doc, "Sales").getStart())
        _tracked_turn(office, doc, TWO_EDITS[0])
        again = _turns(office, doc)[-1]
        _act(office, doc, action="reject_all", turn=again["number"])
        assert _selected(doc) == ""
    finally:
        office.close(doc)


def test_formatting_by_the_user_after_a_turn_is_asked_about_not_a_failed_restore(office):
    # Bold leaves the text as it was: the restore once took it for nothing, undid it
    # in place of the turn's step, and then said the document could not be restored.
    doc = _doc(office)
    try:
        results = turn(office, doc, TWO_EDITS[0])
        assert results[0]["ok"], results
        last = _turns(office, doc)[-1]
        find(doc, "Open text").setPropertyValue("CharWeight", 150.0)
        asked = _act(office, doc, action="undo_turn", turn=last["number"])
        assert "edited the document" in asked["asked"]
        assert _act(office, doc, action="restore", turn=last["number"], confirmed=True) == \
            {"done": 1, "yours": True}
        assert texts(doc) == START
        assert find(doc, "Open text").getPropertyValue("CharWeight") < 150.0
    finally:
        office.close(doc)


def test_a_card_step_the_user_undid_in_writer_is_not_undone_twice(office):
    # The user accepts on the card, then presses Ctrl+Z in Writer: that Accept is gone
    # already; Undo turn must take back the turn only (not one step more) and ask nothing.
    doc = _doc(office)
    try:
        before = _tracked_turn(office, doc, ("replace_text", {"search": "Open text",
                                                               "replacement": "Shut text"}))
        last = _tracked_turn(office, doc, *TWO_EDITS)
        first = last["changes"][0]["id"]
        assert _act(office, doc, action="accept", change=first)["done"] == 1
        doc.getUndoManager().undo()             # Writer's own Undo of the Accept
        # The card shows that change open again.
        assert _turns(office, doc)[-1]["changes"][0]["state"] == "pending"
        assert _act(office, doc, action="undo_turn", turn=last["number"]) == {"done": 1}
        assert "Shut text" in doc.getText().getString()     # the turn before stays
        assert "every region" in doc.getText().getString()
        turns = {t["number"]: t for t in _turns(office, doc)}
        assert [c["state"] for c in turns[last["number"]]["changes"]] == ["undone", "undone"]
        assert turns[before["number"]]["changes"][0]["state"] == "pending"
    finally:
        office.close(doc)


def test_a_restore_beyond_the_undo_history_is_refused_without_a_question(office):
    doc = _doc(office)
    try:
        last = _tracked_turn(office, doc, *TWO_EDITS)
        text = doc.getText()
        text.insertString(text.getEnd(), " Mine.", False)
        doc.getUndoManager().clear()
        refused = _act(office, doc, action="restore", turn=last["number"])
        assert "could not be taken back" in refused["refused"]
        assert "Mine." in text.getString()
    finally:
        office.close(doc)


def test_a_proposal_applied_then_restored_away_can_be_applied_again(office):
    # An Undo makes the proposing comment (and tracked changes) anew: the records find
    # them again, so the card can act on them once more.
    doc = _doc(office)
    try:
        turn(office, doc, ("replace_text", {"search": "every region",
                                            "replacement": "all regions"}), apply="comments")
        proposal = _turns(office, doc)[-1]
        results = turn(office, doc, ("replace_text", {"search": "Open text",
                                                      "replacement": "Shut text"}))
        assert results[0]["ok"], results
        later = _turns(office, doc)[-1]
        change = proposal["changes"][0]["id"]
        assert _act(office, doc, action="apply", change=change) == {"done": 1}
        assert _act(office, doc, action="restore", turn=later["number"]) == \
            {"done": 1, "yours": False}
        assert texts(doc)[0] == START[0] and len(annotations(doc)) == 1
        turns = {t["number"]: t for t in _turns(office, doc)}
        assert turns[proposal["number"]]["changes"][0]["state"] == "proposed"
        assert _act(office, doc, action="apply", change=change) == {"done": 1}
        assert texts(doc)[0] == "Sales grew in all regions." and annotations(doc) == []
    finally:
        office.close(doc)

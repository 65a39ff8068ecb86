"""Restore to before a turn (each later turn its own undo step, Redo after), and Keep out."""

import pytest

from tests.support.writer import build, find, save_and_reload, select, texts, turn

ALL_EDITS = [
    ("replace_text", {"search": "kept words", "replacement": "changed"}),
    ("replace_text", {"search": "kept words", "replacement": "changed", "all": True}),
    ("insert_paragraphs", {"markdown": "Inside.", "after_paragraph": 2}),
    ("replace_paragraphs", {"start": 2, "end": 2, "markdown": "Replaced."}),
    ("delete_paragraphs", {"start": 2, "end": 3}),
    ("set_paragraph_style", {"start": 3, "end": 3, "style": "Heading 1"}),
    ("format_text", {"search": "kept words", "bold": True}),
    ("add_comment", {"search": "kept words", "comment": "Hm."}),
    ("insert_table", {"after_paragraph": 2, "rows": [["a"]]}),
]


def _doc(office):
    return build(office, [("Standard", "Open text one."),
                          ("Standard", "Protected kept words here."),
                          ("Standard", "More kept words inside."),
                          ("Standard", "Open text two.")])


def _act(office, doc, **payload):
    return office.job("review.act", document=doc, **payload)


def _three_turns(office, doc):
    turn(office, doc, ("replace_text", {"search": "one", "replacement": "ONE"}))
    turn(office, doc, ("insert_paragraphs", {"markdown": "Second turn.", "after_paragraph": -1}))
    turn(office, doc, ("delete_paragraphs", {"start": 2, "end": 2}))
    return [t["number"] for t in office.job("review.turns", document=doc)["turns"][-3:]]


def test_restore_across_three_turns_then_redo(office):
    doc = _doc(office)
    try:
        start = texts(doc)
        numbers = _three_turns(office, doc)
        after = texts(doc)
        assert after != start
        assert _act(office, doc, action="restore", turn=numbers[1]) == {"done": 2, "yours": False}
        assert texts(doc) == ["Open text ONE.", "Protected kept words here.",
                              "More kept words inside.", "Open text two."]
        assert _act(office, doc, action="restore", turn=numbers[0]) == {"done": 1, "yours": False}
        assert texts(doc) == start
        # Each turn was its own undo step: Redo brings them back one by one.
        undo = doc.getUndoManager()
        for _ in range(3):
            undo.redo()
        assert texts(doc) == after
    finally:
        office.close(doc)


def test_restore_after_user_edits_asks_then_takes_everything_back(office):
    doc = _doc(office)
    try:
        start = texts(doc)
        numbers = _three_turns(office, doc)
        turn(office, doc, {"user_types": "The user's own line."})
        edited = texts(doc)
        asked = _act(office, doc, action="restore", turn=numbers[0])
        assert "edited the document" in asked["asked"]
        assert texts(doc) == edited                 # nothing restored before the answer
        assert _act(office, doc, action="restore", turn=numbers[0], confirmed=True) == \
            {"done": 3, "yours": True}
        assert texts(doc) == start
        undo = doc.getUndoManager()
        while undo.isRedoPossible():
            undo.redo()
        assert texts(doc) == edited
    finally:
        office.close(doc)


def test_a_restore_that_cannot_arrive_puts_everything_back(office):
    doc = _doc(office)
    try:
        numbers = _three_turns(office, doc)
        turn(office, doc, {"user_types": "Typed."})
        before = texts(doc)
        # The undo history no longer reaches the turns: nothing may change.
        doc.getUndoManager().clear()
        refused = _act(office, doc, action="restore", turn=numbers[0], confirmed=True)
        assert "could not be taken back" in refused["refused"]
        assert texts(doc) == before
    finally:
        office.close(doc)


def _mark(office, doc, text):
    select(doc, text)
    return office.job("review.keepout", document=doc, action="toggle")["sentence"]


def test_keep_out_refuses_every_edit_tool_and_shows_in_reads(office):
    doc = _doc(office)
    try:
        select(doc, "kept words here", "More kept")
        sentence = office.job("review.keepout", document=doc, action="toggle")["sentence"]
        assert "paragraphs 2\u20133" in sentence
        marks = office.job("review.keepout", document=doc)["marks"]
        # Whole paragraphs are marked, whatever part of them was selected.
        assert [m["text"] for m in marks] == ["Protected kept words here.\n"
                                              "More kept words inside."]
        before = texts(doc)
        for name, args in ALL_EDITS:
            result = turn(office, doc, (name, args))[0]
            assert not result["ok"], (name, result)
            assert "Keep Marginalia out" in result["content"], (name, result)
            assert "nothing was changed" in result["content"]
        assert texts(doc) == before
        read = turn(office, doc, ("read_document", {}))[0]
        assert "Paragraphs 2\u20133 are marked" in read["content"]
        found = turn(office, doc, ("search_document", {"query": "kept"}))[0]
        assert "Keep Marginalia out" in found["data"]["kept_out"]
        # Outside the marks the tools work as before.
        ok = turn(office, doc, ("replace_text", {"search": "Open text two",
                                                 "replacement": "Free text"}),
                  ("insert_paragraphs", {"markdown": "After.", "after_paragraph": 3}))
        assert all(r["ok"] for r in ok), ok
        # One click on the marked passage removes the mark.
        select(doc, "Protected")
        removed = office.job("review.keepout", document=doc, action="toggle")["sentence"]
        assert "removed" in removed
        assert turn(office, doc, ALL_EDITS[0])[0]["ok"]
    finally:
        office.close(doc)


@pytest.mark.parametrize("ext", ["odt", "docx"])
def test_keep_out_mark_survives_save_and_reload(office, ext):
    doc = _doc(office)
    try:
        _mark(office, doc, "Protected")
        again, _path = save_and_reload(office, doc, ext)
        try:
            marks = office.job("review.keepout", document=again)["marks"]
            assert [m["text"] for m in marks] == ["Protected kept words here."]
            result = turn(office, again, ALL_EDITS[0])[0]
            assert not result["ok"] and "Keep Marginalia out" in result["content"]
            assert find(again, "Protected kept words") is not None
        finally:
            office.close(again)
    finally:
        office.close(doc)


def test_undo_turn_takes_back_only_the_latest_turn(office):
    doc = _doc(office)
    try:
        numbers = _three_turns(office, doc)
        refused = _act(office, doc, action="undo_turn", turn=numbers[1])
        assert "Later edits came after this turn" in refused["refused"]
        assert _act(office, doc, action="undo_turn", turn=numbers[2]) == {"done": 1}
        assert texts(doc) == ["Open text ONE.", "Protected kept words here.",
                              "More kept words inside.", "Open text two.", "Second turn."]
        turns = office.job("review.turns", document=doc)["turns"][-3:]
        assert [t["undone"] for t in turns] == [False, False, True]
        assert turns[2]["changes"][0]["state"] == "undone"
        # The one before is on top again: it can go the same way, no question asked.
        assert _act(office, doc, action="undo_turn", turn=numbers[1]) == {"done": 1}
    finally:
        office.close(doc)


def test_keep_out_from_the_context_menu_command_marks_and_unmarks(office):
    doc = build(office, [("Standard", "Intro."), ("Standard", "Leave this passage alone."),
                         ("Standard", "The end.")])
    try:
        select(doc, "this passage")
        url = "org.marginalia.cmd:KeepOut"
        said = office.job("quick.dispatch", document=doc, url=url)
        assert "keep out of paragraph 2" in said
        assert len(office.job("review.keepout", document=doc)["marks"]) == 1
        assert office.job("quick.menu", doc, has_selection=True,
                          kept_out=True)["entries"][-1]["label"] == "Let Marginalia in"
        select(doc, "passage")
        said = office.job("quick.dispatch", document=doc, url=url)
        assert "removed from paragraph 2" in said
        assert office.job("review.keepout", document=doc)["marks"] == []
    finally:
        office.close(doc)

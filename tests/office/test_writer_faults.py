"""A failure inside the office: one plain sentence, and nothing of the call is left."""

from tests.support.writer import build, texts


def test_a_call_failing_midway_is_taken_back_and_said_plainly(office):
    doc = build(office, [("Standard", "One."), ("Standard", "Two.")])
    try:
        said = office.job("writer.failing_edit", document=doc)["error"]
        assert said == "Writer could not make that change here; nothing was changed."
        assert texts(doc) == ["One.", "Two."]
        # Its undo step is gone too: nothing to undo, nothing to redo.
        manager = doc.getUndoManager()
        assert not manager.getAllUndoActionTitles() and not manager.isRedoPossible()
    finally:
        office.close(doc)


def test_a_call_failing_after_an_earlier_edit_of_the_turn_says_part_may_be_made(office):
    doc = build(office, [("Standard", "One."), ("Standard", "Two.")])
    try:
        said = office.job("writer.failing_edit", document=doc, after_edit="One")["error"]
        # The turn's one undo step holds both calls: it cannot be taken back alone.
        assert said.startswith("Writer could not make that change here, and part of it")
        assert "traceback" not in said and "UNO" not in said
        manager = doc.getUndoManager()
        assert len(manager.getAllUndoActionTitles()) == 1
        manager.undo()
        assert texts(doc) == ["One.", "Two."]
    finally:
        office.close(doc)

"""Tables next to tables: an insertion never takes a neighbouring table with it."""

import pytest

from tests.support.writer import blocks, build, turn


def _tables(doc):
    return [b["table"] for b in blocks(doc) if "table" in b]


@pytest.mark.parametrize("mode", ["direct", "tracked"])
def test_a_table_inserted_right_before_another_keeps_both(office, mode):
    # Writer's gotoNextParagraph steps over a table: the paragraph left over after
    # the new table was deleted up to the paragraph after the next table, and that
    # table with it (one Undo then gave it back under another name).
    doc = build(office, [("Standard", "Intro."), ("table", [["Old", "Table"]]),
                         ("Standard", "After.")])
    try:
        result = turn(office, doc, ("insert_table", {"after_paragraph": 1,
                                                     "rows": [["New", "One"], ["a", "b"]]}),
                      apply=mode)[0]
        assert result["ok"], result["content"]
        assert _tables(doc) == [[["New", "One"], ["a", "b"]], [["Old", "Table"]]]
        names = [b["name"] for b in blocks(doc) if "table" in b]
        doc.getUndoManager().undo()
        assert _tables(doc) == [[["Old", "Table"]]]
        assert [b["name"] for b in blocks(doc) if "table" in b] == names[1:]
    finally:
        office.close(doc)

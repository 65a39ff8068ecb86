"""Change records per edit tool, the three apply modes, and accept/reject per turn.

Turns run in process (writer.call_tools); the records and the card's actions
are read and driven through the review.* job commands the panel's card uses.
"""

import pytest

from tests.support.writer import (annotations, build, find, save_and_reload, text_fields,
                                  texts, tracked_changes, turn)

EVERY_TOOL = [
    ("replace_text", {"search": "every region", "replacement": "all regions"}),
    ("insert_paragraphs", {"markdown": "A new closing line.", "after_paragraph": -1}),
    ("replace_paragraphs", {"start": 3, "end": 3, "markdown": "## Main points"}),
    ("delete_paragraphs", {"start": 7, "end": 7}),
    ("set_paragraph_style", {"start": 10, "end": 10, "style": "Heading 3"}),
    ("format_text", {"search": "report", "italic": True}),
    ("add_comment", {"search": "North doubled", "comment": "Check the figure."}),
    ("insert_table", {"after_paragraph": 2, "rows": [["Q", "Sales"], ["1", "9"]]}),
]


def _turns(office, doc):
    return office.job("review.turns", document=doc)["turns"]


def _act(office, doc, **payload):
    return office.job("review.act", document=doc, **payload)


def _redlines(doc):
    return [(red["author"], red["type"], red["id"]) for red in tracked_changes(doc)]


def test_every_edit_tool_leaves_a_record_that_finds_its_change(office, doc):
    results = turn(office, doc, *EVERY_TOOL)
    assert all(r["ok"] for r in results), results
    (last,) = _turns(office, doc)[-1:]
    changes = last["changes"]
    assert [c["tool"] for c in changes] == [name for name, _a in EVERY_TOOL]
    assert [c["kind"] for c in changes] == ["replace", "insert", "replace", "delete", "restyle",
                                            "format", "comment", "table"]
    first = changes[0]
    assert (first["before"], first["after"]) == ("every region", "all regions")
    assert first["paragraphs"] == [2, 2] and first["mode"] == "direct"
    assert changes[2]["before"] == "Highlights" and changes[2]["after"] == "## Main points"
    assert changes[3]["before"] == "Second step" and changes[3]["after"] == ""
    assert changes[5]["after"] == "italic"
    assert changes[6]["after"] == "Check the figure."
    assert changes[7]["after"].startswith("table 2\u00d72")
    assert all(c["paragraphs"] for c in changes), changes
    # Each record finds its change again after all the later edits of the turn.
    assert _act(office, doc, action="select", change=first["id"])["selected"] == "all regions"
    assert _act(office, doc, action="select",
                change=changes[1]["id"])["selected"] == "A new closing line."
    assert _act(office, doc, action="select",
                change=changes[2]["id"])["selected"] == "Main points"
    # The user types at the top: the numbers move, the handles still find the spots.
    text = doc.getText()
    text.insertString(text.getStart(), "Typed by the user. ", False)
    assert _act(office, doc, action="select", change=first["id"])["selected"] == "all regions"


def _three_tracked_turns(office, doc):
    doc.setPropertyValue("RecordChanges", True)
    find(doc, "The end").setString("THE END")        # the user's own tracked change
    doc.setPropertyValue("RecordChanges", False)
    mine = set(r[2] for r in _redlines(doc))
    for name, args in (("replace_text", {"search": "Sales grew", "replacement": "Revenue grew"}),
                       ("replace_text", {"search": "North doubled",
                                         "replacement": "North tripled"}),
                       ("replace_text", {"search": "First step", "replacement": "Step one"})):
        results = turn(office, doc, (name, args), apply="tracked")
        assert results[0]["ok"], results
    return mine


@pytest.mark.parametrize("ext", ["odt", "docx"])
def test_accept_and_reject_act_on_one_turn_only(office, ext):
    base = build(office, [("Standard", "Sales grew in every region."),
                          ("Standard", "North doubled, South held."),
                          ("Standard", "First step, second step."),
                          ("Standard", "The end.")])
    doc, _path = save_and_reload(office, base, ext)
    office.close(base)
    try:
        mine = _three_tracked_turns(office, doc)
        turns = _turns(office, doc)[-3:]
        assert [t["mode"] for t in turns] == ["tracked"] * 3
        first, second, third = [t["changes"][0] for t in turns]
        assert all(c["state"] == "pending" and c["handle"]["redlines"]
                   for c in (first, second, third))
        # Accept one change of the first turn, reject the one of the second.
        assert _act(office, doc, action="accept", change=first["id"])["done"] == 1
        assert _act(office, doc, action="reject", change=second["id"])["done"] == 1
        body = texts(doc)
        assert body[0] == "Revenue grew in every region."
        assert body[1].startswith("North doubled")
        ids = set(r[2] for r in _redlines(doc))
        assert mine <= ids                    # the user's own change is untouched
        assert set(third["handle"]["redlines"]) <= ids   # and the third turn's too
        # Accept all for the third turn: only its changes go; the user's stay.
        assert _act(office, doc, action="accept_all", turn=turns[2]["number"])["done"] == 1
        left = _redlines(doc)
        assert set(r[2] for r in left) == mine
        assert all(author != "Marginalia (AI)" for author, _t, _i in left)
        states = [t["changes"][0]["state"] for t in _turns(office, doc)[-3:]]
        assert states == ["accepted", "rejected", "accepted"]
    finally:
        office.close(doc)


def test_reject_all_for_a_turn_keeps_other_turns_changes(office, doc):
    turn(office, doc, ("replace_text", {"search": "Sales grew", "replacement": "Revenue rose"}),
         apply="tracked")
    turn(office, doc, ("replace_text", {"search": "South held", "replacement": "South fell"}),
         ("replace_text", {"search": "First step", "replacement": "Step one"}), apply="tracked")
    older, newer = _turns(office, doc)[-2:]
    assert _act(office, doc, action="reject_all", turn=newer["number"])["done"] == 2
    body = texts(doc)
    assert "South held" in body[4] and "First step" in body[5]
    # The older turn's change is still there, still waiting.
    assert set(older["changes"][0]["handle"]["redlines"]) <= set(r[2] for r in _redlines(doc))


@pytest.mark.parametrize("ext", ["odt", "docx"])
def test_comment_only_changes_no_text_and_apply_makes_one_real(office, ext):
    base = build(office, [("Standard", "Sales grew in every region."),
                          ("Standard", "North doubled, South held."),
                          ("Standard", "The end.")])
    doc, _path = save_and_reload(office, base, ext)
    office.close(base)
    try:
        before = texts(doc)
        results = turn(office, doc,
                       ("replace_text", {"search": "every region", "replacement": "all regions"}),
                       ("delete_paragraphs", {"start": 2, "end": 2}),
                       ("insert_paragraphs", {"markdown": "Thanks.", "after_paragraph": 3}),
                       apply="comments")
        assert all(r["ok"] for r in results), results
        assert "comment" in results[0]["content"]
        assert texts(doc) == before
        notes = annotations(doc)
        assert ("Marginalia (AI)", "Replace with: all regions", "every region") in notes
        assert ("Marginalia (AI)", "Delete this.", "North doubled, South held.") in notes
        assert len(notes) == 3
        (last,) = _turns(office, doc)[-1:]
        assert [c["state"] for c in last["changes"]] == ["proposed"] * 3
        assert _act(office, doc, action="apply", change=last["changes"][0]["id"]) == {"done": 1}
        assert texts(doc)[0] == "Sales grew in all regions."
        assert len(annotations(doc)) == 2
        # Apply the delete after the text moved: it still takes the paragraph it meant.
        text = doc.getText()
        text.insertString(text.getStart(), "Top line.\n", False)
        assert _act(office, doc, action="apply", change=last["changes"][1]["id"]) == {"done": 1}
        assert not any("North doubled" in t for t in texts(doc))
        assert [c["state"] for c in _turns(office, doc)[-1]["changes"]][:2] == ["applied"] * 2
    finally:
        office.close(doc)


def test_comment_only_adds_no_tracked_change_where_the_document_records_them(office):
    """A Word document saved with "track revisions" on records every change: a proposal
    at a point (an insertion after a paragraph) was recorded as an insertion of its
    comment's anchor, and the comments-only turn changed the tracked changes too."""
    doc = build(office, [("Standard", "Sales grew in every region."),
                         ("Standard", "The end.")])
    try:
        doc.setPropertyValue("RecordChanges", True)
        results = turn(office, doc,
                       ("insert_paragraphs", {"markdown": "**Thanks.**", "after_paragraph": 1}),
                       ("insert_table", {"after_paragraph": 2, "rows": [["a", "b"]]}),
                       ("replace_text", {"search": "every region", "replacement": "all"}),
                       apply="comments")
        assert all(r["ok"] for r in results), results
        assert tracked_changes(doc) == []
        assert sorted(n[1] for n in annotations(doc)) == [
            "Insert after this: Thanks.", "Insert after this: table 1\u00d72: a | b",
            "Replace with: all"]
        assert doc.getPropertyValue("RecordChanges")
    finally:
        office.close(doc)


def _input_fields(doc):
    return [field.getPropertyValue("Content")
            for field in text_fields(doc, "com.sun.star.text.textfield.Input")]


@pytest.mark.parametrize("mode,call", [
    ("comments", ("replace_text", {"search": "document", "replacement": "file"})),
    ("direct", ("add_comment", {"search": "document", "comment": "Which one?"}))])
def test_a_comment_on_words_inside_an_input_field_leaves_the_field_whole(office, mode, call):
    """A Word content control opens in Writer as an input field with text of its own: a
    comment absorbing words inside it replaced the whole field (its words gone)."""
    doc = build(office, [("Standard", "To and more."), ("Standard", "The end.")])
    try:
        field = doc.createInstance("com.sun.star.text.textfield.Input")
        field.setPropertyValue("Content", "make your document look good")
        doc.getText().insertTextContent(find(doc, "and"), field, False)
        before = texts(doc)
        assert "make your document look good" in before[0]
        result = turn(office, doc, call, apply=mode)[0]
        assert result["ok"], result["content"]
        assert texts(doc) == before
        assert _input_fields(doc) == ["make your document look good"]
        assert len(annotations(doc)) == 1
    finally:
        office.close(doc)


@pytest.mark.parametrize("line_break", [False, True])
def test_a_text_edit_record_names_its_paragraph_past_many_paragraphs(office, line_break):
    # The record counts paragraphs from the text since the walk's last checkpoint and checks
    # the count with one comparison (writer.walk); a manual line break makes the count
    # wrong, and the checked walk must then give the number instead.
    from com.sun.star.text.ControlCharacter import LINE_BREAK
    items = [("Standard", "Filler paragraph %d." % n) for n in range(1, 300)]
    items[150] = ("Standard", "The target sentence sits here.")
    doc = build(office, items)
    try:
        if line_break:
            rng = find(doc, "Filler paragraph 140.")
            rng.getText().insertControlCharacter(rng.getEnd(), LINE_BREAK, False)
        results = turn(office, doc,
                       ("replace_paragraphs", {"start": 250, "end": 250, "markdown": "Late.",
                                               "expect": "Filler paragraph 250"}),
                       ("replace_text", {"search": "target sentence", "replacement": "aim"}),
                       ("replace_text", {"search": "Filler paragraph 7.",
                                         "replacement": "Early."}))
        assert all(r["ok"] for r in results), results
        changes = _turns(office, doc)[-1]["changes"]
        assert [c["paragraphs"] for c in changes] == [[250, 250], [151, 151], [7, 7]]
    finally:
        office.close(doc)


@pytest.mark.parametrize("mode", ["direct", "tracked"])
def test_a_replace_all_names_every_paragraph_it_changed(office, mode):
    # Reported: a replace-all that changed paragraphs 2 and 3 was recorded as [2, 2].
    doc = build(office, [("Standard", "Intro."), ("Standard", "The cat sat."),
                         ("Standard", "The cat sat too."), ("Standard", "Dogs bark."),
                         ("Standard", "The cat slept."), ("Standard", "End.")])
    try:
        track = {"track_changes": True} if mode == "tracked" else {}
        results = turn(office, doc, ("replace_text", {"search": "cat", "replacement": "fox",
                                                      "all": True}),
                       ("replace_text", {"search": "sat", "replacement": "lay", "all": True}),
                       ("replace_text", {"search": "bark", "replacement": "howl"}), **track)
        assert all(r["ok"] for r in results), results
        spread, both, one = _turns(office, doc)[-1]["changes"]
        assert spread["paragraphs"] == [2, 5] and spread["places"] == [2, 3, 5]
        assert both["paragraphs"] == [2, 3] and "places" not in both
        assert one["paragraphs"] == [4, 4] and "places" not in one
        # The user adds a paragraph at the top; Review settles the numbers again, and
        # a replace-all still names all its places, moved.
        text = doc.getText()
        text.insertControlCharacter(text.getStart(), 0, False)      # PARAGRAPH_BREAK
        spread, both, one = office.job("review.turns", document=doc,
                                       settle=True)["turns"][-1]["changes"]
        assert spread["paragraphs"] == [3, 6] and spread["places"] == [3, 4, 6]
        assert both["paragraphs"] == [3, 4] and one["paragraphs"] == [5, 5]
    finally:
        office.close(doc)


def test_a_replace_all_reaching_into_a_table_names_the_table_too(office):
    doc = build(office, [("Standard", "The cat sat."), ("Standard", "Dogs bark."),
                         ("table", [["A cat", "b"], ["c", "d"]]), ("Standard", "Dogs again."),
                         ("Standard", "A cat at the end.")])
    try:
        results = turn(office, doc, ("replace_text", {"search": "cat", "replacement": "fox",
                                                      "all": True}),
                       # A regular expression: each match located in the document.
                       ("replace_text", {"search": "D.gs", "replacement": "Cats",
                                         "regex": True, "all": True}))
        assert all(r["ok"] for r in results), results
        plain, regex = _turns(office, doc)[-1]["changes"]
        assert plain["paragraphs"] == [1, 5] and plain["places"] == [1, 3, 5]
        assert regex["paragraphs"] == [2, 4] and regex["places"] == [2, 4]
    finally:
        office.close(doc)

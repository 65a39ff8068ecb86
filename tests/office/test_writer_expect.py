"""Numbered edits land where the model meant: numbering lines, expect, the user's typing."""

import pytest

from tests.support.writer import blocks, build, one, redlines, texts, turn

AI = "Marginalia (AI)"
STALE = "The document changed since you read it; read it again"


def ok(result):
    assert result["ok"], result["content"]
    return result


def test_an_insert_says_how_numbers_moved_and_a_stale_expect_is_refused(office, doc):
    first = ok(turn(office, doc, ("insert_paragraphs", {"markdown": "One.\n\nTwo.",
                                                        "after_paragraph": 1}))[0])
    assert first["data"]["numbering"] == "Paragraphs 2 and after are now 4 and after."
    before = texts(doc)
    # The old number of "Highlights" (3) with what the model had read there.
    stale = one(office, doc, "delete_paragraphs", start=3, end=3, expect="Highlights")
    assert not stale["ok"]
    assert "Paragraph 3 does not begin with \u201cHighlights\u201d; it now reads " \
        "\u201cTwo.\u201d." in stale["content"]
    assert "Paragraph 5 begins with it now." in stale["content"]
    assert texts(doc) == before
    # The new number the result gave, with the same expect: the right paragraph goes.
    done = ok(one(office, doc, "delete_paragraphs", start=5, end=5, expect="## highlights"))
    assert done["data"]["numbering"] == "Paragraphs 6 and after are now 5 and after."
    assert "Highlights" not in texts(doc)
    assert texts(doc)[4] == "North doubled"


def test_without_expect_the_old_number_hits_whatever_is_there_now(office, doc):
    results = turn(office, doc,
                   ("insert_paragraphs", {"markdown": "Inserted.", "after_paragraph": 0}),
                   ("delete_paragraphs", {"start": 3, "end": 3}))
    assert [r["ok"] for r in results] == [True, True]
    assert results[0]["data"]["numbering"] == "Paragraphs 1 and after are now 2 and after."
    # Paragraph 3 is "Sales grew..." now (the result said so): that is what went.
    assert texts(doc)[:3] == ["Inserted.", "Annual report", "Highlights"]


def test_expect_checks_lists_headings_tables_and_style_changes(office, doc):
    ok(one(office, doc, "set_paragraph_style", start=7, end=7, style="Heading 3",
           expect="2. Second"))
    assert blocks(doc)[6]["style"] == "Heading 3"
    wrong = one(office, doc, "set_paragraph_style", start=8, end=8, style="Title",
                expect="The end of the report")
    assert not wrong["ok"] and "Paragraph 10 begins with it now." in wrong["content"]
    gone = one(office, doc, "replace_paragraphs", start=9, end=9, markdown="x",
               expect="Quarterly totals")
    assert not gone["ok"] and "no longer in the document" in gone["content"]
    ok(one(office, doc, "delete_paragraphs", start=9, end=9, expect="| Region | Sales"))
    assert doc.getTextTables().getCount() == 0


def test_tracked_deletions_keep_their_numbers_for_the_next_edit(office, doc):
    results = turn(office, doc, ("delete_paragraphs", {"start": 2, "end": 2}),
                   ("set_paragraph_style", {"start": 3, "end": 3, "style": "Heading 1",
                                            "expect": "Highlights"}),
                   ("read_document", {"start": 1, "end": 3}),
                   track_changes=True)
    assert all(r["ok"] for r in results), [r["content"] for r in results]
    assert results[0]["data"]["numbering"] == "Paragraphs 3 and after keep their numbers."
    assert results[2]["content"].split("\n")[1] == "2: Sales grew in every region this year."
    b = blocks(doc)
    assert (b[2]["text"], b[2]["style"]) == ("Highlights", "Heading 1")
    types = [kind for kind, _author in redlines(doc)]
    assert "Delete" in types


def test_a_user_edit_mid_turn_refuses_numbered_edits_and_undo_keeps_the_typing(office, doc):
    um = doc.getUndoManager()
    results = turn(office, doc,
                   ("read_document", {}),
                   ("replace_text", {"search": "grew", "replacement": "rose"}),
                   {"user_types": "A line the user typed."},
                   ("delete_paragraphs", {"start": 3, "end": 3}),
                   ("insert_paragraphs", {"markdown": "x", "after_paragraph": 1}),
                   ("replace_text", {"search": "Annual report", "replacement": "Annual review"}),
                   ("delete_paragraphs", {"start": 4, "end": 4, "expect": "Highlights"}),
                   title="Tidy up")
    assert [r["ok"] for r in results] == [True, True, False, False, True, True]
    assert results[2]["content"].startswith("Error: " + STALE)
    assert results[3]["content"].startswith("Error: " + STALE)
    assert texts(doc)[:4] == ["A line the user typed.", "Annual review",
                              "Sales rose in every region this year.", "North doubled"]
    titles = um.getAllUndoActionTitles()
    assert titles[0] == "Marginalia: Tidy up"
    # The user's typing is its own step between the turn's two parts.
    assert titles[1] != "Marginalia: Tidy up" and "Marginalia: Tidy up" in titles[2:]
    um.undo()
    after = texts(doc)
    assert after[:4] == ["A line the user typed.", "Annual report",
                         "Sales rose in every region this year.", "Highlights"]


def test_a_read_after_the_user_edit_allows_numbered_edits_again(office, doc):
    results = turn(office, doc, {"user_types": "Typed."},
                   ("delete_paragraphs", {"start": 1, "end": 1}),
                   ("search_document", {"query": "Highlights"}),
                   ("delete_paragraphs", {"start": 4, "end": 4}))
    assert [r["ok"] for r in results] == [False, True, True]
    assert texts(doc)[:4] == ["Typed.", "Annual report", "Sales grew in every region this year.",
                              "North doubled"]


def test_a_turn_of_many_edits_is_still_one_undo_step(office, doc):
    before = texts(doc)
    um = doc.getUndoManager()
    depth = len(um.getAllUndoActionTitles())
    results = turn(office, doc,
                   ("replace_text", {"search": "grew", "replacement": "rose"}),
                   ("read_document", {"start": 1, "end": 2}),
                   ("insert_paragraphs", {"markdown": "x", "after_paragraph": 1}),
                   ("delete_paragraphs", {"start": 2, "end": 2, "expect": "x"}),
                   title="Many")
    assert all(r["ok"] for r in results)
    assert len(um.getAllUndoActionTitles()) == depth + 1
    um.undo()
    assert texts(doc) == before


def test_with_tracked_changes_a_user_edit_mid_turn_is_kept_apart_too(office, doc):
    um = doc.getUndoManager()
    results = turn(office, doc,
                   ("replace_text", {"search": "grew", "replacement": "rose"}),
                   {"user_types": "Typed by the user."},
                   ("set_paragraph_style", {"start": 3, "end": 3, "style": "Title"}),
                   ("delete_paragraphs", {"start": 4, "end": 4, "expect": "Highlights"}),
                   title="Tracked", track_changes=True)
    assert [r["ok"] for r in results] == [True, False, True]
    assert results[1]["content"].startswith("Error: " + STALE)
    assert results[2]["data"]["numbering"] == "Paragraphs 5 and after keep their numbers."
    # Tracked, the deleted text stays in the text until accepted: deleted "grew", then
    # "rose" after it (a changed word reads as one replacement).
    assert texts(doc)[:4] == ["Typed by the user.", "Annual report",
                              "Sales grewrose in every region this year.", "Highlights"]
    assert doc.getRedlines().getCount() > 0
    before = doc.getRedlines().getCount()
    um.undo()
    # The tracked deletion is taken back; the user's line (recorded under their own
    # name) and the first edit ("grew" out, "rose" in) stay.
    kept = sorted((kind, author == AI) for kind, author in redlines(doc))
    assert kept == [("Delete", True), ("Insert", False), ("Insert", True)]
    assert doc.getRedlines().getCount() < before
    assert texts(doc)[:4] == ["Typed by the user.", "Annual report",
                              "Sales grewrose in every region this year.", "Highlights"]


@pytest.mark.parametrize("record", [True, False])
def test_a_turn_of_mixed_edits_walks_on_and_lands_every_numbered_edit(office, record):
    # The block tools share the turn's walk (writer.walk.lending): after text edits,
    # inserts, deletes, a restyle, a table and the user's typing each numbered edit
    # must still land on its paragraph, with the change records on and off.
    doc = build(office, [("Heading 1", "Plan"), ("Standard", "Alpha one."),
                         ("Standard", "Beta two."), ("table", [["a", "b"]]),
                         ("Standard", "Gamma three."), ("Standard", "Delta four."),
                         ("Standard", "Epsilon five.")])
    try:
        results = turn(
            office, doc,
            ("replace_paragraphs", {"start": 6, "end": 6, "markdown": "Delta rewritten.",
                                    "expect": "Delta"}),
            ("insert_paragraphs", {"after_paragraph": 2,
                                   "markdown": "Inserted A.\n\nInserted B."}),
            ("replace_text", {"search": "Beta two.", "replacement": "Beta 2."}),
            ("set_paragraph_style", {"start": 7, "end": 7, "style": "Heading 2",
                                     "expect": "Gamma"}),
            ("delete_paragraphs", {"start": 9, "end": 9, "expect": "Epsilon"}),
            {"user_types": "Typed."},
            ("replace_paragraphs", {"start": 9, "end": 9, "markdown": "Delta final.",
                                    "expect": "Delta rewritten"}),
            ("search_document", {"query": "Delta"}),
            ("insert_paragraphs", {"after_paragraph": 9, "markdown": "The end."}),
            record=record)
        assert [r["ok"] for r in results] == [True] * 8, [r["content"] for r in results]
        assert texts(doc) == ["Typed.", "Plan", "Alpha one.", "Inserted A.", "Inserted B.",
                              "Beta 2.", [["a", "b"]], "Gamma three.", "Delta final.",
                              "The end."]
        assert blocks(doc)[7]["style"] == "Heading 2"
    finally:
        office.close(doc)


"""The fast paths of the reading map and of replace_text against the slow, exact ones.

(writer.outline and read.places have their own cases in test_writer_outline.)

The numbering-only map (search, selection), the full map (info, read) and
replace_text's count-only find must give what the enumeration and the
range-by-range checks give, on documents with formatting, emoji, tables,
lists, comments, fields and tracked changes; a map built in slices must not
survive an edit made between two slices.
"""

import json

import pytest
from com.sun.star.text.ControlCharacter import LINE_BREAK, PARAGRAPH_BREAK

from tests.support.writer import (EMOJI_LINE, accept_all, blocks, build, find, one, redlines,
                                  sample, turn)

AI = "Marginalia (AI)"
QUERIES = ("the", "e", "\U0001F600", "North", "report")


def _check(office, doc):
    check = office.job("writer.map_check", document=doc, queries=list(QUERIES))
    assert check["same"] and check["same_guessed"], check
    assert check["same_numbering"] and check["same_places"], check
    # The outline found by style and the matches placed from the text (writer.outline,
    # read.places), where they apply, agree with the walk.
    assert check["same_outline"] and check.get("same_selection", True), check
    assert check["same_text_places"] is not False, check
    assert any(check["places"]), "the queries should find something"
    return check


def _insert_after(doc, anchor, control, words):
    """A paragraph or line break, then ``words``, right after the text ``anchor``."""
    text = doc.getText()
    cursor = text.createTextCursorByRange(find(doc, anchor).getEnd())
    text.insertControlCharacter(cursor, control, False)
    text.insertString(cursor, words, False)


def _comment(doc, text):
    note = doc.createInstance("com.sun.star.text.textfield.Annotation")
    note.setPropertyValue("Content", "a note")
    rng = find(doc, text)
    rng.getText().insertTextContent(rng, note, True)


def test_sample_with_comments_matches_the_enumeration(office):
    doc = sample(office)
    try:
        _comment(doc, "grew")
        _comment(doc, "smiles")
        check = _check(office, doc)
        # The sample has a table: the walk places it, no enumeration needed,
        # and asks where the table is only where its first line shows.
        assert check["fast"] and check["numbering_fast"]
        assert check["guessed"] and check["same_guessed"]
    finally:
        office.close(doc)


def test_tracked_changes_match_the_enumeration(office):
    doc = build(office, [("Heading 1", "Tracked report"), ("Standard", "The first line stays."),
                         ("List 1", "North item", 0), ("Standard", EMOJI_LINE),
                         ("Standard", "The end of the report.")])
    try:
        doc.setPropertyValue("RecordChanges", True)
        find(doc, "first ").setString("")               # a tracked deletion stays in the text
        _insert_after(doc, "stays.", PARAGRAPH_BREAK, "An inserted paragraph with the \U0001F600.")
        check = _check(office, doc)
        assert check["fast"] and check["numbering_fast"] and check["blocks"] == 6
    finally:
        office.close(doc)


def test_line_breaks_without_tables_need_no_walk_and_match(office):
    doc = build(office, [("Standard", "first"), ("Heading 2", "the head"),
                         ("Standard", "x \U0001F600 y")])
    try:
        _insert_after(doc, "first", LINE_BREAK, "the second line")
        text = doc.getText()
        cursor = text.createTextCursorByRange(text.getEnd())
        text.insertControlCharacter(cursor, LINE_BREAK, False)
        check = _check(office, doc)
        assert check["fast"] and check["numbering_fast"] and check["blocks"] == 3
    finally:
        office.close(doc)


def test_a_field_holding_a_newline_falls_back_to_the_exact_map(office):
    doc = build(office, [("Standard", "before the field"), ("Standard", "the end \U0001F600")])
    try:
        field = doc.createInstance("com.sun.star.text.textfield.Input")
        field.setPropertyValue("Content", "two\nlines")
        text = doc.getText()
        text.insertTextContent(find(doc, "before").getEnd(), field, False)
        assert "two\nlines" in text.getString()
        check = _check(office, doc)
        assert check["blocks"] == 2
        assert not check["numbering_fast"]
    finally:
        office.close(doc)


def test_an_edit_between_slices_is_in_the_answer(office):
    doc = sample(office)
    try:
        done = office.job("writer.edit_between_slices", document=doc,
                          heading="Between the slices")
        # One slice, the edit, a slice on the new text, the one that finishes and answers.
        assert done["ok"] and done["runner_calls"] >= 3
        info = json.loads(done["content"])
        assert info["outline"][0] == "1: # Between the slices"
        assert info["paragraphs"] == 11
        # The same as a plain call now that nothing changes any more.
        assert one(office, doc, "get_document_info")["data"] == info
    finally:
        office.close(doc)


def _hits(office, count):
    items = [("Heading 1", "Report")]
    for i in range(count):
        items.append(("Standard", "Line %d with the word zephyr in it." % i))
    doc = build(office, items)
    found = find(doc, "zephyr")
    found.setPropertyValue("CharWeight", 150.0)
    doc.getUndoManager().clear()
    return doc


def test_replace_all_counts_keeps_formatting_and_undoes_in_one_step(office):
    doc = _hits(office, 40)
    try:
        result = one(office, doc, "replace_text", search="zephyr", replacement="westerly",
                     all=True)
        assert result["ok"] and result["data"] == {"replaced": 40, "matches": 40}
        assert find(doc, "zephyr") is None
        assert find(doc, "westerly").getPropertyValue("CharWeight") == 150.0
        doc.getUndoManager().undo()
        assert find(doc, "westerly") is None
        # Searching right after the undo finds every hit where it was.
        found = one(office, doc, "search_document", query="zephyr", match_case=True)["data"]
        assert found["count"] == 40
        assert [m["paragraph"] for m in found["matches"]] == list(range(2, 42))
    finally:
        office.close(doc)


def test_replace_all_while_recording_is_tracked_with_the_ai_author(office):
    doc = _hits(office, 12)
    try:
        results = turn(office, doc, ("replace_text", {"search": "zephyr",
                                                      "replacement": "westerly",
                                                      "all": True}), track_changes=True)
        assert results[0]["data"]["replaced"] == 12
        authors = set(author for _kind, author in redlines(doc))
        assert authors == {AI}
    finally:
        office.close(doc)


@pytest.mark.parametrize("all_", [True, False])
def test_replace_all_refuses_a_match_in_a_protected_section(office, all_):
    doc = build(office, [("Standard", "Locked zephyr here."), ("Standard", "Open zephyr."),
                         ("Standard", "Open zephyr again.")])
    try:
        text = doc.getText()
        first = text.createEnumeration().nextElement()
        section = doc.createInstance("com.sun.star.text.TextSection")
        cursor = text.createTextCursorByRange(first.getStart())
        cursor.gotoEndOfParagraph(True)
        text.insertTextContent(cursor, section, True)
        section.setPropertyValue("IsProtected", True)
        before = text.getString()
        result = one(office, doc, "replace_text", search="zephyr", replacement="x", all=all_)
        assert not result["ok"] and "protected section" in result["content"]
        assert text.getString() == before
        # With a protected section elsewhere, matches outside it are replaced and counted.
        result = one(office, doc, "replace_text", search="Open", replacement="Free", all=True)
        assert result["ok"] and result["data"]["replaced"] == 2
    finally:
        office.close(doc)


def test_no_tool_holds_the_main_thread_long_on_a_long_document(office):
    doc = office.new_writer()
    try:
        office.job("writer.generate", document=doc, chapters=30, sections=8, paragraphs=10,
                   rare=1000)
        doc.getText().insertString(doc.getText().getStart(), "x", False)
        for name, arguments in (("get_document_info", {}),
                                ("read_document", {"start": 1200, "end": 1260}),
                                ("search_document", {"query": "zephyr"})):
            doc.getText().insertString(doc.getText().getStart(), "x", False)
            result = turn(office, doc, (name, arguments))[0]
            assert result["ok"], result["content"]
            assert result["longest_main"] < 0.25, (name, result["longest_main"])
    finally:
        office.close(doc)


def _replaced_doc(office, search, replacement, regex, track):
    """The sample (lists, table, emoji, bold) with a comment, after one replace all."""
    doc = sample(office)
    _comment(doc, "smiles")
    results = turn(office, doc, ("replace_text", {"search": search, "replacement": replacement,
                                                  "all": True, "match_case": False,
                                                  "regex": regex}), track_changes=track)
    return doc, results[0]


@pytest.mark.parametrize("search, replacement, track", [
    ("the", "THE", False), ("\U0001F600", "\U0001F642\U0001F642", True), ("North", "N", True)])
def test_replace_all_fast_path_gives_what_the_checked_path_gives(office, search, replacement,
                                                                  track):
    # regex=true on a query without special characters takes the match-by-match path.
    fast, fast_result = _replaced_doc(office, search, replacement, False, track)
    slow, slow_result = _replaced_doc(office, search, replacement, True, track)
    try:
        assert fast_result["ok"] and slow_result["ok"]
        assert fast_result["data"] == slow_result["data"]
        assert fast_result["data"]["replaced"] >= 1
        # The same tracked changes (a lone match's deletion may sit on either side).
        assert sorted(redlines(fast)) == sorted(redlines(slow))
        assert bool(redlines(fast)) is track
        for doc in (fast, slow):
            accept_all(office, doc)
        assert blocks(fast) == blocks(slow)
        assert fast.getText().getString() == slow.getText().getString()
        assert find(fast, "grew").getPropertyValue("CharWeight") == 150.0
    finally:
        office.close(fast)
        office.close(slow)


def test_tables_with_empty_first_cells_and_breaks_are_placed_by_the_guessing_walk(office):
    doc = build(office, [("Standard", ""), ("table", [["", "b"], ["c", "d"]]), ("Standard", ""),
                         ("Standard", "mid \U0001F600 line"), ("table", [["mid", "x"]]),
                         ("Standard", "mid"), ("Standard", "end")])
    try:
        _insert_after(doc, "line", LINE_BREAK, "after the break")
        check = _check(office, doc)
        assert check["fast"] and check["guessed"] and check["blocks"] == 7
    finally:
        office.close(doc)

"""The rewrite protocol's edit tool in a real office: the model's new lines -> the edit.

Each turn starts as a chat turn does (the document shown whole, so the model has seen
it), then calls ``edit`` with new lines; the document must change exactly as asked,
keeping every unchanged word's formatting, in every apply mode, as one undo step.
"""

import pytest

from tests.support.writer import (accept_all, blocks, build, find, redlines, select, texts,
                                  turn)

SHOWN = 6000          # characters of a document the turn shows whole


def lines_turn(office, doc, *calls, **options):
    return turn(office, doc, *calls, protocol="rewrite", shown=SHOWN, **options)


def edit(office, doc, text, **options):
    return lines_turn(office, doc, ("edit", {"text": text}), **options)[0]


def visit(office):
    return build(office, [("Heading 1", "Visit"),
                          ("Text body", "We will recieve the guests at noon."),
                          ("Text body", "The museum is definately worth a visit."),
                          ("Text body", "Lunch is served in the garden.")])


def bold_words(doc, paragraph_text):
    """The bold stretches of the paragraph holding ``paragraph_text``."""
    out = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        para = enum.nextElement()
        if paragraph_text not in para.getString():
            continue
        portions = para.createEnumeration()
        while portions.hasMoreElements():
            portion = portions.nextElement()
            if portion.getPropertyValue("CharWeight") >= 150 and portion.getString().strip():
                out.append(portion.getString().strip())
    return out


def test_the_view_shows_numbered_lines_with_bold_and_the_model_edits_them(office):
    doc = visit(office)
    try:
        find(doc, "guests").setPropertyValue("CharWeight", 150.0)
        shown = office.job("writer.context", doc, protocol="rewrite", inline=SHOWN)
        assert "1: # Visit\n2: We will recieve the **guests** at noon." in shown["document"]
        result = edit(office, doc, "2: We will receive the **guests** at noon.\n"
                                   "3: The museum is definitely worth a visit.")
        assert result["ok"], result["content"]
        assert texts(doc) == ["Visit", "We will receive the guests at noon.",
                              "The museum is definitely worth a visit.",
                              "Lunch is served in the garden."]
        # Only the misspelt words changed: "guests" is still bold, nothing else became so.
        assert bold_words(doc, "guests") == ["guests"]
        assert result["content"] == "Done: paragraph 2 revised; paragraph 3 revised."
        # One turn, one undo step: Undo gives back the original.
        doc.getUndoManager().undo()
        assert texts(doc)[1:3] == ["We will recieve the guests at noon.",
                                   "The museum is definately worth a visit."]
    finally:
        office.close(doc)


def test_headings_deletions_insertions_and_a_table_in_one_edit(office):
    doc = build(office, [("Text body", "Introduction"), ("Text body", "This guide explains."),
                         ("Text body", "Apples: 3 euros"), ("Text body", "Pears: 4 euros"),
                         ("Text body", "Old note.")])
    try:
        result = edit(office, doc, "0:\nA one-line summary.\n1: # Introduction\n"
                                   "3: | Fruit | Price |\n| Apples | 3 euros |\n"
                                   "| Pears | 4 euros |\n5:")
        assert result["ok"], result["content"]
        got = blocks(doc)
        assert got[0]["text"] == "A one-line summary."
        assert got[1]["text"] == "Introduction" and got[1]["outline"] == 1
        assert got[2]["text"] == "This guide explains." and got[2]["outline"] == 0
        assert got[3]["table"] == [["Fruit", "Price"], ["Apples", "3 euros"],
                                   ["Pears", "4 euros"]]
        # "Pears: 4 euros" went into the table, so it left with its line; "Old note." was
        # deleted by its bare number; nothing else is there.
        # Writer ends a body with a paragraph: after a table that is an empty one.
        assert len(got) == 5 and got[4]["text"] == "", got
    finally:
        office.close(doc)


def test_bold_is_set_and_cleared_as_the_new_line_says(office):
    doc = build(office, [("Text body", "The red house is on the hill.")])
    try:
        find(doc, "red house").setPropertyValue("CharWeight", 150.0)
        result = edit(office, doc, "1: La **maison rouge** est sur la colline.")
        assert result["ok"], result["content"]
        assert texts(doc) == ["La maison rouge est sur la colline."]
        assert bold_words(doc, "maison") == ["maison rouge"]
        result = edit(office, doc, "1: La maison rouge est sur *la colline*.")
        assert result["ok"], result["content"]
        assert bold_words(doc, "maison") == []
    finally:
        office.close(doc)


@pytest.mark.parametrize("text,kind", [
    ("", "empty"), ("2: ...", "unchanged"), ("9:", "no paragraph 9"),
    ("A new line with no number.", "no paragraph number"),
    ("2: The corrected sentence.", "the example"),
])
def test_bad_edits_are_refused_in_one_sentence_and_change_nothing(office, text, kind):
    doc = visit(office)
    try:
        before = texts(doc)
        result = edit(office, doc, text)
        assert not result["ok"]
        words = {"empty": "empty", "unchanged": "empty", "no paragraph 9": "no paragraph 9",
                 "no paragraph number": "no paragraph number",
                 "the example": "the example"}[kind]
        assert words in result["content"], result["content"]
        assert "Traceback" not in result["content"] and texts(doc) == before
        assert not doc.getUndoManager().isUndoPossible()
    finally:
        office.close(doc)


def test_a_kept_out_line_is_left_out_of_the_edit_and_alone_refused(office):
    doc = visit(office)
    try:
        select(doc, "The museum")
        office.job("review.keepout", doc, action="toggle")
        before = texts(doc)
        # The kept-out line alone: refused, nothing changed.
        result = edit(office, doc, "3: The museum is definitely worth a visit.")
        assert not result["ok"] and "Keep Marginalia out" in result["content"], result["content"]
        assert texts(doc) == before
        # With another line: that one is made, the kept-out one left, the model told.
        result = edit(office, doc, "2: We will receive the guests at noon.\n"
                                   "3: The museum is definitely worth a visit.")
        assert result["ok"] and "keeps Marginalia out of paragraph 3" in result["content"]
        assert texts(doc)[1:3] == ["We will receive the guests at noon.",
                                   "The museum is definately worth a visit."]
        # Deleting it, with other lines: the whole edit is refused.
        before = texts(doc)
        result = edit(office, doc, "3: ~~The museum is definately worth a visit.~~\n"
                                   "4: Lunch is served outside.")
        assert not result["ok"] and "Keep Marginalia out" in result["content"]
        assert texts(doc) == before
    finally:
        office.close(doc)


def test_the_user_typing_meanwhile_is_found_or_refused(office):
    doc = visit(office)
    try:
        # The user adds a line at the top after the model saw the document: the
        # paragraphs it names moved, unchanged, and the edit lands where they are now.
        results = lines_turn(office, doc, {"user_types": "A line the user typed."},
                             ("edit", {"text": "3: The museum is definitely worth a visit."}))
        assert results[0]["ok"], results[0]["content"]
        assert texts(doc)[3] == "The museum is definitely worth a visit."
        assert texts(doc)[0] == "A line the user typed."
    finally:
        office.close(doc)


def test_tracked_and_comment_only_edits(office):
    doc = visit(office)
    try:
        result = edit(office, doc, "2: We will receive the guests at noon.\n4:",
                      apply="tracked")
        assert result["ok"], result["content"]
        assert redlines(doc), "the edit was not recorded"
        assert all(author == "Marginalia (AI)" for _kind, author in redlines(doc))
        accept_all(office, doc)
        assert texts(doc) == ["Visit", "We will receive the guests at noon.",
                              "The museum is definately worth a visit."]
    finally:
        office.close(doc)
    doc = visit(office)
    try:
        result = edit(office, doc, "3: The museum is definitely worth a visit.",
                      apply="comments")
        assert result["ok"] and "Proposed" in result["content"], result["content"]
        assert texts(doc)[2] == "The museum is definately worth a visit."
        fields = doc.getTextFields().createEnumeration()
        notes = []
        while fields.hasMoreElements():
            field = fields.nextElement()
            if field.supportsService("com.sun.star.text.textfield.Annotation"):
                notes.append(field.getPropertyValue("Content"))
        assert any("definitely" in n for n in notes), notes
    finally:
        office.close(doc)

"""The outline found by style search, and search matches placed from the text before them,
against the exact map (writer.outline, read.places; the walk reads every paragraph).

get_document_info lists headings found by a style search when no paragraph
sets its outline level directly and every heading is the body's own; a
search on a changed document without tables, fields or manual breaks places
its matches from the text before them. Both must give what the slow paths
give, and step aside (None) wherever they cannot be exact.
"""

from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

from tests.support.writer import EMOJI_LINE, build, find, turn

QUERIES = ("the", "Summary", "\U0001F600", "Chapter")


def _check(office, doc, limit=60):
    check = office.job("writer.map_check", document=doc, queries=list(QUERIES), limit=limit)
    assert check["same_numbering"] and check["same_places"], check
    assert check["same_outline"], (check["outline"], check.get("want_outline"))
    assert check.get("same_selection", True), check
    return check


def _report(office):
    """Three heading levels, a repeated heading text also used by a body paragraph,
    an empty heading, emoji; no table."""
    return build(office, [
        ("Heading 1", "Chapter One"), ("Standard", "Summary"),
        ("Heading 2", "Summary"), ("Standard", "the first words of the chapter"),
        ("Heading 3", "A detail \U0001F600"), ("Standard", EMOJI_LINE),
        ("Heading 2", ""), ("Standard", "after an empty heading"),
        ("Heading 1", "Chapter Two"), ("Heading 2", "Summary"),
        ("Standard", "the end of the report"),
    ])


def test_headings_found_by_style_match_the_walk(office):
    doc = _report(office)
    try:
        check = _check(office, doc)
        assert check["outline_fast"] and check["same_text_places"] is True
        # The repeated "Summary" is placed by measuring, the body's "Summary" left out.
        assert check["outline"][:3] == ["1: # Chapter One", "3: ## Summary",
                                        "5: ### A detail \U0001F600"]
        assert "10: ## Summary" in check["outline"]
    finally:
        office.close(doc)


def test_a_long_outline_keeps_the_top_level_and_counts_the_rest(office):
    items = []
    for n in range(1, 9):
        items += [("Heading 1", "Chapter %d" % n), ("Heading 2", "Section %d.1" % n),
                  ("Heading 2", "Section %d.2" % n), ("Standard", "Text of chapter %d." % n)]
    doc = build(office, items)
    try:
        check = _check(office, doc, limit=5)
        assert check["outline_fast"]
        assert check["outline"] == ["1: # Chapter 1", "5: # Chapter 2", "9: # Chapter 3",
                                    "13: # Chapter 4", "17: # Chapter 5",
                                    "\u2026 and 3 more headings"]
    finally:
        office.close(doc)


def test_a_direct_outline_level_or_a_table_takes_the_walk(office):
    doc = _report(office)
    try:
        para = doc.getText().createTextCursorByRange(find(doc, "after an empty").getStart())
        para.setPropertyValue("OutlineLevel", 2)
        check = _check(office, doc)
        assert not check["outline_fast"]
        assert "8: ## after an empty heading" in check["outline"]
        para.setPropertyToDefault("OutlineLevel")
        head = doc.getText().createTextCursorByRange(find(doc, "Chapter Two").getStart())
        head.setPropertyValue("OutlineLevel", 0)
        check = _check(office, doc)
        assert not check["outline_fast"] and "9: # Chapter Two" not in check["outline"]
    finally:
        office.close(doc)
    doc = build(office, [("Heading 1", "Costs"), ("table", [["a", "b"], ["1", "2"]]),
                         ("Heading 2", "After the table")])
    try:
        check = _check(office, doc)
        assert not check["outline_fast"] and check["same_text_places"] is None
        assert check["outline"] == ["1: # Costs", "3: ## After the table"]
    finally:
        office.close(doc)


def _styled(text, content, style):
    """``content`` set into ``text`` (a header's, a frame's) in paragraph style ``style``."""
    text.setString(content)
    cursor = text.createTextCursor()
    cursor.gotoEnd(True)
    cursor.setPropertyValue("ParaStyleName", style)


def _header(doc):
    style = doc.getStyleFamilies().getByName("PageStyles").getByName("Standard")
    style.setPropertyValue("HeaderIsOn", True)
    return style.getPropertyValue("HeaderText")


def _frame(doc):
    frame = doc.createInstance("com.sun.star.text.TextFrame")
    doc.getText().insertTextContent(find(doc, "the end").getStart(), frame, False)
    return frame.getText()


def test_a_heading_in_the_header_or_a_frame_takes_the_walk(office):
    for where, style in ((_header, "Heading 1"), (_frame, "Heading 2")):
        doc = _report(office)
        try:
            _styled(where(doc), "Not in the body", style)
            check = _check(office, doc)
            assert not check["outline_fast"] and "Not in the body" not in str(check["outline"])
        finally:
            office.close(doc)


def test_a_style_that_gains_or_changes_its_level_is_seen(office):
    doc = _report(office)
    try:
        families = doc.getStyleFamilies().getByName("ParagraphStyles")
        custom = doc.createInstance("com.sun.star.style.ParagraphStyle")
        families.insertByName("Part Title", custom)
        _check(office, doc)          # the heading styles are now known for this document
        cursor = doc.getText().createTextCursorByRange(find(doc, "the end of").getStart())
        cursor.setPropertyValue("ParaStyleName", "Part Title")
        custom.setPropertyValue("OutlineLevel", 1)
        check = _check(office, doc)
        assert check["outline_fast"] and "11: # the end of the report" in check["outline"]
        families.getByName("Heading 2").setPropertyValue("OutlineLevel", 4)
        check = _check(office, doc)
        assert check["outline_fast"] and "3: #### Summary" in check["outline"]
    finally:
        office.close(doc)


def test_tracked_changes_and_comments_keep_the_text_places_exact(office):
    doc = _report(office)
    try:
        doc.setPropertyValue("RecordChanges", True)
        rng = find(doc, "first words")
        rng.setString("opening lines")
        text = doc.getText()
        text.insertControlCharacter(find(doc, "the end").getStart(), PARAGRAPH_BREAK, False)
        doc.setPropertyValue("RecordChanges", False)
        note = doc.createInstance("com.sun.star.text.textfield.Annotation")
        note.setPropertyValue("Content", "a note")
        where = find(doc, "Chapter Two")
        where.getText().insertTextContent(where, note, True)
        check = _check(office, doc)
        # A comment is a text field: the text path steps aside, the map is used.
        assert check["same_text_places"] is None and check["outline_fast"]
    finally:
        office.close(doc)


def test_a_search_after_a_user_edit_lets_numbered_edits_run_again(office):
    doc = _report(office)
    try:
        results = turn(office, doc, {"user_types": "Typed."},
                       ("delete_paragraphs", {"start": 1, "end": 1}),
                       ("search_document", {"query": "detail"}),
                       ("delete_paragraphs", {"start": 2, "end": 2}))
        assert [r["ok"] for r in results] == [False, True, True]
        assert results[1]["data"]["matches"][0]["paragraph"] == 6
        assert doc.getText().getString().split("\n")[:3] == ["Typed.", "Summary", "Summary"]
    finally:
        office.close(doc)

"""The reading tools and the per-turn context, in process against real documents."""

import pytest

from tests.support.writer import EMOJI_LINE, SAMPLE_READ, build, one, select, turn

CONTRACT = ["get_document_info", "read_document", "search_document", "get_selection",
            "replace_text", "insert_paragraphs", "replace_paragraphs", "delete_paragraphs",
            "replace_selection", "set_paragraph_style", "format_text", "add_comment",
            "insert_table"]


def test_tool_names_and_required_arguments_are_the_contract(office, doc):
    schemas = office.job("writer.schemas", document=doc)
    by_name = dict((s["function"]["name"], s["function"]) for s in schemas)
    assert sorted(by_name) == sorted(CONTRACT)
    params = by_name["replace_text"]["parameters"]["properties"]
    assert sorted(params) == ["all", "match_case", "regex", "replacement", "search"]
    assert sorted(by_name["format_text"]["parameters"]["properties"]) == sorted(
        ["search", "bold", "italic", "underline", "strikethrough", "color", "highlight", "all"])
    assert by_name["insert_table"]["parameters"]["required"] == ["after_paragraph", "rows"]
    assert all(len(f["description"]) > 30 for f in by_name.values())


def test_document_info(office, doc):
    info = one(office, doc, "get_document_info")["data"]
    assert info["title"] == "Untitled 1" or info["title"].startswith("Untitled")
    assert info["paragraphs"] == 10 and info["tables"] == 1
    assert info["outline"] == ["1: # Annual report", "3: ## Highlights"]
    assert info["words"] > 30 and info["pages"] == 1
    assert info["has_selection"] is False and info["recording_changes"] is False


def test_read_document_compact_form(office, doc):
    result = one(office, doc, "read_document", start=1, end=-1)
    assert result["ok"]
    assert result["content"].split("\n") == SAMPLE_READ
    assert result["summary"] == "Read paragraphs 1\u201310 of 10"


def test_read_document_range_and_errors(office, doc):
    assert one(office, doc, "read_document", start=3, end=4)["content"] == \
        "3: ## Highlights\n4: - North doubled"
    bad = one(office, doc, "read_document", start=11, end=12)
    assert not bad["ok"] and "out of range" in bad["content"] and "1 to 10" in bad["content"]
    bad = one(office, doc, "read_document", start="two", end=3)
    assert not bad["ok"] and "whole number" in bad["content"]


def test_read_document_budget_hint_on_a_long_document(office):
    doc = build(office, [("Standard", "Paragraph %d " % n + "words " * 60) for n in range(400)])
    try:
        first = one(office, doc, "read_document", start=1, end=-1)["content"]
        assert len(first) < 21000
        hint = first.split("\n")[-1]
        assert hint.startswith("[Stopped at paragraph")
        nxt = int(hint.split("start=")[1].split(",")[0])
        assert nxt > 20
        assert first.split("\n")[-2].startswith("%d: Paragraph %d " % (nxt - 1, nxt - 2))
        follow = one(office, doc, "read_document", start=nxt, end=-1)["content"]
        assert follow.startswith("%d: Paragraph %d " % (nxt, nxt - 1))
    finally:
        office.close(doc)


def test_search_document_reports_paragraph_and_code_point_offset(office, doc):
    data = one(office, doc, "search_document", query="smiles")["data"]
    assert data["count"] == 1
    match = data["matches"][0]
    assert match["paragraph"] == 8
    # Three characters above U+FFFF precede it: Writer counts 3 more UTF-16 units.
    assert match["offset"] == EMOJI_LINE.index("smiles")
    assert match["context"] == EMOJI_LINE


def test_search_document_case_regex_and_tables(office, doc):
    assert one(office, doc, "search_document", query="north")["data"]["count"] == 2
    assert one(office, doc, "search_document", query="north",
               match_case=True)["data"]["count"] == 0
    data = one(office, doc, "search_document", query="S[a-z]+ step", regex=True,
               match_case=True)["data"]
    assert [m["text"] for m in data["matches"]] == ["Second step"]
    cell = one(office, doc, "search_document", query="Region",
                      match_case=True)["data"]["matches"][0]
    assert cell["paragraph"] == 9 and "table" in cell["where"]
    assert one(office, doc, "search_document", query="absent words")["data"]["count"] == 0


def test_get_selection_with_emoji_before_it(office, doc):
    select(doc, "𝔸lpha", "smiles")
    data = one(office, doc, "get_selection")["data"]
    assert data["text"] == "𝔸lpha and 😀 smiles"
    assert data["start_paragraph"] == data["end_paragraph"] == 8
    assert data["start_offset"] == EMOJI_LINE.index("𝔸")
    assert data["end_offset"] == len(EMOJI_LINE)


def test_selection_over_paragraphs_is_marked_in_read_document(office, doc):
    select(doc, "grew", "Highlights")
    data = one(office, doc, "get_selection")["data"]
    assert (data["start_paragraph"], data["end_paragraph"]) == (2, 3)
    text = one(office, doc, "read_document", start=2, end=3)["content"]
    # Each line marks its own part, so a line never has an unbalanced mark.
    assert text == ("2: Sales \u27e6grew in every region this year.\u27e7\n"
                    "3: ## \u27e6Highlights\u27e7")


def test_context_is_short_and_names_outline_and_selection(office, doc):
    select(doc, "South held")
    out = office.job("writer.context", document=doc)
    context = out["context"]
    assert "Untitled" in context.split("\n")[0]
    assert "10 paragraphs" in context
    assert "  3: ## Highlights" in context
    assert "Selected (paragraphs 5-5): \u201cSouth held\u201d" in context
    assert len(context) < 1500


def test_context_names_the_cursor_paragraph(office, doc):
    cursor = select(doc, "Second step")
    cursor.collapseToStart()
    doc.getCurrentController().select(cursor)
    context = office.job("writer.context", document=doc)["context"]
    assert "The cursor is in paragraph 7:\n7: 2. Second step" in context


def test_a_short_document_goes_whole_into_the_context(office, doc):
    select(doc, "South held")
    whole = office.job("writer.context", document=doc, inline=4000)["context"]
    lines = whole.split("\n")
    start = lines.index(next(line for line in lines if line.startswith("The whole document")))
    # Numbered exactly as read_document numbers it, the selection marked the same way.
    read = one(office, doc, "read_document", start=1, end=-1)["content"].split("\n")
    assert lines[start + 1:] == read and len(read) >= 10
    assert "\u27e6South held\u27e7" in whole
    assert "Outline (paragraph: heading):" not in whole   # the headings are in the text
    # Longer than the limit: the short description, as without one.
    short = office.job("writer.context", document=doc, inline=200)["context"]
    assert "The whole document" not in short and "  3: ## Highlights" in short
    assert short == office.job("writer.context", document=doc)["context"]


def test_reading_changes_nothing(office, doc):
    doc.setModified(False)
    turn(office, doc, ("get_document_info",), ("read_document", {"start": 1, "end": -1}),
         ("search_document", {"query": "the"}), ("get_selection",))
    assert not doc.isModified()
    assert not doc.getUndoManager().isUndoPossible() or \
        doc.getUndoManager().getCurrentUndoActionTitle() != "Marginalia: test turn"


def _mixed(office, tables):
    """Line breaks, a heading, a list, tables, emoji: what the cheap map must place."""
    from com.sun.star.text.ControlCharacter import LINE_BREAK, PARAGRAPH_BREAK
    d = office.new_writer()
    text = d.getText()
    c = text.createTextCursor()
    text.insertString(c, "first", False)
    text.insertControlCharacter(c, LINE_BREAK, False)
    text.insertString(c, "second line", False)
    text.insertControlCharacter(c, PARAGRAPH_BREAK, False)
    c.setPropertyValue("ParaStyleName", "Heading 1")
    text.insertString(c, "head", False)
    text.insertControlCharacter(c, PARAGRAPH_BREAK, False)
    c.setPropertyValue("ParaStyleName", "Standard")
    c.setPropertyValue("NumberingStyleName", "List 1")
    text.insertString(c, "item", False)
    text.insertControlCharacter(c, PARAGRAPH_BREAK, False)
    c.setPropertyValue("NumberingStyleName", "")
    for _ in range(tables):
        t = d.createInstance("com.sun.star.text.TextTable")
        t.initialize(2, 2)
        text.insertTextContent(c, t, False)
        t.getCellByName("A1").setString("a1")
        t.getCellByName("B1").setString("b1\nline")
    text.insertString(c, "after \U0001F600", False)
    text.insertControlCharacter(c, LINE_BREAK, False)
    text.insertControlCharacter(c, PARAGRAPH_BREAK, False)
    text.insertControlCharacter(c, PARAGRAPH_BREAK, False)
    text.insertString(c, "end", False)
    return d


@pytest.mark.parametrize("tables, fast", [(0, True), (1, True), (2, False)])
def test_cheap_map_reads_exactly_what_the_enumeration_reads(office, tables, fast):
    d = _mixed(office, tables)
    try:
        check = office.job("writer.map_check", document=d)
        assert check["same"] and check["fast"] is fast
        assert check["blocks"] == 6 + tables
    finally:
        office.close(d)


def test_restyling_without_text_change_shows_at_once(office, doc):
    assert one(office, doc, "get_document_info")["data"]["outline"][0] == "1: # Annual report"
    doc.getText().createEnumeration().nextElement().setPropertyValue("ParaStyleName", "Heading 2")
    assert one(office, doc, "get_document_info")["data"]["outline"][0] == "1: ## Annual report"

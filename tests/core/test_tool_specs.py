"""document.tool_specs: one declaration per tool, and what the rest derives from it."""

import pytest

from marginalia.document import change_log as cl
from marginalia.document import tool_specs as ts
from marginalia.ui import tool_words

EDITS = ("edit", "comment_paragraph", "revise_paragraph", "replace_text", "insert_paragraphs", "replace_paragraphs", "delete_paragraphs",
         "replace_selection", "set_paragraph_style", "format_text", "add_comment",
         "insert_table")


def test_names_are_unique_and_every_schema_lists_its_required_properties():
    names = [spec.name for spec in ts.SPECS]
    assert len(names) == len(set(names)) == 16
    for spec in ts.SPECS:
        params = spec.parameters
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"]), spec.name
        assert spec.description and spec.words.running.endswith("\u2026"), spec.name


def test_targets_decide_the_flags():
    assert tuple(s.name for s in ts.SPECS if s.edits) == EDITS
    assert {s.name for s in ts.SPECS if s.numbered} == {
        "revise_paragraph", "comment_paragraph", "insert_paragraphs", "replace_paragraphs", "delete_paragraphs", "set_paragraph_style",
        "insert_table"}
    assert {s.name for s in ts.SPECS if s.sized} == {"read_document", "search_document"}
    assert all(s.kind in ts.KINDS for s in ts.SPECS if s.edits)
    assert all(s.kind is None for s in ts.SPECS if not s.edits)
    # Only a text edit that makes no paragraph break leaves every paragraph in place.
    replace = ts.spec("replace_text")
    assert replace.keeps_paragraphs({"replacement": "a b"})
    assert not replace.keeps_paragraphs({"replacement": "a\nb"})
    assert not ts.spec("insert_paragraphs").keeps_paragraphs({"markdown": "x"})


@pytest.mark.parametrize("name,arguments,after,proposal", [
    ("replace_text", {"search": "a", "replacement": "b"}, "b", "Replace with: b"),
    ("delete_paragraphs", {"start": 1, "end": 2}, "", "Delete this."),
    ("insert_paragraphs", {"markdown": "New", "after_paragraph": 1}, "New",
     "Insert after this: New"),
    ("set_paragraph_style", {"start": 1, "end": 1, "style": "Title"}, "style Title",
     "Set the paragraph style Title."),
    ("format_text", {"search": "x", "bold": True, "italic": False, "color": "red"},
     "bold, not italic, text color red", "Format: bold, not italic, text color red."),
    ("insert_table", {"after_paragraph": 0, "rows": [["a", "b"], ["c"]]},
     "table 2\u00d72: a | b", "Insert after this: table 2\u00d72: a | b"),
])
def test_records_and_proposals_read_from_the_declaration(name, arguments, after, proposal):
    assert cl.after_text(name, arguments) == after
    assert cl.proposal(name, arguments) == proposal
    change = cl.make(1, 1, name, cl.TRACKED, arguments)
    assert change.kind == ts.spec(name).kind and change.state == cl.PENDING


def test_each_protocol_offers_its_own_set_with_its_own_forms():
    # The tools protocol: the thirteen tools as before, none of the rewrite protocol's.
    assert [s.name for s in ts.offered(ts.TOOLS)] == [
        "get_document_info", "read_document", "search_document", "get_selection",
        "replace_text", "insert_paragraphs", "replace_paragraphs", "delete_paragraphs",
        "replace_selection", "set_paragraph_style", "format_text", "add_comment",
        "insert_table"]
    # The rewrite protocol: edit first, then what an edit of lines cannot do well.
    lean = ts.offered(ts.REWRITE)
    assert [s.name for s in lean] == ["edit", "read_document", "search_document",
                                      "replace_text", "add_comment"]
    for spec in lean:
        description, params = spec.offered(ts.REWRITE)
        assert description and params["additionalProperties"] is False, spec.name
        assert set(params["required"]) <= set(params["properties"]), spec.name
        # A lean form only leaves parameters out: the tool's function takes the full set.
        assert set(params["properties"]) <= set(spec.parameters["properties"]), spec.name
    # Replacing in the rewrite protocol means everywhere, its refusals name its edit
    # block, and it never deletes (small models "delete" a paragraph's first words).
    assert ts.spec("replace_text").defaults(ts.REWRITE) == {"all": True, "edit_block": True}
    assert "struck through" in ts.spec("replace_text").refusal(ts.REWRITE, {"replacement": ""})
    assert ts.spec("replace_text").refusal(ts.TOOLS, {"replacement": ""}) is None
    assert "adds none" in ts.spec("replace_text").refusal(ts.REWRITE, {"replacement": "a\nb"})
    assert ts.spec("replace_text").refusal(ts.REWRITE, {"replacement": "a b"}) is None
    assert ts.spec("replace_text").defaults(ts.TOOLS) == {}
    assert ts.spec("replace_text").offered(ts.TOOLS)[1] is ts.spec("replace_text").parameters
    # A step of an edit is offered by no protocol.
    assert ts.spec("revise_paragraph").protocols == ts.spec("comment_paragraph").protocols == ()


def test_a_comment_is_made_not_proposed_in_comment_only():
    made = cl.make(1, 1, "add_comment", cl.COMMENTS, {"search": "x", "comment": "Why?"})
    assert made.state == cl.MADE and made.before == "x" and made.after == "Why?"
    assert cl.make(2, 1, "replace_text", cl.COMMENTS, {"search": "x"}).state == cl.PROPOSED


def test_the_panel_words_come_from_the_declarations():
    for spec in ts.SPECS:
        assert tool_words.running(spec.name) == spec.words.running
        assert tool_words.tool_line(spec.name, True, spec.name) == spec.words.done
        assert tool_words.tool_line(spec.name, False, "%s failed" % spec.name) == \
            "Couldn't %s" % spec.words.action
    assert tool_words.running("no_such_tool") == tool_words.WORKING

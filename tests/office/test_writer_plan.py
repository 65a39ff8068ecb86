"""One plan per call: the keep-out check fails closed; one state per document, dropped on close.

The plan tests run writer.plan through the bridge on a real document (the same
module the office runs); the turns run in process.
"""

import pytest

from marginalia.document import tool_specs
from marginalia.errors import ToolError
from marginalia.writer import keepout, plan
from tests.support.writer import build, select, texts, turn

ITEMS = [("Standard", "Open words here."), ("Standard", "Kept words here."),
         ("Standard", "More open words.")]


def _keep_out(office, doc, text):
    select(doc, text)
    return office.job("review.keepout", document=doc, action="toggle")["sentence"]


def test_a_target_that_cannot_be_found_is_refused_while_passages_are_kept_out(office):
    doc = build(office, ITEMS)
    try:
        spec = tool_specs.spec("replace_paragraphs")
        unsure = plan.Plan(spec, {"start": 2, "end": 2}, problem=True)
        # No kept-out passage: nothing to protect, the tool finds its own target.
        plan.check_keep_out(doc, unsure, keepout.marks(doc))
        assert "paragraph 2" in _keep_out(office, doc, "Kept words")
        marks = keepout.marks(doc)
        assert len(marks) == 1
        with pytest.raises(ToolError) as refused:
            plan.check_keep_out(doc, unsure, marks)
        assert str(refused.value) == plan.UNSURE
        # A plan the office could find is checked by its target.
        found = plan.make(doc, plan.Walker(doc), spec, {"start": 3, "end": 3})
        assert not found.problem and (found.first, found.last) == (3, 3)
        plan.check_keep_out(doc, found, marks)
        over = plan.make(doc, plan.Walker(doc), spec, {"start": 1, "end": 2})
        with pytest.raises(ToolError) as kept:
            plan.check_keep_out(doc, over, marks)
        assert "Keep Marginalia out" in str(kept.value)
    finally:
        office.close(doc)


def test_a_plan_never_raises_it_says_it_could_not_look(office):
    doc = build(office, ITEMS)
    walker = plan.Walker(doc)
    office.close(doc)
    made = plan.make(doc, walker, tool_specs.spec("delete_paragraphs"), {"start": 1, "end": 1})
    assert made.problem and made.anchor is None


def test_every_match_of_a_replace_all_is_checked_and_the_refusal_changes_nothing(office):
    doc = build(office, ITEMS)
    try:
        _keep_out(office, doc, "Kept words")
        result = turn(office, doc, ("replace_text", {"search": "words", "replacement": "terms",
                                                     "all": True}))[0]
        assert not result["ok"] and "Keep Marginalia out" in result["content"]
        assert texts(doc) == [t for _s, t in ITEMS]
        # The first match alone is outside the mark: it is the one changed.
        result = turn(office, doc, ("replace_text", {"search": "words",
                                                     "replacement": "terms"}))[0]
        assert result["ok"], result["content"]
        assert texts(doc) == ["Open terms here.", "Kept words here.", "More open words."]
    finally:
        office.close(doc)


def test_a_closed_documents_state_goes_with_it(office):
    doc = build(office, ITEMS)
    key = doc.RuntimeUID
    result = turn(office, doc, ("replace_text", {"search": "Open", "replacement": "Shut"}))[0]
    assert result["ok"], result["content"]
    states = office.job("doc.states", document=doc)
    assert key in states["keys"] and states["turns"] == 1
    office.close(doc)
    assert key not in office.job("doc.states")["keys"]

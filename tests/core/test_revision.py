"""document.revision: the model's new lines -> the edits, and every refusal (pure)."""

import pytest

from marginalia.document import revision as rv
from marginalia.document.docview import Para
from marginalia.document.inline import Run


def doc(*blocks):
    """Paras from short specs: "# Title", "- item", "text", ("**b** rest" with runs)."""
    out = []
    for number, spec in enumerate(blocks, 1):
        if isinstance(spec, Para):
            spec.number = number
            out.append(spec)
        elif spec.startswith("# "):
            out.append(Para(number, spec[2:], heading=1, runs=[Run(spec[2:])]))
        elif spec.startswith("## "):
            out.append(Para(number, spec[3:], heading=2, runs=[Run(spec[3:])]))
        elif spec.startswith("- "):
            out.append(Para(number, spec[2:], list_level=1, list_kind="bullet",
                            runs=[Run(spec[2:])]))
        else:
            out.append(Para(number, spec, runs=[Run(spec)]))
    return out


def run(paras, text, seen=None, locate=None):
    by = {p.number: p for p in paras}
    if seen is None:
        seen = {p.number: rv.shown(p) for p in paras}
    return rv.plan(text, seen, by.get, len(paras), locate)


def kinds(result):
    return [(op.kind, op.first, op.last) for op in result.ops]


VISIT = doc("# Visit", "We will recieve the guests at noon.",
            "The museum is definately worth a visit.", "Lunch is served in the garden.")


def test_lines_are_read_with_numbers_new_lines_and_table_rows():
    lines = rv.read("2: We will receive\n\nnew one\n3:\n4: ...\n5: | a | b |\n   | c | d |\n"
                    "```\n| x | 1 |\n| y | 2 |")
    assert lines == [rv.Line(2, "We will receive"), rv.Line(None, "new one"),
                     rv.Line(3, ""), rv.Line(4, "", anchor=True),
                     rv.Line(5, "| a | b |\n| c | d |"), rv.Line(None, "| x | 1 |\n| y | 2 |")]
    # A time is text, not a number; a numbered list item is not a paragraph number.
    assert rv.read("10:30 we meet\n2. item") == [rv.Line(None, "10:30 we meet"),
                                                 rv.Line(None, "2. item")]


def test_changed_words_are_revisions_and_unchanged_lines_nothing():
    result = run(VISIT, "1: # Visit\n2: We will receive the guests at noon.\n"
                        "3: The museum is definitely worth a visit.")
    assert kinds(result) == [("revise", 3, 3), ("revise", 2, 2)]
    assert result.ops[1].markdown == "We will receive the guests at noon."
    assert result.ops[1].expect == "We will recieve the guests at noon."


def test_a_heading_marker_alone_is_a_restyle_and_a_number_alone_a_deletion():
    paras = doc("Introduction", "This guide explains.", "Rules", "Doors close.")
    result = run(paras, "1: # Introduction\n3: ## Rules\n4:")
    assert kinds(result) == [("delete", 4, 4), ("restyle", 3, 3), ("restyle", 1, 1)]
    assert [op.level for op in result.ops[1:]] == [2, 1]
    # Paragraph 2, not named, stays: only what the text names changes.
    assert all(op.first != 2 for op in result.ops)


def test_heading_back_to_body_text_is_a_restyle_to_level_zero():
    result = run(doc("# Notes", "text"), "1: Notes")
    assert kinds(result) == [("restyle", 1, 1)] and result.ops[0].level == 0


def test_new_lines_go_after_the_line_above_or_before_the_line_below():
    top = run(VISIT, "A short summary of the visit.\n1: # Visit")
    assert kinds(top) == [("insert", 0, 0)]
    at_start = run(VISIT, "0:\nSummary first.")
    assert kinds(at_start) == [("insert", 0, 0)]
    end = run(VISIT, "4: Lunch is served in the garden.\n## Conclusion\nIt went well.")
    assert kinds(end) == [("insert", 4, 4)]
    assert end.ops[0].markdown == "## Conclusion\n\nIt went well."
    middle = run(VISIT, "2: ...\n- one\n- two\n3: The museum is definitely worth a visit.")
    assert kinds(middle) == [("revise", 3, 3), ("insert", 2, 2)]


def test_a_numbered_line_then_new_lines_replace_one_paragraph_by_several():
    result = run(VISIT, "3:\n| Fruit | Price |\n| Apples | 3 |")
    assert kinds(result) == [("insert", 3, 3), ("delete", 3, 3)]
    # Rows as the view shows a table: the first is its header.
    assert result.ops[0].markdown == "| Fruit | Price |\n| --- | --- |\n| Apples | 3 |"


def test_merged_and_tabled_neighbours_go_with_the_change_that_took_their_words():
    story = doc("# Story", "The rain started at dawn.", "It did not stop until noon.",
                "Then the sun came out.")
    merged = run(story, "2: The rain started at dawn. It did not stop until noon.")
    assert kinds(merged) == [("delete", 3, 3), ("revise", 2, 2)]
    assert merged.absorbed == [3]
    prices = doc("# Prices", "Apples: 3 euros", "Pears: 4 euros", "Plums: 2 euros",
                 "Prices include tax.")
    table = run(prices, "2: | Fruit | Price |\n| --- | --- |\n| Apples | 3 euros |\n"
                        "| Pears | 4 euros |\n| Plums | 2 euros |")
    assert kinds(table) == [("delete", 3, 4), ("replace", 2, 2)]
    # A changed line that only adds some of a neighbour's words takes nothing with it.
    kept = run(story, "2: The rain started at dawn and did not stop.")
    assert kinds(kept) == [("revise", 2, 2)] and kept.absorbed == []


def test_short_paragraphs_are_never_taken_as_merged():
    plan_ = doc("# Plan", "Costs", "Costs stay under budget.")
    result = run(plan_, "3: Costs stay under budget; costs are checked.")
    assert kinds(result) == [("revise", 3, 3)]


def test_a_line_that_reads_like_another_paragraph_is_moved_to_it():
    # The model numbered the museum line 2: it is paragraph 3's new version.
    result = run(VISIT, "2: The museum is definitely worth a visit.")
    assert kinds(result) == [("revise", 3, 3)] and result.renumbered == {2: 3}
    # A translation resembles nothing: its own number stands.
    french = run(VISIT, "2: Nous recevrons les invités à midi.")
    assert kinds(french) == [("revise", 2, 2)] and french.renumbered == {}


def test_a_text_without_numbers_is_matched_to_the_paragraphs_it_resembles():
    result = run(VISIT, "We will receive the guests at noon.\n"
                        "The museum is definitely worth a visit.")
    assert kinds(result) == [("revise", 3, 3), ("revise", 2, 2)]
    summary = run(VISIT, "A summary.\n# Visit")
    assert kinds(summary) == [("insert", 0, 0)]
    with pytest.raises(rv.Refusal) as refused:
        run(VISIT, "## Conclusion\nAll went well.")
    assert refused.value.kind == rv.UNPLACED and "0:" in str(refused.value)


def test_bold_and_italic_are_compared_with_what_was_shown():
    red = doc("# Welcome", Para(0, "The red house is on the hill.", runs=[
        Run("The "), Run("red house", bold=True), Run(" is on the hill.")]))
    assert rv.shown(red[1]) == "The **red house** is on the hill."
    assert run(red, "2: The **red house** is on the hill.").ops == []
    assert kinds(run(red, "2: The red house is on the hill.")) == [("revise", 2, 2)]
    assert kinds(run(red, "2: La **maison rouge** est sur la colline.")) == [("revise", 2, 2)]


def test_list_items_of_their_own_kind_are_revised_others_replaced():
    items = doc("- one", "- two", "plain")
    assert kinds(run(items, "1: - uno")) == [("revise", 1, 1)]
    assert kinds(run(items, "2: 1. two")) == [("replace", 2, 2)]
    assert kinds(run(items, "3: - plain")) == [("replace", 3, 3)]


def test_refusals_say_why_and_change_nothing():
    for text in ("", "  \n", "4: ...", "```\n```"):
        with pytest.raises(rv.Refusal) as refused:
            run(VISIT, text)
        assert refused.value.kind == rv.EMPTY
    with pytest.raises(rv.Refusal) as refused:
        run(VISIT, "9:")
    assert refused.value.kind == rv.UNKNOWN and refused.value.paragraphs == [9]
    assert "has 4 paragraphs" in str(refused.value)
    # A new line numbered past the end is added at the end.
    assert kinds(run(VISIT, "5: More.")) == [("insert", 4, 4)]


def test_a_paragraph_not_seen_is_shown_in_the_refusal():
    with pytest.raises(rv.Refusal) as refused:
        run(VISIT, "3: The museum.", seen={1: "# Visit", 2: rv.shown(VISIT[1])})
    assert refused.value.kind == rv.NOT_SEEN and refused.value.paragraphs == [3]
    assert "3: The museum is definately worth a visit." in str(refused.value)


def test_a_paragraph_the_user_changed_is_refused_unless_found_unchanged_elsewhere():
    seen = {p.number: rv.shown(p) for p in VISIT}
    # The user inserted a paragraph at the top: everything moved down by one.
    now = doc("New first line.", "# Visit", "We will recieve the guests at noon.",
              "The museum is definately worth a visit.", "Lunch is served in the garden.")

    def locate(line):
        return [p.number for p in now if rv.shown(p) == line]
    result = run(now, "2: We will receive the guests at noon.", seen=seen, locate=locate)
    assert kinds(result) == [("revise", 3, 3)]
    # Changed in place (the user rewrote it): refused, with what it says now.
    edited = doc("# Visit", "We will greet the guests at one.",
                 "The museum is definately worth a visit.", "Lunch is served in the garden.")
    with pytest.raises(rv.Refusal) as refused:
        run(edited, "2: We will receive the guests at noon.", seen=seen,
            locate=lambda line: [])
    assert refused.value.kind == rv.CHANGED
    assert "2: We will greet the guests at one." in str(refused.value)


def test_ops_run_from_the_last_paragraph_to_the_first():
    result = run(VISIT, "0:\nTop.\n2: We will receive the guests at noon.\n3:\n"
                        "4: Lunch is served in the garden.\nEnd.")
    assert [op.position for op in result.ops] == sorted(
        (op.position for op in result.ops), reverse=True)
    assert kinds(result) == [("insert", 4, 4), ("delete", 3, 3), ("revise", 2, 2),
                             ("insert", 0, 0)]


# What Qwen2.5-Coder 1.5B really wrote in the eval (its transcripts): the passage as it
# should read, often numbered from 1 again. Its words place each line.

def test_a_line_is_deleted_struck_through_or_skipped_by_its_number_never_left_out():
    park = doc("# Office news", "The kitchen has a new coffee machine.",
               "The parking lot will be closed on Monday for repairs.",
               "The printer on floor two is fixed.")
    # Skipped by number between two lines written one after the other, every line where
    # its number says: deleted, as the passage says.
    result = run(park, "2: The kitchen has a new coffee machine.\n"
                       "4: The printer on floor two is fixed.")
    assert kinds(result) == [("delete", 3, 3)]
    # Not written next to each other, or more than SKIP_MAX skipped: kept.
    assert run(park, "1: # Office news\n4: The printer on floor two is fixed.").ops == []
    # Struck through: deleted, found by its words even under the wrong number.
    result = run(park, "2: ~~The parking lot will be closed on Monday for repairs.~~")
    assert kinds(result) == [("delete", 3, 3)]
    assert kinds(run(park, "~~The kitchen has a new coffee machine.~~")) == [("delete", 2, 2)]
    with pytest.raises(rv.Refusal) as refused:
        run(park, "3: ~~The canteen is closed.~~")
    assert refused.value.kind == rv.UNPLACED and "The canteen" in str(refused.value)
    notes = doc("# Notes", "Bring a warm coat.", "Meet at the station.", "Bring a warm coat.",
                "Tickets are free.")
    # Numbered as the passage reads once the line is gone (the 1.5B's way): deleted.
    result = run(park, "2: The kitchen has a new coffee machine.\n"
                       "3: The printer on floor two is fixed.")
    assert kinds(result) == [("delete", 3, 3)]
    assert kinds(run(notes, "1: # Notes\n2: Bring a warm coat.\n3: Meet at the station.\n"
                            "4: Tickets are free.")) == [("delete", 4, 4)]
    # Numbered off from the start, both coats left out (the 1.5B did): only the pair
    # whose numbers say so goes, the second coat; the first stays.
    result = run(notes, "2: # Notes\n3: Meet at the station.\n4: Tickets are free.")
    assert kinds(result) == [("delete", 4, 4)]
    # Only changed lines (every given line changes something): the others stay.
    heads = doc("Introduction", "This guide explains the new office rules.", "Rules",
                "Doors close at eight.", "Contact", "Write to the desk.")
    result = run(heads, "1: # Introduction\n2: # Rules\n3: # Contact")
    assert kinds(result) == [("restyle", 5, 5), ("restyle", 3, 3), ("restyle", 1, 1)]


def test_rows_numbered_one_by_one_or_without_edge_pipes_are_one_new_table():
    prices = doc("# Prices", "Apples: 3 euros", "Pears: 4 euros", "Plums: 2 euros",
                 "Prices include tax.")
    for text in ("1: # Prices\n2: Fruit | Price\n3: Apples | 3 euros\n4: Pears | 4 euros\n"
                 "5: Plums | 2 euros",
                 "2: | Fruit | Price |\n3: | Apples | 3 euros |\n4: | Pears | 4 euros |\n"
                 "5: | Plums | 2 euros |"):
        result = run(prices, text)
        # The table takes the first price line's place and the other two with it; the
        # line about tax, whose words it does not hold, stays.
        assert kinds(result) == [("delete", 3, 4), ("replace", 2, 2)], text
        assert result.ops[1].markdown.startswith("| Fruit | Price |\n| --- | --- |\n")


def test_numbers_that_are_not_the_documents_never_place_new_lines_over_paragraphs():
    fruit = doc("# Fruits", "These grow in our garden.", "# Vegetables", "These too.")
    result = run(fruit, "2: # Fruits\n3: - Apple\n4: - Banana\n5: - Cherry")
    # The heading is line 1 by its words, so the numbers are off by one: the list is new
    # lines after it, and "Vegetables" and "These too." are left alone.
    assert kinds(result) == [("insert", 1, 1)]
    prices = doc("# Prices", "Apples: 3 euros", "Pears: 4 euros", "Plums: 2 euros",
                 "Prices include tax.")
    result = run(prices, "1: # Prices\n2: Apples: 3 euros\n3: Pears: 4 euros\n"
                         "4: Plums: 2 euros\n5: Prices include tax.\n6: | Fruit | Price |\n"
                         "7: | Apples | 3 euros |")
    assert kinds(result) == [("insert", 5, 5)]


def test_a_piece_of_a_line_with_a_new_look_changes_only_that_look():
    book = doc("My favourite novel is The Long Road by Ann Hale.", "I read it twice.")
    result = run(book, "1: *The Long Road*")
    assert kinds(result) == [("revise", 1, 1)]
    assert result.ops[0].markdown == "My favourite novel is *The Long Road* by Ann Hale."
    assert run(book, "1: *The Long Road*").ops[0].markdown.count("*") == 2
    # Without a look it is the line shortened (the last words deleted), as written.
    cut = run(book, "1: My favourite novel is The Long Road.")
    assert cut.ops[0].markdown == "My favourite novel is The Long Road."
    # Cut inside a word it is no piece either.
    assert run(book, "1: *ong Road*").ops[0].markdown == "*ong Road*"


def test_a_line_copied_from_the_instructions_examples_is_refused():
    for text in ("2: The corrected sentence.", "1: # Now a heading", "3: ~~The line.~~"):
        with pytest.raises(rv.Refusal) as refused:
            run(VISIT, text)
        assert "example" in str(refused.value), text


def test_a_note_on_a_line_is_a_comment_on_its_paragraph():
    claims = doc("# Coffee", "Coffee is grown in 70 countries (FAO, 2021).",
                 "Drinking coffee makes people live twenty years longer.")
    result = run(claims, "3: Drinking coffee makes people live twenty years longer. "
                         "<!-- Which study says so? -->")
    assert [(op.kind, op.first, op.markdown) for op in result.ops] == [
        ("comment", 3, "Which study says so?")]
    # On a line of its own after the line, or with the number alone: the same.
    for text in ("3: Drinking coffee makes people live twenty years longer.\n"
                 "<!-- Which study says so? -->", "3: <!-- Which study says so? -->"):
        assert [(op.kind, op.first) for op in run(claims, text).ops] == [("comment", 3)]
    # A changed line with a note: its change, then the note on it.
    result = run(claims, "2: Coffee is grown in more than 70 countries. <!-- Check it. -->")
    assert [op.kind for op in result.ops] == ["revise", "comment"]


def test_a_line_written_elsewhere_as_it_read_moves_its_paragraph():
    steps = doc("# Steps", "Step 3: Close the lid.", "Step 1: Open the lid.",
                "Step 2: Put the bread in.")
    result = run(steps, "2: Step 1: Open the lid.\n3: Step 2: Put the bread in.\n"
                        "4: Step 3: Close the lid.")
    assert kinds(result) == [("insert", 4, 4), ("delete", 2, 2)]
    assert result.ops[0].markdown == "Step 3: Close the lid."
    agenda = doc("# Agenda", "- Travel", "- Budget", "- Hiring")
    result = run(agenda, "2: - Budget\n3: - Hiring\n4: - Travel")
    assert kinds(result) == [("insert", 4, 4), ("delete", 2, 2)]
    # A line that reads as two paragraphs is no move: which one would go?
    twice = doc("Bring a coat.", "Meet here.", "Bring a coat.")
    assert kinds(run(twice, "2: Meet here.\n3: Bring a coat.\nBring a coat.")) == [
        ("insert", 3, 3)]


def test_new_lines_numbered_past_the_end_go_at_the_end_and_are_never_matched():
    trial = doc("# Trial", "We tested the new app with twelve users.",
                "Most of them found it easy to use.")
    result = run(trial, "3: # Conclusion\n4: The new app was tested with twelve users, "
                        "and most of them found it easy to use.")
    # Not a revision of line 3 that takes line 2 with it: two new lines at the end.
    assert kinds(result) == [("insert", 3, 3)]


def test_numbered_lines_run_together_on_one_line_are_split_where_the_numbers_follow():
    assert rv.read("2: The budget covers rooms. 3: # Schedule 4: Two days.") == [
        rv.Line(2, "The budget covers rooms."), rv.Line(3, "# Schedule"),
        rv.Line(4, "Two days.")]
    # A number out of that order is text: "3: 1" after line 5 is a score.
    assert rv.read("5: It ended 3: 1 after extra time.") == [
        rv.Line(5, "It ended 3: 1 after extra time.")]


def test_a_copy_of_the_lines_is_empty_and_its_refusal_says_how_changes_are_written():
    # Small models copy the lines they were asked to change; the refusal (made by the edit
    # tool on an empty plan) names the forms a change takes, in the view's own markup.
    plan = run(PLAN_DOC, "2: Costs\n3: Costs stay under budget.\n4: Risks")
    assert plan.empty
    sentence = rv.UNCHANGED_SENTENCE
    assert sentence.startswith("Nothing was changed")
    for form in ("'## '", "'# '", "**words**", "*words*", "spelled right"):
        assert form in sentence
    # Written as the refusal says, the same lines are an edit.
    made = run(PLAN_DOC, "2: ## Costs\n4: ## Risks")
    assert kinds(made) == [("restyle", 4, 4), ("restyle", 2, 2)]


PLAN_DOC = doc("# Plan", "Costs", "Costs stay under budget.", "Risks", "The main risk is delay.")

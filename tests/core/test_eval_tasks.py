"""The first 28 eval tasks' checkers (tasks_edit, tasks_more): a right result passes, a
wrong or untouched one fails with the reason a scorecard reader needs. Results are
hand-made documents (no office). The later task modules have a test file each."""

import pytest

from marginalia.eval import (catalog, tasks_corpus, tasks_edit, tasks_long, tasks_modes,
                             tasks_more, tasks_multi)
from marginalia.eval.long_doc import LONG, LONG_TARGET
from marginalia.eval.odf import Block
from tests.support.evaldocs import (B, TASKS, comment_on, doc_of, edited, inserted,
                                    registered_by)

# A right result per task, and the answer text the chat gave.
RIGHT = {
    "fix_spelling": lambda: edited("fix_spelling", {
        1: (B, "We will receive the guests at noon."),
        2: (B, "The museum is definitely worth a visit.")}),
    "replace_everywhere": lambda: edited("replace_everywhere", {
        1: (B, "The color of the door is blue."), 2: (B, "Pick a color you like."),
        3: (B, "Each color costs the same.")}),
    "replace_keeps_bold": lambda: edited("replace_keeps_bold", {
        0: (B, "Our **customer service** team answers every customer within a day."),
        1: (B, "A customer may call at any time.")}),
    "bold_phrase": lambda: edited("bold_phrase", {
        1: (B, "Please note that **the deadline is Friday** for all entries.")}),
    "italic_title": lambda: edited("italic_title", {
        0: (B, "My favourite novel is *The Long Road* by Ann Hale.")}),
    "rename_title": lambda: edited("rename_title", {0: ("Heading 1", "Annual Report 2025")}),
    "make_headings": lambda: edited("make_headings", {
        0: ("Heading 1", "Introduction"), 2: ("Heading 1", "Rules"),
        4: ("Heading 1", "Contact")}),
    "subheadings": lambda: edited("subheadings", {1: ("Heading 2", "Costs"),
                                                  3: ("Heading 2", "Risks")}),
    "summary_at_top": lambda: inserted("summary_at_top", 0, [
        (B, "The team moved, grew and got its budget.", False)]),
    "add_conclusion": lambda: inserted("add_conclusion", 3, [
        ("Heading 1", "Conclusion", False), (B, "The app is easy to use.", False)]),
    "insert_in_section": lambda: inserted("insert_in_section", 2, [
        (B, "The total budget is 5,000 euros.", False)]),
    "reorder": lambda: edited("reorder", {
        1: (B, "Step 1: Open the lid."), 2: (B, "Step 2: Put the bread in."),
        3: (B, "Step 3: Close the lid.")}),
    "remove_duplicate": lambda: edited("remove_duplicate", {3: None}),
    "delete_paragraph": lambda: edited("delete_paragraph", {2: None}),
    "merge_paragraphs": lambda: edited("merge_paragraphs", {
        1: (B, "The rain started at dawn. It did not stop until noon."), 2: None}),
    "shorten_section": lambda: edited("shorten_section", {
        1: (B, "Farmers from the coast founded Marden in 1120; it grew into a quiet "
               "market town.")}),
    "translate_keep_bold": lambda: edited("translate_keep_bold", {
        1: (B, "La **maison rouge** est sur la colline.")}),
    "comment_unsupported": lambda: comment_on("comment_unsupported", 2, "Source?"),
    "keep_out": lambda: edited("keep_out", {
        1: (B, "The committee met on Tuesday."), 3: (B, "The next meeting is in February.")}),
    "tracked_spelling": lambda: edited("tracked_spelling", {
        1: (B, "We look forward to receive your reply.")}, tracked=1),
    "tracked_replace": lambda: edited("tracked_replace", {
        1: (B, "Sales rose in the third quarter."),
        2: (B, "Costs fell in the third quarter as well.")}, tracked=2),
    "comments_mode": lambda: comment_on("comments_mode", 1, "Replace with: receive"),
    "long_search": lambda: edited("long_search", {
        LONG_TARGET: (B, LONG[LONG_TARGET][1].replace("4471", "4472"))}),
    "long_question": lambda: doc_of(LONG),
    "question_no_edit": lambda: doc_of(TASKS["question_no_edit"].source),
    "question_count": lambda: doc_of(TASKS["question_count"].source),
}
ANSWERS = {"long_question": "It is 4471.", "question_no_edit": "Ada Brandt founded it.",
           "question_count": "3"}


def _with_list():
    doc = doc_of(TASKS["insert_list"].source)
    doc.blocks[2:2] = [Block("item", f) for f in ("Apples", "Pears", "Plums")]
    return doc


def _with_table():
    doc = edited("to_table", {2: None, 3: None})
    doc.blocks[1] = Block("table", rows=[["Fruit", "Price"], ["Apples", "3 euros"],
                                         ["Pears", "4 euros"], ["Plums", "2 euros"]])
    return doc


RIGHT["insert_list"] = _with_list
RIGHT["to_table"] = _with_table

# A wrong result per task where "nothing done" is not the interesting failure.
WRONG = {
    "replace_keeps_bold": (lambda: edited("replace_keeps_bold", {
        0: (B, "Our customer service team answers every customer within a day."),
        1: (B, "A customer may call at any time.")}), "formatting lost"),
    "bold_phrase": (lambda: edited("bold_phrase", {
        1: (B, "**Please note that the deadline is Friday for all entries.**")}),
        "more than the phrase"),
    "keep_out": (lambda: edited("keep_out", {
        1: (B, "The committee met on Tuesday."),
        2: (B, "Quoted as spoken: we receive the letters late.", True),
        3: (B, "The next meeting is in February.")}), "kept-out passage was changed"),
    "tracked_spelling": (lambda: edited("tracked_spelling", {
        1: (B, "We look forward to receive your reply.")}), "not recorded as a tracked"),
    "comments_mode": (lambda: edited("comments_mode", {
        1: (B, "Please receive our warm welcome.")}), "only comments were allowed"),
    "long_search": (lambda: edited("long_search", {
        LONG_TARGET: (B, LONG[LONG_TARGET][1].replace("4471", "4472")), 3: None}), "harmed"),
    "comment_unsupported": (lambda: comment_on("comment_unsupported", 1, "Source?"),
                            "no comment on the unsupported claim"),
    "delete_paragraph": (lambda: edited("delete_paragraph", {1: None, 2: None}), "harmed"),
    "shorten_section": (lambda: edited("shorten_section", {1: (B, "It is old.")}),
                        "lost the facts"),
    "translate_keep_bold": (lambda: edited("translate_keep_bold", {
        1: (B, "La maison rouge est sur la colline.")}), "not bold"),
}


def test_every_task_has_a_right_result_and_there_are_at_least_25():
    assert len(RIGHT) >= 25
    assert set(RIGHT) == registered_by(tasks_edit) | registered_by(tasks_more)
    assert len({t.name for t in catalog.all_tasks()}) == len(catalog.all_tasks())


def test_there_are_at_least_40_tasks_each_in_a_module_with_its_tests():
    modules = (tasks_edit, tasks_more, tasks_modes, tasks_long, tasks_multi, tasks_corpus)
    assert len(TASKS) >= 40
    assert set().union(*(registered_by(m) for m in modules)) == set(TASKS)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_right_result_passes(name):
    assert TASKS[name].check(RIGHT[name](), ANSWERS.get(name, "Done.")) is None


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_untouched_or_wrong_answer_fails(name):
    task = TASKS[name]
    untouched = doc_of(task.source)
    if name in ANSWERS:   # a question: the document is right, the answer is not
        reason = task.check(untouched, "I cannot tell.")
        assert reason.startswith("the answer does not say")
        assert task.check(untouched, "") == "no answer was given"
    else:
        reason = task.check(untouched, "Done.")
    assert reason and "\n" not in reason


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_result_fails_with_its_reason(name):
    make, words = WRONG[name]
    reason = TASKS[name].check(make(), "Done.")
    assert reason and words in reason, reason


@pytest.mark.parametrize("name", ["question_no_edit", "question_count", "long_question"])
def test_a_question_fails_when_the_document_was_edited(name):
    doc = doc_of(TASKS[name].source)
    doc.blocks[-1].text += " Edited."
    assert "no edit was asked for" in TASKS[name].check(doc, ANSWERS[name])


def test_harm_elsewhere_fails_an_otherwise_right_result():
    doc = RIGHT["fix_spelling"]()
    doc.blocks[3].text = "Lunch is served inside."
    assert TASKS["fix_spelling"].check(doc, "").startswith("harmed: paragraph 4")

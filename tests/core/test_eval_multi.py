"""The multi-turn tasks' checkers (eval/tasks_multi.py): the final document after every
turn's work passes; stopping after the first turn, or a wrong last answer, fails."""

import pytest

from marginalia.eval import report, tasks_multi
from marginalia.eval.odf import Block
from tests.support.evaldocs import (B, TASKS, comment_on, doc_of, edited, fails, inserted,
                                    passes, registered_by)

H1 = "Heading 1"
SPELLED = {1: (B, "We will receive new members in May."),
           2: (B, "The club meets every Saturday morning.")}
SPELLED_AND_HEADED = dict(SPELLED)
SPELLED_AND_HEADED[0] = (H1, "Garden club")
FREE = tasks_multi.FREE


def _agenda(items):
    doc = edited("multi_three_turns", {0: (H1, "Agenda")})
    doc.blocks[2:2] = [Block("item", text) for text in items]
    return doc


RIGHT = {
    "multi_fix_then_heading": lambda: edited("multi_fix_then_heading", SPELLED_AND_HEADED),
    "multi_edit_then_question": lambda: edited("multi_edit_then_question", {
        1: (B, "The next meeting is on Thursday at seven.")}),
    "multi_question_then_comment": lambda: comment_on("multi_question_then_comment", 2,
                                                      "Which study says so?"),
    "multi_add_then_bold": lambda: inserted("multi_add_then_bold", 3,
                                            [(B, "**%s**" % FREE, False)]),
    "multi_three_turns": lambda: _agenda(["Budget", "Hiring", "Travel"]),
}
ANSWERS = {"multi_edit_then_question": "Thursday."}

WRONG = [
    # Only the first turn's work done.
    ("multi_fix_then_heading", lambda: edited("multi_fix_then_heading", SPELLED),
     "\u201cGarden club\u201d is not a Heading 1"),
    ("multi_fix_then_heading", lambda: edited("multi_fix_then_heading", {
        0: (H1, "Garden club"), 1: (H1, SPELLED[1][1]), 2: SPELLED[2]}), "became a heading"),
    ("multi_add_then_bold", lambda: inserted("multi_add_then_bold", 3, [(B, FREE, False)]),
     "the new sentence is not bold"),
    ("multi_add_then_bold", lambda: inserted("multi_add_then_bold", 1,
                                             [(B, "**%s**" % FREE, False)]),
     "the last paragraph reads"),
    ("multi_three_turns", lambda: _agenda(["Travel", "Budget", "Hiring"]),
     "reads \u201ctravel, budget, hiring\u201d"),
    ("multi_three_turns", lambda: edited("multi_three_turns", {0: (H1, "Agenda")}),
     "expected 5 paragraphs"),
    ("multi_question_then_comment", lambda: comment_on("multi_question_then_comment", 1,
                                                       "Source?"), "no comment on the"),
]


def test_every_multi_turn_task_has_a_right_result_and_two_or_three_messages():
    assert set(RIGHT) == registered_by(tasks_multi)
    assert all(len(TASKS[name].messages) in (2, 3) for name in RIGHT)
    assert any(len(TASKS[name].messages) == 3 for name in RIGHT)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_right_result_passes(name):
    passes(name, RIGHT[name](), ANSWERS.get(name, "Done."))


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_untouched_document_fails(name):
    fails(name, doc_of(TASKS[name].source), "", ANSWERS.get(name, "Done."))


@pytest.mark.parametrize("name,make,words", WRONG)
def test_wrong_result_fails_with_its_reason(name, make, words):
    fails(name, make(), words)


def test_the_question_asked_last_is_judged_on_the_last_answer():
    done = RIGHT["multi_edit_then_question"]()
    fails("multi_edit_then_question", done, "does not say Thursday", "Tuesday.")
    # What the runner hands a checker: the last turn's text, not the first turn's too.
    turns = [[{"type": "text", "text": "I changed Tuesday to Thursday."}],
             [{"type": "text", "text": "Tuesday"}]]
    counted = report.tally(turns)
    assert counted.last_answer == "Tuesday" and counted.answer.startswith("I changed")
    fails("multi_edit_then_question", done, "does not say Thursday", counted.last_answer)

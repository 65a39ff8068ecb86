"""The tracked and Comment-only variants' checkers (eval/tasks_modes.py): the right edit
recorded the right way passes; the right text made directly, or a proposal on the wrong
paragraph, fails."""

import pytest

from marginalia.eval import tasks_modes
from marginalia.eval.odf import Block
from tests.support.evaldocs import B, TASKS, comment_on, doc_of, edited, fails, passes, \
    registered_by

H1 = "Heading 1"
HEADINGS = {0: (H1, "Introduction"), 2: (H1, "Rules"), 4: (H1, "Contact")}
MERGED = {1: (B, "The rain started at dawn. It did not stop until noon."), 2: None}


def _with_list(tracked=0, kinds=()):
    doc = doc_of(TASKS["tracked_list"].source, tracked, kinds)
    doc.blocks[2:2] = [Block("item", f) for f in ("Apples", "Pears", "Plums")]
    return doc


RIGHT = {
    "tracked_headings": lambda: edited("tracked_headings", HEADINGS,
                                       kinds=["UnknownChange"] * 3),
    "tracked_delete": lambda: edited("tracked_delete", {2: None}, kinds=["deletion"]),
    "tracked_list": lambda: _with_list(kinds=["insertion"]),
    "tracked_merge": lambda: edited("tracked_merge", MERGED, kinds=["deletion"]),
    "comments_rename": lambda: comment_on("comments_rename", 0,
                                          "Replace with: Annual Report 2025"),
    "comments_delete": lambda: comment_on("comments_delete", 2, "Delete this."),
    "comments_bold": lambda: comment_on("comments_bold", 1, "Format: bold."),
}


def _made_and_proposed(name, changes):
    """The edit made directly beside its right proposal: Comment only was not kept."""
    doc = edited(name, changes)
    doc.comments.extend(RIGHT[name]().comments)
    return doc


WRONG = [
    ("tracked_headings", lambda: edited("tracked_headings", HEADINGS),
     "not recorded as a tracked change"),
    ("tracked_headings", lambda: edited("tracked_headings", {0: (H1, "Introduction")},
                                        kinds=["UnknownChange"]), "\u201cRules\u201d is not"),
    ("tracked_delete", lambda: edited("tracked_delete", {2: None}, kinds=["insertion"]),
     "no tracked deletion was recorded (found insertion)"),
    ("tracked_delete", lambda: edited("tracked_delete", {1: None}, kinds=["deletion"]),
     "parking lot is still there"),
    ("tracked_list", lambda: _with_list(), "not recorded as a tracked change"),
    ("tracked_merge", lambda: edited("tracked_merge", MERGED), "not recorded"),
    ("comments_rename", lambda: _made_and_proposed("comments_rename", {
        0: (H1, "Annual Report 2025")}), "only comments were allowed"),
    ("comments_rename", lambda: comment_on("comments_rename", 1, "Annual Report 2025"),
     "no comment on paragraph 1 \u201cAnnual Report 2024\u201d"),
    ("comments_delete", lambda: comment_on("comments_delete", 2, "Nice paragraph."),
     "does not say \u201cdelete\u201d or"),
    ("comments_delete", lambda: comment_on("comments_delete", 1, "Delete this."),
     "no comment on paragraph 3"),
    ("comments_bold", lambda: _made_and_proposed("comments_bold", {
        1: (B, "Please note that **the deadline is Friday** for all entries.")}),
     "made bold, but only comments"),
]


def test_every_variant_has_a_right_result():
    assert set(RIGHT) == registered_by(tasks_modes)
    assert {TASKS[name].mode for name in RIGHT} == {"tracked", "comments"}


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_right_result_passes(name):
    passes(name, RIGHT[name]())


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_untouched_document_fails(name):
    fails(name, doc_of(TASKS[name].source), "")


@pytest.mark.parametrize("name,make,words", WRONG)
def test_wrong_result_fails_with_its_reason(name, make, words):
    fails(name, make(), words)

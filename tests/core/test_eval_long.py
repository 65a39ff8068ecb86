"""The long document's further tasks (eval/tasks_long.py): one place in ~20,000
characters changed as asked passes; the same change elsewhere, or harm besides, fails."""

import pytest

from marginalia.eval import tasks_long
from marginalia.eval.long_doc import LONG, LONG_TYPO, TYPO_TARGET, week
from tests.support.evaldocs import B, doc_of, edited, fails, inserted, passes, registered_by

KEY_LOG = tasks_long.KEY_LOG
LAST = week(5) - 1                     # Week 4's last paragraph
FIXED = LONG_TYPO[TYPO_TARGET][1].replace("Wensday", "Wednesday")

RIGHT = {
    "long_add_sentence": [
        lambda: inserted("long_add_sentence", week(5), [(B, KEY_LOG, False)]),
        lambda: edited("long_add_sentence", {LAST: (B, LONG[LAST][1] + " " + KEY_LOG)})],
    "long_rename_heading": [
        lambda: edited("long_rename_heading", {week(6): ("Heading 2", "Week 6: stocktaking")})],
    "long_fix_typo": [lambda: edited("long_fix_typo", {TYPO_TARGET: (B, FIXED)})],
}

WRONG = [
    ("long_add_sentence", lambda: inserted("long_add_sentence", week(6), [(B, KEY_LOG, False)]),
     "the Week 4 section does not hold"),
    ("long_add_sentence", lambda: inserted("long_add_sentence", week(4) + 1,
                                           [(B, KEY_LOG, False)]), "not at its end"),
    ("long_add_sentence", lambda: edited("long_add_sentence", {
        LAST: (B, "The audit group filed the stock list. " + KEY_LOG)}), "last paragraph was"),
    ("long_add_sentence", lambda: edited("long_add_sentence", {
        LAST: (B, LONG[LAST][1] + " " + KEY_LOG), 3: None}), "harmed: paragraph 4"),
    ("long_rename_heading", lambda: edited("long_rename_heading", {
        week(6): (B, "Week 6: stocktaking")}), "lost its style Heading 2"),
    ("long_rename_heading", lambda: edited("long_rename_heading", {
        week(5): ("Heading 2", "Week 6: stocktaking")}), "harmed: paragraph 41"),
    ("long_fix_typo", lambda: edited("long_fix_typo", {
        TYPO_TARGET: (B, FIXED.replace("Wednesday", "Wednesday, 3 May"))}),
     "the paragraph with the misspelling reads"),
    ("long_fix_typo", lambda: edited("long_fix_typo", {TYPO_TARGET: None}), "expected 70"),
]


def test_every_long_task_has_a_right_result_and_the_typo_is_planted_once():
    assert set(RIGHT) == registered_by(tasks_long)
    assert sum("Wensday" in text for _s, text, _k in LONG_TYPO) == 1
    assert sum(len(text) for _s, text, _k in LONG_TYPO) > 19000


@pytest.mark.parametrize("name,index", [(n, i) for n in sorted(RIGHT)
                                        for i in range(len(RIGHT[n]))])
def test_right_result_passes(name, index):
    passes(name, RIGHT[name][index]())


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_untouched_document_fails(name):
    fails(name, doc_of(LONG_TYPO if name == "long_fix_typo" else LONG), "")


@pytest.mark.parametrize("name,make,words", WRONG)
def test_wrong_result_fails_with_its_reason(name, make, words):
    fails(name, make(), words)

"""Answers at the sidebar's default width (issue 24): tables, rules and headings that fit a line."""

import random

from marginalia.events import Event
from marginalia.ui.answer_format import (CELL, DEFAULT_COLUMNS, RULE_SHARE, USUAL_CHAR,
                                          pane_columns)
from marginalia.ui.transcript import TranscriptRenderer
from tests.core.test_answer_format import streamed
from tests.core.test_panel_logic import pane_after

WIDE = ("Intro.\n\n"
        "| Name | Role | City |\n"
        "|---|---|---|\n"
        "| Alice | **Chief** editor | Paris |\n"
        "| Bob | Writer | Alexandria |\n"
        "\n"
        "End.")

RECORDS = ("Intro.\n\n"
           "Name: Alice\nRole: Chief editor\nCity: Paris\n"
           "\n"
           "Name: Bob\nRole: Writer\nCity: Alexandria\n"
           "\n"
           "End.\n")


def answer(pane):
    return pane.split("Assistant:\n", 1)[1]


def test_a_table_wider_than_the_pane_reads_as_header_value_records():
    pane, _ = streamed(WIDE, [])
    assert answer(pane) == RECORDS
    assert CELL not in pane and "|" not in pane
    # In a pane wide enough the same table keeps its rows.
    renderer = TranscriptRenderer()
    renderer.set_columns(80)
    outs = [renderer.render([("user", "Go"), ("event", Event("text", text=WIDE)),
                             ("event", Event("done", finish_reason="stop"))])]
    assert "Alice %s Chief editor %s Paris" % (CELL, CELL) in pane_after(outs)


def test_any_cut_of_a_stacked_table_ends_in_the_same_pane():
    rng = random.Random(24)
    for cut in range(1, len(WIDE)):
        assert answer(streamed(WIDE, [cut])[0]) == RECORDS, cut
    for _ in range(40):
        assert answer(streamed(WIDE, rng.sample(range(1, len(WIDE)), 15))[0]) == RECORDS
    assert answer(streamed(WIDE, range(1, len(WIDE)))[0]) == RECORDS


def test_a_record_shows_its_first_words_while_its_row_streams():
    at = WIDE.index("| Alice") + len("| Al")
    _, outs = streamed(WIDE, [at])
    assert outs[1].chat.endswith("Name: Al")


def test_a_narrow_table_keeps_its_rows_and_a_row_that_does_not_fit_becomes_a_record():
    text = ("| Fruit | Price |\n|---|---|\n| Apples | 3 |\n"
            "| Dragon fruit from far away | 12 euros |\n| Figs | 2 |\n")
    pane, _ = streamed(text, [])
    # The next table, after a paragraph, decides for itself.
    later, _ = streamed(WIDE + "\n\n" + text, [])
    assert answer(later).endswith("End.\n\n" + answer(pane))
    assert answer(pane) == ("Fruit %s Price\n" % CELL + "\u2500" * 16 + "\n"
                            "Apples %s 3\n" % CELL +
                            "\n"
                            "Fruit: Dragon fruit from far away\nPrice: 12 euros\n"
                            "\n"
                            "Fruit: Figs\nPrice: 2\n")


def longest_rule(pane):
    return max(len(line) for line in pane.split("\n") if line and set(line) <= set("\u2500\u2550"))


def test_underlines_and_rules_never_wrap_in_the_pane():
    text = ("# A rather long heading for a pane this narrow\n"
            "## Another long heading that would wrap twice\n"
            "Text.\n\n---\n\nMore.")
    pane, _ = streamed(text, [7, 30])
    assert longest_rule(pane) <= DEFAULT_COLUMNS * RULE_SHARE
    assert "\u2550" * 10 in pane and "\u2500" * 10 in pane      # still underlined
    renderer = TranscriptRenderer()
    renderer.set_columns(12)
    outs = [renderer.render([("user", "Go"), ("event", Event("text", text=text)),
                             ("event", Event("done", finish_reason="stop"))])]
    assert longest_rule(pane_after(outs)) <= 12 * RULE_SHARE


def test_the_pane_width_in_characters_comes_from_its_font():
    assert pane_columns(180, 6.0) == 26                 # the sidebar's default width
    assert pane_columns(400, 6.0) == 62
    assert pane_columns(180, 0.0) == pane_columns(180, USUAL_CHAR) > 8   # nothing measured
    assert pane_columns(30, 7.0) == 8                   # a sliver still lays out something

"""Answers at the sidebar's default width (issue 24): tables, rules and headings that fit a line."""

import random

from marginalia.events import Event
from marginalia.ui.answer_format import (CELL, DEFAULT_COLUMNS, RULE_SHARE, USUAL_CHAR,
                                          pane_columns, width)
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
    # A pane too narrow to tell (the panel's first layout, a collapsed deck) gives no
    # count: the panel keeps the last good one (review of issue 24).
    assert pane_columns(30, 7.0) is None
    assert pane_columns(24 + 8 * 6, 6.0) is None
    assert pane_columns(24 + 9 * 6, 6.0) == 9


def test_a_line_starting_with_a_bar_without_a_delimiter_row_under_it_still_shows():
    # Review of issue 24: a wide first row was hidden as a stacked table's header for good.
    text = "Note:\n\n|x| is the absolute value of x, for any real x.\n\nNext."
    assert answer(streamed(text, [])[0]) == (
        "Note:\n\n|x| is the absolute value of x, for any real x.\n\nNext.\n")
    lone = "| Only a header row, quite long | Another |"
    for tail in ("\n\nNext.", "\nNext.", "\n", ""):     # a paragraph after it, or stopped there
        for cuts in ([], [len(lone) + 1], range(1, len(lone + tail))):
            shown = answer(streamed(lone + tail, cuts)[0])
            assert shown.startswith(lone + "\n"), (tail, shown)
    # Under a header, a line that is not its delimiter row ends the header's wait.
    text = "| long header number one | b |\n| a | b |\n|---|---|\n| x | y |\n\nEnd."
    assert answer(streamed(text, [])[0]) == (
        "| long header number one | b |\na %s b\n" % CELL + "\u2500" * 16 + "\nx %s y\n\nEnd.\n"
        % CELL)
    # Once its delimiter row came, the header is a table's and shows no more.
    assert answer(streamed("| Name | Role | City |\n|---|---|---|", [])[0]) == ""


def test_only_the_second_row_can_be_the_delimiter_row():
    text = ("| Name | Role | City |\n|---|---|---|\n| - | - | - |\n"
            "| Bob | Writer | Alexandria |\n\nEnd.")
    assert answer(streamed(text, [])[0]) == (
        "Name: -\nRole: -\nCity: -\n\nName: Bob\nRole: Writer\nCity: Alexandria\n\nEnd.\n")


def _random_table(rng):
    def cell():
        word = "".join(rng.choice("abcdefgh ") for _ in range(rng.randint(1, 9))).strip() or "x"
        pick = rng.random()
        if pick < .25:
            return "**%s**" % word
        if pick < .35:
            return "*%s*" % word
        if pick < .45:
            return "`%s`" % word
        if pick < .55:
            return "[%s](http://%s.io)" % (word.replace(" ", ""), word.replace(" ", ""))
        if pick < .6:
            return "[http://a.io](http://a.io)"
        return word
    n = rng.randint(2, 3)
    rows = ["| " + " | ".join(cell() for _ in range(n)) + " |" for _ in range(3)]
    return rows[0] + "\n|" + "---|" * n + "\n" + "\n".join(rows[1:]) + "\n\nEnd."


def test_whether_a_table_is_stacked_does_not_depend_on_where_the_stream_was_cut():
    # A streaming row's last cell ("**Alice B") is longer than it will show: it decided
    # for the whole table before.
    text = ("| **bgb** | `d` |\n|---|---|\n| **c** | `dehgc` |\n"
            "| [efh](http://efh.io) | **ge c** |\n\nEnd.")
    reference = streamed(text, [])[0]
    assert streamed(text, [79])[0] == reference
    rng = random.Random(7)
    for _ in range(60):
        text = _random_table(rng)
        reference = streamed(text, [])[0]
        for cut in range(1, len(text)):
            assert streamed(text, [cut])[0] == reference, (text, cut)


def test_wide_characters_take_two_columns():
    text = "| \u540d\u524d | \u5f79\u8077 | \u90fd\u5e02 |\n|---|---|---|\n" \
           "| \u5c71\u7530\u592a\u90ce | \u7de8\u96c6\u9577\u517c\u767a\u884c\u4eba | " \
           "\u6771\u4eac\u90fd\u6e0b\u8c37\u533a |\n\n\u7d42\u308f\u308a\u3002"
    shown = answer(streamed(text, [])[0])
    assert shown.startswith("\u540d\u524d: \u5c71\u7530\u592a\u90ce\n"), shown   # records
    assert width("\u540d\u524d e\u0301") == 6
    heading = "# \u6625\u306e\u56db\u534a\u671f\u306e\u8cbb\u7528\u306e\u8981\u7d04\n\nText."
    renderer = TranscriptRenderer()
    renderer.set_columns(80)
    outs = [renderer.render([("user", "Go"), ("event", Event("text", text=heading)),
                             ("event", Event("done", finish_reason="stop"))])]
    # The underline is as wide as the heading's 11 characters show: 22 columns.
    assert longest_rule(pane_after(outs)) == 22


def test_a_record_skips_an_empty_cell_and_ends_with_a_blank_line():
    text = "| Name | Role | City |\n|---|---|---|\n| Al | | Paris |\nNext para."
    assert answer(streamed(text, [])[0]) == "Name: Al\nCity: Paris\n\nNext para.\n"
    text = "| Name | Role | City |\n|---|---|---|\n| Al | Ed | Paris |\n- item"
    for cuts in ([], range(1, len(text))):
        assert answer(streamed(text, cuts)[0]) == (
            "Name: Al\nRole: Ed\nCity: Paris\n\n  \u2022 item\n")
    text = "| Name | Role | City |\n|---|---|---|\n| Al | Ed | Paris |\n```\nx = 1\n```\nDone."
    for cuts in ([], range(1, len(text))):
        assert answer(streamed(text, cuts)[0]) == (
            "Name: Al\nRole: Ed\nCity: Paris\n\n\u2503 x = 1\nDone.\n")


def test_text_shown_at_another_width_asks_to_be_laid_out_again():
    renderer = TranscriptRenderer()
    renderer.set_columns(80)
    assert not renderer.stale                  # nothing shown yet: nothing to lay out again
    renderer.render([("user", "Go"), ("event", Event("text", text=WIDE)),
                     ("event", Event("done", finish_reason="stop"))])
    renderer.set_columns(80)
    assert not renderer.stale
    renderer.set_columns(20)                   # the sidebar narrowed after the answer
    assert renderer.stale
    # The panel's replay (office.panel._replay) resets and renders the log at the new width.
    renderer.reset()
    assert not renderer.stale
    out = renderer.render([("user", "Go"), ("event", Event("text", text=WIDE)),
                           ("event", Event("done", finish_reason="stop"))])
    assert answer(out.chat) == RECORDS

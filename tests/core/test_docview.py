"""docview: the compact numbered form, budgeting, outline and UTF-16 offsets."""

import ast
import os

from marginalia.document import docview
from marginalia.document.docview import (SEL_CLOSE, SEL_OPEN, Para, outline, render, render_para,
                                         utf16_len)


def sample():
    return [
        Para(1, "Report", heading=1),
        Para(2, "Sales grew this year.", sel_start=6, sel_end=10),
        Para(3, "first", list_level=1, list_kind="bullet"),
        Para(4, "nested", list_level=2, list_kind="bullet"),
        Para(5, "one", list_level=1, list_kind="number", label="1."),
        Para(6, rows=[["Region", "Sales"], ["North", "1|2"]]),
        Para(7, "# not a heading"),
        Para(8, "line\nbreak"),
        Para(9, ""),
    ]


def test_every_kind_renders_compactly():
    text, last = render(sample(), budget=10000)
    assert last == 9
    assert text.split("\n") == [
        "1: # Report",
        "2: Sales %sgrew%s this year." % (SEL_OPEN, SEL_CLOSE),
        "3: - first",
        "4:   - nested",
        "5: 1. one",
        "6: | Region | Sales |",
        "   | North | 1\\|2 |",
        "7: \\# not a heading",
        "8: line\u21b5break",
        "9: ",
    ]


def test_selected_table_is_enclosed():
    para = Para(12, rows=[["a"], ["b"]], sel_start=0, sel_end=0)
    assert render_para(para) == "12: %s| a |\n    | b |%s" % (SEL_OPEN, SEL_CLOSE)


def test_budget_stops_between_paragraphs_with_a_continue_hint():
    paras = [Para(n, "x" * 50) for n in range(1, 101)]
    text, last = render(paras, budget=500, total=100, end=100)
    shown = [line for line in text.split("\n") if not line.startswith("[")]
    assert len(shown) == last
    assert 5 <= last < 10
    assert len(text) < 700
    assert text.endswith("Continue with read_document(start=%d, end=100).]" % (last + 1))


def test_continuation_pages_cover_everything_once():
    paras = [Para(n, "word %d " % n * 7) for n in range(1, 301)]
    seen = []
    start = 1
    while start <= 300:
        text, last = render(paras[start - 1:], budget=2000, total=300, end=300)
        seen.extend(int(l.split(":")[0]) for l in text.split("\n") if l[:1].isdigit())
        start = last + 1
    assert seen == list(range(1, 301))


def test_hint_when_the_caller_gave_fewer_records_than_the_range():
    text, last = render([Para(1, "a"), Para(2, "b")], budget=100, total=50, end=50)
    assert last == 2
    assert text.endswith("Continue with read_document(start=3, end=50).]")
    text, _ = render([Para(1, "a"), Para(2, "b")], budget=100, total=2, end=2)
    assert "Continue" not in text


def test_oversized_single_paragraph_is_truncated_not_dropped():
    text, last = render([Para(1, "y" * 5000), Para(2, "z")], budget=1000)
    assert last == 1
    assert "4003 more characters" in text
    assert len(text) < 1300


def test_outline_drops_deep_levels_first():
    paras = [Para(1, "Top", heading=1)]
    paras += [Para(n, "Sub %d" % n, heading=2) for n in range(2, 6)]
    paras += [Para(n, "Deep %d" % n, heading=3) for n in range(6, 60)]
    lines = outline(paras, limit=10)
    assert lines == ["1: # Top"] + ["%d: ## Sub %d" % (n, n) for n in range(2, 6)]
    assert outline(paras[:3], limit=10) == ["1: # Top", "2: ## Sub 2", "3: ## Sub 3"]


def test_outline_cuts_with_a_count_when_one_level_is_too_long():
    paras = [Para(n, "H%d" % n, heading=1) for n in range(1, 51)]
    lines = outline(paras, limit=5)
    assert lines[-1] == "\u2026 and 45 more headings"
    assert len(lines) == 6


def test_outline_depth_counts_levels_as_the_cut_does():
    assert docview.outline_depth({1: 30, 2: 240}, 60) == 1
    assert docview.outline_depth({1: 30, 2: 20, 3: 500}, 60) == 2
    assert docview.outline_depth({2: 3}, 60) == 2
    assert docview.outline_depth({}, 60) == 0


def test_an_outline_given_its_total_lists_the_given_headings_and_counts_the_rest():
    # writer.outline hands over only the first headings of the shown levels.
    paras = [Para(n, "H%d" % n, heading=1) for n in range(1, 6)]
    assert outline(paras, limit=5, total=12) == outline(
        [Para(n, "H%d" % n, heading=1) for n in range(1, 13)], limit=5)
    assert outline(paras, limit=5, total=5)[-1] == "5: # H5"


def test_compact_form_costs_little_over_plain_text():
    paras = [Para(n, "A sentence of ordinary prose that fills a paragraph. " * 6)
             for n in range(1, 1001)]
    text, _ = render(paras, budget=10 ** 9)
    plain_size = sum(len(p.plain()) + 1 for p in paras)   # paragraph ends included
    assert len(text) < plain_size * 1.05


def test_utf16_len_counts_surrogate_pairs():
    assert utf16_len("a😀b𝔸c") == 7
    assert utf16_len("plain") == 5
    assert utf16_len("") == 0


def test_outline_shortens_long_headings_with_an_ellipsis():
    lines = outline([Para(3, "word " * 30, heading=2)])
    assert lines == ["3: ## " + ("word " * 16).strip() + "\u2026"]


def test_short_folds_whitespace():
    assert docview.short("a\n  b", 10) == "a b"
    assert docview.short("x" * 20, 10) == "x" * 9 + "\u2026"


def test_module_is_python38_syntax():
    path = os.path.join(os.path.dirname(docview.__file__), "docview.py")
    with open(path, encoding="utf-8") as handle:
        ast.parse(handle.read(), feature_version=(3, 8))


def test_unmarked_takes_off_what_the_numbered_view_adds():
    from marginalia.document.docview import unmarked
    assert unmarked("1: # Annual report") == "Annual report"
    assert unmarked("3: ## Highlights") == "Highlights"
    assert unmarked("7: 2. Second step") == "Second step"
    assert unmarked("5:   - South held") == "South held"
    assert unmarked("Sales \u27e6grew\u27e7 fast") == "Sales grew fast"
    assert unmarked("\\# not a heading") == "# not a heading"
    # Text that only looks like it keeps its words.
    for text in ("2024 report", "1.5 litres", "Plain text", "#hashtag", "-5 degrees"):
        assert unmarked(text) == text

"""markdown.parse / parse_inline: the block structure the Writer tools build from."""

import ast
import os

from marginalia.document import markdown
from marginalia.document.markdown import (BULLET, CODE, HEADING, NUMBER, PARAGRAPH, QUOTE, TABLE,
                                          Run, parse, parse_inline)


def kinds(blocks):
    return [(b.kind, b.level, b.text) for b in blocks]


def test_plain_text_is_one_run():
    assert parse_inline("just words") == [Run("just words")]


def test_bold_italic_code_strike():
    assert parse_inline("**b** *i* `c` ~~s~~ ***bi***") == [
        Run("b", bold=True), Run(" "), Run("i", italic=True), Run(" "),
        Run("c", code=True), Run(" "), Run("s", strike=True), Run(" "),
        Run("bi", bold=True, italic=True)]


def test_underscore_emphasis_but_not_inside_words():
    assert parse_inline("__b__ _i_ snake_case_name") == [
        Run("b", bold=True), Run(" "), Run("i", italic=True), Run(" snake_case_name")]


def test_nested_emphasis():
    assert parse_inline("a **b *c* d** e") == [
        Run("a "), Run("b ", bold=True), Run("c", bold=True, italic=True),
        Run(" d", bold=True), Run(" e")]
    assert parse_inline("*a **b** c*") == [
        Run("a ", italic=True), Run("b", bold=True, italic=True), Run(" c", italic=True)]
    assert parse_inline("**bold *it***") == [
        Run("bold ", bold=True), Run("it", bold=True, italic=True)]


def test_unmatched_and_spaced_delimiters_stay_literal():
    assert parse_inline("**unclosed") == [Run("**unclosed")]
    assert parse_inline("2 * 3 * 4") == [Run("2 * 3 * 4")]
    assert parse_inline(r"\*not\* \[x\]") == [Run("*not* [x]")]


def test_code_span_protects_markup():
    assert parse_inline("`**x**` and ``a`b``") == [
        Run("**x**", code=True), Run(" and "), Run("a`b", code=True)]


def test_links_carry_url_and_inner_formatting():
    assert parse_inline('see [the **docs**](https://x.org/a "Title") or <https://b.c>') == [
        Run("see "), Run("the ", link="https://x.org/a"),
        Run("docs", bold=True, link="https://x.org/a"), Run(" or "),
        Run("https://b.c", link="https://b.c")]


def test_brackets_without_target_are_text():
    assert parse_inline("[not a link] (x)") == [Run("[not a link] (x)")]


def test_non_bmp_characters_pass_through():
    assert parse_inline("**😀 𝔸**") == [Run("😀 𝔸", bold=True)]


def test_headings_atx_and_setext():
    blocks = parse("# One #\n### Three *x*\nTwo\n---\nUno\n===\n#nospace")
    assert kinds(blocks) == [(HEADING, 1, "One"), (HEADING, 3, "Three x"),
                             (HEADING, 2, "Two"), (HEADING, 1, "Uno"),
                             (PARAGRAPH, 0, "#nospace")]
    assert blocks[1].runs[1] == Run("x", italic=True)


def test_paragraphs_join_lines_and_split_on_blank_lines():
    assert kinds(parse("a\nb\n\n\nc")) == [(PARAGRAPH, 0, "a b"), (PARAGRAPH, 0, "c")]


def test_nested_lists_with_two_and_four_space_indent():
    text = "- a\n- b\n  - b1\n    - b2\n  - b3\n- c\n\n1. one\n2. two\n    * x\n"
    assert kinds(parse(text)) == [
        (BULLET, 1, "a"), (BULLET, 1, "b"), (BULLET, 2, "b1"), (BULLET, 3, "b2"),
        (BULLET, 2, "b3"), (BULLET, 1, "c"), (NUMBER, 1, "one"), (NUMBER, 1, "two"),
        (BULLET, 2, "x")]


def test_list_item_lazy_continuation():
    assert kinds(parse("- first\n  still first\n- second")) == [
        (BULLET, 1, "first still first"), (BULLET, 1, "second")]


def test_list_ends_at_paragraph():
    assert kinds(parse("- a\n\nafter")) == [(BULLET, 1, "a"), (PARAGRAPH, 0, "after")]


def test_pipe_table_with_inline_and_escapes():
    blocks = parse("intro\n\n| A | **B** |\n|---|:-:|\n| 1 | `x|y` |\n| 2 \\| 3 |\n\nafter")
    assert [b.kind for b in blocks] == [PARAGRAPH, TABLE, PARAGRAPH]
    table = blocks[1]
    assert table.header is True
    assert [[markdown.plain_text(c) for c in r] for r in table.rows] == [
        ["A", "B"], ["1", "x|y"], ["2 | 3", ""]]
    assert table.rows[0][1] == [Run("B", bold=True)]
    assert table.rows[1][1] == [Run("x|y", code=True)]


def test_pipe_line_without_delimiter_row_is_a_paragraph():
    assert kinds(parse("a | b\nc | d")) == [(PARAGRAPH, 0, "a | b c | d")]


def test_fenced_code_and_quote_and_rule():
    blocks = parse("```python\nx = *1*\n\ny\n```\n> quoted *q*\n> more\n\n***\nend")
    assert kinds(blocks) == [(CODE, 0, "x = *1*"), (CODE, 0, ""), (CODE, 0, "y"),
                             (QUOTE, 0, "quoted q more"), (PARAGRAPH, 0, "end")]
    assert blocks[0].runs == [Run("x = *1*", code=True)]


def test_crlf_and_empty_input():
    assert parse("") == []
    assert kinds(parse("# H\r\ntext\r\n")) == [(HEADING, 1, "H"), (PARAGRAPH, 0, "text")]


def test_module_is_python38_syntax():
    path = os.path.join(os.path.dirname(markdown.__file__), "markdown.py")
    with open(path, encoding="utf-8") as handle:
        ast.parse(handle.read(), feature_version=(3, 8))


def test_bare_marker_inside_a_paragraph_is_text():
    assert kinds(parse("text\n1.\nmore")) == [(PARAGRAPH, 0, "text 1. more")]
    assert kinds(parse("a\n-")) == [(PARAGRAPH, 0, "a -")]
    assert kinds(parse("text\n- item")) == [(PARAGRAPH, 0, "text"), (BULLET, 1, "item")]


def test_list_nesting_survives_blank_lines_but_not_rules_or_paragraphs():
    assert kinds(parse("- a\n\n  - b")) == [(BULLET, 1, "a"), (BULLET, 2, "b")]
    assert kinds(parse("- a\n  - b\n***\n  - c")) == [
        (BULLET, 1, "a"), (BULLET, 2, "b"), (BULLET, 1, "c")]
    assert kinds(parse("- a\n\npara\n  - b")) == [
        (BULLET, 1, "a"), (PARAGRAPH, 0, "para"), (BULLET, 1, "b")]
    assert kinds(parse("\t- a\n\t\t- b\n1) x")) == [
        (BULLET, 1, "a"), (BULLET, 2, "b"), (NUMBER, 1, "x")]


def test_underline_after_a_list_item_is_a_rule_not_a_heading():
    assert kinds(parse("- a\n---\np\n***")) == [(BULLET, 1, "a"), (PARAGRAPH, 0, "p")]


def test_quote_splits_on_an_empty_quoted_line_and_fence_may_stay_open():
    assert kinds(parse("> a\n>\n> b\n>")) == [(QUOTE, 0, "a"), (QUOTE, 0, "b")]
    assert kinds(parse("~~~\ncode\n~~~~\nafter")) == [(CODE, 0, "code"), (PARAGRAPH, 0, "after")]
    assert kinds(parse("```\nx\n  y")) == [(CODE, 0, "x"), (CODE, 0, "  y")]


def test_table_ends_at_the_first_line_without_a_pipe():
    blocks = parse("a|b\n-|-\nc")
    assert [b.kind for b in blocks] == [TABLE, PARAGRAPH]
    assert [[markdown.plain_text(c) for c in r] for r in blocks[0].rows] == [["a", "b"]]


def test_empty_atx_headings():
    assert kinds(parse("#\n## ")) == [(HEADING, 1, ""), (HEADING, 2, "")]


def test_readable_leaves_the_signs_out_and_numbers_each_list_anew():
    assert markdown.readable("# Title\n\nSome **bold** and `code`.") == \
        "Title\nSome bold and code."
    assert markdown.readable("1. a\n2. b\n\ntext\n\n1. c\n   - d\n2. e") == \
        "1. a\n2. b\ntext\n1. c\n  \u2022 d\n2. e"
    assert markdown.readable("") == ""

"""The Writer tools' argument checks that need no document (writer.args)."""

import pytest

from marginalia.errors import ToolError
from marginalia.writer.args import plain_replacement


@pytest.mark.parametrize("search, replacement, names", [
    ("the deadline is Friday", "***the deadline is Friday***", "bold=true, italic=true"),
    ("x", "**x** now", "bold=true"),
    ("a", "*a*", "italic=true"),
    ("x", "__x__", "bold=true"),
])
def test_markdown_emphasis_in_a_plain_replacement_is_refused_with_the_call_that_does_it(
        search, replacement, names):
    with pytest.raises(ToolError) as refused:
        plain_replacement(search, replacement)
    said = str(refused.value)
    assert "nothing was changed" in said and "format_text" in said and names in said
    words = replacement.strip("*_ ").replace("** now", "").strip("*")
    assert 'search="%s"' % words in said


@pytest.mark.parametrize("search, replacement", [
    ("snake_case", "snake_case_name"),     # underscores inside words
    ("2*3", "2*3*4"),                      # arithmetic
    ("a", "a * b * c"),                    # spaced asterisks
    ("**x**", "**y**"),                    # the document has the asterisks already
    ("file", "my_file_name"),
    ("note", "note*"),                     # a footnote star
])
def test_other_asterisks_and_underscores_are_text(search, replacement):
    assert plain_replacement(search, replacement) == replacement


def test_html_tags_and_a_replacement_that_changes_nothing_are_refused():
    with pytest.raises(ToolError) as refused:
        plain_replacement("The Long Road", "<i>The Long Road</i>")
    assert 'search="The Long Road" and italic=true' in str(refused.value)
    assert "HTML tags" in str(refused.value)
    with pytest.raises(ToolError) as same:
        plain_replacement("Visit", "Visit")
    assert "same text as the search" in str(same.value)
    assert plain_replacement("a < b", "a <= b") == "a <= b"
    assert plain_replacement("<b>x</b>", "<b>y</b>") == "<b>y</b>"     # the document's own tags

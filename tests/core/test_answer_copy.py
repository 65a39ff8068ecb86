"""Copy's two flavours of an answer (ui/answer_copy.py): HTML for Writer, plain text."""

from marginalia.ui.answer_copy import BULLET, HEAD, TAIL, to_html, to_plain

ANSWER = ("## Plan\n\n- First step\n- Second **step**\n  - nested\n1. one\n2. two\n\n"
          "A **bold** close, see [docs](https://x.org).\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n"
          "```\ncode <x>\nmore\n```\n> quoted")


def test_plain_text_has_no_markdown_marks():
    plain = to_plain(ANSWER)
    assert plain == ("Plan\n\n" + BULLET + "First step\n" + BULLET + "Second step\n    "
                     + BULLET + "nested\n1. one\n2. two\n\n"
                     "A bold close, see docs (https://x.org).\n\nA\tB\n1\t2\n\n"
                     "code <x>\nmore\n\nquoted")
    for mark in ("#", "**", "|", "```", "> ", "]("):
        assert mark not in plain


def test_html_keeps_the_structure_for_writer():
    rich = to_html(ANSWER)
    assert rich.startswith(HEAD) and rich.endswith(TAIL) and "charset=utf-8" in rich
    body = rich[len(HEAD):-len(TAIL)]
    assert body == (
        "<h2>Plan</h2><ul><li>First step</li><li>Second <b>step</b><ul><li>nested</li></ul>"
        "</li></ul><ol><li>one</li><li>two</li></ol>"
        '<p>A <b>bold</b> close, see <a href="https://x.org">docs</a>.</p>'
        '<table border="1"><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>'
        "<pre>code &lt;x&gt;\nmore</pre><blockquote><p>quoted</p></blockquote>")


def test_text_is_escaped_and_lists_close():
    assert to_html("a < b & *c*") == HEAD + "<p>a &lt; b &amp; <i>c</i></p>" + TAIL
    assert to_html("- a\n  - b") == HEAD + "<ul><li>a<ul><li>b</li></ul></li></ul>" + TAIL
    assert to_plain("") == "" and to_html("") == HEAD + TAIL

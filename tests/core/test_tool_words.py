"""The panel's tool lines for refusals: the user's words, never the model's instructions."""

import pytest

from marginalia.document import expect
from marginalia.ui.tool_words import tool_line
from marginalia.writer import block_tools, keepout, plan, toolbox  # noqa: F401 (their words)

# Words that address the model: advice, tool names, "the user" in the third person.
MODEL_WORDS = ("ask the user", "the user", "Leave ", "leave ", "read it again", "Read the",
               "retry", "try again", "_", "expect=", "call ", "Give ")


@pytest.mark.parametrize("name,reason,shown", [
    ("replace_text", keepout.REFUSED % "Paragraph 3",
     "Left paragraph 3 alone: you keep Marginalia out of it \u2014 nothing changed"),
    ("delete_paragraphs", keepout.REFUSED % "Paragraphs 2\u20134",
     "Left paragraphs 2\u20134 alone: you keep Marginalia out of it \u2014 nothing changed"),
    ("replace_text", keepout.REFUSED % "A marked passage",
     "Left a marked passage alone: you keep Marginalia out of it \u2014 nothing changed"),
    ("replace_text", plan.IN_TRACKED % "paragraph 4",
     "Left paragraph 4 alone: it holds a tracked change not yet accepted or rejected"
     " \u2014 nothing changed"),
    ("replace_text", plan.UNSURE,
     "Couldn't tell which part of the document the edit would change \u2014 nothing changed"),
    ("replace_paragraphs", toolbox.STALE,
     "Couldn't rewrite the paragraphs: the document changed since the model read it"
     " \u2014 nothing changed"),
    ("replace_paragraphs", expect.mismatch(3, "Now it reads", [], "Old words"),
     "Couldn't rewrite the paragraphs: paragraph 3 no longer reads as the model expected"
     " \u2014 nothing changed"),
    ("replace_paragraphs", expect.mismatch(3, "Now it reads", [5], "Old words"),
     "Couldn't rewrite the paragraphs: paragraph 3 no longer reads as the model expected"
     " \u2014 nothing changed"),
    ("replace_text", toolbox.FAULT % "change the text",
     "Couldn't change the text: Writer could not change the text here \u2014 nothing changed"),
    ("replace_selection", "Nothing is selected. Ask the user to select text, or use "
     "replace_text or replace_paragraphs.", "Couldn't replace the selection: nothing is selected"),
    ("replace_paragraphs", "start 9 is out of range: the document has paragraphs 1 to 3.",
     "Couldn't rewrite the paragraphs: the model's request did not fit"),
])
def test_a_refusal_tells_the_user_what_happened(name, reason, shown):
    line = tool_line(name, False, "%s failed: %s" % (name, reason))
    assert line == shown
    assert not any(word in line for word in MODEL_WORDS), line


def test_the_model_keeps_its_instruction():
    # The refusal the model reads still tells it what to do; only the panel's line changes.
    assert "ask the user to remove the mark" in keepout.REFUSED
    assert "ask the user to accept" in plan.IN_TRACKED


@pytest.mark.parametrize("reason,said", [
    (keepout.REFUSED % "Paragraph 2",
     "Left paragraph 2 alone: you keep Marginalia out of it \u2014 nothing changed."),
    (plan.UNSURE,
     "Couldn't tell which part of the document the edit would change \u2014 nothing changed."),
    ("The text changed while Marginalia was working on it, so the answer was not put in the "
     "document; it is in the chat.", "The text changed while Marginalia was working on it, so "
     "the answer was not put in the document; it is in the chat."),
])
def test_a_quick_actions_refusal_is_one_sentence_for_the_user(reason, said):
    from marginalia.ui.tool_words import refusal
    assert refusal(reason) == said


def test_the_change_card_words_a_tool_refusal_for_the_user_and_leaves_its_own_sentences():
    from marginalia.ui.tool_words import in_user_words
    from marginalia.writer import review
    assert in_user_words(keepout.REFUSED % "Paragraph 3") == (
        "Left paragraph 3 alone: you keep Marginalia out of it \u2014 nothing changed.")
    for own in (review.NOT_LATEST, review.NOT_FOUND, review.CANNOT):
        assert in_user_words(own) == own

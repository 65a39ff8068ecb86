"""What a screen reader is given: the reply's announcement and the panes as lists of lines."""

from marginalia.ui import spoken
from marginalia.ui.softwrap import SOFT_BREAK


def test_the_announcement_is_the_reply_on_one_line():
    said = spoken.announcement("The sky is blue.\n\nOn a clear" + SOFT_BREAK + "day.")
    assert said == "Answered: The sky is blue. On a clear day."


def test_a_long_reply_is_announced_by_its_first_words_cut_at_a_space():
    said = spoken.announcement("word " * 200)
    assert said.startswith("Answered: word word")
    assert said.endswith("word\u2026")
    assert len(said) <= len("Answered: ") + spoken.ANNOUNCE_CHARS + 1


def test_lines_join_soft_breaks_and_drop_empty_lines():
    text = "You: hi\n\nAssistant:\nA long" + SOFT_BREAK + "paragraph.\n  \n"
    assert spoken.lines(text) == ["You: hi", "Assistant:", "A long paragraph."]


def test_first_change_finds_where_a_list_must_be_redone():
    assert spoken.first_change(["a", "b"], ["a", "b", "c"]) == 2
    assert spoken.first_change(["a", "b"], ["a", "x", "c"]) == 1
    assert spoken.first_change(["a", "b", "c"], ["a", "b"]) == 2
    assert spoken.first_change([], []) == 0


def test_answer_line_is_the_last_place_the_reply_begins():
    items = ["You: hi", "Assistant:", "Hello.", "You: again", "Assistant:", "Hello.", "More."]
    assert spoken.answer_line(items, "Hello.\nMore.") == 5
    assert spoken.answer_line(items[:4], "Hello.") == 2
    assert spoken.answer_line(items, "Not shown") == 6        # the end, where it must be
    assert spoken.answer_line([], "Hello.") == -1

"""ThinkSplitter: tags cut anywhere, R1 lone closing tags, nothing held back but a tag's start."""

import random

import pytest

from marginalia.chat.thinking import REASONING, RECLASSIFY, TEXT, ThinkSplitter


def run(chunks):
    splitter = ThinkSplitter()
    out = []
    for chunk in chunks:
        out.extend(splitter.feed(chunk))
    out.extend(splitter.finish())
    return out


def summary(pieces):
    """(text, reasoning) as the stream accumulator would build them.

    Where the chunks were cut must not change the final split.
    """
    text, reasoning = [], []
    for kind, piece in pieces:
        if kind == TEXT:
            text.append(piece)
        elif kind == REASONING:
            reasoning.append(piece)
        else:
            assert kind == RECLASSIFY
            reasoning.append("".join(text).rstrip())
            text = []
    return "".join(text), "".join(reasoning)


def all_splits(whole, seed=3):
    """Summary for the text fed whole, cut at every position, char by char and at random."""
    reference = summary(run([whole]))
    for cut in range(len(whole) + 1):
        assert summary(run([whole[:cut], whole[cut:]])) == reference, cut
    assert summary(run(list(whole))) == reference
    rng = random.Random(seed)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(whole)), min(len(whole) - 1, 6)))
        edges = [0] + cuts + [len(whole)]
        assert summary(run([whole[a:b] for a, b in zip(edges, edges[1:])])) == reference
    return reference


CASES = [
    ("<think>\nplan</think>\n\nAnswer", ("Answer", "plan")),
    ("  <think>a < b</think>Done", ("Done", "a < b")),
    ("Reasoning first.\n</think>\n\nHello", ("Hello", "Reasoning first.")),
    ("No tags at all, 1 < 2.", ("No tags at all, 1 < 2.", "")),
    ("Intro <think>inner</think> outro", ("Intro outro", "inner")),
    ("<think>unterminated reasoning", ("", "unterminated reasoning")),
    ("<think>x</think>y</think>z", ("y</think>z", "x")),
    ("ends with <thi", ("ends with <thi", "")),
    ("<thinking> is not the tag", ("<thinking> is not the tag", "")),
    ("long reasoning here</think>answer", ("answer", "long reasoning here")),
    ("just text", ("just text", "")),
    ("<think>t</think>u", ("u", "t")),
    ("r1</think>v", ("v", "r1")),
]


@pytest.mark.parametrize("whole,expected", CASES)
def test_cases_at_every_split(whole, expected):
    assert all_splits(whole) == expected


def test_tag_split_across_chunks_holds_back_only_the_partial_tag():
    splitter = ThinkSplitter()
    assert splitter.feed("Hello <th") == [(TEXT, "Hello ")]
    assert splitter.feed("ink>deep") == [(REASONING, "deep")]
    assert splitter.feed(" thought</thi") == [(REASONING, " thought")]
    assert splitter.feed("nk>\n\nBye") == [(TEXT, "Bye")]
    assert splitter.finish() == []


def test_leading_think_streams_reasoning_live():
    splitter = ThinkSplitter()
    assert splitter.feed("<think>") == []
    assert splitter.feed("step one") == [(REASONING, "step one")]


def test_first_words_show_at_once():
    # No R1 hold-back: a slow local model's first word is answer text right away.
    splitter = ThinkSplitter()
    assert splitter.feed("  Short") == [(TEXT, "Short")]
    assert splitter.feed(" reply") == [(TEXT, " reply")]


def test_only_a_possible_opening_tag_waits():
    splitter = ThinkSplitter()
    assert splitter.feed(" <thi") == []
    assert splitter.feed("nk>plan") == [(REASONING, "plan")]


def test_late_lone_close_yields_reclassify():
    splitter = ThinkSplitter()
    released = splitter.feed("thinking out loud")
    assert released == [(TEXT, "thinking out loud")]
    out = splitter.feed(" still</think>answer")
    assert out == [(TEXT, " still"), (RECLASSIFY, ""), (TEXT, "answer")]


def test_angle_brackets_are_not_held_forever():
    splitter = ThinkSplitter()
    assert splitter.feed("x <") == [(TEXT, "x ")]
    assert splitter.feed("b> y") == [(TEXT, "<b> y")]


def test_plain_passthrough_flag():
    splitter = ThinkSplitter()
    assert not splitter.passthrough()          # leading whitespace still to drop
    splitter.feed("a")
    assert splitter.passthrough()
    splitter.feed("<th")
    assert not splitter.passthrough()

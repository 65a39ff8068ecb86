"""ThinkSplitter: tags cut anywhere, R1 lone closing tags, minimal holding back."""

import random

import pytest

from marginalia.chat.thinking import REASONING, RECLASSIFY, TEXT, ThinkSplitter


def run(chunks, window=256):
    splitter = ThinkSplitter(window)
    out = []
    for chunk in chunks:
        out.extend(splitter.feed(chunk))
    out.extend(splitter.finish())
    return out


def summary(pieces):
    """(text, reasoning) as the stream accumulator would build them.

    Whether a RECLASSIFY was needed depends on where the chunks were cut
    (before or after the R1 window filled); the final split must not.
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


def all_splits(whole, window=256, seed=3):
    """Summary for the text fed whole, cut at every position, char by char and at random."""
    reference = summary(run([whole], window))
    for cut in range(len(whole) + 1):
        assert summary(run([whole[:cut], whole[cut:]], window)) == reference, cut
    assert summary(run(list(whole), window)) == reference
    rng = random.Random(seed)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(whole)), min(len(whole) - 1, 6)))
        edges = [0] + cuts + [len(whole)]
        assert summary(run([whole[a:b] for a, b in zip(edges, edges[1:])], window)) == reference
    return reference


CASES = [
    ("<think>\nplan</think>\n\nAnswer", 256, ("Answer", "plan")),
    ("  <think>a < b</think>Done", 256, ("Done", "a < b")),
    ("Reasoning first.\n</think>\n\nHello", 256, ("Hello", "Reasoning first.")),
    ("No tags at all, 1 < 2.", 256, ("No tags at all, 1 < 2.", "")),
    ("Intro <think>inner</think> outro", 256, ("Intro outro", "inner")),
    ("<think>unterminated reasoning", 256, ("", "unterminated reasoning")),
    ("<think>x</think>y</think>z", 256, ("y</think>z", "x")),
    ("ends with <thi", 256, ("ends with <thi", "")),
    ("<thinking> is not the tag", 256, ("<thinking> is not the tag", "")),
    ("long reasoning here</think>answer", 4, ("answer", "long reasoning here")),
    ("just text", 0, ("just text", "")),
    ("<think>t</think>u", 0, ("u", "t")),
    ("r1</think>v", 0, ("v", "r1")),
]


@pytest.mark.parametrize("whole,window,expected", CASES)
def test_cases_at_every_split(whole, window, expected):
    assert all_splits(whole, window) == expected


def test_tag_split_across_chunks_holds_back_only_the_partial_tag():
    splitter = ThinkSplitter(0)
    assert splitter.feed("Hello <th") == [(TEXT, "Hello ")]
    assert splitter.feed("ink>deep") == [(REASONING, "deep")]
    assert splitter.feed(" thought</thi") == [(REASONING, " thought")]
    assert splitter.feed("nk>\n\nBye") == [(TEXT, "Bye")]
    assert splitter.finish() == []


def test_leading_think_streams_reasoning_live():
    splitter = ThinkSplitter()
    assert splitter.feed("<think>") == []
    assert splitter.feed("step one") == [(REASONING, "step one")]


def test_r1_window_holds_text_until_close_or_window_full():
    splitter = ThinkSplitter(window=20)
    assert splitter.feed("short") == []                 # may still be R1 reasoning
    out = splitter.feed(" but now longer than twenty")
    assert summary(out) == ("short but now longer than twenty", "")
    # Once released, plain text streams straight through.
    assert splitter.feed("more") == [(TEXT, "more")]


def test_late_lone_close_yields_reclassify():
    splitter = ThinkSplitter(window=5)
    released = splitter.feed("thinking out loud")
    assert released == [(TEXT, "thinking out loud")]
    out = splitter.feed(" still</think>answer")
    assert out == [(TEXT, " still"), (RECLASSIFY, ""), (TEXT, "answer")]


def test_angle_brackets_are_not_held_forever():
    splitter = ThinkSplitter(0)
    assert splitter.feed("x <") == [(TEXT, "x ")]
    assert splitter.feed("b> y") == [(TEXT, "<b> y")]


def test_plain_passthrough_flag():
    splitter = ThinkSplitter(0)
    assert not splitter.passthrough()          # leading whitespace still to drop
    splitter.feed("a")
    assert splitter.passthrough()
    splitter.feed("<th")
    assert not splitter.passthrough()

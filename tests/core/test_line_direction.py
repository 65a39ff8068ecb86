"""Each line of the panes runs its own way (issue 39): an isolate starts every line.

An English answer in an Arabic interface showed ".explain it" because the pane lays out
every paragraph right to left. The panel's renderer starts each line with a FIRST STRONG
ISOLATE (ui.softwrap.ISOLATE) and isolates the user's message from its "You:" label.
What LibreOffice's bidi then does with those lines is tests/office/test_bidi_layout.py's.
"""

import random

import pytest

from marginalia.events import Event
from marginalia.ui.softwrap import ISOLATE, SoftWrap, plain
from marginalia.ui.transcript import TranscriptRenderer
from tests.core.test_answer_format import ANSWER
from tests.core.test_panel_logic import pane_after

LONG = " ".join("Sentence number %d ends here." % i for i in range(60))     # soft breaks
ENTRIES = [
    ("user", "Tighten the second paragraph, please."),
    ("event", Event("reasoning", text="The user wants it shorter.\nI will cut words.")),
    ("event", Event("text", text=ANSWER)),
    ("event", Event("tool_result", name="replace_text", ok=True,
                    summary="Replaced 1 occurrence of \u201cvery\u201d")),
    ("event", Event("text", text="\u0644\u0642\u062f \u0642\u0635\u0651\u0631\u062a\u0647\u0627.\n\n"
                    + LONG)),
    ("event", Event("notice", message="The answer used most of the window.")),
    ("event", Event("done", finish_reason="stop")),
    ("user", "\u0627\u0634\u0631\u062d \u0630\u0644\u0643\u061f\nsecond line"),
    ("event", Event("error", message="The server closed the connection.")),
]


def _streamed(isolate, seed):
    """Both panes after the entries arrive in random pieces, as the panel applies them."""
    rng = random.Random(seed)
    renderer = TranscriptRenderer(isolate=isolate)
    outs, thinking = [], ""
    for role, value in ENTRIES:
        if role == "event" and value.kind in ("text", "reasoning") and len(value.text) > 3:
            text, at = value.text, 0
            while at < len(text):
                step = rng.randint(1, 40)
                out = renderer.render([(role, Event(value.kind, text=text[at:at + step]))])
                outs.append(out)
                thinking += out.thinking
                at += step
        else:
            out = renderer.render([(role, value)])
            outs.append(out)
            thinking += out.thinking
    return pane_after(outs), thinking


@pytest.mark.parametrize("seed", range(6))
def test_every_line_starts_with_an_isolate_and_the_text_is_otherwise_unchanged(seed):
    chat, thinking = _streamed(True, seed)
    bare_chat, bare_thinking = _streamed(False, seed)
    assert ISOLATE not in bare_chat + bare_thinking
    for pane, bare in ((chat, bare_chat), (thinking, bare_thinking)):
        assert plain(pane) == plain(bare)           # a copy reads as before
        lines = pane.split("\n")
        assert len(lines) == len(bare.split("\n"))  # no line added or joined
        for line in lines:
            assert not line or line.startswith(ISOLATE), repr(line)
    # Soft breaks start lines too: the long paragraph was cut, each part runs its own way.
    assert chat.count("\u200b\n" + ISOLATE) >= 2


def test_a_replayed_chat_shows_the_same_text_as_the_streamed_one():
    chat, thinking = _streamed(True, 7)
    replay = TranscriptRenderer(isolate=True).render(ENTRIES)
    assert (replay.chat, replay.thinking) == (chat, thinking)


def test_the_message_is_isolated_from_its_label():
    out = TranscriptRenderer(isolate=True).render([("user", "Tighten it.")])
    assert out.chat == ISOLATE + "You: " + ISOLATE + "Tighten it.\n"
    assert plain(out.chat) == "You: Tighten it.\n"


def test_an_isolate_counts_for_no_column_and_the_wrap_is_unchanged():
    words = ("word " * 400).strip()
    with_isolates = SoftWrap(isolate=True).feed(words)
    assert with_isolates.replace(ISOLATE, "") == SoftWrap().feed(words)
    assert with_isolates.startswith(ISOLATE) and "\n" + ISOLATE in with_isolates
    # Blank lines stay empty: an isolate goes before a line's first character only.
    assert SoftWrap(isolate=True).feed("a\n\nb\n") == ISOLATE + "a\n\n" + ISOLATE + "b\n"

"""Which way the panes run (ui.bidi): the first strong letter decides, once per turn."""

from marginalia.events import DONE, REASONING, RECLASSIFY, TEXT, Event
from marginalia.ui.bidi import Directions, first_strong, language_rtl

ARABIC = "\u0645\u0631\u062d\u0628\u0627"
HEBREW = "\u05e9\u05dc\u05d5\u05dd"


def test_the_first_strong_letter_decides():
    assert first_strong(ARABIC + " hello") is True
    assert first_strong(HEBREW) is True
    assert first_strong("hello " + ARABIC) is False
    # Markdown marks, digits, punctuation and spaces have no direction of their own.
    assert first_strong("## 1. **" + ARABIC) is True
    assert first_strong("- 42, (" ) is None
    assert first_strong("") is None


def _text(text, kind=TEXT):
    return ("event", Event(kind, text=text))


def test_the_users_message_sets_the_conversation_and_an_answer_in_another_script_keeps_it():
    ways = Directions()
    assert ways.see([("user", "Translate this into Arabic, please")]) == {"transcript": False}
    # An Arabic answer does not flip the earlier English lines to the right.
    assert ways.see([_text("**"), _text(ARABIC + " ...")]) == {}
    assert ways.see([("event", Event(DONE, finish_reason="stop"))]) == {}
    # The user writing Arabic turns it, and an English answer leaves it so.
    assert ways.see([("user", ARABIC), _text("Sure, here it is")]) == {"transcript": True}


def test_a_message_without_letters_leaves_the_way_to_the_answer():
    ways = Directions()
    assert ways.see([("user", "2 + 2?")]) == {}
    # The answer's opening marks say nothing; its first letter does.
    assert ways.see([_text("**"), _text("1. ")]) == {}
    assert ways.see([_text(ARABIC + " ...")]) == {"transcript": True}
    # Decided for this turn: later English in the answer does not flip the pane.
    assert ways.see([_text(" and English")]) == {}


def test_the_panes_start_the_way_the_users_language_runs():
    assert [language_rtl(t) for t in ("ar", "he_IL", "fa-IR", "ckb", "ur_PK")] == [True] * 5
    assert [language_rtl(t) for t in ("en", "de", "zh_TW", "ku", "", "arn")] == [False] * 6


def test_thinking_is_decided_apart_and_each_turn_anew():
    ways = Directions()
    seen = ways.see([("user", ARABIC), _text("Let me think", REASONING), _text(ARABIC)])
    assert seen == {"transcript": True, "thinking": False}
    assert ways.see([("event", Event(DONE, finish_reason="stop"))]) == {}
    # A new turn: both panes are open to a new direction.
    assert ways.see([("user", "?"), _text(HEBREW, REASONING), _text("Sure")]) == {
        "thinking": True, "transcript": False}


def test_an_answer_that_was_thinking_after_all_decides_again():
    ways = Directions()
    assert ways.see([("user", "?"), _text("Okay, the user")]) == {"transcript": False}
    assert ways.see([("event", Event(RECLASSIFY, text="Okay, the user")),
                     _text(ARABIC)]) == {"transcript": True}


def test_an_rtl_message_holds_when_its_answer_was_thinking():
    ways = Directions()
    assert ways.see([("user", ARABIC), _text("Okay, the user")]) == {"transcript": True}
    assert ways.see([("event", Event(RECLASSIFY, text="Okay, the user"))]) == {}
    # A message with no letters leaves the panes as the panel set them (left after New chat).
    assert Directions().see([("user", "2 + 2?")]) == {}

"""Answers shown formatted while they stream; R1 text moved to thinking; tool lines for users."""

import random
import time

import pytest

from marginalia.chat.tools import ToolRegistry
from marginalia.document import tool_lines
from marginalia.document.tool_specs import spec
from marginalia.events import Event
from marginalia.ui.answer_format import BULLET, CELL, CODE, QUOTE, RULE, inline_text
from marginalia.ui.tool_words import tool_line
from marginalia.ui.transcript import SOFT_BREAK, TranscriptRenderer
from tests.core.test_panel_logic import pane_after

ANSWER = (
    "## Costs\n"
    "Costs rose **12%** in *spring*, see [the report](https://example.org/r).\n"
    "\n"
    "- first point\n"
    "  - nested `code` point\n"
    "1. numbered\n"
    "> a quote\n"
    "\n"
    "| Item | Cost |\n"
    "|------|-----:|\n"
    "| Rent | 1,200 |\n"
    "\n"
    "```python\n"
    "x = a * b  # **not bold**\n"
    "```\n"
    "---\n"
    "Done.")

SHOWN = (
    "Costs\n" + "\u2500" * 5 + "\n"
    "Costs rose 12% in spring, see the report (https://example.org/r).\n"
    "\n"
    "  " + BULLET + "first point\n"
    "    " + BULLET + "nested code point\n"
    "1. numbered\n"
    + QUOTE + "a quote\n"
    "\n"
    "Item " + CELL + " Cost\n"
    + RULE + "\n"
    "Rent " + CELL + " 1,200\n"
    "\n"
    + CODE + "python\n"
    + CODE + "x = a * b  # **not bold**\n"
    + RULE + "\n"
    "Done.\n")


def streamed(text, cuts, entries_before=(("user", "Go"),)):
    renderer = TranscriptRenderer()
    outs = [renderer.render(list(entries_before))]
    edges = [0] + sorted(cuts) + [len(text)]
    for a, b in zip(edges, edges[1:]):
        outs.append(renderer.render([("event", Event("text", text=text[a:b]))]))
    outs.append(renderer.render([("event", Event("done", finish_reason="stop"))]))
    return pane_after(outs), outs


def test_a_markdown_answer_reads_as_formatted_text():
    pane, _ = streamed(ANSWER, [])
    assert pane == "You: Go\n\nAssistant:\n" + SHOWN
    for raw in ("**", "## ", "```", "|---", "[the report]"):
        assert raw not in pane.replace("# **not bold**", "")


def test_any_cut_of_the_stream_ends_in_the_same_pane():
    reference, _ = streamed(ANSWER, [])
    for cut in range(1, len(ANSWER)):
        assert streamed(ANSWER, [cut])[0] == reference, cut
    rng = random.Random(5)
    for _ in range(30):
        cuts = rng.sample(range(1, len(ANSWER)), 12)
        assert streamed(ANSWER, cuts)[0] == reference
    assert streamed(ANSWER, range(1, len(ANSWER)))[0] == reference


def test_first_words_show_with_the_first_piece_and_bold_never_flashes():
    _, outs = streamed("Hello **big** world", [5, 8, 11, 13])
    assert outs[1].chat.endswith("Hello")
    assert all("*" not in out.chat for out in outs)
    assert not any(out.retract for out in outs)


def test_a_marker_that_never_closes_is_shown_as_typed():
    pane, _ = streamed("Multiply 2 *3 and go on for a while.", [12, 20])
    assert pane.endswith("Multiply 2 *3 and go on for a while.\n")


def test_r1_reasoning_shown_as_answer_moves_to_the_thinking_pane():
    renderer = TranscriptRenderer()
    outs = [renderer.render([("user", "Hi"), ("event", Event("text", text="Let me think"))])]
    assert outs[0].chat.endswith("Assistant:\nLet me think")
    out = renderer.render([("event", Event("reclassify", text="Let me think.")),
                           ("event", Event("text", text="Hello."))])
    outs.append(out)
    assert pane_after(outs) == "You: Hi\n\nAssistant:\nHello."
    assert out.thinking.endswith("Let me think.")
    # Replaying the log gives the same pane.
    replay = TranscriptRenderer().render([
        ("user", "Hi"), ("event", Event("text", text="Let me think")),
        ("event", Event("reclassify", text="Let me think.")),
        ("event", Event("text", text="Hello."))])
    assert replay.chat == "You: Hi\n\nAssistant:\nHello."


def test_soft_breaks_are_marked_so_a_copy_gives_the_spaces_back():
    text = " ".join("Sentence %d." % i for i in range(400))
    pane, _ = streamed(text, [700, 1500, 3000])
    answer = pane.split("Assistant:\n", 1)[1]
    assert SOFT_BREAK in answer
    assert answer.replace(SOFT_BREAK, " ") == text + "\n"


def test_a_long_paragraph_costs_per_piece_not_per_line():
    text = "word " * 12000                          # 60 KB, one paragraph
    renderer = TranscriptRenderer()
    renderer.render([("user", "Go")])
    started = time.perf_counter()
    for i in range(0, len(text), 600):             # 100 updates of 600 characters
        renderer.render([("event", Event("text", text=text[i:i + 600]))])
    per_update = (time.perf_counter() - started) / 100
    assert per_update < 0.002, per_update


def test_text_without_spaces_costs_per_piece_too():
    text = "\u6587" * 30000                      # a CJK paragraph: no spaces to settle at
    renderer = TranscriptRenderer()
    renderer.render([("user", "Go")])
    started = time.perf_counter()
    outs = []
    for i in range(0, len(text), 300):
        outs.append(renderer.render([("event", Event("text", text=text[i:i + 300]))]))
    assert (time.perf_counter() - started) / 100 < 0.002
    assert pane_after(outs).split("Assistant:\n", 1)[1] == text


def test_inline_text():
    assert inline_text("a **b** _c_ `d` [e](http://f)") == "a b c d e (http://f)"
    assert inline_text("plain") == "plain"


def _said(name, found):
    """A refusal's phrase as the registry hands it on: the tool's own words filled in."""
    registry = ToolRegistry()
    registry.register(name, "", {}, lambda: None, action=spec(name).words.action)
    return registry.said(name, found)


@pytest.mark.parametrize("name,ok,summary,said,shown", [
    ("replace_text", False, "replace_text failed: bad arguments",
     tool_lines.incomplete_request(),
     "Couldn't change the text: the model's request was incomplete \u2014 nothing changed"),
    ("read_document", True, "Read paragraphs 1\u20135 of 9", None,
     "Read paragraphs 1\u20135 of 9"),
    ("add_comment", True, "add_comment", None, "Added a comment"),
    ("replace_text", False, "replace_text cancelled", tool_lines.stopped(),
     "Stopped before it could change the text"),
    ("format_text", False, "format_text failed: The document is read-only; nothing was changed.",
     tool_lines.read_only(),
     "Couldn't format the text: the document is read-only \u2014 nothing changed"),
    # Without a phrase (a chat kept before refusals had them): its English, for the user.
    ("format_text", False, "format_text failed: The document is read-only; nothing was changed.",
     None, "Couldn't format the text: the document is read-only \u2014 nothing changed"),
])
def test_tool_lines_speak_to_the_user(name, ok, summary, said, shown):
    assert tool_line(name, ok, summary, _said(name, said) if said else None) == shown


@pytest.mark.parametrize("field,text", [(0xFFFFFF, 0x000000), (0x1E1E1E, 0xEEEEEE),
                                        (0x2B2B2B, 0xFFFFFF), (0xFDF6E3, 0x657B83),
                                        (0x000000, 0x333333)])
def test_pane_colours_follow_the_theme_and_meet_wcag_aa(field, text):
    from marginalia.ui.theme import AA, contrast, is_dark, pane_colours
    colours = pane_colours(field, text)
    assert contrast(colours["chat_bg"], colours["chat_text"]) >= AA
    assert contrast(colours["thinking_bg"], colours["thinking_text"]) >= AA
    # The message box's hint is thinking_text on the field colour.
    assert contrast(colours["chat_bg"], colours["thinking_text"]) >= AA
    # A dark theme keeps dark panes (no light text on white).
    assert is_dark(colours["thinking_bg"]) == is_dark(field)
    assert colours["thinking_bg"] != colours["chat_bg"]


@pytest.mark.parametrize("face,label,accent", [(0xEFEFEF, 0x000000, 0x3584E4),
                                                (0x353535, 0xEEEEEE, 0x15539E),
                                                (0x2B2B2B, 0xFFFFFF, 0xFFFF00),
                                                (0xFFFFFF, 0x767676, 0x000080)])
def test_the_set_up_card_is_tinted_by_the_theme_and_its_labels_stay_readable(face, label,
                                                                             accent):
    from marginalia.ui.theme import AA, card_colour, contrast, is_dark
    card = card_colour(face, label, accent)
    assert contrast(card, label) >= AA
    assert is_dark(card) == is_dark(face)      # a dark panel keeps a dark card
    if contrast(face, label) >= AA + 1:
        assert card != face                    # room for a tint: the card stands out


@pytest.mark.parametrize("width,need,rows", [(180, 30, 1), (180, 45, 2), (400, 60, 1),
                                             (400, 100, 2)])
def test_answer_buttons_go_two_to_a_row_when_their_labels_need_it(width, need, rows):
    from marginalia.ui import panel_layout as pl
    boxes = pl.layout(width, 700, False, answer_need=need)
    buttons = [boxes[name] for name in pl.ANSWER_ROW]
    assert len(set(y for _x, y, _w, _h in buttons)) == rows
    for x, y, w, h in buttons:
        # Two to a row is as far as this layout goes: then each has half the row.
        assert w >= need or w >= (width - 2 * pl.MARGIN - pl.GAP) // 2
        assert x + w <= width - pl.MARGIN
        # Below the conversation, above the line saying what the model sees.
        assert boxes["transcript"][1] + boxes["transcript"][3] <= y
        assert y + h <= boxes["scope"][1]


@pytest.mark.parametrize("width,height", [(180, 320), (320, 900)])
def test_message_box_grows_from_two_to_eight_lines_without_overlaps(width, height):
    from marginalia.ui import panel_layout as pl
    heights = []
    for lines in (1, 2, 5, 8, 30):
        # Also with the thinking pane open and the answer buttons two to a row.
        for thinking, need in ((False, 0), (True, 0), (True, 500)):
            boxes = pl.layout(width, height, thinking, input_lines=lines, answer_need=need)
            if not thinking:
                heights.append(boxes["input"][3])
            order = ["thinking", "transcript", "copy", "edit", "scope", "input", "send"]
            if need == 0:
                order.remove("copy")          # one row: Copy sits beside Edit
            if not thinking:
                order.remove("thinking")
            tops = [boxes[n][1] for n in order]
            assert tops == sorted(tops)
            for upper, lower in zip(order, order[1:]):
                assert boxes[upper][1] + boxes[upper][3] <= boxes[lower][1], (upper, lower)
            assert boxes["status"][0] + boxes["status"][2] <= boxes["send"][0]
            assert boxes["transcript"][3] >= 3 * pl.ROW - 2 * pl.GAP
    assert heights[0] == heights[1] < heights[2] < heights[3]
    assert heights[3] >= heights[4]      # capped at 8 lines (less when the panel is short)


def test_status_row_grows_with_its_words_and_the_toggle_takes_a_row_when_its_words_need_it():
    """Issue 24: the status line gets the height its words take (measured by the office);
    the thinking toggle whose whole label does not fit beside the icons gets a row of its
    own instead of showing "3 s ▸"."""
    from marginalia.ui import panel_layout as pl
    plain = pl.layout(180, 800, False)
    tall = pl.layout(180, 800, False, status_h=3 * 17)
    assert tall["status"][3] == 51 and plain["status"][3] == pl.STATUS
    assert tall["input"][1] + tall["input"][3] <= tall["status"][1]
    assert tall["send"][1] >= tall["status"][1]
    beside = pl.layout(180, 800, False, toggle_visible=True, toggle_need=30)
    own = pl.layout(180, 800, False, toggle_visible=True, toggle_need=110)
    assert beside["thinking_toggle"][1] == beside["settings"][1]
    assert own["thinking_toggle"][1] >= own["settings"][1] + pl.ROW
    assert own["thinking_toggle"][2] >= 110
    assert own["transcript"][1] >= own["thinking_toggle"][1] + pl.ROW

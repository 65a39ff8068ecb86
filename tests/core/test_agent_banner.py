"""The panel's row for an outside agent editing its document (ui.agent_banner): words, layout."""

import pytest

from marginalia.ui import agent_banner as ab
from marginalia.ui.first_run import text_lines

DOC = "doc-1"
OTHER = "doc-2"


def turn(agent, document=DOC, since=1.0, session=None):
    return {"agent": agent, "session": session or "s-" + agent, "document": document,
            "title": "Report", "author": agent + " via Marginalia", "since": since}


def test_no_agent_no_row():
    assert ab.banner([], DOC) == ab.HIDDEN
    assert ab.layout(180, 0, ab.HIDDEN) == (0, {})


def test_one_agent_is_named_with_a_stop_for_it():
    shown = ab.banner([turn("Claude")], DOC)
    assert shown.visible and shown.text == "Claude is editing this document."
    assert shown.stop == ("Claude",) and shown.stop_name == "Stop Claude"
    assert shown.name == "Outside agent: Claude is editing this document."


def test_two_agents_are_both_named_first_come_first_and_stop_stops_both():
    shown = ab.banner([turn("Codex", since=5.0), turn("Claude", since=2.0)], DOC)
    assert shown.text == "Claude and Codex are editing this document."
    assert shown.stop == ("Claude", "Codex") and shown.stop_name == "Stop Claude and Codex"
    three = ab.banner([turn("A", since=1), turn("B", since=2), turn("C", since=3)], DOC)
    assert three.text == "A and 2 other agents are editing this document."
    assert three.stop == ("A", "B", "C")


def test_other_documents_agents_are_not_this_panels():
    assert ab.banner([turn("Claude", OTHER)], DOC) == ab.HIDDEN
    shown = ab.banner([turn("Claude", OTHER), turn("Codex")], DOC)
    assert shown.text == "Codex is editing this document." and shown.stop == ("Codex",)


def test_one_agent_in_two_sessions_is_named_once():
    shown = ab.banner([turn("Claude", session="a"), turn("Claude", session="b")], DOC)
    assert shown.text == "Claude is editing this document."


def test_a_stopped_agent_is_not_editing_and_the_note_says_it_was_stopped():
    turns = [turn("Claude")]
    # Stop was pressed; its turn is still closing on a worker thread.
    note = ab.banner(turns, DOC, stopped=("Claude",), just_stopped=("Claude",))
    assert note.visible and not note.stop
    assert note.text == "Claude was stopped: its calls are refused until LibreOffice restarts."
    # The note's time passed: the row goes, though the closing turn is still listed.
    assert ab.banner(turns, DOC, stopped=("Claude",)) == ab.HIDDEN
    # A session id stopped counts too (the Options page may stop one session).
    assert ab.banner([turn("Claude", session="xyz")], DOC, stopped=("xyz",)) == ab.HIDDEN


def test_another_agent_editing_replaces_the_stopped_note():
    shown = ab.banner([turn("Claude"), turn("Codex")], DOC, stopped=("Claude",),
                      just_stopped=("Claude",))
    assert shown.text == "Codex is editing this document." and shown.stop == ("Codex",)


def test_a_long_name_is_shortened_never_cut_mid_sentence():
    name = "Very Long Agent Name " * 6
    shown = ab.banner([turn(name)], DOC)
    assert shown.text.endswith("\u2026 is editing this document.")
    assert len(shown.text) < ab.NAME_MAX + 30
    assert ab.banner([turn("")], DOC).text == "An outside agent is editing this document."


@pytest.mark.parametrize("width", [180, 192, 240, 400])
@pytest.mark.parametrize("agents", [["Claude"], ["Claude Code", "Codex"],
                                    ["Very Long Agent Name " * 6]])
def test_the_row_fits_the_sidebar_and_its_text_wraps_to_its_lines(width, agents):
    shown = ab.banner([turn(a, since=i) for i, a in enumerate(agents)], DOC)
    height, boxes = ab.layout(width, 10, shown, need=40)
    x, y, w, h = boxes["text"]
    sx, sy, sw, sh = boxes["stop"]
    assert x >= ab.MARGIN and x + w + ab.GAP <= sx and sx + sw <= width - ab.MARGIN
    assert sw >= ab.STOP_W and y >= 10 + ab.MARGIN
    # Every line the words need has its height; the row holds the text and the button.
    assert h >= text_lines(shown.text, w) * ab.LINE_H
    assert 10 + height >= max(y + h, sy + sh)


def test_the_stopped_note_takes_the_whole_width():
    note = ab.banner([], DOC, just_stopped=("Claude",))
    height, boxes = ab.layout(180, 0, note)
    assert set(boxes) == {"text"} and boxes["text"][2] == 180 - 2 * ab.MARGIN
    assert height >= text_lines(note.text, boxes["text"][2]) * ab.LINE_H

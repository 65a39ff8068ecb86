"""Answers at the sidebar's default width, in a real window (issue 24, item 4).

The conversation pane is a plain multi-line Edit (docs/ARCHITECTURE.md "The panel"),
so an answer's layout is made of characters laid out to the pane's width in
characters, which the panel measures with the pane's own font: a table too wide
for it reads as stacked "header: value" records, a heading's underline stays on
one line. Screenshots to look at, in tests/artifacts/: answers_narrow_light_en.png
and answers_narrow_light.png (gen), answers_narrow_dark_en.png and
answers_narrow_dark.png (gtk3, dark Adwaita): an English answer, then with an
Arabic message after it.
"""

import time

from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, screenshot, wait_for

ANSWER = ("## Costs for the spring quarter\n\n"
          "Costs rose a little.\n\n"
          "| Item | Owner | Cost |\n"
          "|---|---|---|\n"
          "| Rent | Alice | 1,200 |\n"
          "| Paper | Bob | 80 |\n\n"
          "```python\n"
          "total = sum(costs)\n"
          "```\n"
          "Done.")
ARABIC_QUESTION = "\u0644\u062e\u0635 \u0627\u0644\u062a\u0643\u0627\u0644\u064a\u0641"
ARABIC_ANSWER = ("\u0627\u0631\u062a\u0641\u0639\u062a \u0627\u0644\u062a\u0643\u0627"
                 "\u0644\u064a\u0641 \u0641\u064a \u0627\u0644\u0631\u0628\u064a\u0639.")
RULES = set("\u2500\u2550")


def _rule_lines(text):
    return [line for line in text.split("\n") if line and set(line) <= RULES]


def test_a_table_reads_as_records_and_rules_stay_on_one_line(gui_office, gui_doc, chat_server):
    chat_server.add(sse.text_response(ANSWER, pieces=7))
    chat_server.add(sse.text_response(ARABIC_ANSWER, pieces=2))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Sum up the costs")
    panel.key("Return")
    shown = panel.wait_transcript("Done.")
    panel.wait_idle()
    # Issue 24: the rows were "Rent \u2502 Alice \u2502 1,200", wrapped into fragments.
    assert "Item: Rent\nOwner: Alice\nCost: 1,200\n\nItem: Paper" in shown, shown
    assert "\u2502" not in shown.split("Costs rose")[1].split("total")[0]
    # The underline was as long as the heading (28 characters), wrapping over two lines.
    rules = _rule_lines(shown)
    assert rules and max(len(line) for line in rules) < len("Costs for the spring quarter")
    assert "\u2503 total = sum(costs)" in shown               # code keeps its bar
    panel.key("ctrl+End")              # reading selected the pane: a screenshot without that
    time.sleep(0.5)
    screenshot(gui_office, "answers_narrow_light_en.png")

    panel.paste(ARABIC_QUESTION)   # xdotool drops Arabic letters
    panel.key("Return")
    panel.wait_transcript(ARABIC_ANSWER[:8])
    panel.wait_idle()
    panel.key("ctrl+End")
    time.sleep(0.5)
    screenshot(gui_office, "answers_narrow_light.png")


def test_the_same_answers_in_a_dark_theme(dark_office):
    from tests.gui.test_panel_dark import _light, _open_panel
    from tests.support.panel_driver import scripted_chat
    server = scripted_chat(dark_office)
    chat_server = next(server)
    doc = dark_office.new_writer()
    try:
        chat_server.add(sse.text_response(ANSWER, pieces=7))
        chat_server.add(sse.text_response(ARABIC_ANSWER, pieces=2))
        _open_panel(dark_office, doc)
        for question in ("Sum up the costs", ARABIC_QUESTION):
            assert dark_office.job("chat.start", doc, message=question)["started"]
            time.sleep(0.3)
            wait_for(lambda: not dark_office.job("chat.poll", doc)["busy"], what="the answer")
            if question != ARABIC_QUESTION:
                time.sleep(1.0)
                screenshot(dark_office, "answers_narrow_dark_en.png")
        time.sleep(1.0)
        shot = screenshot(dark_office, "answers_narrow_dark.png")
        assert _light(shot) < 0.05, _light(shot)      # the records are drawn on the dark pane
        # gtk3 lays the pane out with its own font: the table still reads as records.
        shown = dark_office.job("panel.text", doc)["text"]
        assert "Item: Rent\nOwner: Alice\nCost: 1,200\n\nItem: Paper" in shown, shown
        assert ARABIC_ANSWER in shown
    finally:
        dark_office.close(doc)
        next(server, None)


def test_a_wider_pane_lays_the_answer_shown_out_again(gui_office, gui_doc, chat_server):
    # Review of issue 24: text already shown kept the layout of the width it came at.
    chat_server.add(sse.text_response(ANSWER, pieces=7))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Sum up the costs")
    panel.key("Return")
    panel.wait_transcript("Done.")
    panel.wait_idle()
    before = gui_office.job("panel.text", gui_doc)
    assert "Item: Rent\nOwner: Alice" in before["text"] and before["columns"] < 40, before
    # As a sidebar dragged wider tells the panel: nothing changes while the width moves...
    moved = gui_office.job("panel.text", gui_doc, columns=80)
    assert moved["text"] == before["text"]
    # ...and once it holds, the chat shows again laid out at it.
    rows = "Rent \u2502 Alice \u2502 1,200"
    wait_for(lambda: rows in gui_office.job("panel.text", gui_doc)["text"], timeout=10,
             what="the table's rows at 80 characters a line")
    again = gui_office.job("panel.text", gui_doc)["text"]
    assert "Item: Rent" not in again and "You: Sum up the costs" in again

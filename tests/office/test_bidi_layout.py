"""The panes' lines in a right-to-left interface, laid out by LibreOffice's own bidi.

Under an Arabic interface the conversation pane lays out every paragraph right to left,
and an English answer read ".explain it" (issue 39). The renderer now starts each line
with an isolate (ui.softwrap.ISOLATE) and isolates the user's message from its label.
Here the lines it makes are put in a right-to-left Writer paragraph, the same Unicode
bidi algorithm as the pane's text engine, and where each character lands is read from
the view cursor: left to right in pixels, not guessed.
"""

import os

from marginalia.events import Event
from marginalia.i18n import catalog
from marginalia.ui.transcript import TranscriptRenderer

RL_TB = 1        # com.sun.star.text.WritingMode2.RL_TB
LOCALE = os.path.join(os.path.dirname(__file__), "..", "..", "extension", "locale")


def _line(chat, needle):
    return next(line for line in chat.split("\n") if needle in line)


def _x_in_paragraph(office, line, indexes, rtl=True):
    """Where the caret before each of ``indexes`` of ``line`` sits, in a right-to-left
    paragraph (what a mirrored pane is; else left to right), in 1/100 mm from the page's left."""
    doc = office.new_writer()
    try:
        text = doc.getText()
        cursor = text.createTextCursor()
        if rtl:
            cursor.setPropertyValue("WritingMode", RL_TB)
        text.insertString(cursor, line, False)
        view = doc.getCurrentController().getViewCursor()
        found = []
        for index in indexes:
            cursor.gotoStart(False)
            cursor.goRight(index, False)
            view.gotoRange(cursor, False)
            found.append(view.getPosition().X)
        return found
    finally:
        office.close(doc)


def _answer_line(isolate):
    renderer = TranscriptRenderer(isolate=isolate)
    out = renderer.render([("user", "\u0627\u0634\u0631\u062d"),
                           ("event", Event("text", text="Shall I explain it..."))])
    return _line(out.chat, "explain")


def test_an_english_answer_keeps_its_end_punctuation_at_its_end(office):
    for isolate in (False, True):
        line = _answer_line(isolate)
        inside_shall = line.index("Shall") + 2            # carets inside one run only
        inside_it = line.index("it...") + 1
        between_dots = line.index("...") + 1
        x_shall, x_it, x_dots = _x_in_paragraph(
            office, line, (inside_shall, inside_it, between_dots))
        assert x_shall < x_it, (isolate, x_shall, x_it)   # the words run left to right
        if isolate:
            assert x_dots > x_it, ("the dots went before the words", x_dots, x_it)
        else:
            # What the user saw before: the dots at the line's left end (".explain it").
            assert x_dots < x_shall, ("the bare line no longer shows the fault",
                                      x_dots, x_shall)


def test_the_arabic_label_stays_at_the_start_of_an_english_message(office):
    label = "\u0623\u0646\u062a"
    assert catalog.install("ar", LOCALE) == "ar"
    try:
        out = TranscriptRenderer(isolate=True).render(
            [("user", "Tighten the second paragraph...")])
    finally:
        catalog.install("en", "/nonexistent")
    line = _line(out.chat, "Tighten")
    assert label in line
    inside_label = line.index(label) + 1
    inside_tighten = line.index("Tighten") + 2
    inside_paragraph = line.index("paragraph") + 2
    between_dots = line.index("...") + 1
    x_label, x_tighten, x_paragraph, x_dots = _x_in_paragraph(
        office, line, (inside_label, inside_tighten, inside_paragraph, between_dots))
    # Right to left: the label first, at the right; then the message, in its own order.
    assert x_label > max(x_tighten, x_paragraph, x_dots), (x_label, x_tighten, x_dots)
    assert x_tighten < x_paragraph < x_dots, (x_tighten, x_paragraph, x_dots)


def test_an_arabic_message_in_an_english_interface_keeps_its_question_mark(office):
    question = "\u0627\u0634\u0631\u062d \u0630\u0644\u0643??"       # "explain that??"
    out = TranscriptRenderer(isolate=True).render([("user", question)])
    line = _line(out.chat, "You:")
    xs = _x_in_paragraph(office, line, (line.index("You") + 1, line.index("\u0627\u0634") + 1,
                                        line.index("??") + 1), rtl=False)
    x_you, x_first_word, x_marks = xs
    # "You:" at the left; the message right to left after it, its question marks at its
    # own end (the left of the Arabic), not after the label's side.
    assert x_you < x_marks < x_first_word, xs


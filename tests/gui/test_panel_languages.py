"""The panel in other languages (issue 26): German, Arabic and Japanese offices show it
in their language at the sidebar's default width, nothing cut; under
the pseudo-locale (every translated string accented, ~40% longer, bracketed) a string
that skipped the catalog shows as plain English and fails here, and so does a cut one.

The offices run in that UI language (office_in: the profile's UILocale, Debian's
libreoffice-l10n packages); the turn is started through the job service, so nothing
here looks controls up by their (translated) accessible names.
"""

import gettext
import io
import os
import time

from marginalia.i18n import po, pseudo, tags
from tests.gui.test_panel_fit import problems
from tests.support import sse_server as sse
from tests.support.panel_driver import (screen_share, screenshot, set_model_answered,
                                        set_paragraphs, show_deck, wait_for)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The panel's own words (not the user's text, not an icon): what must be translated.
USER_TEXT = ("transcript", "thinking", "input", "transcript_list", "thinking_list")


def _catalog(tag):
    """The shipped catalog of ``tag`` as gettext reads it (the .po compiled here)."""
    name = tags.catalog_names(tag)[-1]
    with open(os.path.join(ROOT, "extension", "locale", name + ".po"), encoding="utf-8") as fh:
        return gettext.GNUTranslations(io.BytesIO(po.to_mo(po.parse(fh.read()))))


def _panel_with_a_turn(office, answer, paragraphs=()):
    """A document (of ``paragraphs``) with its panel open and one answered turn; the
    panel.fit report."""
    server = sse.ScriptedServer([sse.text_response(answer, reasoning="...")],
                                models=("test-model",)).start()
    office.job("settings.save", endpoint=server.url, model="test-model", provider="custom",
               show_thinking=True)
    set_model_answered(office, True)
    doc = office.new_writer()
    if paragraphs:
        set_paragraphs(doc, *paragraphs)
    show_deck(doc)
    wait_for(lambda: _open(office, doc), what="the panel")
    office.job("chat.start", document=doc, message="Hello")
    started = time.time()
    while office.job("chat.poll", document=doc)["busy"] and time.time() - started < 60:
        time.sleep(0.2)
    time.sleep(1.0)                     # the last batch drawn
    report = office.job("panel.fit", document=doc)
    pane = office.job("panel.text", document=doc)["text"]
    return server, doc, report, pane


def _open(office, doc):
    try:
        return office.job("panel.fit", document=doc)["parent"][0] > 0
    except Exception:
        return False


# The answer edits the document (an edit block, the default protocol): the tool's line
# comes in the user's language too, as its phrase (it was the writer's English).
EDIT = "\n```edit\n2: %s\n```\n"


def _check_language(office_in, tag, answer, shot):
    office = office_in(tag, gui=True)
    catalog = _catalog(tag)
    t = catalog.gettext
    server, doc, report, pane = _panel_with_a_turn(office, answer + EDIT % answer,
                                                   ("Titel", "Ein Satz."))
    try:
        assert doc.Text.getString().endswith(answer), "the edit block was not made"
        edited = t("Edited paragraph %(n)d") % {"n": 2}
        assert edited != "Edited paragraph 2" and edited in pane, pane
        assert "Edited paragraph" not in pane
        screenshot(office, "panel_%s.png" % shot)
        assert office.job("i18n.language")["in_use"].split("-")[0] == tag.split("-")[0]
        shown = {c["id"]: c for c in report["controls"]}
        # The panel's words are the catalog's: Send, the scope line, the conversation's roles.
        assert shown["send"]["text"] == t("Send") != "Send"
        assert shown["scope"]["text"] == t("Whole document") != "Whole document"
        assert t("Assistant:") in pane and t("You: %s") % "Hello" in pane
        assert answer in pane
        found = problems(report["controls"])
        assert not found, "\n".join(found)
        return report
    finally:
        server.stop()
        office.close(doc)


def test_the_panel_speaks_german(office_in):
    _check_language(office_in, "de-DE", "Eine kurze Antwort.", "de")


def test_the_panel_speaks_japanese(office_in):
    _check_language(office_in, "ja", "短い答えです。", "ja")


def test_the_panel_speaks_arabic(office_in):
    # VCL mirrors the panel under a right-to-left interface (panel_ar.png: Send at the left);
    # the controls' boxes and their accessible positions stay logical, so it is not measured.
    _check_language(office_in, "ar", "جواب قصير.", "ar")


def test_every_string_of_the_panel_went_through_the_catalog(office_in):
    """The pseudo-locale: what the panel shows of its own is bracketed and accented."""
    office = office_in("en-US", gui=True, env={"MARGINALIA_UI_LANGUAGE": "qps-ploc"})
    server, doc, report, pane = _panel_with_a_turn(office, "A short answer.")
    try:
        screenshot(office, "panel_pseudo.png")
        untranslated = []
        for c in report["controls"]:
            if c["id"] in USER_TEXT or c.get("image") or not c.get("text"):
                continue
            if not c["text"].startswith(pseudo.OPEN):
                untranslated.append("%s %r" % (c["id"], c["text"]))
        assert not untranslated, "not through the catalog: " + ", ".join(untranslated)
        assert pseudo.pseudo("Assistant:") in pane
        found = problems(report["controls"])
        assert not found, "\n".join(found)
    finally:
        server.stop()
        office.close(doc)


ARABIC_ANSWER = "\u062c\u0648\u0627\u0628 \u0642\u0635\u064a\u0631."     # "A short answer."
ARABIC_MESSAGE = "\u0645\u0631\u062d\u0628\u0627"                      # "Hello"


def test_under_an_arabic_interface_an_arabic_chat_sits_at_the_right(office_in):
    """VCL mirrors the panel under a right-to-left interface and swaps an edit's left and
    right: an Arabic chat must still read from the pane's right edge (it sat at the left)."""
    office = office_in("ar", gui=True)
    server = sse.ScriptedServer([sse.text_response(ARABIC_ANSWER)],
                                models=("test-model",)).start()
    office.job("settings.save", endpoint=server.url, model="test-model", provider="custom")
    set_model_answered(office, True)
    doc = office.new_writer()
    try:
        show_deck(doc)
        wait_for(lambda: _open(office, doc), what="the panel")
        office.job("chat.start", document=doc, message=ARABIC_MESSAGE)
        wait_for(lambda: not office.job("chat.poll", document=doc)["busy"], timeout=60,
                 what="the answer")
        time.sleep(1.0)                 # the last batch drawn
        shot = screenshot(office, "panel_ar_chat.png")
        report = office.job("panel.fit", document=doc)
        pane = next(c for c in report["controls"] if c["id"] == "transcript")
        x, y, w, h = _on_screen(doc, report["parent"], pane["box"])
        inner = w - 24                  # the scroll bar and the border left out
        left = screen_share(shot, (x + 3, y + 3, inner // 4, h // 3), *INK)
        right = screen_share(shot, (x + 3 + inner // 2, y + 3, inner // 2, h // 3), *INK)
        assert ARABIC_ANSWER in office.job("panel.text", document=doc)["text"]
        assert left == 0.0 and right > 0.005, (left, right)
    finally:
        server.stop()
        office.close(doc)


INK = ("-colorspace", "Gray", "-threshold", "60%", "-negate")


def _on_screen(doc, parent, box):
    """Where a panel control is drawn under a mirrored (right-to-left) interface: the
    accessible tree keeps the logical places, the screen shows them mirrored within the
    document's window. The panel is the node of the panel window's size."""
    from tests.support.panel_driver import accessible_tree
    window = doc.CurrentController.Frame.ContainerWindow
    frame = window.getAccessibleContext()
    edge = frame.getLocationOnScreen().X + frame.getSize().Width
    panel = next(node for node, _above in accessible_tree(frame)
                 if (node.getSize().Width, node.getSize().Height) == tuple(parent))
    at = panel.getLocationOnScreen()
    x, y, w, h = box
    return edge - (at.X - frame.getLocationOnScreen().X) - x - w, at.Y + y, w, h

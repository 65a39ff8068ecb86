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
from tests.support.panel_driver import screenshot, set_model_answered, show_deck, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The panel's own words (not the user's text, not an icon): what must be translated.
USER_TEXT = ("transcript", "thinking", "input", "transcript_list", "thinking_list")


def _catalog(tag):
    """The shipped catalog of ``tag`` as gettext reads it (the .po compiled here)."""
    name = tags.catalog_names(tag)[-1]
    with open(os.path.join(ROOT, "extension", "locale", name + ".po"), encoding="utf-8") as fh:
        return gettext.GNUTranslations(io.BytesIO(po.to_mo(po.parse(fh.read()))))


def _panel_with_a_turn(office, answer):
    """A document with its panel open and one answered turn; the panel.fit report."""
    server = sse.ScriptedServer([sse.text_response(answer, reasoning="...")],
                                models=("test-model",)).start()
    office.job("settings.save", endpoint=server.url, model="test-model", provider="custom",
               show_thinking=True)
    set_model_answered(office, True)
    doc = office.new_writer()
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


def _check_language(office_in, tag, answer, shot):
    office = office_in(tag, gui=True)
    t = _catalog(tag).gettext
    server, doc, report, pane = _panel_with_a_turn(office, answer)
    try:
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

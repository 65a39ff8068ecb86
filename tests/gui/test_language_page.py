"""Tools > Options > Marginalia > Language (issue 26): the answers' language is a setting
the page shows and saves, and the chat's prompt says it to the model: the user's own
language by default, a fixed one, or the document's (the language of its text)."""

import uno

from tests.gui.test_panel_options import on_main
from tests.gui.test_quick_prompts_page import open_page
from tests.support import sse_server as sse
from tests.support.panel_driver import PanelDriver, screenshot

from marginalia.ui import answer_language


def _open(office):
    return open_page(office, "LanguagePage.xdl", "org.marginalia.LanguageHandler")


def _choose(office, window, handler, text):
    def ok():
        window.getControl("AnswerLanguageCombo").getModel().Text = text
        assert handler.callHandlerMethod(window, "ok", "external_event")
    on_main(office, ok)


def _system_prompt(server):
    return server.chat_requests[-1].json["messages"][0]["content"]


def _ask(panel, text, answer):
    panel.type(text)
    panel.key("Return")
    panel.wait_transcript(answer)
    panel.wait_idle()


def test_the_answers_language_is_chosen_on_its_page_and_told_to_the_model(
        gui_office, gui_doc, chat_server):
    window, handler, parent = _open(gui_office)
    combo = window.getControl("AnswerLanguageCombo")
    labels = [label for _value, label in answer_language.choices()]
    assert list(combo.getItems()) == labels
    assert combo.getText() == "The language I write in"        # the default
    screenshot(gui_office, "language_page.png")
    try:
        panel = PanelDriver(gui_office, gui_doc)
        chat_server.add(sse.text_response("Hello."), sse.text_response("Hallo."),
                        sse.text_response("Bonjour."))
        _ask(panel, "Hi", "Hello.")
        assert "Answer in the language of the user's message." in _system_prompt(chat_server)

        _choose(gui_office, window, handler, "German")
        assert gui_office.job("settings.load")["answer_language"] == "de"
        _ask(panel, "Hi again", "Hallo.")
        assert "Answer in German, whatever language the user writes in." in \
            _system_prompt(chat_server)

        # The document's language: its text is French here.
        def french():
            text = gui_doc.getText()
            text.setString("Le texte du document.")
            cursor = text.createTextCursor()
            cursor.gotoStart(False)
            cursor.gotoEnd(True)
            locale = uno.createUnoStruct("com.sun.star.lang.Locale", "fr", "FR", "")
            cursor.setPropertyValue("CharLocale", locale)
        on_main(gui_office, french)
        _choose(gui_office, window, handler, "The document's language")
        assert gui_office.job("settings.load")["answer_language"] == "document"
        _ask(panel, "Once more", "Bonjour.")
        prompt = _system_prompt(chat_server)
        assert "Answer in French, whatever language the user writes in." in prompt
        assert "Language: French." in prompt                     # the document's context
    finally:
        _choose(gui_office, window, handler, "The language I write in")
        on_main(gui_office, lambda: (window.dispose(), parent.dispose()))
    assert gui_office.job("settings.load")["answer_language"] == ""

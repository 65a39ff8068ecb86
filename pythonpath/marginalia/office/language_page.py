"""Tools > Options > Marginalia > Language (dialogs/LanguagePage.xdl): the answers'
language. Runs on the main thread, called by the page's handler (LanguageHandler).

"ok" saves only the Chat group's settings read fresh (settings_store.save with only=),
so nothing else the other pages hold is touched by this page's OK.
"""

import logging

from marginalia.office import dialog_words, page_fit, settings_store
from marginalia.ui import answer_language

log = logging.getLogger(__name__)
COMBO = "AnswerLanguageCombo"


def _fill(ctx, window) -> None:
    settings = settings_store.load(ctx, with_key=False)
    model = window.getControl(COMBO).getModel()
    model.StringItemList = tuple(label for _value, label in answer_language.choices())
    model.Text = answer_language.label_of(settings.answer_language)


def _save(ctx, window) -> None:
    text = window.getControl(COMBO).getModel().Text
    settings = settings_store.load(ctx, with_key=False)
    chosen = settings.copy(answer_language=answer_language.value_of(text))
    settings_store.save(ctx, chosen, only=("Chat",))


def handle(ctx, window, event_object: str, method: str) -> bool:
    """The page's event handler; True when the event was handled."""
    if method != "external_event":
        return False
    if event_object == "initialize":
        dialog_words.translate_quietly(window)     # the .xdl's labels, before any is set
        page_fit.fit(window)
        _fill(ctx, window)
        return True
    if event_object == "ok":
        _save(ctx, window)
        return True
    if event_object == "back":
        _fill(ctx, window)
        return True
    return False

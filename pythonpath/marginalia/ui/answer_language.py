"""The Language page's choice of the answers' language <-> the answer_language setting (pure).

The setting is "" (the language the user writes in), "document" (the document's), or a
language: a code from the Translate to list ("de") or a name the user typed ("Plattdeutsch").
The page shows a combo box: the two first entries, then the known languages in the user's
words; typing any other language works too (chat.prompt.language_rule names it to the model).
"""

from typing import List, Tuple

from marginalia.i18n.catalog import N_, tr
from marginalia.ui.quick_menu import LANGUAGES, language_name, shown_language

USERS, DOCUMENT = "", "document"
FIRST = ((USERS, N_("The language I write in")), (DOCUMENT, N_("The document's language")))


def choices() -> List[Tuple[str, str]]:
    """(setting value, label) of every entry, in order."""
    return ([(value, tr(label)) for value, label in FIRST]
            + [(code, tr(name)) for code, name in LANGUAGES])


def label_of(value: str) -> str:
    """The combo box's text for a setting value."""
    value = (value or "").strip()
    for known, label in choices():
        if known == value:
            return label
    return shown_language(value)


def value_of(text: str) -> str:
    """The setting for what the combo box holds: an entry's value, or the language typed."""
    text = (text or "").strip()
    if not text:
        return USERS
    for value, label in choices():
        if label.lower() == text.lower():
            return value
    return language_name(text)

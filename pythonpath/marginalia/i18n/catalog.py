"""The one translation function every user-visible string goes through (pure).

``tr("Send")``, ``trn("%d change", "%d changes", n)``, ``trc("verb", "Review")``: gettext's
semantics (plural forms from the catalog's Plural-Forms, a context where a word is
ambiguous). Text kept in a module-level constant is marked with ``N_`` (which returns it
unchanged, so the extraction finds it) and translated where it is shown, since the
language is known only once LibreOffice is asked.

The catalog is chosen once, on the office's main thread, before the panel is built; a
lookup is then one dictionary read (the panel's hot path pays nothing more).
"""

import gettext
import os
from typing import Iterable, Optional

from marginalia.i18n import tags

DOMAIN_SUFFIX = ".mo"
PSEUDO = "qps-ploc"             # the pseudo-locale of the window tests (i18n.pseudo)

_active = gettext.NullTranslations()
_language = "en"


def N_(text: str) -> str:
    """Marks ``text`` for the catalog without translating it yet."""
    return text


def tr(text: str) -> str:
    return _active.gettext(text)


def trn(singular: str, plural: str, count: int) -> str:
    return _active.ngettext(singular, plural, count)


def trc(context: str, text: str) -> str:
    return _active.pgettext(context, text)


def language() -> str:
    """The language tag the interface shows now ("en" when no catalog is in use)."""
    return _language


def find(tag: str, folder: str, available: Optional[Iterable[str]] = None) -> Optional[str]:
    """The .mo file for ``tag`` in ``folder`` (falling back pt_BR -> pt), or None."""
    names = set(available) if available is not None else {
        name[:-len(DOMAIN_SUFFIX)] for name in _listdir(folder) if name.endswith(DOMAIN_SUFFIX)}
    for name in tags.catalog_names(tag):
        if name in names:
            return os.path.join(folder, name + DOMAIN_SUFFIX)
    return None


def _listdir(folder):
    try:
        return os.listdir(folder)
    except OSError:
        return []


def install(tag: str, folder: str) -> str:
    """Use the catalog for ``tag`` from here on; returns the tag in use ("en" when none
    fits or the file cannot be read: English is always there)."""
    global _active, _language
    if tag == PSEUDO:
        from marginalia.i18n.pseudo import PseudoTranslations
        _active, _language = PseudoTranslations(), PSEUDO
        return _language
    path = find(tag, folder)
    translations = gettext.NullTranslations()
    used = "en"
    if path is not None:
        try:
            with open(path, "rb") as fh:
                translations = gettext.GNUTranslations(fh)
            used = os.path.basename(path)[:-len(DOMAIN_SUFFIX)].replace("_", "-")
        except (OSError, ValueError):
            translations, used = gettext.NullTranslations(), "en"
    _active, _language = translations, used
    return used

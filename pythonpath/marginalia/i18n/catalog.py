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
SOURCE_SUFFIX = ".po"           # a catalog not yet compiled: the cli run from the repo
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
    """The catalog file for ``tag`` in ``folder`` (falling back pt_BR -> pt), or None: the
    compiled .mo (the installed extension), else the .po (the repo, where the cli runs)."""
    if available is not None:
        files = {name + DOMAIN_SUFFIX for name in available}
    else:
        files = set(_listdir(folder))
    for name in tags.catalog_names(tag):
        for suffix in (DOMAIN_SUFFIX, SOURCE_SUFFIX):
            if name + suffix in files:
                return os.path.join(folder, name + suffix)
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
            translations = _read(path)
            used = os.path.splitext(os.path.basename(path))[0].replace("_", "-")
        except (OSError, ValueError):
            translations, used = gettext.NullTranslations(), "en"
    _active, _language = translations, used
    return used


def _read(path: str) -> gettext.GNUTranslations:
    """A catalog file read: a .po is compiled in memory first (i18n.po), the way build.py
    compiles it for the extension, so both read the same translations."""
    if path.endswith(SOURCE_SUFFIX):
        import io
        from marginalia.i18n import po
        with open(path, encoding="utf-8") as fh:
            return gettext.GNUTranslations(io.BytesIO(po.to_mo(po.parse(fh.read()))))
    with open(path, "rb") as fh:
        return gettext.GNUTranslations(fh)

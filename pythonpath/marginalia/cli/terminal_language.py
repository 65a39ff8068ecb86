"""The catalog of the terminal's language, installed once when a cli program starts.

The cli runs outside the office, in a terminal, so the language is the terminal's, read
the way gettext reads it for every terminal program: the first set of LANGUAGE (a colon-separated
list of preferences), LC_ALL, LC_MESSAGES, LANG; "C" and "POSIX" mean English. The catalogs
are the repo's extension/locale/*.po (the cli runs from the repo, where nothing is
compiled: i18n.catalog compiles a .po in memory).
"""

import os
from typing import List, Mapping, Optional

from marginalia.i18n import catalog, tags

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
# pythonpath/marginalia/cli -> the repo's extension/locale
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))), "extension", "locale")


def _tag(value: str) -> str:
    """"de_DE.UTF-8@euro" -> "de-DE"; "C" and "POSIX" -> "" (English)."""
    value = value.split(".", 1)[0].split("@", 1)[0].strip()
    return "" if value in ("C", "POSIX") else value.replace("_", "-")


def wanted(environ: Optional[Mapping[str, str]] = None) -> List[str]:
    """The terminal's languages, most wanted first: the first of the variables that is set,
    split at colons, as Python's gettext.find reads them; nothing after "C"."""
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = environ.get(name, "")
        if value:
            found = []
            for part in value.split(":"):
                tag = _tag(part)
                if not tag:
                    break
                found.append(tag)
            return found
    return []


def install(environ: Optional[Mapping[str, str]] = None, folder: Optional[str] = None) -> str:
    """Installs the first of the terminal's languages that has a catalog; the tag in use."""
    folder = LOCALE_DIR if folder is None else folder
    for tag in wanted(environ):
        if catalog.find(tag, folder) is not None or not tags.catalog_names(tag):
            return catalog.install(tag, folder)
    return catalog.install("en", folder)

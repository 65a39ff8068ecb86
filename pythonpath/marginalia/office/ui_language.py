"""LibreOffice's own UI language, and the catalog that follows it (runs in the office).

The language is the office's, not the environment's: a user who set German under Tools >
Options > Language Settings sees Marginalia in German even when the system is English.
The user's choice (Linguistic UILocale) wins; when it is "Default", the language the office
itself resolved at start (Setup L10N ooLocale). Chosen once per process, before the first
control is built; a changed UI language takes effect at LibreOffice's restart, as LibreOffice's
own does.
"""

import logging
import os

from marginalia.i18n import catalog
from marginalia.office import locale_formats
from marginalia.office.config_node import node

log = logging.getLogger(__name__)
# The compiled catalogs, beside pythonpath/ in the installed extension (build.py puts them).
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))), "locale")
_chosen = None
_mirrored = None


def office_language(ctx) -> str:
    """The office's UI language tag ("de-DE", "pt-BR"), "en-US" when none can be read."""
    for path, name in (("/org.openoffice.Office.Linguistic/General", "UILocale"),
                       ("/org.openoffice.Setup/L10N", "ooLocale")):
        try:
            value = node(ctx, path).getPropertyValue(name)
        except Exception:             # a profile without the node: the next one decides
            log.debug("no %s/%s", path, name, exc_info=True)
            continue
        if value:
            return str(value)
    return "en-US"


def ensure(ctx) -> str:
    """Install the catalog for the office's language once; the tag in use."""
    global _chosen
    if _chosen is None:
        wanted = os.environ.get("MARGINALIA_UI_LANGUAGE") or office_language(ctx)
        _chosen = catalog.install(wanted, LOCALE_DIR)
        log.info("interface language %s (office %s)", _chosen, wanted)
        locale_formats.install(ctx, wanted)
    return _chosen


def mirrored(ctx) -> bool:
    """Whether LibreOffice lays its windows out right to left (an Arabic, Hebrew… interface).
    VCL then mirrors an edit's alignment as well (its text engine runs right to left and
    swaps left and right), so a pane meant to sit at the right is aligned "left"."""
    global _mirrored
    if _mirrored is None:
        from marginalia.ui.bidi import language_rtl
        _mirrored = language_rtl(office_language(ctx))
    return _mirrored

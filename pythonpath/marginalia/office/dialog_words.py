"""An Options page's labels in the user's language (runs in the office).

An Options page is one .xdl for every language, so its labels, tooltips and the page's
title are translated when the page opens: each English text is looked up in the catalog
(i18n.catalog.tr), and build.py pot finds the same texts in the .xdl (i18n.package).
"""

import logging

from marginalia.i18n.catalog import tr

log = logging.getLogger(__name__)
PROPERTIES = ("Label", "HelpText", "Title")


def translate(window) -> int:
    """Translate every control of the page ``window`` shows; the number of texts changed."""
    changed = 0
    for control in window.getControls():
        model = control.getModel()
        info = model.getPropertySetInfo()
        for name in PROPERTIES:
            if not info.hasPropertyByName(name):
                continue
            english = model.getPropertyValue(name)
            if english and tr(english) != english:
                model.setPropertyValue(name, tr(english))
                changed += 1
    return changed


def translate_quietly(window) -> None:
    """translate(), but a page that cannot be translated still opens (in English)."""
    try:
        translate(window)
    except Exception:
        log.exception("the page's labels could not be translated")

"""LibreOffice's own translated labels, read at run time (runs in the office).

i18n.office_terms says which command names each concept; the label comes from the office's
command descriptions (com.sun.star.frame.UICommandDescription), which are in the office's UI
language. Read once per concept and kept: labels change only with a restart.
"""

import logging

from marginalia.i18n import office_terms

log = logging.getLogger(__name__)
_cache = {}


def word(ctx, concept: str) -> str:
    """The office's label for ``concept`` ("accept_all" -> "Alle annehmen" in German), or the
    English fallback when the office has none."""
    if concept in _cache:
        return _cache[concept]
    term = office_terms.TERMS[concept]
    found = term.english
    try:
        descriptions = ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.UICommandDescription", ctx)
        commands = descriptions.getByName(office_terms.TEXT_DOCUMENT)
        if commands.hasByName(term.command):
            props = dict((p.Name, p.Value) for p in commands.getByName(term.command))
            label = office_terms.clean(str(props.get(term.field) or props.get("Label") or ""))
            if label:
                found = label
    except Exception:                 # a stripped-down office: the English word still reads
        log.debug("no label for %s", term.command, exc_info=True)
    _cache[concept] = found
    return found

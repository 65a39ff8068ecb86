"""The lines listed under an answer drawn from sources: its citations, its unverified quotes.

One wording for the panel's transcript, the exported chat and the runner: a
cited key names its passage's place ("[3] report.pdf, § Results, p. 2"); a
quote attributed to a source but not found in its text is marked unverified,
a key that names no passage shown to the model likewise.
"""

from typing import Any, Dict, List

from marginalia.document.docview import short
from marginalia.i18n.catalog import N_, tr

# The user's words (the model is told of its quotes by sources.citations): translated
# where shown, tr(TITLE).
TITLE = N_("Sources:")
UNVERIFIED = N_("\u26a0 Unverified quote (not found in the sources): \u201c%s\u201d")
UNKNOWN_KEY = N_("\u26a0 [%d] names no passage the sources gave.")
QUOTE_LIMIT = 160


def lines(data: Dict[str, Any]) -> List[str]:
    """The lines for a CITATIONS event's payload (without the title)."""
    out = []
    for cited in data.get("cited") or ():
        out.append("[%s] %s" % (cited.get("key"), cited.get("location") or ""))
    for key in data.get("unknown") or ():
        out.append(tr(UNKNOWN_KEY) % key)
    for quote in data.get("quotes") or ():
        if not quote.get("found"):
            out.append(tr(UNVERIFIED) % short(str(quote.get("quote") or ""), QUOTE_LIMIT))
    return out


def unverified(data: Dict[str, Any]) -> List[str]:
    """The quotes of the payload that were not found."""
    return [str(q.get("quote") or "") for q in data.get("quotes") or () if not q.get("found")]

"""How Insert shows an answer's citations: footnotes, endnotes, or a list after it (pure).

The user picks one in the Sources menu (the citations_as setting). Footnotes and
endnotes are Writer's own (writer.footnotes places them where the [n] keys stand);
a list keeps the keys as written and adds a "Sources" paragraph and one paragraph
per cited passage after the answer, for documents that take no notes.
"""

from typing import Dict, List, Optional, Tuple

from marginalia.i18n.catalog import N_, tr
from marginalia.sources.citations import excerpt

FOOTNOTES, ENDNOTES, LIST = "footnotes", "endnotes", "list"
STYLES: Tuple[Tuple[str, str], ...] = (
    (FOOTNOTES, N_("Footnotes")), (ENDNOTES, N_("Endnotes")),
    (LIST, N_("A sources list after the answer")))
SERVICES = {FOOTNOTES: "com.sun.star.text.Footnote", ENDNOTES: "com.sun.star.text.Endnote"}
LIST_HEADING = N_("Sources")      # written into the document, in the user's language
CHOSEN = N_("Insert's citations from now on: %s.")


def style(value: Optional[str]) -> str:
    """A setting's value as one of the styles (an unknown one is footnotes)."""
    return value if value in dict(STYLES) else FOOTNOTES


def with_list(markdown: str, notes: Dict[int, str]) -> str:
    """The answer with its cited passages listed after it, in key order, as markdown."""
    if not notes:
        return markdown
    lines = ["**%s**" % tr(LIST_HEADING)] + ["[%d] %s" % (key, _one_line(notes[key]))
                                          for key in sorted(notes)]
    return markdown.rstrip() + "\n\n" + "\n\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    # A note may hold line breaks (a quoted passage): one paragraph each in the list.
    return " ".join(text.split())


UNBACKED = N_("No note for %s: no source holds it word for word.")
UNKNOWN = N_("Left out %s: no such source.")


def left_out(unbacked: List[str], unknown: List[int]) -> Optional[str]:
    """What Insert says it left out (sources.citations.ForInsert), or None for nothing:
    a quotation given no note because its source does not hold it, a key naming no
    source. Without it the document would seem to back what nobody wrote."""
    said = []
    if unbacked:
        said.append(tr(UNBACKED) % ", ".join(
            "\u201c%s\u201d" % excerpt(quote, 40) for quote in unbacked))
    if unknown:
        said.append(tr(UNKNOWN) % ", ".join("[%d]" % key for key in unknown))
    return " ".join(said) or None

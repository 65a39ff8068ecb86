"""The rewrite protocol's view of paragraphs: numbered lines with **bold** and *italic*.

A paragraph's runs are read from its text portions: bold and italic as they show
against its paragraph style (a heading bold by its style shows no marks; words a
character style or direct formatting makes bold do). Only text portions carry
text; fields, footnote anchors and comment anchors are other portion types, so
when the portions do not add up to the paragraph's text exactly, the paragraph is
shown without marks (its words are still edited in place, writer.rewrite steps over
such placeholders). Tables show their cells' text. Main thread.
"""

import logging
from typing import Any, Dict, List, Optional

from marginalia.document.docview import Para
from marginalia.document.inline import Run
from marginalia.writer.bodymap import ListKinds, para_props, table_rows
from marginalia.writer.locate import Locator

log = logging.getLogger("marginalia.writer")

BOLD = 150.0              # com.sun.star.awt.FontWeight.BOLD
_SLANTED = ("ITALIC", "OBLIQUE", "REVERSE_ITALIC", "REVERSE_OBLIQUE")


def _slanted(value: Any) -> bool:
    return getattr(value, "value", value) in _SLANTED


def _style_looks(doc: Any, name: str, cache: Dict[str, tuple]) -> tuple:
    """(bold, italic) that paragraph style ``name`` gives its text."""
    if name not in cache:
        try:
            style = doc.getStyleFamilies().getByName("ParagraphStyles").getByName(name)
            cache[name] = (style.getPropertyValue("CharWeight") >= BOLD,
                           _slanted(style.getPropertyValue("CharPosture")))
        except Exception:
            cache[name] = (False, False)
    return cache[name]


def paragraph_of(cursor: Any) -> Any:
    """The paragraph object a cursor (at its start) is in."""
    span = cursor.getText().createTextCursorByRange(cursor.getStart())
    span.gotoEndOfParagraph(True)
    return span.createEnumeration().nextElement()


def runs_of(doc: Any, paragraph: Any, text: str,
            styles: Optional[Dict[str, tuple]] = None) -> Optional[List[Run]]:
    """The bold and italic runs of ``paragraph`` whose text is ``text``; None when its
    portions do not spell that text (then it is shown without marks)."""
    styles = {} if styles is None else styles
    base = _style_looks(doc, paragraph.getPropertyValue("ParaStyleName"), styles)
    out: List[Run] = []
    portions = paragraph.createEnumeration()
    while portions.hasMoreElements():
        portion = portions.nextElement()
        if portion.getPropertyValue("TextPortionType") != "Text":
            continue
        piece = portion.getString()
        if not piece:
            continue
        weight, posture = portion.getPropertyValues(("CharWeight", "CharPosture"))
        out.append(Run(piece, bold=weight >= BOLD and not base[0],
                       italic=_slanted(posture) and not base[1]))
    if "".join(r.text for r in out) != text:
        return None
    return out


class Reader:
    """Paragraphs as the rewrite protocol shows them, read along one Locator walk."""

    def __init__(self, doc: Any, loc: Locator):
        self.doc = doc
        self.loc = loc
        self._kinds = ListKinds()
        self._styles: Dict[str, tuple] = {}

    def para(self, number: int, table: Any, cursor: Any) -> Para:
        """Block ``number`` of the walk, with its runs."""
        if table is not None:
            return Para(number, rows=table_rows(table), style="table")
        outline, list_id, level, label, style = para_props(cursor)
        span = self.loc.copy(cursor)
        span.gotoEndOfParagraph(True)
        text = span.getString()
        try:
            runs = runs_of(self.doc, paragraph_of(cursor), text, self._styles)
        except Exception:
            log.exception("could not read the runs of paragraph %d", number)
            runs = None
        if outline:
            return Para(number, text, heading=outline, style=style, runs=runs)
        if list_id:
            return Para(number, text, list_level=level + 1, list_kind=self._kinds.kind(
                cursor, list_id, level), label=label, style=style, runs=runs)
        return Para(number, text, style=style, runs=runs)

    def paras(self, first: int, last: int) -> List[Para]:
        """Blocks first..last that exist."""
        return [self.para(n, table, cursor) for n, table, cursor in self.loc.walk(first, last)]

    def one(self, number: int) -> Optional[Para]:
        for para in self.paras(number, number):
            return para
        return None

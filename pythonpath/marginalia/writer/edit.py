"""Primitive Writer edits: markdown blocks as real structure, deleting blocks.

Callers validate first and call these on the main thread inside the turn's
undo context; each primitive uses cursors and text calls only, so Writer's
change tracking records whatever it does. Nothing here adds bookmarks,
fields or metadata beyond the content asked for.
"""

import random
from typing import Any, List, Optional, Tuple

import uno
from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

from marginalia.document import markdown as md
from marginalia.writer import tracked
from marginalia.writer.locate import Locator

BOLD = 150.0          # com.sun.star.awt.FontWeight.BOLD
CODE_FONT = "Liberation Mono"
CHAR_PROPS = ("CharWeight", "CharPosture", "CharStrikeout", "CharFontName", "HyperLinkURL")
# Direct paragraph attributes a new paragraph inherits when Writer splits its neighbour.
PARA_RESET = ("NumberingStyleName", "ParaIsNumberingRestart", "NumberingStartValue",
              "ParaAdjust", "ParaLeftMargin", "ParaRightMargin", "ParaFirstLineIndent",
              "ParaTopMargin", "ParaBottomMargin", "ParaBackColor", "BreakType",
              "PageDescName", "OutlineLevel")


def italic() -> Any:
    """The FontSlant value for italic."""
    return uno.Enum("com.sun.star.awt.FontSlant", "ITALIC")


def _reset(target, names):
    for name in names:
        try:
            target.setPropertyToDefault(name)
        except Exception:
            # Not every property is resettable on every object (OutlineLevel on 7.4
            # cursors, PageDescName without a page break); skipping keeps the rest.
            pass


class Styles:
    """The style names the document offers for each block kind."""

    def __init__(self, doc: Any, body_style: str = "Standard"):
        families = doc.getStyleFamilies()
        self._para = families.getByName("ParagraphStyles")
        self._lists = families.getByName("NumberingStyles")
        self.body = body_style if self._para.hasByName(body_style) else "Standard"
        self.bullet_list = self._first(self._lists, ("List Bullet", "List 1"))
        self.number_list = self._first(self._lists, ("List Number", "Numbering 123"))

    @staticmethod
    def _first(family, names):
        for name in names:
            if family.hasByName(name):
                return name
        return names[-1]

    def list_of(self, para_style: str) -> str:
        """The list style a paragraph style brings with it ("" for none)."""
        try:
            return self._para.getByName(para_style).getPropertyValue("NumberingStyleName")
        except Exception:
            return ""

    def for_block(self, block: md.Block) -> str:
        """The paragraph style for a markdown block."""
        if block.kind == md.HEADING:
            name = "Heading %d" % block.level
            return name if self._para.hasByName(name) else self.body
        if block.kind == md.CODE:
            return self._first(self._para, ("Preformatted Text", self.body))
        if block.kind == md.QUOTE:
            return self._first(self._para, ("Quotations", self.body))
        return self.body


def write_runs(text: Any, cursor: Any, runs: List[md.Run]) -> None:
    """Insert ``runs`` at the collapsed ``cursor``, each with exactly its attributes."""
    for run in runs:
        if not run.text:
            continue
        # With absorb=True the cursor ends up spanning the inserted text.
        text.insertString(cursor, run.text, True)
        set_run_attributes(cursor, run)
        cursor.collapseToEnd()


def set_run_attributes(rng: Any, run: md.Run) -> None:
    """Give ``rng`` exactly the character attributes ``run`` asks for."""
    values = {}
    if run.bold:
        values["CharWeight"] = BOLD
    if run.italic:
        values["CharPosture"] = italic()
    if run.strike:
        values["CharStrikeout"] = 1      # FontStrikeout.SINGLE
    if run.code:
        values["CharFontName"] = CODE_FONT
    if run.link:
        values["HyperLinkURL"] = run.link
    # Unset attributes go back to the paragraph style instead of a direct
    # "not bold", so a run in a heading stays as bold as the heading.
    _reset(rng, [name for name in CHAR_PROPS if name not in values])
    for name, value in values.items():
        rng.setPropertyValue(name, value)


class ListState:
    """The list open at each nesting level while writing, so items join one list.

    Each list the markdown starts gets a list id of its own: with only the
    shared list style, Writer would join it to an older list of that style
    and renumber the user's items after it. Items right after a list item
    of the same kind continue that list; returning from a nested list of
    another kind continues the outer one.
    """

    def __init__(self, styles: Styles, before_kind: Optional[str] = None,
                 before_style: str = "", before_id: str = ""):
        self.styles = styles
        self.open = {}
        if before_kind and before_style and before_id:
            self.open[1] = (before_kind, before_style, before_id)

    def style_for(self, kind: str, level: int) -> Tuple[str, str, bool]:
        """(list style, list id, new list?) for an item of ``kind`` at ``level``."""
        for deeper in [lvl for lvl in self.open if lvl > level]:
            del self.open[deeper]
        current = self.open.get(level)
        if current and current[0] == kind:
            return current[1], current[2], False
        style = self.styles.bullet_list if kind == md.BULLET else self.styles.number_list
        # The same shape as Writer's own generated ids ("list" and digits).
        list_id = "list%d" % random.randint(10 ** 9, 4 * 10 ** 9)
        self.open[level] = (kind, style, list_id)
        return style, list_id, True

    def close(self) -> None:
        self.open.clear()


def _prepare_paragraph(cursor, style, styles):
    _reset(cursor, PARA_RESET)
    cursor.setPropertyValue("ParaStyleName", style)
    # Resetting does not take a split list item's list away on a cursor in
    # 7.4: set the style's own list (usually none) explicitly. "Outline" is
    # the chapter numbering headings get from their style; leave it alone.
    current = cursor.getPropertyValue("NumberingStyleName")
    wanted = styles.list_of(style)
    if current != wanted and current != "Outline":
        cursor.setPropertyValue("NumberingStyleName", wanted)


def write_blocks(doc: Any, cursor: Any, blocks: List[md.Block], styles: Styles,
                 lists: ListState) -> int:
    """Write ``blocks`` starting in the empty paragraph at ``cursor``.

    Returns the number of paragraphs and tables created. If the last block is
    a table, the empty paragraph Writer keeps after it is removed again unless
    the document needs it (end of the body, or another table follows).
    """
    text = doc.getText()
    created = 0
    need_break = False
    last_was_table = False
    for block in blocks:
        if need_break:
            text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
        if block.kind == md.TABLE:
            lists.close()
            insert_table(doc, cursor, block.rows, block.header)
            need_break = False
            last_was_table = True
            created += 1
            continue
        last_was_table = False
        _prepare_paragraph(cursor, styles.for_block(block), styles)
        if block.kind in (md.BULLET, md.NUMBER):
            style, list_id, _new = lists.style_for(block.kind, block.level)
            cursor.setPropertyValue("NumberingStyleName", style)
            cursor.setPropertyValue("ListId", list_id)
            cursor.setPropertyValue("NumberingLevel", max(0, min(block.level - 1, 9)))
        else:
            lists.close()
        write_runs(text, cursor, block.runs)
        need_break = True
        created += 1
    if last_was_table:
        _drop_empty_paragraph_after_table(text, cursor)
    return created


def _drop_empty_paragraph_after_table(text, cursor):
    cursor.gotoStartOfParagraph(False)
    probe = text.createTextCursorByRange(cursor.getStart())
    if not probe.gotoNextParagraph(False):
        return              # last paragraph of the body: Writer needs it after a table
    # gotoNextParagraph steps over a table: look at what lies between.
    between = text.createTextCursorByRange(cursor.getStart())
    between.gotoRange(probe.getStart(), True)
    elements = between.createEnumeration()
    while elements.hasMoreElements():
        if elements.nextElement().supportsService("com.sun.star.text.TextTable"):
            # A table follows: this paragraph keeps the two apart (deleting up to the
            # paragraph after it deleted that table).
            return
    # Deleting from its start to the next paragraph's start keeps the next
    # paragraph's own attributes (Writer joins "backwards" in this case).
    cursor.gotoRange(probe.getStart(), True)
    cursor.setString("")


def insert_table(doc: Any, cursor: Any, rows: List[List[List[md.Run]]],
                 header: bool) -> Any:
    """A real text table before the paragraph at ``cursor``; rows hold lists of runs."""
    nrows = len(rows)
    ncols = max(len(r) for r in rows)
    table = doc.createInstance("com.sun.star.text.TextTable")
    table.initialize(nrows, ncols)
    doc.getText().insertTextContent(cursor, table, False)
    table.setPropertyValue("RepeatHeadline", bool(header))
    for r, row in enumerate(rows):
        for c in range(ncols):
            cell = table.getCellByPosition(c, r)
            cell_text = cell.getText()
            cell_cursor = cell_text.createTextCursor()
            style = "Table Heading" if header and r == 0 else "Table Contents"
            try:
                cell_cursor.setPropertyValue("ParaStyleName", style)
            except Exception:
                pass   # a document without the table styles keeps the default
            write_runs(cell_text, cell_cursor, row[c] if c < len(row) else [])
    return table


# ---------------------------------------------------------------- positioning
# Blocks are found with a writer.locate.Locator: only the blocks next to
# the edit become UNO objects, never one per paragraph of the document.

def _collapsed_marks_at(text: Any, point: Any) -> List[str]:
    """The names of the collapsed bookmarks exactly at ``point`` (its paragraph's portions)."""
    para = text.createTextCursorByRange(point)
    para.gotoStartOfParagraph(False)
    para.gotoEndOfParagraph(True)
    names = []
    paragraphs = para.createEnumeration()
    while paragraphs.hasMoreElements():
        portions = paragraphs.nextElement().createEnumeration()
        while portions.hasMoreElements():
            portion = portions.nextElement()
            if portion.getPropertyValue("TextPortionType") == "Bookmark" and \
                    portion.getPropertyValue("IsCollapsed"):
                mark = portion.getPropertyValue("Bookmark")
                if text.compareRegionStarts(mark.getAnchor(), point) == 0:
                    names.append(mark.getName())
    return names


def _put_back(doc: Any, names: List[str], point: Any) -> None:
    """Collapsed bookmarks that a paragraph break inserted at their place carried into the
    new paragraph go back to ``point``. Left there, rejecting the insertion deletes them
    (Word's own _GoBack sits at the end of a paragraph)."""
    text = doc.getText()
    marks = doc.getBookmarks()
    for name in names:
        mark = marks.getByName(name) if marks.hasByName(name) else None
        if mark is None or text.compareRegionStarts(mark.getAnchor(), point) == 0:
            continue
        text.removeTextContent(mark)
        again = doc.createInstance("com.sun.star.text.Bookmark")
        again.setName(name)
        text.insertTextContent(point, again, False)


def _break_at(doc: Any, cursor: Any, before: bool) -> None:
    """A paragraph break at the collapsed ``cursor`` (a paragraph's start or end), the
    bookmarks there left in the paragraph they were in; ``before``: the cursor then sits
    in the new paragraph before it, else in the one after."""
    text = doc.getText()
    names = _collapsed_marks_at(text, cursor)
    text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
    if before:
        cursor.gotoPreviousParagraph(False)
    if names:
        point = text.createTextCursorByRange(cursor)
        if before:
            point.gotoNextParagraph(False)
        else:
            point.gotoPreviousParagraph(False)
            point.gotoEndOfParagraph(False)
        _put_back(doc, names, point)


def _ends_in_insertion(doc: Any, end: Any) -> bool:
    """Whether, changes being tracked, the paragraph ending at ``end`` ends in a tracked
    insertion and holds no anchored object: then a new paragraph after it is opened at
    its end. Opened at the next one's start, Writer joins the new insertion to that one
    across the paragraph break between them (insertions of one author that meet merge),
    and rejecting it took the document's own break too: two paragraphs became one."""
    if not _in_tracked_insertion(doc, end):
        return False
    whole = end.getText().createTextCursorByRange(end)
    whole.gotoStartOfParagraph(True)
    return not whole.createContentEnumeration("com.sun.star.text.TextContent") \
        .hasMoreElements()


def open_paragraph(doc: Any, loc: Locator, after: int) -> Any:
    """A cursor in a new empty paragraph after block ``after`` (0 = before the first)."""
    text = doc.getText()
    if after == 0:
        table, first = loc.block(1)
        if table is not None:
            para = doc.createInstance("com.sun.star.text.Paragraph")
            text.insertTextContentBefore(para, table)
            # Writer keeps the descriptor object in its cache in a broken state;
            # drop it and reach the new paragraph from the body's start.
            del para
            return text.createTextCursorByRange(text.getStart())
        _break_at(doc, first, before=True)
        return first
    table, cursor = loc.block(after)
    if table is not None:
        following_table, following = loc.block(after + 1)
        if following is None:
            # Two tables back to back (Writer always ends the body with a paragraph).
            para = doc.createInstance("com.sun.star.text.Paragraph")
            text.insertTextContentAfter(para, table)
            del para
            loc.edited_from(after + 1)
            _t, cursor = loc.block(after + 1)
            return cursor
        _break_at(doc, following, before=True)
        return following
    _t, following = loc.block(after + 1)
    cursor.gotoEndOfParagraph(False)
    if following is not None and not _ends_in_insertion(doc, cursor):
        # Before the next paragraph, not at the end of this one: a split paragraph's
        # node (and the images anchored to it) stays with the part after the split
        # point, so a paragraph opened at this one's end took them along, and
        # rejecting the insertion deleted them.
        _break_at(doc, following, before=True)
        return following
    _break_at(doc, cursor, before=False)
    return cursor


def delete_blocks(doc: Any, loc: Locator, first: int, last: int) -> None:
    """Delete blocks first..last (1-based, inclusive): tables, then the paragraphs.

    Tables go first (dispose) so the paragraphs left form one run that a
    single cursor deletion removes, which Writer's change tracking records.
    The cursors are taken before: they stay on their paragraphs meanwhile.
    """
    tables = []
    span = before = after = None
    for number, table, cursor in loc.walk(max(1, first - 1), last + 1):
        if number == first - 1:
            before = None if table is not None else loc.copy(cursor)
        elif number == last + 1:
            after = None if table is not None else loc.copy(cursor)
        elif table is not None:
            tables.append(table)
        elif span is None:
            span = loc.copy(cursor)
        else:
            span.gotoRange(cursor, True)
    if span is not None:
        span.gotoEndOfParagraph(True)
    for table in tables:
        table.dispose()
    loc.edited_from(first)
    if span is None:
        return
    text = doc.getText()
    if before is not None:
        before.gotoEndOfParagraph(False)
        before.gotoRange(span.getEnd(), True)
    # With changes tracked, paragraphs that are one tracked insertion with the break
    # before them (made earlier in this turn, say) take that break: deleting the next
    # paragraph's break instead removed the document's own (Writer drops what lies in the
    # insertion, and the break with it), and rejecting the insertion later joined two of
    # the user's paragraphs.
    if after is not None and not (before is not None and _in_tracked_insertion(doc, before)):
        # Start of the first to start of the next: the next keeps its attributes.
        cursor = text.createTextCursorByRange(span.getStart())
        cursor.gotoRange(after, True)
    elif before is not None:
        cursor = before
    else:
        # Between tables or alone in the body: empty the text, keep one paragraph.
        cursor = span
    cursor.setString("")



def _in_tracked_insertion(doc: Any, rng: Any) -> bool:
    """Whether changes are being recorded and ``rng`` lies inside one tracked insertion."""
    return bool(doc.getPropertyValue("RecordChanges")) and tracked.inside_insertion(doc, rng)

"""The Writer tools that work on numbered paragraphs: reading and block edits.

Same rules as writer.text_tools: main thread, everything validated before the
first change, a ToolOutput back.
"""

from typing import Any, Dict, List, Optional

from marginalia.document import docview
from marginalia.document import tool_lines
from marginalia.document.tool_lines import read_line
from marginalia.i18n.phrase import phrase, phrase_n
from marginalia.writer import edit
from marginalia.writer import outline, read, rewrite, view_edit
from marginalia.document import markdown as md
from marginalia.errors import ToolError
from marginalia.writer.bodymap import ListKinds, para_props
from marginalia.writer.guard import Follow, check_expect
from marginalia.writer import locate
from marginalia.writer.locate import Locator, runs
from marginalia.writer.args import (as_bool, as_int, as_text, block_range, parse_blocks,
                                    unfit)
from marginalia.writer.binding import binds
from marginalia.writer.plan import Plan
from marginalia.writer.text_tools import check_writable, protected_sections
from marginalia.chat.tools import ToolOutput

READ_BUDGET = 20000      # characters per read_document answer (~5k tokens)
OUTLINE_LIMIT = 60       # headings listed by get_document_info
MAX_TABLE_CELLS = 2000


def _facts(follow: Follow, first: int, last: int, made: int = 0) -> Dict[str, Any]:
    """The change record's facts (ToolOutput.record): where the edit landed, how numbers
    moved (Follow.line has run), how many blocks it made."""
    facts: Dict[str, Any] = {"paragraphs": [first, max(first, last)]}
    if follow.moved is not None:
        facts["moved"] = list(follow.moved)
    if made:
        facts["made"] = made
    return facts


def _outline(doc):
    """(the map, the outline's headings, how many its levels hold, anchors).

    The map's own attributes when it has them; else the headings found by
    style (writer.outline), else the map read with attributes after all.
    """
    bmap = read.body_map(doc, props=False)
    if not bmap.has_props:
        # Kept on the map: valid exactly as long as the map is (read's cache key).
        found = bmap.extras.get("outline")
        if found is None:
            found = bmap.extras["outline"] = outline.headings(doc, bmap, OUTLINE_LIMIT)
        if found is not None:
            return bmap, found.heads, found.total, found.anchors
        bmap = read.body_map(doc)
    return bmap, bmap.headings(), None, ()


def document_info(doc: Any) -> Dict[str, Any]:
    """What get_document_info reports: title, sizes, outline, selection, modes."""
    bmap, heads, total, anchors = _outline(doc)
    sel = read.selection(doc, bmap, anchors)
    stats = read.statistics(doc)
    info = {
        "title": read.title(doc),
        "paragraphs": len(bmap),
        "tables": doc.getTextTables().getCount(),
        "words": stats["words"],
        "characters": stats["characters"],
        "pages": stats["pages"],
        "outline": docview.outline(heads, limit=OUTLINE_LIMIT, total=total),
        "has_selection": not sel.empty,
        "selection_paragraphs": [sel.start, sel.end] if sel.start and not sel.empty else None,
        "cursor_paragraph": sel.start,
        "recording_changes": bool(doc.getPropertyValue("RecordChanges")),
        "read_only": bool(doc.isReadonly()),
    }
    return info


@binds("get_document_info", map_need=outline.needs_walk)
def get_document_info(doc: Any) -> ToolOutput:
    info = document_info(doc)
    return ToolOutput(info, phrase_n("Document: %(title)s, %(n)d paragraph",
                                     "Document: %(title)s, %(n)d paragraphs",
                                     info["paragraphs"], title=docview.short(info["title"], 40)))


@binds("read_document")
def read_document(doc: Any, start: int = 1, end: int = -1,
                  budget: int = READ_BUDGET) -> ToolOutput:
    # The turn loop passes a smaller budget when the model's context window is short.
    budget = min(budget, READ_BUDGET) if isinstance(budget, int) and budget > 0 else READ_BUDGET
    bmap = read.body_map(doc)
    count = len(bmap)
    start, end = block_range(start, end, count)
    # Records are built only as far as the budget reaches (tables read their
    # cells), so a piece of a long document costs what it shows.
    paras = []
    size = 0
    for number in range(start, end + 1):
        para = bmap.record(number)
        paras.append(para)
        size += len(para.plain()) + 8
        if size > budget:
            break
    read.mark(paras, read.selection(doc, bmap))
    text, shown = docview.render(paras, budget, total=count, end=end)
    return ToolOutput(text, read_line(start, shown, count))


@binds("get_selection")
def get_selection(doc: Any) -> ToolOutput:
    sel = read.selection(doc, read.body_map(doc, props=False))
    if sel.start is None:
        result = {"selected": False, "text": sel.text,
                  "note": "Nothing is selected in the main text."}
        return ToolOutput(result, phrase("No selection"))
    result = {"selected": not sel.empty, "text": sel.text, "start_paragraph": sel.start,
              "end_paragraph": sel.end, "start_offset": sel.start_offset,
              "end_offset": sel.end_offset, "in_table": sel.in_table}
    if sel.empty:
        result["note"] = "Nothing is selected; the cursor is in paragraph %d." % sel.start
        return ToolOutput(result, phrase("Cursor in paragraph %(n)d", n=sel.start))
    return ToolOutput(result, phrase("Selection: paragraphs %(first)d\u2013%(last)d",
                                     first=sel.start, last=sel.end))


# ---------------------------------------------------------------- inserting
# The edits find their blocks with a Locator (writer.locate): a cursor walk
# up to the place edited, with objects only for the paragraphs touched.

_LIST_PROPS = ("NumberingStyleName", "ListId")


def _context_for(doc, loc, after):
    """Styles and list state for writing after block ``after`` (0 = start)."""
    body_style = "Standard"
    before_kind, before_style, before_id = None, "", ""
    seen = []
    # At the very start there is nothing before: the body text after it says the style.
    for number, table, cursor in (loc.walk(1, 30) if after == 0 else ()):
        if table is None and not any(para_props(cursor)[:2]):
            body_style = para_props(cursor)[4]
            break
    for number, table, cursor in loc.walk(after - 29, after):
        if table is None:
            outline, list_id, level, _label, style = para_props(cursor)
            kind = None
            if number == after and list_id and not outline and level == 0:
                kind = ListKinds().kind(cursor, list_id, level)
                before_style, before_id = cursor.getPropertyValues(_LIST_PROPS)
            seen.append((number, outline, list_id, style, kind))
    for number, outline, list_id, style, kind in reversed(seen):
        if kind:
            before_kind = kind
        if not outline and not list_id:
            body_style = style
            break
    styles = edit.Styles(doc, body_style)
    return styles, edit.ListState(styles, before_kind, before_style, before_id)


def _paragraphs(loc, first, last):
    """Cursor copies at the paragraphs among blocks first..last (tables left out)."""
    return [loc.copy(c) for _n, table, c in loc.walk(first, last) if table is None]


def insert_blocks(doc: Any, loc: Locator, after: int, blocks: List[md.Block]) -> int:
    """Write ``blocks`` after block ``after``; the number of blocks made."""
    styles, lists = _context_for(doc, loc, after)
    check_writable(_paragraphs(loc, after, after + 1), "The place to insert at")
    _table, following = loc.block(after + 1)
    if len(blocks) == 1 and blocks[0].kind == md.TABLE and following is not None:
        # Writer puts a table before the paragraph at the cursor: no paragraph to open
        # for it, and none to delete after (tracked, that deletion was a change of its
        # own, and accepting it joined the next paragraph to the table's).
        edit.insert_table(doc, loc.copy(following), blocks[0].rows, blocks[0].header)
        loc.edited_from(max(1, after))
        return 1
    cursor = edit.open_paragraph(doc, loc, after)
    made = edit.write_blocks(doc, cursor, blocks, styles, lists)
    loc.edited_from(max(1, after))
    return made


def _after_index(loc, value):
    after = as_int(value, "after_paragraph")
    if after == -1:
        return loc.count()
    count = loc.bound(after)
    if not 0 <= after <= count:
        raise unfit("after_paragraph %d is out of range: use 0 for the start, -1 for the "
                    "end, or a paragraph number from 1 to %d." % (after, count))
    return after


def _range(loc, start, end):
    """block_range with the count walked only as far as the range needs."""
    start, end = as_int(start, "start"), as_int(end, "end")
    count = loc.count() if end == -1 else loc.bound(max(start, end))
    return block_range(start, end, count)


@binds("insert_paragraphs")
def insert_paragraphs(doc: Any, markdown: str, after_paragraph: int,
                      plan: Optional[Plan] = None) -> ToolOutput:
    blocks = parse_blocks(markdown)
    loc = locate.for_doc(doc)
    after = _after_index(loc, after_paragraph)
    follow = Follow(loc, after + 1)
    made = insert_blocks(doc, loc, after, blocks)
    where = phrase("at the start") if after == 0 else phrase("after paragraph %(n)d", n=after)
    return ToolOutput({"inserted": made, "first_paragraph": after + 1,
                       "last_paragraph": after + made,
                       "numbering": follow.line(loc, after + 1, after + made + 2)},
                      phrase_n("Inserted %(n)d paragraph %(where)s",
                               "Inserted %(n)d paragraphs %(where)s", made, where=where),
                      _facts(follow, after + 1, after + made, made))


def _check_deletable(doc, loc, start, end):
    if protected_sections(doc):
        check_writable(_paragraphs(loc, start, end), "A paragraph in that range")
    if doc.getPropertyValue("RecordChanges") and any(
            t is not None for _n, t, _c in loc.walk(start, end)):
        raise ToolError("Writer cannot record deleting a whole table as a tracked change; "
                        "leave the table out of the range, or delete its text with "
                        "replace_text. Nothing was changed.", tool_lines.table_not_suggested())


def _rewrite_in_place(loc, number, blocks):
    """Rewrite one paragraph with plain text of its own kind word by word (rewrite):
    the words that stay keep their formatting. False when that does not apply."""
    block = blocks[0]
    if len(blocks) != 1 or block.kind not in (md.PARAGRAPH, md.HEADING) or \
            any(r.bold or r.italic or r.code or r.strike or r.link for r in block.runs):
        return False
    table, cursor = loc.block(number)
    if cursor is None:
        return False
    outline, list_id = para_props(cursor)[:2]
    if (list_id and not outline) or \
            outline != (block.level if block.kind == md.HEADING else 0):
        return False
    cursor.gotoEndOfParagraph(True)
    old = cursor.getString()
    if "\n" in old:
        return False
    rewrite.replace_range(cursor, md.plain_text(block.runs), old)
    loc.edited_from(number)
    return True


@binds("replace_paragraphs")
def replace_paragraphs(doc: Any, start: int, end: int, markdown: str,
                       expect: Optional[str] = None, plan: Optional[Plan] = None) -> ToolOutput:
    blocks = parse_blocks(markdown)
    loc = locate.for_doc(doc)
    start, end = _range(loc, start, end)
    check_expect(doc, loc, start, expect)
    _check_deletable(doc, loc, start, end)
    follow = Follow(loc, end + 1)
    if start == end and _rewrite_in_place(loc, start, blocks):
        made = 1
    else:
        # Insert before the range, then delete it: the new text takes its place.
        # Not after it: the deletion would then reach the paragraph break the
        # insertion made, and Writer removes its own tracked insertion outright,
        # so the new text joined the deleted paragraphs and took their style
        # when the deletion was accepted. But where a table (or nothing) follows,
        # the deletion would have to join the range to the new text before it,
        # and Undo of that crashed 7.4 (a bookmark over the paragraph, a table
        # after it): there the new text goes after the range.
        if follow.cursor is None:
            made = insert_blocks(doc, loc, end, blocks)
            edit.delete_blocks(doc, loc, start, end)
        else:
            made = insert_blocks(doc, loc, start - 1, blocks)
            edit.delete_blocks(doc, loc, start + made, end + made)
    return ToolOutput({"removed": end - start + 1, "inserted": made,
                       "numbering": follow.line(loc, start, end + made + 2)},
                      phrase_n("Replaced paragraphs %(first)d\u2013%(last)d with %(n)d "
                               "paragraph", "Replaced paragraphs %(first)d\u2013%(last)d "
                               "with %(n)d paragraphs", made, first=start, last=end),
                      _facts(follow, start, start + made - 1, made))


@binds("delete_paragraphs")
def delete_paragraphs(doc: Any, start: int, end: int, expect: Optional[str] = None,
                      plan: Optional[Plan] = None) -> ToolOutput:
    loc = locate.for_doc(doc)
    start, end = _range(loc, start, end)
    check_expect(doc, loc, start, expect)
    _check_deletable(doc, loc, start, end)
    follow = Follow(loc, end + 1)
    edit.delete_blocks(doc, loc, start, end)
    return ToolOutput({"deleted": end - start + 1,
                       "numbering": follow.line(loc, start, end + 2)},
                      phrase("Deleted paragraphs %(first)d\u2013%(last)d", first=start,
                             last=end),
                      _facts(follow, start, end))


@binds("replace_selection")
def replace_selection(doc: Any, markdown: str, plan: Optional[Plan] = None) -> ToolOutput:
    blocks = parse_blocks(markdown)
    # Locating a selection needs the offsets the reading map gives.
    bmap = read.body_map(doc, props=False)
    sel = read.selection(doc, bmap)
    if sel.start is None or sel.empty:
        raise ToolError("Nothing is selected. Ask the user to select text, or use "
                        "replace_text or replace_paragraphs.", tool_lines.nothing_selected())
    rng = sel.ranges[0]
    check_writable([rng], "The selection")
    inline = len(blocks) == 1 and blocks[0].kind == md.PARAGRAPH
    whole = (not sel.in_table and sel.start_offset == 0 and
             sel.end_offset == len(bmap.para_text(sel.end)))
    if whole and not inline:
        return replace_paragraphs(doc, sel.start, sel.end, markdown)
    text = rng.getText()
    cursor = forward(text, rng)
    if inline:
        runs = blocks[0].runs
        if all(not (r.bold or r.italic or r.code or r.strike or r.link) for r in runs):
            rewrite.replace_range(cursor, md.plain_text(runs), sel.text)
        else:
            cursor.setString("")
            edit.write_runs(text, cursor, runs)
        return ToolOutput({"replaced": sel.text, "paragraphs": 1},
                          phrase("Replaced the selection"),
                          {"paragraphs": [sel.start, sel.start]})
    if sel.in_table:
        raise unfit("Inside a table cell the selection can only be replaced by plain "
                    "text or one paragraph.")
    from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK
    loc = locate.for_doc(doc)
    follow = Follow(loc, sel.end + 1)
    cursor.setString("")
    if sel.start_offset > 0:
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
    if not cursor.isEndOfParagraph():
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
        cursor.gotoPreviousParagraph(False)
    after = sel.start if sel.start_offset > 0 else sel.start - 1
    loc.edited_from(max(1, sel.start))
    styles, lists = _context_for(doc, loc, after)
    made = edit.write_blocks(doc, cursor, blocks, styles, lists)
    loc.edited_from(max(1, sel.start))
    return ToolOutput({"replaced": sel.text, "paragraphs": made,
                       "numbering": follow.line(loc, sel.start, sel.end + made + 3)},
                      phrase_n("Replaced the selection with %(n)d paragraph",
                               "Replaced the selection with %(n)d paragraphs", made),
                      _facts(follow, sel.start, sel.start + made - 1, made))


def forward(text: Any, rng: Any) -> Any:
    """A cursor over ``rng`` from its start to its end, also when it was selected backwards."""
    first, second = rng.getStart(), rng.getEnd()
    if text.compareRegionStarts(first, second) < 0:
        first, second = second, first
    cursor = text.createTextCursorByRange(first)
    cursor.gotoRange(second, True)
    return cursor


@binds("set_paragraph_style")
def set_paragraph_style(doc: Any, start: int, end: int, style: str,
                        expect: Optional[str] = None, plan: Optional[Plan] = None) -> ToolOutput:
    style = as_text(style, "style")
    loc = locate.for_doc(doc)
    start, end = _range(loc, start, end)
    check_expect(doc, loc, start, expect)
    name = _style_name(doc, style)
    if protected_sections(doc):
        check_writable(_paragraphs(loc, start, end), "A paragraph in that range")
    spans, styled = runs(loc, start, end)
    if not styled:
        raise unfit("Paragraphs %d\u2013%d are tables; a paragraph style applies to text "
                    "paragraphs." % (start, end))
    view_edit.apply_paragraph_style(doc, spans, name)
    return ToolOutput({"styled": styled, "style": name,
                       "numbering": "Paragraph numbers did not change."},
                      phrase_n("Set %(n)d paragraph to \u201c%(style)s\u201d",
                               "Set %(n)d paragraphs to \u201c%(style)s\u201d", styled,
                               style=name),
                      {"paragraphs": [start, end]})


_CHARACTER_LOOKS = {"bold": "bold", "italic": "italic", "underline": "underline",
                    "underlined": "underline", "strikethrough": "strikethrough"}


def _style_name(doc, wanted):
    family = doc.getStyleFamilies().getByName("ParagraphStyles")
    if family.hasByName(wanted):
        return wanted
    names = family.getElementNames()
    lowered = wanted.strip().lower()
    for name in names:
        display = family.getByName(name).getPropertyValue("DisplayName")
        if lowered in (name.lower(), display.lower()):
            return name
    if lowered.rstrip("s") in _CHARACTER_LOOKS:
        # Small models ask for style "bold": the refusal names the tool that does it.
        raise unfit("%r is character formatting, not a paragraph style; nothing was "
                    "changed. To make words %s, call format_text with search=\"the "
                    "words\" and %s=true." % (wanted, lowered, _CHARACTER_LOOKS[
                        lowered.rstrip("s")]))
    common = [n for n in names if n.startswith("Heading ") and len(n) <= 9] + \
        [n for n in ("Standard", "Text body", "Title", "Subtitle", "Quotations") if n in names]
    raise ToolError("The document has no paragraph style %r. Some of its styles: %s."
                    % (wanted, ", ".join(common[:16])), tool_lines.no_such_style(wanted))


@binds("insert_table")
def insert_table(doc: Any, after_paragraph: int, rows: List[List[str]], header: bool = True,
                 plan: Optional[Plan] = None) -> ToolOutput:
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) and r for r in rows):
        raise unfit("rows must be a non-empty list of rows, each a non-empty list of "
                    "cell strings.")
    cells = [[md.parse_inline("" if c is None else str(c)) for c in row] for row in rows]
    width = max(len(r) for r in cells)
    if width * len(cells) > MAX_TABLE_CELLS:
        raise unfit("That table has more than %d cells." % MAX_TABLE_CELLS)
    header = as_bool(header, "header")
    header = True if header is None else header
    loc = locate.for_doc(doc)
    after = _after_index(loc, after_paragraph)
    follow = Follow(loc, after + 1)
    block = md.Block(md.TABLE, rows=cells, header=header)
    insert_blocks(doc, loc, after, [block])
    return ToolOutput({"table_paragraph": after + 1, "rows": len(cells), "columns": width,
                       "numbering": follow.line(loc, after + 1, after + 3)},
                      phrase("Inserted a %(rows)d\u00d7%(columns)d table as paragraph %(n)d",
                             rows=len(cells), columns=width, n=after + 1),
                      _facts(follow, after + 1, after + 1))

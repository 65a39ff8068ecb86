"""One paragraph made to read as the model's new line, in place (the rewrite protocol).

The smallest edit that does it: the heading level (or body text) as a paragraph style,
then only the words that differ (writer.rewrite: every unchanged word keeps its own
formatting, links, comment anchors and bookmarks; with changes recorded each changed
word is one tracked replacement), then bold and italic set only on the characters
whose look the new line changes. Nothing is read or written outside the paragraph.
Main thread.
"""

from typing import Any, List, Optional, Tuple

from marginalia.chat.tools import ToolOutput
from marginalia.document import markdown as md
from marginalia.document.docview import LINE_BREAK
from marginalia.i18n.phrase import phrase
from marginalia.writer import lines, locate, rewrite, view_edit
from marginalia.writer.args import as_int, as_text, parse_blocks, unfit
from marginalia.writer.binding import binds
from marginalia.writer.bodymap import para_props
from marginalia.writer.guard import check_expect
from marginalia.writer.plan import Plan
from marginalia.writer.text_tools import check_writable, protected_sections

_TEXT_KINDS = (md.PARAGRAPH, md.HEADING)
_LISTS = (md.BULLET, md.NUMBER)


def body_style(loc: locate.Locator, number: int) -> str:
    """The paragraph style of the body text nearest before block ``number`` (after it at
    the document's start): a heading made body text takes its neighbours' style."""
    styles = loc.doc.getStyleFamilies().getByName("ParagraphStyles")
    found = None
    for at, table, cursor in loc.walk(max(1, number - 30), number + 30):
        if table is not None or at == number:
            continue
        outline, list_id, _level, _label, style = para_props(cursor)
        if not outline and not list_id:
            found = style
            if at > number:
                break
    if found:
        return found
    return "Text body" if styles.hasByName("Text body") else "Standard"


def _style_for(loc, number, level):
    return "Heading %d" % level if level else body_style(loc, number)


def _flags(runs: List[md.Run], size: int) -> List[Tuple[bool, bool]]:
    out: List[Tuple[bool, bool]] = []
    for run in runs:
        out.extend((run.bold, run.italic) for _ch in run.text)
    return out[:size]


def _spans(text: str, want: List[Tuple[bool, bool]], have: List[Tuple[bool, bool]],
           which: int) -> List[Tuple[int, int, bool]]:
    """(start, end, value) of the stretches whose bold (which=0) or italic (1) must change;
    spaces take the value around them, so a phrase changes as one stretch."""
    out: List[Tuple[int, int, bool]] = []
    for i, ch in enumerate(text):
        if ch.isspace() or want[i][which] == have[i][which]:
            continue
        value = want[i][which]
        if out and out[-1][2] == value and not any(
                not c.isspace() for c in text[out[-1][1]:i]):
            out[-1] = (out[-1][0], i + 1, value)
        else:
            out.append((i, i + 1, value))
    return out


def _set_look(doc: Any, cursor: Any, text: str, runs: List[md.Run]) -> int:
    """Bold and italic of the paragraph at ``cursor`` (its text ``text``) as ``runs`` say;
    how many stretches were changed. Nothing when the paragraph's runs cannot be read."""
    have_runs = lines.runs_of(doc, lines.paragraph_of(cursor), text)
    if have_runs is None or md.plain_text(runs) != text:
        return 0
    want, have = _flags(runs, len(text)), _flags(have_runs, len(text))
    import uno
    looks = (("CharWeight", lines.BOLD, 100.0),
             ("CharPosture", uno.Enum("com.sun.star.awt.FontSlant", "ITALIC"),
              uno.Enum("com.sun.star.awt.FontSlant", "NONE")))
    body = cursor.getText()
    changed = 0
    for which, (prop, on, off) in enumerate(looks):
        for start, end, value in _spans(text, want, have, which):
            walker = body.createTextCursorByRange(cursor.getStart())
            if not rewrite.advance(walker, text[:start]):
                continue
            walker.collapseToEnd()
            if not rewrite.advance(walker, text[start:end]):
                continue
            walker.setPropertyValue(prop, on if value else off)
            changed += 1
    return changed


def revise(doc: Any, loc: locate.Locator, number: int, block: md.Block) -> None:
    """Make paragraph ``number`` read as ``block`` (a paragraph, heading or list item)."""
    table, cursor = loc.block(number)
    if cursor is None:
        raise unfit("Paragraph %d is a table; give a whole table to replace it." % number)
    outline, list_id = para_props(cursor)[:2]
    in_list = bool(list_id) and not outline
    if block.kind in _LISTS and not in_list or block.kind in _TEXT_KINDS and in_list:
        raise unfit("Paragraph %d is %s list item; its new line must be %s." % (
            number, "a" if in_list else "not a", "one too" if in_list else "text"))
    if protected_sections(doc):
        check_writable([cursor], "That paragraph")
    if block.kind in _TEXT_KINDS:
        level = block.level if block.kind == md.HEADING else 0
        if level != outline:
            spans, _count = locate.runs(loc, number, number)
            view_edit.apply_paragraph_style(doc, spans, _style_for(loc, number, level))
            table, cursor = loc.block(number)
    span = loc.copy(cursor)
    span.gotoEndOfParagraph(True)
    old = span.getString()
    new = md.plain_text(block.runs).replace(LINE_BREAK, "\n")
    rewrite.replace_range(span, new, old)
    loc.edited_from(number)
    _table, cursor = loc.block(number)
    span = loc.copy(cursor)
    span.gotoEndOfParagraph(True)
    now = span.getString()
    runs = [md.Run(r.text.replace(LINE_BREAK, "\n"), r.bold, r.italic) for r in block.runs]
    _set_look(doc, loc.copy(cursor), now, runs)


@binds("revise_paragraph")
def revise_paragraph(doc: Any, start: int, end: int, markdown: str,
                     expect: Optional[str] = None, was: Optional[str] = None,
                     plan: Optional[Plan] = None) -> ToolOutput:
    # ``was``: the line before, for a Comment-only proposal's words (tool_specs).
    blocks = parse_blocks(markdown)
    if len(blocks) != 1 or blocks[0].kind not in _TEXT_KINDS + _LISTS:
        raise unfit("A revised paragraph is one line of text, a heading or a list item.")
    loc = locate.for_doc(doc)
    number = as_int(start, "start")
    if number < 1 or loc.bound(number) != number:
        raise unfit("There is no paragraph %d." % number)
    check_expect(doc, loc, number, expect)
    revise(doc, loc, number, blocks[0])
    return ToolOutput({"revised": number, "numbering": "Paragraph numbers did not change."},
                      phrase("Revised paragraph %(n)d", n=number), {"paragraphs": [number, number]})


@binds("comment_paragraph")
def comment_paragraph(doc: Any, start: int, end: int, comment: str,
                      plan: Optional[Plan] = None) -> ToolOutput:
    """A comment on the whole of paragraphs start..end (an edit's "<!-- note -->")."""
    from marginalia.writer.text_tools import insert_comment
    comment = as_text(comment, "comment")
    loc = locate.for_doc(doc)
    number = as_int(start, "start")
    table, cursor = loc.block(number)
    if cursor is None:
        raise unfit("There is no paragraph %d to comment on." % number)
    span = loc.copy(cursor)
    span.gotoEndOfParagraph(True)
    insert_comment(doc, span, comment)
    return ToolOutput({"commented": number}, phrase("Commented on paragraph %(n)d", n=number),
                      {"paragraphs": [number, number]})

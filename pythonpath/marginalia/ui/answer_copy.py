"""An answer for the clipboard: HTML and plain text from its markdown (pure).

Copy offers both flavours (office.panel_actions.RichText): pasted into Writer
the HTML arrives formatted (headings as Heading styles, lists, tables, bold),
pasted into a plain editor the text arrives without markdown's marks ("##",
"**", pipes). Both come from document.markdown, the reader Insert uses, so a
copied answer and an inserted one agree.
"""

import html
from typing import List

from marginalia.document import markdown as md
from marginalia.document.inline import Run

BULLET = "\u2022 "
INDENT = "    "                # one list level in plain text
# Writer's HTML import reads the charset from this; without it UTF-8 is misread.
HEAD = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
        '</head><body>')
TAIL = "</body></html>"


def _link_text(run: Run) -> str:
    if run.link and run.link != run.text:
        return "%s (%s)" % (run.text, run.link)
    return run.text


def _plain_runs(runs: List[Run]) -> str:
    return "".join(_link_text(run) for run in runs)


def to_plain(text: str) -> str:
    """The answer as plain text: paragraphs apart, list items marked, table cells tabbed."""
    out: List[str] = []
    numbers: List[int] = []
    kinds: List[str] = []          # each open list level's kind: a new kind counts afresh
    previous = None
    for block in md.parse(text):
        tight = block.kind == previous and block.kind in (md.BULLET, md.NUMBER, md.CODE) or (
            {block.kind, previous} == {md.BULLET, md.NUMBER})
        if out and not tight:
            out.append("")
        if block.kind in (md.BULLET, md.NUMBER):
            del numbers[block.level:], kinds[block.level:]
            numbers.extend([0] * (block.level - len(numbers)))
            kinds.extend([""] * (block.level - len(kinds)))
            if kinds[block.level - 1] != block.kind:
                kinds[block.level - 1], numbers[block.level - 1] = block.kind, 0
            numbers[block.level - 1] += 1
            mark = BULLET if block.kind == md.BULLET else "%d. " % numbers[block.level - 1]
            out.append(INDENT * (block.level - 1) + mark + _plain_runs(block.runs))
        else:
            numbers, kinds = [], []
            if block.kind == md.TABLE:
                out.extend("\t".join(_plain_runs(cell) for cell in row) for row in block.rows)
            else:
                out.append(_plain_runs(block.runs))
        previous = block.kind
    return "\n".join(out)


def _html_runs(runs: List[Run]) -> str:
    parts = []
    for run in runs:
        piece = html.escape(run.text, quote=False)
        if run.code:
            piece = "<code>%s</code>" % piece
        if run.strike:
            piece = "<s>%s</s>" % piece
        if run.italic:
            piece = "<i>%s</i>" % piece
        if run.bold:
            piece = "<b>%s</b>" % piece
        if run.link:
            piece = '<a href="%s">%s</a>' % (html.escape(run.link), piece)
        parts.append(piece)
    return "".join(parts)


def _table(block: md.Block) -> str:
    rows = []
    for index, row in enumerate(block.rows):
        tag = "th" if block.header and index == 0 else "td"
        rows.append("<tr>%s</tr>" % "".join("<%s>%s</%s>" % (tag, _html_runs(cell), tag)
                                            for cell in row))
    return '<table border="1">%s</table>' % "".join(rows)


def _close(open_list: List) -> str:
    return ("</li>" if open_list[1] else "") + "</%s>" % open_list[0]


def to_html(text: str) -> str:
    """The answer as one HTML document: headings, paragraphs, nested lists, tables, code."""
    out: List[str] = [HEAD]
    lists: List[List] = []         # the open lists, outermost first: [tag, an item open]
    code: List[str] = []

    def end_code():
        if code:
            out.append("<pre>%s</pre>" % html.escape("\n".join(code), quote=False))
            del code[:]

    for block in md.parse(text):
        if block.kind != md.CODE:
            end_code()
        level = block.level if block.kind in (md.BULLET, md.NUMBER) else 0
        tag = "ul" if block.kind == md.BULLET else "ol"
        while len(lists) > level or (lists and len(lists) == level and lists[-1][0] != tag):
            out.append(_close(lists.pop()))
        while len(lists) < level:          # a nested list goes inside the open item
            lists.append([tag, False])
            out.append("<%s>" % tag)
        if level:
            if lists[-1][1]:
                out.append("</li>")
            lists[-1][1] = True
            out.append("<li>%s" % _html_runs(block.runs))
        elif block.kind == md.HEADING:
            out.append("<h%d>%s</h%d>" % (block.level, _html_runs(block.runs), block.level))
        elif block.kind == md.TABLE:
            out.append(_table(block))
        elif block.kind == md.CODE:
            code.append(block.text)
        elif block.kind == md.QUOTE:
            out.append("<blockquote><p>%s</p></blockquote>" % _html_runs(block.runs))
        else:
            out.append("<p>%s</p>" % _html_runs(block.runs))
    end_code()
    out.extend(_close(open_list) for open_list in reversed(lists))
    out.append(TAIL)
    return "".join(out)

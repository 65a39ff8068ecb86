"""Small real .docx and .odt files, written as Word and LibreOffice write them.

The XML is written by hand and zipped, so the files carry the formats' own
features as a foreign program made them (Word's _GoBack bookmark, a first row
with w:gridBefore, content controls, another author's tracked changes), which a
document built through the UNO API would not.
"""

import os
import zipfile
from typing import List

from tests.support.realodt import OTHER, write_odt

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
WHEN = "2024-01-02T10:00:00Z"

# Names of the generated files and what starts their body: nothing, a table, a table whose
# first row has w:gridBefore, or only that table (a body a cursor of 7.4 dies in).
DOCX_STARTS = {"features.docx": "", "table_start.docx": "plain", "grid_before.docx": "grid",
               "grid_only.docx": "grid only"}
ODT = "features.odt"


def _p(body: str, style: str = "", numbering: str = "") -> str:
    props = ('<w:pStyle w:val="%s"/>' % style if style else "") + numbering
    return "<w:p>%s%s</w:p>" % ("<w:pPr>%s</w:pPr>" % props if props else "", body)


def _r(text: str) -> str:
    return '<w:r><w:t xml:space="preserve">%s</w:t></w:r>' % text


def _item(text: str, num: int) -> str:
    return _p(_r(text), "ListParagraph",
              '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="%d"/></w:numPr>' % num)


def _field(instruction: str, shown: str) -> str:
    """A complex field, as Word writes REF and PAGEREF."""
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            '<w:r><w:instrText xml:space="preserve"> %s </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>%s'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>' % (instruction, _r(shown)))


def _cell(text: str, width: int, span: int = 1) -> str:
    spans = '<w:gridSpan w:val="%d"/>' % span if span > 1 else ""
    return ('<w:tc><w:tcPr><w:tcW w:w="%d" w:type="dxa"/>%s</w:tcPr>%s</w:tc>'
            % (width, spans, _p(_r(text))))


def _table(rows, grid_before: bool = False) -> str:
    """A bordered table; with grid_before its first row starts one grid column in."""
    cols = 3 if grid_before else 2
    grid = "".join('<w:gridCol w:w="%d"/>' % w for w in ([1000, 3000, 3000][:cols] if
                                                         grid_before else [3000, 3000]))
    out = ['<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>'
           '</w:tblPr><w:tblGrid>%s</w:tblGrid>' % grid]
    for n, row in enumerate(rows):
        if grid_before and n == 0:
            out.append('<w:tr><w:trPr><w:gridBefore w:val="1"/><w:wBefore w:w="1000" '
                       'w:type="dxa"/></w:trPr>%s</w:tr>'
                       % "".join(_cell(c, 3000) for c in row))
        elif grid_before:
            out.append("<w:tr>%s%s</w:tr>" % (_cell(row[0], 4000, 2), _cell(row[1], 3000)))
        else:
            out.append("<w:tr>%s</w:tr>" % "".join(_cell(c, 3000) for c in row))
    out.append("</w:tbl>")
    return "".join(out)


def _seq(kind: str, number: int) -> str:
    return _field("SEQ %s \\* ARABIC" % kind, str(number))


def _marked() -> str:
    """A paragraph with Word's collapsed _GoBack and a bookmark over one word."""
    return _p('<w:bookmarkStart w:id="0" w:name="_GoBack"/><w:bookmarkEnd w:id="0"/>'
              + _r("Sales grew in every ") + '<w:bookmarkStart w:id="1" w:name="region_mark"/>'
              + _r("region") + '<w:bookmarkEnd w:id="1"/>' + _r(" this year."))


def _docx_body(start: str) -> str:
    if start:
        table = _table([["Region", "Sales"], ["North", "12"]], start != "plain")
        if start == "grid only":
            return table
        # After the table, a shorter document: features.docx has the rest.
        return "".join([table, _p(_r("Quarterly report"), "Heading1"), _marked(),
                        _item("First item of the plan", 1), _item("Second item of the plan", 1),
                        _p(_r("The end of the report."))])
    parts = []
    parts += [
        _p(_r("Quarterly report"), "Heading1"),
        _marked(),
        _item("First item of the plan", 1), _item("Second item of the plan", 1),
        _p(_r("An interruption between the items.")),
        _item("Third item continues", 1), _item("Restarted item begins again", 2),
        _p(_r("Page ") + '<w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple>'
           + _r(", printed ") + '<w:fldSimple w:instr=" DATE \\@ &quot;yyyy-MM-dd&quot; ">'
           '<w:r><w:t>2024-01-02</w:t></w:r></w:fldSimple>' + _r(", see ")
           + _field("REF region_mark \\h", "region") + _r(" on page ")
           + _field("PAGEREF region_mark \\h", "1") + _r(".")),
        _table([["Quarter", "Amount"], ["First", "9"]]),
        _p(_r("Table ") + _seq("Table", 1) + _r(": Regional figures"), "Caption"),
        _p(_r("Figure ") + _seq("Figure", 1) + _r(": A caption without its figure"),
           "Caption"),
        _p(_r("Client: ") + '<w:sdt><w:sdtPr><w:alias w:val="Client"/><w:tag w:val="client"/>'
           '<w:id w:val="101"/><w:text/></w:sdtPr><w:sdtContent>' + _r("Client name")
           + '</w:sdtContent></w:sdt>' + _r(" approved: ")
           + '<w:sdt><w:sdtPr><w:id w:val="102"/><w14:checkbox><w14:checked w14:val="0"/>'
           '<w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState '
           'w14:val="2610" w14:font="MS Gothic"/></w14:checkbox></w:sdtPr><w:sdtContent>'
           '<w:r><w:t>\u2610</w:t></w:r></w:sdtContent></w:sdt>'),
        _p(_r("The plan has ") + '<w:ins w:id="201" w:author="%s" w:date="%s">' % (OTHER, WHEN)
           + _r("inserted words ") + '</w:ins><w:del w:id="202" w:author="%s" w:date="%s">'
           % (OTHER, WHEN) + '<w:r><w:delText xml:space="preserve">removed words '
           '</w:delText></w:r></w:del>' + _r("from a reviewer.")),
        _p(_r("A claim with a source.") + '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/>'
           '</w:rPr><w:footnoteReference w:id="1"/></w:r>'),
        _p('<w:commentRangeStart w:id="0"/>' + _r("Commented words here")
           + '<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>'
           + _r(" and more text.")),
        _p(_r("The end of the report.")),
    ]
    return "".join(parts)


def _word(root: str, body: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:%s xmlns:w="%s" '
            'xmlns:r="%s" xmlns:w14="%s">%s</w:%s>' % (root, W, R, W14, body, root))


def _styles() -> str:
    styles = [("paragraph", "Normal", "Normal", ""), ("paragraph", "Heading1", "heading 1",
                                                      '<w:outlineLvl w:val="0"/>'),
              ("paragraph", "Caption", "caption", ""),
              ("paragraph", "ListParagraph", "List Paragraph", ""),
              ("paragraph", "FootnoteText", "footnote text", ""),
              ("character", "FootnoteReference", "footnote reference", ""),
              ("table", "TableGrid", "Table Grid", "")]
    out = []
    for kind, ident, name, ppr in styles:
        extra = "<w:pPr>%s</w:pPr>" % ppr if ppr else ""
        if ident == "FootnoteReference":
            extra = '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
        if ident == "TableGrid":
            extra = "<w:tblPr><w:tblBorders>%s</w:tblBorders></w:tblPr>" % "".join(
                '<w:%s w:val="single" w:sz="4" w:space="0" w:color="auto"/>' % side
                for side in ("top", "left", "bottom", "right", "insideH", "insideV"))
        out.append('<w:style w:type="%s" w:styleId="%s"><w:name w:val="%s"/>%s</w:style>'
                   % (kind, ident, name, extra))
    return _word("styles", "".join(out))


def _numbering() -> str:
    level = ('<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
             '<w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr>'
             '</w:lvl>')
    return _word("numbering", '<w:abstractNum w:abstractNumId="0">%s</w:abstractNum>'
                 '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
                 '<w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0">'
                 '<w:startOverride w:val="1"/></w:lvlOverride></w:num>' % level)


def _notes() -> str:
    return _word("footnotes", '<w:footnote w:type="separator" w:id="-1"><w:p><w:r>'
                 '<w:separator/></w:r></w:p></w:footnote><w:footnote w:type='
                 '"continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
                 '</w:p></w:footnote><w:footnote w:id="1">%s</w:footnote>'
                 % _p('<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
                      '<w:footnoteRef/></w:r>' + _r(" The source of the claim."),
                      "FootnoteText"))


def _comments() -> str:
    return _word("comments", '<w:comment w:id="0" w:author="%s" w:date="%s" w:initials="RO">'
                 '%s</w:comment>' % (OTHER, WHEN, _p(_r("Check these words."))))


_PARTS = (("styles", "styles.xml", "styles+xml"), ("numbering", "numbering.xml",
                                                    "numbering+xml"),
          ("footnotes", "footnotes.xml", "footnotes+xml"),
          ("comments", "comments.xml", "comments+xml"),
          ("settings", "settings.xml", "settings+xml"))
_WML = "application/vnd.openxmlformats-officedocument.wordprocessingml."


def write_docx(path: str, start: str = "") -> str:
    """A .docx with every feature; its body starts with a table when start is "plain"
    or "grid" (a first row with w:gridBefore)."""
    return _package(path, _docx_body(start), _styles(), _numbering())


def write_chapters_docx(path: str) -> str:
    """A .docx whose headings are numbered by their styles, as Word's chapter numbering
    is: "Chapter 1" for heading 1, "Section 1" for heading 2 (one list, its levels
    linked to the styles)."""
    styles = "".join(
        '<w:style w:type="paragraph" w:styleId="%s"><w:name w:val="%s"/>%s</w:style>'
        % (ident, name, ppr) for ident, name, ppr in (
            ("Normal", "Normal", ""),
            ("Heading1", "heading 1", '<w:pPr><w:numPr><w:numId w:val="3"/></w:numPr>'
                                      '<w:outlineLvl w:val="0"/></w:pPr>'),
            ("Heading2", "heading 2", '<w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId '
                                      'w:val="3"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr>')))
    levels = "".join(
        '<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle '
        'w:val="%s"/><w:lvlText w:val="%s"/><w:lvlJc w:val="left"/></w:lvl>'
        % (n, style, shown) for n, style, shown in ((0, "Heading1", "Chapter %1"),
                                                    (1, "Heading2", "Section %2")))
    numbering = ('<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="multilevel"/>'
                 '%s</w:abstractNum><w:num w:numId="3"><w:abstractNumId w:val="1"/></w:num>'
                 % levels)
    body = _p(_r("Hello"), "Heading1") + _p(_r("Some body text."))
    return _package(path, body, _word("styles", styles), _word("numbering", numbering))


def write_list_end_docx(path: str) -> str:
    """A .docx with two Word lists, an empty paragraph after the first list's last item."""
    body = (_item("Hello", 1) + _item("World", 1) + _p("") + _item("Again", 2) +
            _item("More", 2))
    return _package(path, body, _styles(), _numbering())


def write_end_mark_docx(path: str) -> str:
    """A .docx whose first paragraph starts with a footnote's number, holds a bookmark
    over a word and ends in Word's _GoBack, a bookmark on a point."""
    body = _p('<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference '
              'w:id="1"/></w:r>' + _r("Video ") + '<w:bookmarkStart w:id="2" w:name="A"/>' +
              _r("provides") + '<w:bookmarkEnd w:id="2"/>' + _r(" a way.") +
              '<w:bookmarkStart w:id="1" w:name="_GoBack"/><w:bookmarkEnd w:id="1"/>') + \
        _p(_r("More text."))
    return _package(path, body, _styles(), _numbering())


def write_word_mark_docx(path: str) -> str:
    """A .docx of one paragraph, "Abcdef": a bookmark over "cd", Word's _GoBack at its end."""
    body = _p(_r("Ab") + '<w:bookmarkStart w:id="0" w:name="Test"/>' + _r("cd") +
              '<w:bookmarkEnd w:id="0"/>' + _r("ef") + '<w:bookmarkStart w:id="1" '
              'w:name="_GoBack"/><w:bookmarkEnd w:id="1"/>')
    return _package(path, body, _styles(), _numbering())


def _package(path: str, body: str, styles: str, numbering: str) -> str:
    body += ('<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" '
             'w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" '
             'w:gutter="0"/></w:sectPr>')
    types = "".join('<Override PartName="/word/%s" ContentType="%s%s"/>' % (f, _WML, t)
                    for _k, f, t in _PARTS)
    rels = "".join('<Relationship Id="rId%d" Type="%s%s" Target="%s"/>' % (n, REL, k, f)
                   for n, (k, f, _t) in enumerate(_PARTS, 1))
    files = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="%sdocument.main+xml"/>%s'
        '</Types>' % (_WML, types),
        "_rels/.rels": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="%sofficeDocument" Target="word/document.xml"/>'
        '</Relationships>' % REL,
        "word/_rels/document.xml.rels": '<?xml version="1.0" encoding="UTF-8" standalone='
        '"yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        'relationships">%s</Relationships>' % rels,
        "word/document.xml": _word("document", "<w:body>%s</w:body>" % body),
        "word/styles.xml": styles, "word/numbering.xml": numbering,
        "word/footnotes.xml": _notes(), "word/comments.xml": _comments(),
        "word/settings.xml": _word("settings", '<w:defaultTabStop w:val="708"/>'),
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in files.items():
            zf.writestr(name, text.encode("utf-8"))
    return path


def write_all(folder: str) -> List[str]:
    """Every generated document in folder; their paths."""
    paths = [write_docx(os.path.join(folder, name), start)
             for name, start in DOCX_STARTS.items()]
    paths.append(write_odt(os.path.join(folder, ODT)))
    return paths

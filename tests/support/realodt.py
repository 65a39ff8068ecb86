"""A small real .odt, written as LibreOffice writes it (see tests/support/realdocs.py)."""

import zipfile

from marginalia.eval.odf import NS

OTHER = "Reviewer One"        # the earlier tracked changes' and the comment's author
# The eval's namespaces (it writes and reads .odt the same way), and LibreOffice's own.
_NS = dict(NS, loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0")
_INFO = ("<office:change-info><dc:creator>%s</dc:creator><dc:date>2024-01-02T10:00:00"
         "</dc:date></office:change-info>" % OTHER)


def _root(name: str, body: str) -> str:
    spaces = " ".join('xmlns:%s="%s"' % item for item in _NS.items())
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<office:%s %s office:version="1.3">%s'
            '</office:%s>' % (name, spaces, body, name))


def _p(body: str, style: str = "Text_20_body") -> str:
    return '<text:p text:style-name="%s">%s</text:p>' % (style, body)


def _list(items, attrs: str = "") -> str:
    return '<text:list text:style-name="L1"%s>%s</text:list>' % (attrs, "".join(
        "<text:list-item>%s</text:list-item>" % _p(text, "P1") for text in items))


def _table(name: str, rows) -> str:
    cells = "".join("<table:table-row>%s</table:table-row>" % "".join(
        '<table:table-cell office:value-type="string">%s</table:table-cell>' % _p(c, "Standard")
        for c in row) for row in rows)
    return ('<table:table table:name="%s"><table:table-column table:number-columns-repeated='
            '"%d"/>%s</table:table>' % (name, len(rows[0]), cells))


def _caption(kind: str, text: str) -> str:
    return _p('%s <text:sequence text:ref-name="ref%s0" text:name="%s" text:formula='
              '"ooow:%s+1" style:num-format="1">1</text:sequence>: %s'
              % (kind, kind, kind, kind, text), kind)


def _body() -> str:
    changes = ('<text:tracked-changes text:track-changes="false">'
               '<text:changed-region xml:id="ct1" text:id="ct1"><text:insertion>%s'
               '</text:insertion></text:changed-region>'
               '<text:changed-region xml:id="ct2" text:id="ct2"><text:deletion>%s%s'
               '</text:deletion></text:changed-region></text:tracked-changes>'
               % (_INFO, _INFO, _p("removed words ", "Standard")))
    decls = ('<text:sequence-decls>%s</text:sequence-decls>' % "".join(
        '<text:sequence-decl text:display-outline-level="0" text:name="%s"/>' % kind
        for kind in ("Illustration", "Table", "Text", "Drawing", "Figure")))
    return "".join([
        changes, decls,
        '<text:h text:style-name="Heading_20_1" text:outline-level="1">Quarterly report</text:h>',
        _p('<text:bookmark text:name="_GoBack"/>Sales grew in every <text:bookmark-start '
           'text:name="region_mark"/>region<text:bookmark-end text:name="region_mark"/> '
           'this year.'),
        _list(["First item of the plan", "Second item of the plan"], ' xml:id="list1"'),
        _p("An interruption between the items."),
        _list(["Third item continues"], ' text:continue-list="list1"'),
        _list(["Restarted item begins again"]),
        _p('Page <text:page-number text:select-page="current">1</text:page-number>, '
           'printed <text:date style:data-style-name="N37" text:date-value="2024-01-02">'
           '2024-01-02</text:date>, see <text:bookmark-ref text:reference-format="text" '
           'text:ref-name="region_mark">region</text:bookmark-ref> on page '
           '<text:bookmark-ref text:reference-format="page" text:ref-name="region_mark">1'
           '</text:bookmark-ref>.'),
        _table("Figures", [["Quarter", "Amount"], ["First", "9"]]),
        _caption("Table", "Regional figures"),
        _caption("Figure", "A caption without its figure"),
        _p('Client: <loext:content-control loext:alias="Client" loext:tag="client">Client '
           'name</loext:content-control> approved: <loext:content-control loext:checkbox='
           '"true" loext:checked="false" loext:checked-state="\u2612" loext:unchecked-state='
           '"\u2610">\u2610</loext:content-control>'),
        _p('The plan has <text:change-start text:change-id="ct1"/>inserted words '
           '<text:change-end text:change-id="ct1"/><text:change text:change-id="ct2"/>'
           'from a reviewer.'),
        _p('A claim with a source.<text:note text:id="ftn1" text:note-class="footnote">'
           '<text:note-citation>1</text:note-citation><text:note-body>%s</text:note-body>'
           '</text:note>' % _p("The source of the claim.", "Footnote")),
        _p('<office:annotation office:name="c1"><dc:creator>%s</dc:creator><dc:date>'
           '2024-01-02T10:00:00</dc:date><text:p>Check these words.</text:p>'
           '</office:annotation>Commented words here<office:annotation-end office:name="c1"/>'
           ' and more text.' % OTHER),
        _p("The end of the report."),
    ])


def _content() -> str:
    auto = ('<office:automatic-styles><style:style style:name="P1" style:family="paragraph" '
            'style:parent-style-name="Standard" style:list-style-name="L1"/>'
            '<text:list-style style:name="L1"><text:list-level-style-number text:level="1" '
            'style:num-suffix="." style:num-format="1"><style:list-level-properties '
            'text:list-level-position-and-space-mode="label-alignment"><style:list-level-'
            'label-alignment text:label-followed-by="listtab" fo:text-indent="-0.635cm" '
            'fo:margin-left="1.27cm"/></style:list-level-properties>'
            '</text:list-level-style-number></text:list-style></office:automatic-styles>')
    return _root("document-content", auto + "<office:body><office:text>%s</office:text>"
                 "</office:body>" % _body())


def _styles() -> str:
    # Without their definitions the named styles would fall back to Default.
    styles = (("Heading_20_1", "Heading 1", ' style:default-outline-level="1"'),
              ("Text_20_body", "Text body", ""))
    return _root("document-styles", "<office:styles>%s</office:styles>" % "".join(
        '<style:style style:name="%s" style:display-name="%s" style:family="paragraph" '
        'style:parent-style-name="Standard"%s/>' % style for style in styles))


_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest='
             '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
             '<manifest:file-entry manifest:full-path="/" manifest:media-type='
             '"application/vnd.oasis.opendocument.text"/><manifest:file-entry '
             'manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
             '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type='
             '"text/xml"/>'
             '</manifest:manifest>')


def write_odt(path: str) -> str:
    """An .odt with every feature (LibreOffice's own content controls among them)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        # The mimetype first and stored, as ODF requires.
        zf.writestr(zipfile.ZipInfo("mimetype"), b"application/vnd.oasis.opendocument.text",
                    zipfile.ZIP_STORED)
        zf.writestr("META-INF/manifest.xml", _MANIFEST.encode("utf-8"))
        zf.writestr("content.xml", _content().encode("utf-8"))
        zf.writestr("styles.xml", _styles().encode("utf-8"))
    return path

"""Tiny .odt files written and read back with the standard library (pure).

The eval's source documents are written here rather than built through the
office: a task is then plain data, the files are made in milliseconds, and a
checker's test needs no office. Reading goes through content.xml only, into
the few facts checkers look at: blocks (paragraphs, headings, list items,
tables) with their style, text, bold/italic runs, links and bookmark names,
the comments and the paragraph each is anchored in, and the tracked-change
regions with their kinds.

Tracked changes: ODF keeps deleted text inside ``text:tracked-changes`` and
leaves inserted text in the body, so the body read here is the document as if
every change were accepted (what a checker of a tracked task wants to judge).
"""

import re
import zipfile
from dataclasses import dataclass, field
from typing import List, Optional, Tuple
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "xlink": "http://www.w3.org/1999/xlink",
}


def _q(prefix: str, name: str) -> str:
    return "{%s}%s" % (NS[prefix], name)


@dataclass
class Block:
    """One top-level piece of body text as a checker sees it."""
    kind: str                       # "paragraph", "heading", "item" (of a list) or "table"
    text: str = ""
    style: str = ""                 # the display name: "Heading 1", "Text body"...
    level: int = 0                  # a heading's outline level
    bold: List[str] = field(default_factory=list)     # bold stretches, runs joined
    italic: List[str] = field(default_factory=list)
    rows: List[List[str]] = field(default_factory=list)   # a table's cell texts
    bookmarks: List[str] = field(default_factory=list)
    links: List[Tuple[str, str]] = field(default_factory=list)   # (text, target) each


@dataclass
class Comment:
    text: str
    block: int                      # index into Doc.blocks of the paragraph it sits in


@dataclass
class Doc:
    blocks: List[Block] = field(default_factory=list)
    comments: List[Comment] = field(default_factory=list)
    tracked: int = 0                # how many tracked-change regions
    # Each region's kind, in the file's order: "insertion", "deletion", "format-change";
    # LibreOffice (7.4) writes a paragraph style change as "UnknownChange".
    tracked_kinds: List[str] = field(default_factory=list)

    def texts(self) -> List[str]:
        return [b.text if b.kind != "table" else " | ".join(" | ".join(r) for r in b.rows)
                for b in self.blocks]

    def full_text(self) -> str:
        return "\n".join(self.texts())


# ---------------------------------------------------------------- writing

# A source paragraph: (style display name, text with **bold** and *italic* marks, kept out?).
Source = Tuple[str, str, bool]
_MARK = re.compile(r"(\*\*.+?\*\*|\*[^*]+?\*)")
KEEP_OUT = "MarginaliaKeepOut1_%d"   # document.keepout_names' pattern, mark number 1


def style_name(display: str) -> str:
    """ODF's encoded style name: a space becomes _20_ (Heading 1 -> Heading_20_1)."""
    return display.replace(" ", "_20_")


def _runs_xml(text: str) -> str:
    out = []
    for piece in _MARK.split(text):
        if piece.startswith("**") and piece.endswith("**") and len(piece) > 4:
            out.append('<text:span text:style-name="Tbold">%s</text:span>' % escape(piece[2:-2]))
        elif piece.startswith("*") and piece.endswith("*") and len(piece) > 2:
            out.append('<text:span text:style-name="Titalic">%s</text:span>'
                       % escape(piece[1:-1]))
        else:
            out.append(escape(piece))
    return "".join(out)


def _block_xml(style: str, text: str, kept: Optional[str]) -> str:
    inner = _runs_xml(text)
    if kept:
        inner = ('<text:bookmark-start text:name=%s/>%s<text:bookmark-end text:name=%s/>'
                 % (quoteattr(kept), inner, quoteattr(kept)))
    level = re.match(r"Heading (\d)$", style)
    if level:
        return ('<text:h text:style-name=%s text:outline-level="%s">%s</text:h>'
                % (quoteattr(style_name(style)), level.group(1), inner))
    return '<text:p text:style-name=%s>%s</text:p>' % (quoteattr(style_name(style)), inner)


def content_xml(paragraphs: List[Source]) -> str:
    kept = 0
    body = []
    for style, text, keep_out in paragraphs:
        name = None
        if keep_out:
            kept += 1
            name = KEEP_OUT % kept
        body.append(_block_xml(style, text, name))
    declared = " ".join('xmlns:%s="%s"' % item for item in sorted(NS.items()))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<office:document-content %s office:version="1.3"><office:automatic-styles>'
            '<style:style style:name="Tbold" style:family="text"><style:text-properties '
            'fo:font-weight="bold"/></style:style>'
            '<style:style style:name="Titalic" style:family="text"><style:text-properties '
            'fo:font-style="italic"/></style:style>'
            '</office:automatic-styles><office:body><office:text>%s</office:text>'
            '</office:body></office:document-content>' % (declared, "".join(body)))


def styles_xml() -> str:
    """The named styles the sources use: without a declaration LibreOffice opens the
    paragraphs as Default Paragraph Style, and built-in names alone do not help."""
    named = ['<style:style style:name="Standard" style:family="paragraph"/>',
             '<style:style style:name="Text_20_body" style:display-name="Text body" '
             'style:family="paragraph" style:parent-style-name="Standard"/>',
             '<style:style style:name="Title" style:family="paragraph" '
             'style:parent-style-name="Standard"><style:text-properties fo:font-size="20pt" '
             'fo:font-weight="bold"/></style:style>']
    for level, size in ((1, "16pt"), (2, "14pt"), (3, "12pt")):
        named.append('<style:style style:name="Heading_20_%d" style:display-name="Heading %d" '
                     'style:family="paragraph" style:parent-style-name="Standard" '
                     'style:default-outline-level="%d"><style:text-properties fo:font-size='
                     '"%s" fo:font-weight="bold"/></style:style>' % (level, level, level, size))
    declared = " ".join('xmlns:%s="%s"' % item for item in sorted(NS.items()))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles %s '
            'office:version="1.3"><office:styles>%s</office:styles></office:document-styles>'
            % (declared, "".join(named)))


_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest='
             '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
             '<manifest:file-entry manifest:full-path="/" manifest:version="1.3" '
             'manifest:media-type="application/vnd.oasis.opendocument.text"/>'
             '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type='
             '"text/xml"/><manifest:file-entry manifest:full-path="styles.xml" '
             'manifest:media-type="text/xml"/></manifest:manifest>')


def write_odt(path: str, paragraphs: List[Source]) -> None:
    """Write an .odt of these paragraphs; the mimetype goes first and uncompressed, as
    ODF requires of a package."""
    with zipfile.ZipFile(path, "w") as package:
        package.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        package.writestr("META-INF/manifest.xml", _MANIFEST, zipfile.ZIP_DEFLATED)
        package.writestr("content.xml", content_xml(paragraphs), zipfile.ZIP_DEFLATED)
        package.writestr("styles.xml", styles_xml(), zipfile.ZIP_DEFLATED)


# ---------------------------------------------------------------- reading

def display_name(encoded: str) -> str:
    """Undo ODF's style-name encoding (_20_ is a space, _xx_ any hex character)."""
    return re.sub(r"_([0-9a-fA-F]{2})_", lambda m: chr(int(m.group(1), 16)), encoded)


class _Styles:
    """Automatic styles: the named style each stands for, and whether it is bold/italic."""

    def __init__(self, roots: List[ET.Element]) -> None:
        self.parent = {}
        self.bold = set()
        self.italic = set()
        for root in roots:
            for st in root.iter(_q("style", "style")):
                name = st.get(_q("style", "name"))
                self.parent[name] = st.get(_q("style", "parent-style-name"))
                props = st.find(_q("style", "text-properties"))
                if props is not None:
                    if props.get(_q("fo", "font-weight")) in ("bold", "700", "800", "900"):
                        self.bold.add(name)
                    if props.get(_q("fo", "font-style")) == "italic":
                        self.italic.add(name)

    def named(self, name: str) -> str:
        parent = self.parent.get(name)
        return display_name(parent or name or "")


class _Inline:
    """Walks one paragraph: its text, its bold/italic stretches, its comments."""

    def __init__(self, styles: _Styles) -> None:
        self.styles = styles
        self.parts: List[Tuple[str, bool, bool]] = []
        self.notes: List[str] = []
        self.bookmarks: List[str] = []
        self.links: List[Tuple[str, str]] = []

    def walk(self, elem: ET.Element, bold: bool, italic: bool) -> None:
        if elem.text:
            self.parts.append((elem.text, bold, italic))
        for child in elem:
            tag = child.tag
            if tag == _q("office", "annotation"):
                self.notes.append("\n".join("".join(p.itertext())
                                            for p in child.iter(_q("text", "p"))))
            elif tag == _q("text", "s"):
                self.parts.append((" " * int(child.get(_q("text", "c"), "1")), bold, italic))
            elif tag == _q("text", "tab"):
                self.parts.append(("\t", bold, italic))
            elif tag == _q("text", "line-break"):
                self.parts.append(("\n", bold, italic))
            elif tag in (_q("text", "bookmark-start"), _q("text", "bookmark")):
                self.bookmarks.append(child.get(_q("text", "name"), ""))
            elif tag in (_q("text", "note"),):
                pass  # footnotes are not the paragraph's text
            elif tag == _q("text", "a"):
                start = len(self.parts)
                self.walk(child, bold, italic)
                self.links.append(("".join(p[0] for p in self.parts[start:]),
                                   child.get(_q("xlink", "href"), "")))
            else:
                name = child.get(_q("text", "style-name"))
                self.walk(child, bold or name in self.styles.bold,
                          italic or name in self.styles.italic)
            if child.tail:
                self.parts.append((child.tail, bold, italic))

    def stretches(self, index: int) -> List[str]:
        out, current = [], ""
        for part in self.parts:
            text = part[0]
            if part[index]:
                current += text
            elif current:
                out.append(current)
                current = ""
        if current:
            out.append(current)
        return [s for s in out if s.strip()]


def _paragraph(elem: ET.Element, styles: _Styles, kind: str, doc: Doc) -> None:
    name = elem.get(_q("text", "style-name"), "")
    para_bold = name in styles.bold
    para_italic = name in styles.italic
    inline = _Inline(styles)
    inline.walk(elem, para_bold, para_italic)
    level = int(elem.get(_q("text", "outline-level"), "0") or 0)
    style = styles.named(name)
    if elem.tag == _q("text", "h") or re.match(r"Heading \d$", style):
        kind = "heading"
        if not level and style[-1:].isdigit():
            level = int(style[-1])
    block = Block(kind, "".join(p[0] for p in inline.parts), style, level,
                  inline.stretches(1), inline.stretches(2), bookmarks=inline.bookmarks,
                  links=inline.links)
    doc.blocks.append(block)
    for note in inline.notes:
        doc.comments.append(Comment(note, len(doc.blocks) - 1))


def _table(elem: ET.Element, styles: _Styles, doc: Doc) -> None:
    rows = []
    for row in elem.iter(_q("table", "table-row")):
        cells = []
        for cell in row.findall(_q("table", "table-cell")):
            cells.append("\n".join("".join(_cell_text(p, styles))
                                   for p in cell.iter(_q("text", "p"))))
        rows.append(cells)
    doc.blocks.append(Block("table", rows=rows))


def _cell_text(elem: ET.Element, styles: _Styles) -> List[str]:
    inline = _Inline(styles)
    inline.walk(elem, False, False)
    return [p[0] for p in inline.parts]


def _body(parent: ET.Element, styles: _Styles, doc: Doc, kind: str = "paragraph") -> None:
    for child in parent:
        if child.tag in (_q("text", "p"), _q("text", "h")):
            _paragraph(child, styles, kind, doc)
        elif child.tag == _q("table", "table"):
            _table(child, styles, doc)
        elif child.tag in (_q("text", "list"), _q("text", "list-item"),
                           _q("text", "list-header")):
            _body(child, styles, doc, "item")
        elif child.tag in (_q("text", "section"),):
            _body(child, styles, doc, kind)
        elif child.tag == _q("text", "tracked-changes"):
            for region in child.findall(_q("text", "changed-region")):
                doc.tracked += 1
                doc.tracked_kinds.extend(_local(kind.tag) for kind in region[:1])


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def parse_content(xml: bytes) -> Doc:
    """Only content.xml's automatic styles count: a named style's own boldness (a heading's)
    is not a stretch of bold the user or the model made."""
    root = ET.fromstring(xml)
    styles = _Styles([root])
    doc = Doc()
    text = root.find("%s/%s" % (_q("office", "body"), _q("office", "text")))
    if text is not None:
        _body(text, styles, doc)
    return doc


def read_odt(path: str) -> Doc:
    """The blocks, comments and tracked changes of a saved .odt."""
    with zipfile.ZipFile(path) as package:
        return parse_content(package.read("content.xml"))

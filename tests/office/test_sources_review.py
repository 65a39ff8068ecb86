"""A chat's sources in a real office: the review's findings (issue 28's follow-up).

Each test here failed on the code before its fix: an answer citing inside a
table broke Insert, a grouped key got no footnote and code became one.
"""

import zlib

import uno

from tests.office.test_sources import _turn
from tests.support.office import props
from tests.support.sse_server import ScriptedServer, text_response


def _write(path, text):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return str(path)


def test_insert_puts_footnotes_in_a_table_for_grouped_keys_and_not_in_code(office, tmp_path):
    otters = _write(tmp_path / "otters.txt",
                    "The otters returned to the weir in March and stayed all summer.\n")
    herons = _write(tmp_path / "herons.txt",
                    "Two herons nested in the alders by the mill race that spring.\n")
    doc = office.new_writer()
    try:
        assert office.job("sources.add", doc, path=otters)["id"] == "S1"
        assert office.job("sources.add", doc, path=herons)["id"] == "S2"
        answer = ("| animal | place |\n|---|---|\n| otters [1] | weir |\n\n"
                  "Use `x[1]` in code; both came back [1, 2].")
        with ScriptedServer([text_response(answer)]) as server:
            entries = _turn(office, doc, server, "Who came back?")
        cited = [e for e in entries if e["type"] == "citations"][0]["citations"]["cited"]
        assert sorted(c["key"] for c in cited) == [1, 2]
        doc.Text.setString("An older line that cites [1] itself.")
        cursor = doc.Text.createTextCursor()
        cursor.gotoEnd(False)
        doc.getCurrentController().getViewCursor().gotoRange(cursor, False)
        # The table cell's key, and the grouped key: two markers replaced.
        assert office.job("sources.insert", doc)["made"] == 2
        body = doc.Text.getString()
        notes = doc.getFootnotes()
        assert notes.getCount() == 3
        texts = [notes.getByIndex(i).getString() for i in range(3)]
        assert texts[0].startswith("otters.txt") and texts[1].startswith("otters.txt")
        assert texts[2].startswith("herons.txt")
        # The code kept as text; the group now two anchors (body text shows their numbers).
        assert "Use x[1] in code; both came back 23." in body
        assert "[1, 2]" not in body and "An older line that cites [1] itself." in body
        tables = doc.getTextTables()
        assert tables.getCount() == 1
        cell = tables.getByIndex(0).getCellByName("A2")
        assert cell.getString() == "otters 1"         # the key now a footnote anchor
        assert notes.getByIndex(0).getAnchor().getText().getString() == "otters 1"
    finally:
        office.close(doc)


def test_a_source_is_read_as_its_pages_show_it(office, tmp_path):
    # A footnote anchor, a tracked deletion and hidden text: none is the source's text.
    doc = office.new_writer()
    try:
        text = doc.Text
        cur = text.createTextCursor()
        text.insertString(cur, "Revenue rose by twelve percent", False)
        note = doc.createInstance("com.sun.star.text.Footnote")
        text.insertTextContent(cur, note, False)
        note.setString("Audited figures.")
        text.insertString(cur, " in the year.", False)
        text.insertControlCharacter(cur, 0, False)
        text.insertString(cur, "The board approved the plan unanimously.", False)
        text.insertControlCharacter(cur, 0, False)
        text.insertString(cur, "Secret hidden remark nobody sees.", False)
        hidden = text.createTextCursor()
        hidden.gotoEnd(False)
        hidden.gotoStartOfParagraph(True)
        hidden.CharHidden = True
        doc.RecordChanges = True
        search = doc.createSearchDescriptor()
        search.SearchString = " unanimously"
        doc.findFirst(search).setString("")
        doc.RecordChanges = False
        path = str(tmp_path / "minutes.odt")
        doc.storeToURL(uno.systemPathToFileUrl(path), props(FilterName="writer8"))
    finally:
        office.close(doc)
    read = office.job("sources.read", path=path)
    assert [b["text"] for b in read["blocks"]] == [
        "Revenue rose by twelve percent in the year.", "The board approved the plan."]


def test_a_file_with_parentheses_in_its_name_is_read_from_its_open_window(office, tmp_path):
    path = str(tmp_path / "report (1).odt")
    doc = office.new_writer()
    doc.Text.setString("On disk text.")
    doc.storeToURL(uno.systemPathToFileUrl(path), props(FilterName="writer8"))
    office.close(doc)
    opened = office.load(path)
    try:
        opened.Text.setString("Unsaved text in the window.")
        read = office.job("sources.read", path=path)
        # Read from the open window, not loaded again from the disk.
        assert [b["text"] for b in read["blocks"]] == ["Unsaved text in the window."]
        added = office.job("sources.add", opened, title="report (1).odt")
        listed = office.job("sources.list", opened)["sources"]
        assert added["id"] == "S1" and listed[0]["path"] == path
    finally:
        office.close(opened)


def _scanned_pdf(path, pages):
    """A PDF of pages that are only pictures (a scan): no text at all."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", None]
    kids = []
    img = zlib.compress(bytes((x * 7 + y * 3) % 256 for y in range(400) for x in range(400)))
    for _ in range(pages):
        page_no = len(objs) + 1
        kids.append(page_no)
        content = b"q 500 0 0 700 50 50 cm /Im1 Do Q"
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                    b"/Resources << /XObject << /Im1 %d 0 R >> >> >>" % (page_no + 1, page_no + 2))
        objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objs.append(b"<< /Type /XObject /Subtype /Image /Width 400 /Height 400 /ColorSpace "
                    b"/DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
                    % len(img) + img + b"\nendstream")
    objs[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), pages)
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objs):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    with open(path, "wb") as handle:
        handle.write(out)


def test_a_scanned_pdf_is_told_apart_without_holding_the_main_thread(office, tmp_path):
    # xpdfimport reads it and finds no text: said at once, never handed to the import
    # filter, which would build the pages on the main thread (Writer frozen).
    path = str(tmp_path / "scan.pdf")
    _scanned_pdf(path, 60)
    office.job("mcp.longest")
    read = office.job("sources.read", path=path)
    longest = office.job("mcp.longest")
    assert read == {"sentence": "Marginalia could not read scan.pdf: it holds no text "
                                "(a scanned PDF has only pictures of pages)."}
    assert longest < 0.5, longest


def _text_pdf(path, content):
    """A one-page PDF drawing ``content`` in Helvetica (the reviewer's mkpdf.py)."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objs):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    with open(path, "wb") as handle:
        handle.write(out)


def test_a_pdf_whose_words_are_placed_without_spaces_reads_as_words(office, tmp_path):
    # TeX style: words set apart by TJ kerning; and words placed by Td. No space glyphs.
    tj = str(tmp_path / "tj.pdf")
    _text_pdf(tj, b"BT /F1 12 Tf 72 700 Td [(At)-333(dawn)-333(the)-333(river)-333(was)"
                  b"-333(cold,)-333(four)-333(degrees)] TJ ET")
    td = str(tmp_path / "td.pdf")
    _text_pdf(td, b"BT /F1 12 Tf 72 700 Td (At) Tj 16 0 Td (dawn) Tj 32 0 Td (the) Tj ET")
    assert [b["text"] for b in office.job("sources.read", path=tj)["blocks"]] == [
        "At dawn the river was cold, four degrees"]
    assert [b["text"] for b in office.job("sources.read", path=td)["blocks"]] == [
        "At dawn the"]

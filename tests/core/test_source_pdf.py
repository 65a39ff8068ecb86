"""PDF lines (as LibreOffice's PDF import gives them) joined back into Blocks."""

from marginalia.office.source_pdf import Line, blocks

BODY = 12.0
WIDTH = 17000      # the text width of a page, 1/100 mm


def line(page, y, text, x=2000, width=WIDTH, font=BODY, height=496):
    return Line(page, x, y, width, height, font, text)


def test_lines_join_into_paragraphs_and_headings_come_from_larger_fonts():
    lines = [
        line(1, 2000, "Methods", font=18.0, width=3000, height=741),
        line(1, 3000, "We measured the river at dawn, every"),
        line(1, 3494, "morning, for a year.", width=6000),
        line(1, 3988, "The second paragraph starts here.", width=9000),
        line(1, 5000, "Detail", font=16.0, width=2000, height=660),
        line(1, 6000, "A last line."),
    ]
    out = blocks(list(reversed(lines)))       # the import gives shapes in no useful order
    assert [(b.kind, b.level) for b in out] == [
        ("heading", 1), ("paragraph", 0), ("paragraph", 0), ("heading", 2), ("paragraph", 0)]
    assert out[1].text == "We measured the river at dawn, every morning, for a year."
    assert out[1].heading == "Methods"
    assert out[4].heading == "Detail"


def test_lines_at_the_same_height_are_a_table_row_and_pages_are_kept():
    lines = [
        line(1, 2000, "Intro text on page one."),
        line(2, 2000, "Site", x=2000, width=2000),
        line(2, 2010, "Temp", x=9000, width=2000),
        line(2, 2700, "North", x=2000, width=2000),
        line(2, 2700, "4 C", x=9000, width=2000),
        line(2, 4000, "After the table.", width=5000),
    ]
    out = blocks(lines)
    assert [b.kind for b in out] == ["paragraph", "table", "paragraph"]
    assert out[1].text == "Site | Temp\nNorth | 4 C"
    assert [b.page for b in out] == [1, 2, 2]


def test_a_word_hyphenated_at_the_end_of_a_line_is_joined():
    out = blocks([line(1, 1000, "the measure-"), line(1, 1494, "ments were taken", width=5000)])
    assert out[0].text == "the measurements were taken"


def _glyphs(x, y, text, size=12.0, advance=6.0):
    out = []
    for char in (text if isinstance(text, list) else list(text)):
        out.append("drawChar %f %f %f %f 1 0 0 1 %f %s\n" % (x, y, x + advance, y, size, char))
        x += advance
    return out


def test_xpdfimport_output_becomes_lines_rows_and_pages():
    from marginalia.office import source_xpdf
    out = ["startPage 59530.393701 84188.976378\n"]
    out += _glyphs(56, 756, "Results", size=18.0, advance=10.0)
    out += _glyphs(56, 720, "The harbour froze.")
    out += _glyphs(56, 700, "Site") + _glyphs(300, 700, "Temp")     # two cells, one baseline
    out += ["endPage\n", "startPage 59530.393701 84188.976378\n"]
    out += _glyphs(56, 756, list("Line one") + ["\\\\"] + list("two"))   # an escaped backslash
    lines = source_xpdf.parse(out)
    assert [(l.page, l.text) for l in lines] == [
        (1, "Results"), (1, "The harbour froze."), (1, "Site"), (1, "Temp"),
        (2, "Line one\\two")]
    assert lines[0].font == 18.0 and lines[0].y < lines[1].y      # from the page's top
    out_blocks = blocks(lines)
    assert [(b.kind, b.text) for b in out_blocks[:3]] == [
        ("heading", "Results"), ("paragraph", "The harbour froze."), ("table", "Site | Temp")]
    assert out_blocks[-1].page == 2


def test_pieces_of_a_row_that_touch_are_one_line_not_a_table():
    # "This is S" + "MALL" in a smaller font + "C" + "APS, and more." on one baseline.
    em = 12 * 2540 / 72.0
    pieces = [line(1, 1000, "This is S", x=2000, width=3000),
              line(1, 1010, "MALL", x=5000, width=1200, font=9.6),
              line(1, 1000, "C", x=6400, width=300),      # a space's width apart
              line(1, 1010, "APS", x=6700, width=800, font=9.6),
              line(1, 1000, ", and more.", x=7500, width=2500)]
    out = blocks(pieces + [line(1, 1600, "Cell", x=2000, width=1000),
                           line(1, 1600, "Other", x=int(3000 + 2 * em), width=1000)])
    assert [(b.kind, b.text) for b in out] == [("paragraph", "This is SMALL CAPS, and more."),
                                               ("table", "Cell | Other")]


def test_words_placed_apart_without_space_glyphs_are_kept_apart():
    # As TeX draws a line: each word placed, a third of an em between, no space glyph
    # (xpdfimport's glyphs of the reviewer's PDF "[(At)-333(dawn)-333(the)] TJ").
    from marginalia.office import source_xpdf
    out = ["startPage 61200 79200\n"]
    x = 72.0
    for word in ("At", "dawn", "the", "river"):
        out += _glyphs(x, 700, word, size=12.0, advance=6.0)
        x += 6.0 * len(word) + 4.0
    # Kerned letters (a gap of 0.05 em) stay one word; a real space is not doubled.
    out += _glyphs(72, 680, "W", advance=6.6) + _glyphs(79.2, 680, "ave on")
    lines = source_xpdf.parse(out)
    assert [l.text for l in lines] == ["At dawn the river", "Wave on"]

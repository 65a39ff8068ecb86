"""The sources' Library: passages, BM25 search, read with neighbours, the kept state."""

import pytest

from marginalia.sources.index import Library
from marginalia.sources.model import Block, Passage, Source
from marginalia.sources.passages import MAX, cut, words


def para(text, heading="", page=None):
    return Block("paragraph", text, heading, page)


def head(text, level=1):
    return Block("heading", text, "", None, level)


def filler(word, count):
    return " ".join("%s%d" % (word, i % 7) for i in range(count)) + "."


# ---------------------------------------------------------------- ranking

CORPUS = [
    head("Climate"),
    para("The glacier retreated by forty metres in the last decade, the survey says.",
         "Climate"),
    para("Rainfall in the valley was normal; the river kept its usual course.", "Climate"),
    head("Finance"),
    para("Net revenue rose by twelve percent while costs fell in the northern region.",
         "Finance"),
    para("The board approved the budget. Revenue forecasts are uncertain, the board said, and "
         "the board will meet again.", "Finance"),
    head("Staff"),
    para("Forty new people joined the team; the team grew across every office.", "Staff"),
]


def library():
    lib = Library()
    lib.add("Annual report", "/tmp/annual.odt", CORPUS, (100, 1.5))
    return lib


def test_bm25_puts_the_passage_about_the_query_first():
    lib = library()
    # Each section is its own passage: none crosses a heading.
    assert [p.heading for p in lib.passages("S1")] == ["Climate", "Finance", "Staff"]
    top = lib.search("glacier retreat survey")[0][0]
    assert "glacier" in top.text and top.heading == "Climate"
    top = lib.search("How much did revenue grow?")[0][0]
    assert top.heading == "Finance"
    assert lib.search("team office people")[0][0].heading == "Staff"
    assert lib.search("zebra quantum") == []


def test_rare_words_weigh_more_than_common_ones():
    lib = Library()
    lib.add("notes", "", [head("A"), para("the the the the the the cat", "A"),
                          head("B"), para("the ocelot and the otter", "B"),
                          head("C"), para("the dog and the hen", "C")])
    # "the" is in every passage: it must not carry A past the one with "ocelot".
    assert lib.search("the ocelot")[0][0].heading == "B"


def test_a_quoted_phrase_wins_over_the_words_scattered():
    lib = Library()
    lib.add("notes", "", [
        head("Scattered"),
        para("Net figures and revenue tables: net, revenue, net, revenue, revenue net, "
             "the net of the revenue.", "Scattered"),
        head("Exact"),
        para("In short the net revenue grew.", "Exact"),
    ])
    assert lib.search("net revenue")[0][0].heading == "Scattered"
    assert lib.search('"net revenue"')[0][0].heading == "Exact"
    assert lib.search("\u201cnet revenue\u201d")[0][0].heading == "Exact"


def test_german_and_japanese_text_are_searchable():
    lib = Library()
    lib.add("Bericht", "/d/bericht.odt", [
        head("Gr\u00fc\u00dfe"),
        para("Die STRASSE vor dem B\u00fcro wurde im M\u00e4rz gesperrt.", "Gr\u00fc\u00dfe"),
        head("Anderes"),
        para("Das Wetter war gut und die Sonne schien.", "Anderes"),
    ])
    lib.add("\u5831\u544a", "/d/houkoku.odt", [
        head("\u6982\u8981"),
        para("\u6771\u4eac\u90fd\u306e\u4eba\u53e3\u306f\u5897\u3048\u307e\u3057\u305f\u3002",
             "\u6982\u8981"),
        head("\u5929\u6c17"),
        para("\u4eca\u65e5\u306f\u96e8\u304c\u964d\u308a\u307e\u3057\u305f\u3002",
             "\u5929\u6c17"),
    ])
    assert lib.search("b\u00fcro")[0][0].source_id == "S1"
    assert lib.search("Stra\u00dfe m\u00e4rz")[0][0].text.startswith("Die STRASSE")
    # A combining diaeresis (as PDFs give it) is the same letter.
    assert lib.search("Bu\u0308ro")[0][0].text.startswith("Die STRASSE")
    # Japanese: no spaces between words, found by character bigrams.
    top = lib.search("\u6771\u4eac\u306e\u4eba\u53e3")[0][0]
    assert top.source_id == "S2" and "\u6771\u4eac\u90fd" in top.text
    assert lib.search("\u96e8")[0][0].heading == "\u5929\u6c17"


# ---------------------------------------------------------------- passages

def test_passages_never_cross_a_heading_and_stay_near_their_size():
    blocks = []
    for n in range(6):
        blocks.append(head("Section %d" % n, 2))
        for m in range(n + 1):
            blocks.append(para(filler("w%d" % n, 70) + " Sentence %d." % m, "Section %d" % n))
    passages = cut(Source("S1", "t", "/x/t.odt", blocks))
    for p in passages:
        section = p.heading.split()[-1]
        # Every word of a passage is of its own section.
        assert all(w.startswith("w" + section) or w in ("Sentence",) or w.rstrip(".").isdigit()
                   for w in p.text.split()), p
        assert words(p.text) <= MAX
    assert [p.index for p in passages] == list(range(len(passages)))
    assert cut(Source("S1", "t", "/x/t.odt", blocks)) == passages      # deterministic
    big = [p for p in passages if p.heading == "Section 5"]
    assert len(big) >= 2 and all(words(p.text) >= 70 for p in big)


def test_a_long_paragraph_is_cut_between_sentences_and_a_small_table_kept_whole():
    sentences = " ".join("Sentence number %d has exactly seven words." % i for i in range(80))
    table = "\n".join("cell %d | value %d | note" % (i, i) for i in range(40))   # ~240 words
    passages = cut(Source("S1", "t", "", [para(sentences), Block("table", table)]))
    assert all(p.text.endswith("words.") for p in passages[:-1])
    assert all(words(p.text) <= MAX for p in passages[:-1])
    assert passages[-1].text == table


def test_pages_show_in_the_location():
    lib = Library()
    lib.add("r", "/home/u/report.pdf", [para(filler("a", 60), "Intro", 1),
                                        para(filler("b", 60), "Intro", 2),
                                        para(filler("c", 60), "Outlook", 3)])
    first = lib.passages("S1")[0]
    assert first.location() == "report.pdf, \u00a7 Intro, p. 1"
    assert lib.passages("S1")[-1].location() == "report.pdf, \u00a7 Outlook, p. 3"
    lib.add("scan", "/home/u/scan.pdf", [para("Words without a heading.", "", 7)])
    assert lib.passages("S2")[0].location() == "scan.pdf, p. 7"
    assert Passage("S2", 0, "x", name="notes").location() == "notes"
    # A short passage runs on over a page break, and says so.
    lib.add("brief", "/home/u/brief.pdf", [para("Dear reader,", "", 1),
                                           para("the figures follow.", "", 2)])
    assert [p.location() for p in lib.passages("S3")] == ["brief.pdf, pp. 1\u20132"]


# ---------------------------------------------------------------- read

def test_read_gives_the_neighbours_and_stops_at_the_edges():
    lib = library()
    middle = lib.read("S1", 1, neighbours=1)
    assert [p.index for p in middle] == [0, 1, 2]
    assert [p.index for p in lib.read("S1", 0, neighbours=1)] == [0, 1]
    assert [p.index for p in lib.read("S1", 2, neighbours=5)] == [0, 1, 2]
    assert [p.index for p in lib.read("S1", 2, neighbours=0)] == [2]
    with pytest.raises(IndexError):
        lib.read("S1", 3)
    with pytest.raises(IndexError):
        lib.read("S1", -1)
    with pytest.raises(KeyError):
        lib.read("S7", 0)


# ---------------------------------------------------------------- state

def test_the_state_keeps_sources_and_keys_but_no_text():
    lib = library()
    lib.add("Open doc", "", [para("Unsaved text about otters.")])
    shown = lib.search("glacier")[0][0]
    assert lib.key(shown) == 1 and lib.key(shown) == 1
    state = lib.to_state()
    assert "glacier" not in repr(state) and "otters" not in repr(state)
    back = Library.from_state(state)
    assert [(s.id, s.title, s.path, s.stamp) for s in back.sources()] == [
        ("S1", "Annual report", "/tmp/annual.odt", (100, 1.5)), ("S2", "Open doc", "", None)]
    assert not back.sources()[0].loaded and back.search("glacier") == []
    back.fill("S1", CORPUS, (100, 1.5))
    assert back.cited(1).text == shown.text
    assert back.search("glacier")[0][0].text == shown.text
    # Ids are never reused, also after a restore and a removal.
    assert back.remove("S2") and not back.remove("S2")
    assert back.add("New", "/tmp/new.txt", [para("x y z")]).id == "S3"
    assert Library.from_state("garbage").sources() == []
    assert Library.from_state({"sources": [{"title": "no id"}]}).sources() == []


def test_adding_the_same_file_again_reads_it_again_under_its_id():
    lib = library()
    again = lib.add("Annual report", "/tmp/annual.odt", [para("Only otters now.")], (5, 2.0))
    assert again.id == "S1" and len(lib.sources()) == 1
    assert lib.search("glacier") == [] and lib.search("otters")[0][0].source_id == "S1"


def test_whole_fits_small_sources_only():
    lib = library()
    assert lib.whole_fits(100000)
    assert not lib.whole_fits(200)
    assert not Library().whole_fits(100000)


def test_a_removed_source_leaves_its_cited_passages_named():
    lib = library()
    lib.add("Other", "/tmp/other.txt", [para("Otters swim in the river.")])
    shown = lib.search("otters")[0][0]
    key = lib.key(shown)
    assert lib.remove("S2")
    assert lib.search("otters") == [] and [s.id for s in lib.sources()] == ["S1"]
    assert lib.cited(key) == shown and lib.keys()[key].location() == "other.txt"
    assert lib.source("annual.odt").id == "S1" and lib.source("annual report").id == "S1"
    assert lib.source("other.txt") is None


def test_a_long_japanese_paragraph_is_cut_whole_sentences_and_all_kept():
    sentence = "\u6771\u4eac\u90fd\u306e\u4eba\u53e3\u306f\u4eca\u5e74\u3082\u5897\u3048" \
               "\u307e\u3057\u305f\u3002"                         # 16 characters: 8 words
    text = sentence * 60
    passages = cut(Source("S1", "t", "", [para(text)]))
    assert len(passages) >= 3
    assert "".join(p.text for p in passages) == text
    assert all(p.text.endswith("\u3002") and words(p.text) <= MAX for p in passages)


def _report(preface):
    out = []
    if preface:
        out.append(Block("heading", "Preface", "Preface", None, 1))
        out.append(Block("paragraph", "A new preface added later. " * 30, "Preface"))
    out.append(Block("heading", "Methods", "Methods", None, 1))
    out.append(Block("paragraph", "The river was four degrees at the northern gauge. " * 10,
                     "Methods"))
    out.append(Block("heading", "Results", "Results", None, 1))
    out.append(Block("paragraph", "The harbour froze twice that winter. " * 10, "Results"))
    return out


def test_a_key_never_names_other_text_after_its_source_is_read_again():
    lib = Library()
    lib.add("r.odt", "/x/r.odt", _report(False), (1, 1.0))
    river = lib.search("river gauge", k=1)[0][0]
    key = lib.key(river)
    assert "river" in lib.cited(key).text
    state = lib.to_state()
    # The file gains a preface: passage 0 is now other text. In the same chat...
    lib.fill("S1", _report(True), (2, 2.0))
    assert lib.cited(key) is None and key not in lib.keys()
    # ...and in a chat opened again from its state.
    again = Library.from_state(state)
    again.fill("S1", _report(True), (2, 2.0))
    assert again.cited(key) is None
    # The river passage, where it is now, gets a new number, never the old one again.
    moved = [p for p in lib.passages("S1") if "river" in p.text][0]
    assert lib.key(moved) == key + 1 and lib.key(moved) == key + 1
    assert again.key([p for p in again.passages("S1") if "river" in p.text][0]) == key + 1
    # Read again unchanged, the keys stay.
    lib.fill("S1", _report(True), (3, 3.0))
    assert "river" in lib.cited(key + 1).text

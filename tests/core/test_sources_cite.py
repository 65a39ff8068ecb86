"""The sources' tools and citations: budgets, keys, numbering, quotes checked."""

from marginalia.chat.tools import ToolRegistry
from marginalia.sources import tools
from marginalia.sources.citations import Citation, check_quotes, cite, footnote, notice, number
from marginalia.sources.index import Library
from marginalia.sources.model import Block

REPORT = [
    Block("heading", "Results", "", None, 1),
    Block("paragraph", "Net revenue rose by 12 % in 2024, the highest rise since the "
          "company\u2019s founding.\nCosts fell in the \u201cnorthern\u201d region, and the "
          "inter-\nnational office closed.", "Results", 3),
    Block("heading", "Outlook", "", None, 1),
    Block("paragraph", "The board expects slower growth next year.", "Outlook", 4),
]


def library():
    lib = Library()
    lib.add("Report", "/data/report.pdf", REPORT, (10, 1.0))
    lib.add("Notes", "", [Block("paragraph", " ".join("word%d" % i for i in range(600)))])
    return lib


def registry(lib, budget=tools.DEFAULT_BUDGET):
    reg = ToolRegistry()
    tools.register(reg, lib, budget)
    return reg


# ---------------------------------------------------------------- the tools

def test_search_answers_passages_under_keys_with_where_they_are():
    lib = library()
    result = registry(lib).call("search_sources", {"query": "revenue rise"})
    assert result.ok
    assert result.content.startswith(
        "[1] report.pdf, \u00a7 Results, p. 3 (source S1, passage 0)\nNet revenue rose")
    assert lib.cited(1).heading == "Results"
    # A passage keeps its key: read again, it is still [1]; the next one new is [2].
    read = registry(lib).call("read_source", {"source": "report.pdf", "passage": 0,
                                              "neighbours": 1}).content
    assert read.startswith("[1] report.pdf") and "\n\n[2] report.pdf, \u00a7 Outlook, p. 4" in read
    names = [s["function"]["name"] for s in registry(lib).schemas()]
    assert names == ["search_sources", "read_source"]
    assert "[3]" in tools.SEARCH_DESCRIPTION and "word for word" in tools.SEARCH_DESCRIPTION


def test_the_model_is_told_its_mistakes_in_words():
    lib = library()
    reg = registry(lib)
    assert "no source" in reg.call("read_source", {"source": "S9", "passage": 0}).content
    bad = reg.call("read_source", {"source": "S1", "passage": 7})
    assert not bad.ok and "passages 0 to 1" in bad.content
    assert reg.call("read_source", {"source": "S1", "passage": "1"}).content.startswith("[")
    assert "No passage" in reg.call("search_sources", {"query": "zebra"}).content
    assert not registry(Library()).call("search_sources", {"query": "x"}).ok


def test_answers_respect_the_budget_and_say_what_was_left_out():
    lib = library()
    for room in (90, 150, 300, 700, 2000, 5000):
        for call, args in (("search_sources", {"query": "word5 revenue word7 board"}),
                           ("read_source", {"source": "S1", "passage": 0, "neighbours": 3}),
                           ("read_source", {"source": "S2", "passage": 1})):
            content = registry(lib).call(call, args, limit=room).content
            assert len(content) <= room, (call, room, content)
            assert content.strip()
    # The registry's room is capped by the budget given at registration.
    capped = registry(lib, budget=300).call("read_source", {"source": "S2", "passage": 1},
                                            limit=100000).content
    assert len(capped) <= 300 and "cut to fit" in capped
    full = registry(lib).call("read_source", {"source": "S1", "passage": 0, "neighbours": 1},
                              limit=5000).content
    part = registry(lib).call("read_source", {"source": "S1", "passage": 0, "neighbours": 1},
                              limit=len(full) - 5).content
    assert "Outlook" in full and "Outlook" not in part
    assert part.startswith(full[:60]) and part.endswith("(1 more passage did not fit: read "
                                                        "with fewer neighbours)")


def test_whole_text_holds_every_passage_under_its_key():
    lib = library()
    whole = tools.whole_text(lib)
    assert whole.count("\n\n[") == len(lib.passages("S1")) + len(lib.passages("S2")) - 1
    assert "the board expects" in whole.casefold()


# ---------------------------------------------------------------- numbering

def test_citations_are_numbered_in_order_of_first_use():
    lib = library()
    for passage in lib.passages("S2") + lib.passages("S1"):
        lib.key(passage)          # shown in that order: S2's first, then the report's
    keys = lib.keys()
    report0, report1 = lib.passages("S1")
    k0, k1 = lib.key(report0), lib.key(report1)
    assert (k0, k1) == (len(keys) - 1, len(keys))
    answer = "Growth slows [%d]. Revenue rose [%d], as said [%d]; see [%d, %d] and [99]." % (
        k1, k0, k1, k0, k1)
    done = number(answer, keys)
    assert done.text == "Growth slows [1]. Revenue rose [2], as said [1]; see [2, 1] and [99]."
    assert [c.line() for c in done.citations] == ["[1] report.pdf, \u00a7 Outlook, p. 4",
                                                  "[2] report.pdf, \u00a7 Results, p. 3"]
    assert done.unknown == [99] and done.renumbered(k0) == 2
    # A markdown link's label is no citation.
    assert number("[1](http://x)", keys).citations == []


# ---------------------------------------------------------------- quotes

def test_a_quote_is_found_despite_quote_marks_case_and_line_breaks():
    lib = library()
    k = lib.key(lib.passages("S1")[0])
    answer = ("The report says \u201cnet revenue rose by 12 %% in 2024, the highest rise since "
              "the company's founding\u201d [%d]. It adds that \"costs fell in the 'northern' "
              "region, and the international office closed.\" [%d]" % (k, k))
    checks = check_quotes(answer, lib)
    assert [c.found for c in checks] == [True, True]
    assert checks[0].passage.heading == "Results" and checks[0].key == k
    # An ellipsis stands for left-out words; the pieces must come in order.
    assert check_quotes("It said \u201cnet revenue rose \u2026 since the company's "
                        "founding\u201d [%d]." % k, lib)[0].found
    assert not check_quotes("It said \u201csince the company's founding \u2026 net revenue "
                            "rose\u201d [%d]." % k, lib)[0].found
    assert notice(checks) is None


def test_an_invented_quote_is_unverified_and_the_model_told():
    lib = library()
    k = lib.key(lib.passages("S1")[0])
    answer = ("Revenue \u201crose by 15 %% in 2024\u201d [%d]. The report.pdf file says "
              "\u201cthe board was pleased with growth\u201d. Critics call it \u201ca very "
              "strong year overall\u201d." % k)
    checks = check_quotes(answer, lib)
    # The third quote is attributed to nothing and found nowhere: not checked.
    assert [(c.quote, c.found, c.key) for c in checks] == [
        ("rose by 15 % in 2024", False, k), ("the board was pleased with growth", False, None)]
    assert checks[0].passage.heading == "Results"
    told = notice(checks)
    assert "\u201crose by 15 % in 2024\u201d" in told and "not in the sources" in told
    # Short quotations (terms, names) are not claims about the text.
    assert check_quotes("the \u201cnorthern\u201d region [%d]" % k, lib) == []


def test_quotes_in_german_and_japanese_marks_and_across_passages():
    lib = Library()
    first = " ".join("erste%d" % i for i in range(130)) + " Der Umsatz stieg"
    lib.add("Bericht", "/d/bericht.odt", [
        Block("paragraph", first, "Zahlen"),
        Block("paragraph", "im M\u00e4rz deutlich an.", "Zahlen"),
        Block("paragraph", "\u58f2\u4e0a\u306f\u4e09\u6708\u306b\u5927\u304d\u304f\u4f38"
              "\u3073\u307e\u3057\u305f\u3002", "\u6570\u5b57"),
    ])
    assert len(lib.passages("S1")) == 3
    checks = check_quotes("Laut bericht.odt: \u201eDer Umsatz stieg im M\u00e4rz deutlich "
                          "an\u201c. Und \u00abder Umsatz fiel im M\u00e4rz\u00bb, so "
                          "bericht.odt.", lib)
    assert [(c.found, c.passage and c.passage.index) for c in checks] == [(True, 0),
                                                                          (False, None)]
    japanese = check_quotes("\u5831\u544a\u306b\u3088\u308b\u3068\u300c\u58f2\u4e0a\u306f"
                            "\u4e09\u6708\u306b\u5927\u304d\u304f\u4f38\u3073\u305f\u300d"
                            "\u3002\u300c\u58f2\u4e0a\u306f\u4e09\u6708\u306b\u5927\u304d"
                            "\u304f\u843d\u3061\u305f\u300d [%d]" % lib.key(
                                lib.passages("S1")[2]), lib)
    # The first sentence (up to 。) cites nothing: its quotation is not checked.
    assert [(c.quote[-3:], c.found) for c in japanese] == [("\u304f\u843d\u3061\u305f"[-3:],
                                                            False)]
    lib.key(lib.passages("S1")[2])
    exact = check_quotes("\u300c\u58f2\u4e0a\u306f\u4e09\u6708\u306b\u5927\u304d\u304f"
                         "\u4f38\u3073\u307e\u3057\u305f\u300d [1]", lib)
    assert [(c.found, c.key) for c in exact] == [(True, 1)]


def test_footnotes_name_the_place_and_the_quoted_words():
    lib = library()
    k = lib.key(lib.passages("S1")[0])
    lib.key(lib.passages("S1")[1])
    numbered, checks = cite("Revenue \u201crose by 12 %% in 2024\u201d [%d]; growth slows "
                            "[%d]." % (k, k + 1), lib)
    first, second = numbered.citations
    assert footnote(first, checks) == ("report.pdf, \u00a7 Results, p. 3: "
                                       "\u201crose by 12 % in 2024\u201d")
    assert footnote(second, checks) == ("report.pdf, \u00a7 Outlook, p. 4: \u201cThe board "
                                        "expects slower growth next year.\u201d")
    long = footnote(Citation(1, 9, lib.passages("S2")[0]))
    assert long.endswith("\u2026\u201d") and len(long) < 240


def test_a_quote_must_stand_as_whole_words_and_an_ellipsis_may_not_span_the_source():
    lib = Library()
    far = " ".join("filler%d" % i for i in range(400))
    lib.add("Report", "/d/report.odt", [
        Block("paragraph", "Rents saw a 14% rise in rents last year. The results were not "
              "reviewed by the board.", "Rents"),
        Block("paragraph", far, "Appendix"),
        Block("paragraph", "The overall effect was significant in every district.", "Effect"),
    ])
    k = lib.key(lib.passages("S1")[0])

    def found(quote):
        return check_quotes("The report says \u201c%s\u201d [%d]." % (quote, k), lib)[0].found
    # Inside a longer number or word it is another claim.
    assert not found("4% rise in rents")
    assert not found("ents saw a 14% rise")
    assert found("a 14% rise in rents")
    # The pieces of an ellipsis stay near each other, not anywhere later in the source.
    assert found("rents saw a \u2026 rise in rents last year")
    assert not found("the results were not \u2026 significant in every district")
    assert found("rents last year \u2026 reviewed by the board")
    # The first piece's first place is too far from the second; a later one is near.
    assert found("the \u2026 effect was significant")

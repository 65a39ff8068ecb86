"""The sources' words for the index and the text quotes are compared on."""

from marginalia.sources.text import normalise, tokens


def test_tokens_fold_case_unicode_forms_and_plurals():
    assert tokens("Stra\u00dfe") == tokens("STRASSE") == ["strasse"]
    assert tokens("Bu\u0308ro B\u00fcro") == ["b\u00fcro", "b\u00fcro"]
    assert tokens("Companies' reports, the analysis; status") == [
        "company", "report", "the", "analysis", "status"]
    assert tokens("\uff21\uff22\uff23 snake_case 12.5") == ["abc", "snake", "case", "12", "5"]


def test_japanese_runs_give_their_characters_and_bigrams():
    assert tokens("\u6771\u4eac\u90fd") == ["\u6771", "\u4eac", "\u90fd", "\u6771\u4eac",
                                            "\u4eac\u90fd"]
    # Latin and Japanese in one run of word characters are split apart.
    assert tokens("PDF\u3092\u8aad\u3080") == ["pdf", "\u3092", "\u8aad", "\u3080",
                                               "\u3092\u8aad", "\u8aad\u3080"]


def test_normalise_makes_quotes_dashes_hyphens_and_breaks_equal_but_not_words():
    source = "The \u201cinter-\nnational\u201d  office\u2019s\nrole \u2013 in short"
    answer = "the \"international\" office's role - in short"
    assert normalise(source) == normalise(answer)
    assert normalise("the national office") != normalise("the international office")
    # A PDF's line break inside Japanese text is no space.
    assert normalise("\u6771\u4eac\n\u90fd") == "\u6771\u4eac\u90fd"
    assert normalise("a \u2026 b") == "a ... b"

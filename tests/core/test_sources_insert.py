"""Insert never attaches a source to a quotation it does not hold (citations.for_insert),
and says what it left out (cite_as.left_out)."""

from marginalia.sources import cite_as
from marginalia.sources.citations import for_insert
from marginalia.sources.index import Library
from marginalia.sources.model import Block

OTTERS = "The otters returned to the weir in March and stayed all summer."
HERONS = "Two herons nested in the alders by the mill race that spring."


def library():
    lib = Library()
    lib.add("Otters", "/d/otters.txt", [Block("paragraph", OTTERS)])
    lib.add("Herons", "/d/herons.txt", [Block("paragraph", HERONS)])
    lib.key(lib.passages("S1")[0])          # [1]
    lib.key(lib.passages("S2")[0])          # [2]
    return lib


def test_an_invented_quote_under_a_key_a_real_quote_also_uses_gets_no_note():
    answer = ("The report says \u201cthe otters returned to the weir\u201d [1]. It also says "
              "\u201cthe otters built a new dam in May\u201d [1].")
    prepared = for_insert(answer, library())
    # The real quote keeps its key and its note; the invented one loses its marker.
    assert prepared.text == ("The report says \u201cthe otters returned to the weir\u201d [1]. "
                             "It also says \u201cthe otters built a new dam in May\u201d.")
    assert list(prepared.notes) == [1]
    assert "the otters returned to the weir" in prepared.notes[1]
    assert "new dam" not in prepared.notes[1]
    assert prepared.unbacked == ["the otters built a new dam in May"]
    assert prepared.unknown == []


def test_a_quote_held_by_another_source_is_not_backed_by_the_key_beside_it():
    # The herons' words cited as the otters' source: that note would mislead.
    answer = "As one file puts it, \u201ctwo herons nested in the alders\u201d [1]."
    prepared = for_insert(answer, library())
    assert prepared.text == "As one file puts it, \u201ctwo herons nested in the alders\u201d."
    assert prepared.notes == {}
    assert prepared.unbacked == ["two herons nested in the alders"]


def test_a_made_up_key_is_left_out_and_a_key_in_code_is_code():
    answer = "Otters came back [1]. See also [42]. In code, `x[42]` stays.\n\n```\ny[7]\n```"
    prepared = for_insert(answer, library())
    assert prepared.text == ("Otters came back [1]. See also. In code, `x[42]` stays."
                             "\n\n```\ny[7]\n```")
    assert prepared.unknown == [42]
    assert list(prepared.notes) == [1]


def test_a_group_keeps_the_keys_that_hold_and_drops_the_rest():
    answer = ("Both came back \u201cthe otters returned to the weir\u201d [1, 2, 9]. "
              "Then \u201cthe herons left for the coast\u201d [2; 1].")
    prepared = for_insert(answer, library())
    # [9] names nothing; the second quote is in neither source: its marker's key goes,
    # and the group's first key after the quote is the one attributing it.
    assert prepared.unknown == [9]
    assert prepared.unbacked == ["the herons left for the coast"]
    assert "[1, 2]." in prepared.text and "\u201d [1]." in prepared.text
    assert sorted(prepared.notes) == [1, 2]


def test_an_answer_that_cites_truly_is_inserted_as_written():
    answer = ("\u201cThe otters returned to the weir in March\u201d [1], and "
              "\u201ctwo herons nested in the alders\u201d [2].")
    prepared = for_insert(answer, library())
    assert prepared.text == answer
    assert sorted(prepared.notes) == [1, 2]
    assert prepared.unbacked == [] and prepared.unknown == []
    assert cite_as.left_out(prepared.unbacked, prepared.unknown) is None


def test_what_was_left_out_is_said_in_one_plain_sentence_each():
    said = cite_as.left_out(["the otters built a new dam in May"], [42, 7])
    assert said == ("No note for \u201cthe otters built a new dam in May\u201d: no source "
                    "holds it word for word. Left out [42], [7]: no such source.")
    long = cite_as.left_out(["word " * 40], [])
    assert "\u2026\u201d" in long and len(long) < 100

"""The card's Keep out menu: its entries and their wording (pure)."""

from marginalia.ui import keepout_words as kw


def test_the_menu_offers_the_selections_action_then_the_passages_in_document_order():
    marks = [("MarginaliaKeepOut1", 7, 9, "Later passage that runs on and on for a while"),
             ("MarginaliaKeepOut2", 2, 2, "Early one."),
             ("MarginaliaKeepOut3", None, None, "")]
    entries = kw.entries(marks, None)
    assert entries == [
        (kw.KEEP, "", "Keep out the selection"), ("", "", ""),
        (kw.SHOW, "MarginaliaKeepOut2", "Go to \u00b62 \u201cEarly one.\u201d"),
        (kw.SHOW, "MarginaliaKeepOut1",
         "Go to \u00b67\u20139 \u201cLater passage that runs\u2026\u201d"),
        (kw.SHOW, "MarginaliaKeepOut3", "Go to a marked passage")]
    inside = kw.entries(marks, "MarginaliaKeepOut1")
    assert inside[0] == (kw.LET_IN, "MarginaliaKeepOut1", "Let Marginalia in here")
    assert inside[1:] == entries[1:]
    assert kw.entries([], None) == [(kw.KEEP, "", "Keep out the selection")]


def test_passage_labels_stay_short_whole_words_where_there_are_any():
    label = kw.label(123, 456, "A very long first paragraph " * 10)
    # The popup opens below a button of a ~180 px wide panel: about 40 characters at most.
    assert len(label) <= 40 and label.startswith("Go to \u00b6123\u2013456 \u201c")
    assert label.endswith("first\u2026\u201d")
    # One long word is cut where it must be.
    assert kw.label(1, 1, "x" * 60) == "Go to \u00b61 \u201c%s\u2026\u201d" % ("x" * 25)
    assert kw.label(4, 4, "  Short   text ") == "Go to \u00b64 \u201cShort text\u201d"


def test_the_sentence_after_showing_a_passage_fits_the_status_line():
    assert kw.shown(3, 5) == "\u00b63\u20135 selected: kept out."
    assert kw.shown(None, None) == "A marked passage selected: kept out."

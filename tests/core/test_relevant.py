"""document.relevant: the lines of a long document a request is about (pure)."""

from marginalia.document import relevant
from marginalia.eval.long_doc import LONG, LONG_TARGET

PARAS = [relevant.Paragraph(i + 1, text, style.startswith("Heading"))
         for i, (style, text, _kept) in enumerate(LONG)]


def test_the_paragraph_holding_the_rare_words_of_the_request_is_found():
    assert relevant.pick(PARAS, "Change the invoice number for the harbour contract from "
                                "4471 to 4472.") == [LONG_TARGET + 1]


def test_a_named_heading_brings_the_first_lines_of_its_section():
    found = relevant.pick(PARAS, "In the Week 4 section, add a sentence at the end.")
    assert found[0] == 31 and PARAS[30].text == "Week 4"
    assert found == list(range(31, 31 + 1 + relevant.SECTION))


def test_words_found_everywhere_or_nowhere_pick_little_or_nothing():
    assert relevant.pick(PARAS, "Make it shorter, please.") == []
    assert relevant.pick(PARAS, "") == [] and relevant.pick([], "invoice") == []
    # "week" is in every week's heading: tied hits bring no section.
    assert len(relevant.pick(PARAS, "Fix the misspelled day of the week")) <= relevant.TOP


def test_a_word_most_paragraphs_hold_is_no_hit():
    paras = [relevant.Paragraph(n, "The team %d met the north office." % n, False)
             for n in range(1, 40)]
    assert relevant.pick(paras, "Change the invoice for the harbour contract") == []
    assert relevant.pick(paras, "What did team 17 do?") == [17]

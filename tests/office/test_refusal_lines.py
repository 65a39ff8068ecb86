"""A refused call's line in the panel comes from the refusal's phrase, not its English.

The real tools, in a real document, refuse as a small model's calls make them (issue 38:
refusals reach the panel as data). Each result carries a phrase; the panel's line is
that phrase in the user's language, with the tool's own words for what it could not do;
the model still reads its English sentence with the way on.
"""

import pytest

from marginalia.i18n import catalog
from marginalia.i18n.phrase import Phrase
from marginalia.ui.tool_words import tool_line
from tests.support.writer import one, texts

NOTHING = " \u2014 nothing changed"
CASES = [
    ("replace_selection", {"markdown": "x"},
     "Couldn't replace the selection: nothing is selected", "Nothing is selected"),
    ("set_paragraph_style", {"start": 2, "end": 2, "style": "Fancy"},
     "Couldn't set the paragraph style: the document has no paragraph style "
     "\u201cFancy\u201d" + NOTHING, "no paragraph style 'Fancy'"),
    ("set_paragraph_style", {"start": 2, "end": 2, "style": "Bold"},
     "Couldn't set the paragraph style: the model's request did not fit" + NOTHING,
     "call format_text"),
    ("delete_paragraphs", {"start": 40, "end": 40},
     "Couldn't delete the paragraphs: the model's request did not fit" + NOTHING,
     "out of range"),
    ("delete_paragraphs", {"start": 3, "end": 3, "expect": "Costs rose"},
     "Couldn't delete the paragraphs: paragraph 3 no longer reads as the model expected"
     + NOTHING, "does not begin with"),
    ("delete_paragraphs", {"start": 3},
     "Couldn't delete the paragraphs: the model's request was incomplete" + NOTHING,
     "bad arguments"),
    ("format_text", {"search": "Sales"},
     "Couldn't format the text: the model's request did not fit" + NOTHING,
     "Give at least one of"),
]


@pytest.mark.parametrize("name,arguments,line,for_the_model", CASES,
                         ids=[c[0] + "-" + c[3][:12] for c in CASES])
def test_a_refusal_reads_in_the_users_words(office, doc, name, arguments, line, for_the_model):
    from marginalia.document.tool_specs import spec
    before = texts(doc)
    result = one(office, doc, name, **arguments)
    assert not result["ok"] and for_the_model in result["content"]
    assert result["phrase"] is not None, "a refusal without a phrase: %r" % result["summary"]
    shown = tool_line(name, False, result["summary"], result["phrase"])
    assert shown == line
    # The tool's own words fill "Couldn't …", not "do that".
    assert spec(name).words.action in Phrase.from_dict(result["phrase"]).english() or \
        not line.startswith("Couldn't")
    assert texts(doc) == before
    # In another language the whole line is that language's (the pseudo-locale shows it).
    assert catalog.install(catalog.PSEUDO, "/nonexistent") == catalog.PSEUDO
    try:
        translated = tool_line(name, False, result["summary"], result["phrase"])
    finally:
        catalog.install("en", "/nonexistent")
    assert translated != line and translated.startswith("[")

"""Sources by mention: what "@" offers in the chat box and what choosing an entry writes."""

from marginalia.ui import mentions

SOURCES = [("S1", "report.pdf"), ("S2", "notes.txt")]


def test_only_an_at_sign_being_typed_at_the_end_offers_anything():
    assert mentions.typed_word("see @rep") == "rep"
    assert mentions.typed_word("@") == ""
    assert mentions.typed_word("mail me at a@b.org") is None      # inside a word
    assert mentions.typed_word("see @report.pdf and") is None     # already typed on
    assert mentions.matches(SOURCES, ["Draft.odt"], "no mention") == []


def test_sources_then_open_documents_not_yet_sources():
    found = mentions.matches(SOURCES, ["Draft.odt", "report.pdf"], "compare @")
    assert [m.label for m in found] == ["@report.pdf  (source S1)", "@notes.txt  (source S2)",
                                        "@Draft.odt  (open document: add it)"]
    assert found[2].key == mentions.DOCUMENT_KEY + "0"
    # Names starting with the word come before names holding it.
    found = mentions.matches(SOURCES, ["Port notes.odt"], "@port")
    assert [mentions.name_of(m.label) for m in found] == ["Port notes.odt", "report.pdf"]


def test_choosing_an_entry_completes_the_mention():
    assert mentions.completion("what does @rep", "report.pdf") == "what does @report.pdf "
    assert mentions.name_of("@My draft.odt  (open document: add it)") == "My draft.odt"

"""Insert's citation styles in a real office: endnotes, or a sources list after the answer.

The Sources menu sets citations_as (sources.cite_as); sources.insert takes it as
the panel's Insert does. Footnotes are tested with the rest in test_sources.py.
"""

from tests.office.test_sources import _turn
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response

NOTE = "The otters returned to the weir in March."


def _cited_chat(office, doc, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Field notes\n\n%s\n" % NOTE, encoding="utf-8")
    assert office.job("sources.add", doc, path=str(path))["id"] == "S1"
    script = [tool_calls_response([("c1", "search_sources", {"query": "otters"})]),
              text_response("The otters came back \u201creturned to the weir in March\u201d [1].")]
    with ScriptedServer(script) as server:
        _turn(office, doc, server, "When did the otters come back?")


def test_endnotes_and_a_sources_list(office, tmp_path):
    doc = office.new_writer()
    try:
        _cited_chat(office, doc, tmp_path)
        assert office.job("sources.insert", doc, citations_as="endnotes")["made"] == 1
        assert doc.getEndnotes().getCount() == 1 and doc.getFootnotes().getCount() == 0
        assert "notes.txt" in doc.getEndnotes().getByIndex(0).getString()
        assert "[1]" not in doc.getText().getString()     # the key became the endnote

        doc.getText().setString("")
        assert office.job("sources.insert", doc, citations_as="list")["made"] == 3
        assert doc.getEndnotes().getCount() == 0 and doc.getFootnotes().getCount() == 0
        paragraphs = [p for p in doc.getText().getString().replace("\r", "\n").split("\n") if p]
        assert paragraphs[0].endswith("[1].")             # the key stays as written
        assert paragraphs[1] == "Sources"
        assert paragraphs[2].startswith("[1] notes.txt") and "returned to the weir" in paragraphs[2]
    finally:
        office.close(doc)


def test_the_setting_is_kept_and_read_by_insert(office, tmp_path):
    doc = office.new_writer()
    try:
        office.job("settings.save", citations_as="endnotes")
        assert office.job("settings.load")["citations_as"] == "endnotes"
        _cited_chat(office, doc, tmp_path)
        assert office.job("sources.insert", doc)["made"] == 1
        assert doc.getEndnotes().getCount() == 1
    finally:
        office.job("settings.save", citations_as="footnotes")
        office.close(doc)

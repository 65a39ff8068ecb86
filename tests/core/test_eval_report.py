"""The eval's scorecard and its reading of documents, without an office."""

import json
import re
import zipfile

from marginalia.eval import odf, report
from marginalia.eval.report import Card, Outcome

NS = " ".join('xmlns:%s="%s"' % item for item in sorted(odf.NS.items()))

# What LibreOffice writes for a tracked replacement, a comment, a link, a list, a table, spaces.
SAVED = ("""<office:document-content %s><office:automatic-styles>
<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Heading_20_2"/>
<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/>
</style:style></office:automatic-styles><office:body><office:text>
<text:tracked-changes><text:changed-region text:id="ct1"><text:deletion><office:change-info>
<dc:creator>AI</dc:creator></office:change-info><text:p>recieve</text:p></text:deletion>
</text:changed-region><text:changed-region text:id="ct2"><text:insertion/></text:changed-region>
</text:tracked-changes>
<text:h text:style-name="P1" text:outline-level="2">Costs</text:h>
<text:p text:style-name="Text_20_body">We <text:change text:change-id="ct1"/><text:change-start
 text:change-id="ct2"/>receive<text:change-end text:change-id="ct2"/> it<text:s text:c="2"/>now.
<office:annotation><dc:creator>AI</dc:creator><dc:date>2026</dc:date><text:p>Check
 this</text:p></office:annotation>Really <text:span text:style-name="T1">bold</text:span>.
<text:a xlink:type="simple" xlink:href="http://example.com/">The <text:span
 text:style-name="T1">site</text:span></text:a>.</text:p>
<text:list><text:list-item><text:p>One</text:p></text:list-item><text:list-item><text:list>
<text:list-item><text:p>Nested</text:p></text:list-item></text:list></text:list-item></text:list>
<table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>Fruit</text:p>
</table:table-cell><table:table-cell><text:p>Price</text:p></table:table-cell></table:table-row>
</table:table-header-rows><table:table-row><table:table-cell><text:p>Apples</text:p>
</table:table-cell><table:table-cell><text:p>3</text:p></table:table-cell></table:table-row>
</table:table></office:text></office:body></office:document-content>""" % NS).encode()


def test_reads_what_libreoffice_saves():
    doc = odf.parse_content(SAVED)
    kinds = [b.kind for b in doc.blocks]
    assert kinds == ["heading", "paragraph", "item", "item", "table"]
    heading, para = doc.blocks[0], doc.blocks[1]
    assert (heading.style, heading.level) == ("Heading 2", 2)
    assert para.text.startswith("We receive it  now.") and "Check" not in para.text
    assert para.bold == ["bold", "site"] and para.style == "Text body"
    assert para.links == [("The site", "http://example.com/")] and para.text.endswith("site.")
    assert [(c.text, c.block) for c in doc.comments] == [("Check\n this", 1)]
    assert doc.tracked == 2 and doc.tracked_kinds == ["deletion", "insertion"]
    assert doc.blocks[4].rows == [["Fruit", "Price"], ["Apples", "3"]]


def test_written_odt_is_a_package_that_reads_back(tmp_path):
    path = str(tmp_path / "s.odt")
    odf.write_odt(path, [("Heading 1", "Title", False), ("Text body", "A **b** *i* c", True)])
    with zipfile.ZipFile(path) as package:
        first = package.infolist()[0]
        assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
        assert "Heading_20_1" in package.read("styles.xml").decode()
    doc = odf.read_odt(path)
    assert [(b.kind, b.text) for b in doc.blocks] == [("heading", "Title"),
                                                      ("paragraph", "A b i c")]
    assert doc.blocks[1].bold == ["b"] and doc.blocks[1].italic == ["i"]
    assert doc.blocks[1].bookmarks == ["MarginaliaKeepOut1_1"]


def test_tally_counts_each_turns_last_usage_and_every_tool_call():
    turns = [[{"type": "usage", "prompt_tokens": 100, "completion_tokens": 5},
              {"type": "tool_call", "name": "read_document"},
              {"type": "usage", "prompt_tokens": 250, "completion_tokens": 12},
              {"type": "text", "text": "Done"}, {"type": "done"}],
             [{"type": "tool_call", "name": "x"}, {"type": "tool_call", "name": "y"},
              {"type": "usage", "prompt_tokens": 50, "completion_tokens": 3},
              {"type": "text", "text": "."}, {"type": "error", "message": "Too many rounds."},
              {"type": "error", "message": "later"}]]
    t = report.tally(turns)
    assert (t.prompt_tokens, t.completion_tokens, t.rounds) == (300, 15, 3)
    assert t.answer == "Done\n." and t.last_answer == "." and t.error == "Too many rounds."


OUTCOMES = [Outcome("fix_spelling", "Fix", "direct", True, "", 3.25, 1000, 40, 2),
            Outcome("to_table", "Table", "direct", False, "no table | was made", 5.0, 900, 60, 1)]
META = {"model": "qwen", "endpoint": "http://h/v1", "date": "2026-01-01 10:00"}


def test_totals_and_tokens_per_passed_task():
    t = report.totals(OUTCOMES)
    assert (t["tasks"], t["passed"], t["score"]) == (2, 1, 50.0)
    assert t["tokens_per_pass"] == 2000 and t["seconds"] == 8.2
    assert report.totals([Outcome("a", "A", "direct", False)])["tokens_per_pass"] is None
    assert report.totals([])["score"] == 0.0


def test_markdown_is_a_table_with_an_escaped_reason():
    text = report.as_markdown([Card("new", OUTCOMES)], META)
    assert "**1 of 2 tasks passed (50.0%)**" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(rows) == 3
    assert rows[2] == "| to_table | direct | FAIL | 5.0 | 900 | 60 | 1 |  | no table \\| was made |"
    assert all(len(re.split(r"(?<!\\)\|", row)) == 11 for row in rows)  # 9 cells


def test_json_round_trips():
    data = json.loads(report.as_json([Card("new", OUTCOMES)], META))
    assert data["meta"] == META and data["totals"]["passed"] == 1
    assert data["tasks"][1]["reason"] == "no table | was made"
    assert set(data["tasks"][0]) == {"name", "title", "mode", "passed", "reason", "seconds",
                                     "prompt_tokens", "completion_tokens", "rounds", "calls"}


def test_console_lines():
    assert report.console_line(OUTCOMES[0]).startswith("ok   fix_spelling")
    assert report.console_line(OUTCOMES[1]).endswith("  no table | was made")
    assert report.console_total(OUTCOMES).startswith("1 of 2 tasks passed (50.0%)")


def test_a_failure_without_tool_calls_says_what_the_model_answered():
    printed = report.Tally(answer='{{"name": "replace_text", "arguments": {"search": "x"}}}')
    assert report.explained("x is still there", printed) == (
        "x is still there (no tool called; it answered "
        "\u201c{{\"name\": \"replace_text\", \"arguments\": {\"search\": \"x\"}}}\u201d)")
    assert report.explained("r", report.Tally(rounds=1, answer="Done.")) == "r"
    assert report.explained("r", report.Tally(answer="  ")) == "r"
    long = report.explained("r", report.Tally(answer="word " * 40))
    assert long.endswith("\u2026\u201d)") and len(long) < 100


def test_tally_lists_the_calls_in_order_with_the_failed_ones_marked():
    turns = [[{"type": "tool_call", "name": "read_document"},
              {"type": "tool_result", "name": "read_document", "ok": True},
              {"type": "tool_call", "name": "replace_text"},
              {"type": "tool_result", "name": "replace_text", "ok": False}],
             [{"type": "tool_result", "name": "replace_text", "ok": True}]]
    counted = report.tally(turns)
    assert counted.calls == ["read_document", "replace_text (failed)", "replace_text"]
    outcome = Outcome("t", "T", "direct", False, "r", calls=counted.calls)
    assert "| read_document, replace_text (failed), replace_text | r |" in report.as_markdown(
        [Card("old", [outcome])], {})

"""Two protocols in one eval run: the arguments that ask for them and the report holding
both scorecards side by side (no office)."""

import json
import os
import re

import pytest

from marginalia.cli import eval as cli_eval
from marginalia.cli import headless
from marginalia.eval import report
from marginalia.eval.report import Card, Outcome

NEW = [Outcome("fix_spelling", "Fix", "direct", True, "", 10.0, 1000, 40, 2),
       Outcome("to_table", "Table", "direct", False, "no table", 5.0, 900, 60, 1),
       Outcome("comments_mode", "Propose", "comments", True, "", 4.0, 500, 20, 1)]
OLD = [Outcome("fix_spelling", "Fix", "direct", False, "\u201crecieve\u201d is still there",
               20.0, 3000, 90, 4),
       Outcome("to_table", "Table", "direct", True, "", 9.0, 1500, 100, 2),
       Outcome("comments_mode", "Propose", "comments", False, "a | b", 6.0, 800, 10, 1)]
CARDS = [Card("new", NEW), Card("old", OLD)]
META = {"model": "qwen", "endpoint": "http://h/v1", "date": "2026-01-01 10:00"}


@pytest.fixture
def oxt(tmp_path):
    path = tmp_path / "m.oxt"
    path.write_bytes(b"PK")
    return str(path)


def _args(oxt, *more):
    return cli_eval.parse_args(["--endpoint", "http://h/v1", "--model", "m", "--oxt", oxt]
                               + list(more))


def test_protocol_defaults_to_new_and_both_runs_new_then_old(oxt):
    assert _args(oxt).protocols == ["new"]
    assert _args(oxt, "--protocol", "old").protocols == ["old"]
    assert _args(oxt, "--protocol", "both").protocols == ["new", "old"]
    assert report.PROTOCOLS == {"new": "rewrite", "old": "tools"}


def test_each_protocol_sends_its_edit_protocol_with_the_same_other_settings(oxt, tmp_path,
                                                                           monkeypatch):
    monkeypatch.delenv("MARGINALIA_API_KEY", raising=False)
    args = _args(oxt, "--protocol", "both", "--out", "r", "--temperature", "0.5")
    new, old = cli_eval.protocol_runs(args, str(tmp_path))
    assert (new.settings.pop("edit_protocol"), old.settings.pop("edit_protocol")) == (
        "rewrite", "tools")
    assert new.settings == old.settings == {
        "model": "m", "api_key": "", "endpoint": "http://h/v1", "keep_chats": False,
        "temperature": 0.5}
    assert (new.card, old.card) == (Card("new", []), Card("old", []))
    assert new.transcripts == os.path.join("r", "transcripts", "new")
    assert old.transcripts == os.path.join("r", "transcripts", "old")
    assert os.path.isdir(new.work) and new.work != old.work
    alone, = cli_eval.protocol_runs(_args(oxt, "--protocol", "old", "--out", "r"),
                                    str(tmp_path / "2"))
    assert alone.settings["edit_protocol"] == "tools"
    assert alone.transcripts == os.path.join("r", "transcripts")


def test_an_unknown_protocol_is_a_usage_error(oxt):
    with pytest.raises(headless.UsageError) as raised:
        _args(oxt, "--protocol", "rewrite")
    assert "invalid choice: 'rewrite'" in str(raised.value)


def test_totals_count_tokens_and_seconds_per_passed_task():
    t = report.totals(NEW)
    assert (t["passed"], t["score"]) == (2, 66.7)
    assert t["tokens_per_pass"] == (1040 + 960 + 520) // 2
    assert t["seconds_per_pass"] == 9.5
    assert report.totals(OLD[:1])["seconds_per_pass"] is None


def test_json_of_one_protocol_keeps_the_earlier_shape_with_the_protocol_named():
    data = json.loads(report.as_json([Card("old", OLD)], META))
    assert list(data) == ["protocol", "edit_protocol", "meta", "totals", "tasks"]
    assert (data["protocol"], data["edit_protocol"]) == ("old", "tools")
    assert data["totals"]["passed"] == 1 and len(data["tasks"]) == 3


def test_json_of_both_holds_each_protocols_scorecard():
    data = json.loads(report.as_json(CARDS, META))
    assert list(data) == ["protocol", "meta", "scorecards"]
    assert data["protocol"] == "both" and data["meta"] == META
    new, old = data["scorecards"]
    assert (new["protocol"], new["edit_protocol"], old["protocol"], old["edit_protocol"]) == (
        "new", "rewrite", "old", "tools")
    assert new["totals"]["passed"] == 2 and old["totals"]["passed"] == 1
    assert old["totals"]["tokens_per_pass"] == 5500 and old["totals"]["seconds_per_pass"] == 35.0
    assert [t["name"] for t in old["tasks"]] == ["fix_spelling", "to_table", "comments_mode"]
    assert old["tasks"][0]["reason"] == "\u201crecieve\u201d is still there"


def _rows(text, first_cell):
    return [line for line in text.splitlines() if line.startswith("| %s " % first_cell)]


def test_markdown_of_both_shows_totals_then_results_side_by_side_then_each_table():
    text = report.as_markdown(CARDS, META)
    assert "protocol new (edit_protocol \u201crewrite\u201d) and old (edit_protocol " \
           "\u201ctools\u201d)." in text
    assert _rows(text, "new (edit_protocol") == [
        "| new (edit_protocol \u201crewrite\u201d) | 2 of 3 | 66.7% | 1260 | 9.5 | 2400 | 120 "
        "| 19.0 |"]
    assert _rows(text, "old (edit_protocol")[0].startswith(
        "| old (edit_protocol \u201ctools\u201d) | 1 of 3 | 33.3% | 5500 | 35.0 |")
    assert _rows(text, "fix_spelling")[0] == (
        "| fix_spelling | direct | pass | FAIL | old: \u201crecieve\u201d is still there |")
    assert _rows(text, "comments_mode")[0] == (
        "| comments_mode | comments | pass | FAIL | old: a \\| b |")
    assert all(len(re.split(r"(?<!\\)\|", row)) == 7 for row in _rows(text, "to_table")[:1])
    # Then each protocol's own table, new first.
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections == ["## new (edit_protocol \u201crewrite\u201d)",
                        "## old (edit_protocol \u201ctools\u201d)"]
    assert len(_rows(text, "to_table")) == 3
    assert _rows(text, "to_table")[2].startswith("| to_table | direct | pass | 9.0 | 1500 |")


def test_a_task_one_protocol_did_not_run_shows_a_dash():
    text = report.as_markdown([Card("new", NEW), Card("old", OLD[:1])], META)
    assert _rows(text, "to_table")[0] == "| to_table | direct | FAIL | \u2013 | new: no table |"


def test_console_names_the_protocol_only_when_both_run():
    assert report.console_line(NEW[0]).startswith("ok   fix_spelling")
    assert report.console_line(OLD[0], "old").startswith("old FAIL fix_spelling ")
    assert report.console_line(NEW[0], "new").startswith("new ok   fix_spelling ")
    assert report.console_total(NEW, "new") == (
        "new: 2 of 3 tasks passed (66.7%) in 19.0 s; 2400 prompt + 120 completion tokens; "
        "1260 tokens and 9.5 s per passed task.")
    assert report.console_total(OLD[:1]).startswith("0 of 1 tasks passed (0.0%)")
    assert report.console_total(OLD[:1]).endswith("completion tokens.")

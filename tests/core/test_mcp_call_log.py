"""The outside agents' call log (mcp/call_log.py): what a Call may hold, the JSON Lines file
(round trip, cap, compaction, damage, threads, failures, privacy) and the options page line."""

import json
import logging
import os
import stat
import sys
import threading
import time

import pytest

from marginalia.i18n import catalog
from marginalia.i18n.pseudo import pseudo
from marginalia.mcp import call_log as cl
from marginalia.mcp.call_log import Call, CallLog

NOON = time.mktime((2026, 11, 26, 12, 0, 0, 0, 0, -1))      # local noon: no DST edge near


def call(n=0, **fields):
    values = dict(time=NOON + n, agent="Claude Code", tool="edit", outcome=cl.DONE,
                  token_name="Research agent", document="Report.odt")
    values.update(fields)
    return Call(**values)


def file_lines(path):
    with open(str(path), "rb") as handle:
        return handle.read().decode("utf-8", "replace").splitlines()


# ---------------------------------------------------------------- what a Call holds


def test_a_call_keeps_its_fields_and_nothing_can_be_added():
    c = call(outcome=cl.REFUSED, reason=cl.REASON_KEEP_OUT)
    assert (c.time, c.agent, c.token_name, c.tool, c.document, c.outcome, c.reason) == (
        NOON, "Claude Code", "Research agent", "edit", "Report.odt", "refused", "keep-out")
    # Arguments, results or text have no field to go in: not by keyword, not by position,
    # not afterwards.
    for extra in ({"arguments": {"text": "secret"}}, {"result": "the body"},
                  {"text": "the body"}, {"token": "abc"}):
        with pytest.raises(TypeError):
            call(**extra)
    with pytest.raises(TypeError):
        Call(NOON, "Claude Code", "edit", "done")               # keyword only
    with pytest.raises(AttributeError):
        c.document = "The whole document text"
    with pytest.raises(AttributeError):
        c.extra = "x"
    assert not hasattr(c, "__dict__")


def test_a_reason_is_a_code_never_a_sentence():
    assert call(reason="keep-out").reason == "keep-out"
    for sentence in ("The passage 'Our secret merger plan' is kept out.", "two words",
                     "x" * 41, "line\nbreak"):
        with pytest.raises(ValueError):
            call(outcome=cl.REFUSED, reason=sentence)


def test_wrong_values_are_refused():
    for bad in ({"outcome": "ok"}, {"time": float("nan")}, {"time": -1.0},
                {"time": 1e13}):
        with pytest.raises(ValueError):
            call(**bad)
    for bad in ({"time": "12:00"}, {"time": True}, {"agent": None}, {"tool": 3},
                {"document": b"Report"}):
        with pytest.raises(TypeError):
            call(**bad)


def test_a_long_odd_agent_name_is_cut_and_cleaned():
    odd = "Evil\n\tAgent\x00\x1b[31m\u202eedoC edualC\u2028" + "x" * 500 + "\ud800"
    c = call(agent=odd, document="Report\r\n.odt", tool="ed\x7fit")
    assert len(c.agent) == cl.TEXT_LIMIT and c.agent.endswith("\u2026")
    assert c.agent.startswith("Evil Agent [31medoC edualC x")
    for char in "\n\t\x00\x1b\u202e\u2028\ud800":
        assert char not in c.agent
    assert c.document == "Report .odt" and c.tool == "ed it"
    assert len(call(document="\u00e9" * 1000).document) == cl.TEXT_LIMIT
    assert call(agent="  Claude   Code ").agent == "Claude Code"


# ---------------------------------------------------------------- memory


def test_recent_is_newest_first_and_capped_at_the_limit():
    log = CallLog(None, limit=5)
    for n in range(12):
        log.add(call(n))
    assert len(log) == 5
    assert [c.time - NOON for c in log.recent()] == [11, 10, 9, 8, 7]
    assert [c.time - NOON for c in log.recent(2)] == [11, 10]
    assert log.recent(0) == []
    log.add(call(20, agent="Codex"))
    assert [c.agent for c in log.recent(agent="Codex")] == ["Codex"]
    log.clear()
    assert log.recent() == [] and len(log) == 0
    with pytest.raises(TypeError):
        log.add({"time": NOON, "agent": "x", "tool": "edit", "outcome": "done"})


# ---------------------------------------------------------------- the file


def test_round_trip_through_the_file(tmp_path):
    path = str(tmp_path / "calls.jsonl")
    log = CallLog(path)
    written = [call(0), call(1, agent="Zo\u00eb's agent \u2014 \u6f22\u5b57", document="",
                             token_name=""),
               call(2, tool=cl.READ_RESOURCE, outcome=cl.FAILED, reason=cl.REASON_ERROR)]
    for c in written:
        log.add(c)
    lines = file_lines(path)
    assert len(lines) == 3
    assert json.loads(lines[0]) == {"time": NOON, "agent": "Claude Code",
                                    "token_name": "Research agent", "tool": "edit",
                                    "document": "Report.odt", "outcome": "done", "reason": ""}
    # utf-8, not \u escapes: the file reads as the user would
    assert "Zo\u00eb" in lines[1] and "\u6f22\u5b57" in lines[1]
    again = CallLog(path)
    assert again.recent() == written[::-1]


def test_the_file_is_compacted_to_the_newest_calls(tmp_path):
    path = str(tmp_path / "calls.jsonl")
    log = CallLog(path, limit=10)
    for n in range(20):
        log.add(call(n))
    assert len(file_lines(path)) == 20          # not past 2N yet: only appended
    log.add(call(20))
    lines = file_lines(path)
    assert len(lines) == 10
    assert [json.loads(text)["time"] - NOON for text in lines] == list(range(11, 21))
    for n in range(21, 25):
        log.add(call(n))
    assert len(file_lines(path)) == 14
    assert [c.time - NOON for c in CallLog(path, limit=10).recent()] == list(
        range(24, 14, -1))
    assert not os.path.exists(path + ".tmp")


def test_damaged_lines_are_skipped(tmp_path):
    path = tmp_path / "calls.jsonl"
    good = [json.dumps(call(n).to_json()) for n in range(3)]
    path.write_bytes("\n".join([
        good[0],
        "not json at all",
        "",
        "[1, 2, 3]",
        json.dumps(dict(call(9).to_json(), time="noon")),           # a wrong type
        json.dumps(dict(call(9).to_json(), outcome="maybe")),       # not an outcome
        json.dumps({"agent": "no time", "tool": "edit", "outcome": "done"}),
        json.dumps(dict(call(9).to_json(), reason="A whole sentence here.")),
        good[1],
        json.dumps(dict(call(2).to_json(), later_field=1))[:-1] + ', "later": 1}',
        good[2][:25],                                               # cut off mid-write
    ]).encode("utf-8") + b"\n\xff\xfe garbage bytes\n" + good[2][:25].encode("utf-8"))
    log = CallLog(str(path))
    assert [c.time - NOON for c in log.recent()] == [2, 1, 0]      # the later field ignored
    # The next call does not glue itself to the cut-off line.
    log.add(call(7))
    assert json.loads(file_lines(path)[-1])["time"] == NOON + 7
    assert [c.time - NOON for c in CallLog(str(path)).recent()] == [7, 2, 1, 0]


def test_a_missing_file_or_folder_is_an_empty_log(tmp_path):
    path = tmp_path / "new" / "calls.jsonl"
    log = CallLog(str(path))
    assert log.recent() == []
    log.add(call(1))
    assert len(file_lines(path)) == 1
    log.clear()
    assert not path.exists() and log.recent() == []
    assert CallLog(str(path)).recent() == []


def test_an_overgrown_file_is_read_from_its_end_and_rewritten(tmp_path):
    path = tmp_path / "calls.jsonl"
    line = json.dumps(call(0).to_json()) + "\n"
    filler = "x" * 1000 + "\n"
    # Far more than 2N lines' worth in front of the last calls.
    path.write_text(filler * 200 + "".join(json.dumps(call(n).to_json()) + "\n"
                                           for n in range(1, 6)), encoding="utf-8")
    assert len(line) < 4096
    log = CallLog(str(path), limit=2)
    assert [c.time - NOON for c in log.recent()] == [5, 4]
    log.add(call(6))
    assert [json.loads(text)["time"] - NOON for text in file_lines(path)] == [5, 6]


def test_an_unwritable_path_does_not_raise(tmp_path, caplog):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    log = CallLog(str(blocker / "calls.jsonl"), limit=3)
    with caplog.at_level(logging.WARNING, logger="marginalia.mcp"):
        for n in range(10):                     # past 2N: compaction fails quietly too
            log.add(call(n))
        log.clear()
        log.add(call(11))
    assert [c.time - NOON for c in log.recent()] == [11]
    warnings = [r for r in caplog.records if r.name == "marginalia.mcp"
                and r.levelno == logging.WARNING and "cannot write" in r.getMessage()]
    assert len(warnings) == 1                   # once, not once a call
    assert "calls.jsonl" in warnings[0].getMessage()


def test_an_unreadable_path_is_an_empty_log(tmp_path):
    folder = tmp_path / "calls.jsonl"
    folder.mkdir()                              # a folder where the file should be
    log = CallLog(str(folder))
    assert log.recent() == []
    log.add(call(1))
    assert [c.time - NOON for c in log.recent()] == [1]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_the_file_is_private(tmp_path):
    path = tmp_path / "calls.jsonl"
    old = os.umask(0o022)
    try:
        log = CallLog(str(path), limit=2)
        log.add(call(1))
        assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o600
        for n in range(2, 7):                   # compacted: the new file is private too
            log.add(call(n))
        assert len(file_lines(path)) < 5
        assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o600
        os.chmod(str(path), 0o644)              # an older, wider file is narrowed
        log.add(call(8))
        assert stat.S_IMODE(os.stat(str(path)).st_mode) == 0o600
    finally:
        os.umask(old)


def test_threads_adding_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "calls.jsonl")
    threads, each = 6, 500
    log = CallLog(path, limit=threads * each)
    start = threading.Barrier(threads)

    def work(number):
        start.wait()
        for n in range(each):
            log.add(call(n, agent="agent %d" % number))

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    lines = file_lines(path)
    assert len(log) == len(lines) == threads * each
    kept = log.recent()
    assert {(c.agent, c.time) for c in kept} == {
        ("agent %d" % k, NOON + n) for k in range(threads) for n in range(each)}
    # The file holds them in the order memory does: reading it back gives the same list.
    assert CallLog(path, limit=threads * each).recent() == kept


def test_threads_and_compaction_agree(tmp_path):
    path = str(tmp_path / "calls.jsonl")
    log = CallLog(path, limit=50)

    def work(number):
        for n in range(500):
            log.add(call(n, agent="agent %d" % number))

    workers = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(log) == 50
    assert 50 <= len(file_lines(path)) <= 100
    assert CallLog(path, limit=50).recent() == log.recent()


# ---------------------------------------------------------------- the options page line


def test_the_line_of_a_call_today_shows_the_time():
    c = call(3 * 60 + 0.5, outcome=cl.REFUSED, reason=cl.REASON_SCOPE)
    assert cl.line(c, now=NOON + 3600) == (
        "12:03 \u00b7 Claude Code (Research agent) \u00b7 edit \u00b7 Report.odt "
        "\u00b7 refused")
    plain = call(0, token_name="", document="", tool=cl.READ_RESOURCE, outcome=cl.FAILED)
    assert cl.line(plain, now=NOON) == "12:00 \u00b7 Claude Code \u00b7 read resource " \
                                       "\u00b7 failed"


def test_the_line_of_an_older_call_shows_its_date_and_the_callers_clock():
    c = call(0)
    tomorrow = NOON + 24 * 3600
    assert cl.line(c, now=tomorrow).startswith("2026-11-26 12:00 \u00b7 Claude Code")
    seen = []

    def clock(moment):
        seen.append(moment.tm_hour)
        return "12.00 Uhr"

    text = cl.line(c, now=tomorrow, clock=clock, date=lambda m: "%d.%d." % (m.tm_mday,
                                                                            m.tm_mon))
    assert text.startswith("26.11. 12.00 Uhr \u00b7 ") and text.endswith(" \u00b7 done")
    assert seen == [12]
    assert cl.line(c, now=NOON + 11 * 3600, clock=clock).startswith("12.00 Uhr \u00b7 ")


def test_the_lines_words_follow_the_catalog():
    try:
        assert catalog.install(catalog.PSEUDO, "/nonexistent") == catalog.PSEUDO
        text = cl.line(call(0, tool=cl.READ_RESOURCE, outcome=cl.REFUSED), now=NOON)
        assert text.endswith(pseudo("read resource") + " \u00b7 Report.odt \u00b7 "
                             + pseudo("refused"))
        assert "Claude Code" in text                # names are not translated
    finally:
        catalog.install("en", "/nonexistent")

"""End to end: `python3 -m marginalia.cli.eval` in a real office against a scripted model.

One eval run of four tasks (one office start): scripted right answers pass,
a model that only talks fails with the checker's reason, tokens and rounds
come from the runner's events, and the report files are written and parse.
The scripts call the old protocol's tools, so runs that edit say --protocol old;
the run of both protocols has the new one only talk, which holds whatever its
tools become.
"""

import json
import os
import re
import subprocess
import sys

from marginalia.cli import headless
from marginalia.eval import catalog, odf
from marginalia.eval.task import h, p
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response, usage

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _eval(*args, timeout=300, corpus=None):
    env = dict(os.environ)
    if corpus:
        env["MARGINALIA_CORPUS"] = corpus
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "pythonpath"),
                                         os.path.join(ROOT, "vendor")])
    env.pop("MARGINALIA_API_KEY", None)
    return subprocess.run([sys.executable, "-m", "marginalia.cli.eval"] + list(args),
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=timeout)


def _spelling_fixed():
    """fix_spelling done right, in two calls at once (3600 + 25 tokens)."""
    return [tool_calls_response([
        ("c1", "replace_text", {"search": "recieve", "replacement": "receive"}),
        ("c2", "replace_text", {"search": "definately", "replacement": "definitely"})],
        usage=usage(1700, 20)), text_response("Fixed both.", usage=usage(1900, 5))]


def _script():
    """The model's answers, in the order the tasks ask (one request per round)."""
    return _spelling_fixed() + [
        # make_headings: a model that only says it did it
        text_response("I made the headings.", usage=usage(1650, 6)),
        # tracked_spelling: right, recorded as a tracked change
        tool_calls_response([("c3", "replace_text", {"search": "recieve",
                                                     "replacement": "receive"})]),
        text_response("Done."),
        # question_no_edit: answered, nothing touched
        text_response("Ada Brandt founded it, in 1987.", usage=usage(1660, 9)),
    ]


def test_eval_scores_scripted_answers_and_writes_the_report(tmp_path):
    out = str(tmp_path / "report")
    with ScriptedServer(_script()) as srv:
        done = _eval("--endpoint", srv.url, "--model", "test-model", "--out", out, "--only",
                     "fix_spelling", "make_headings", "tracked_spelling", "question_no_edit",
                     "--protocol", "old")
        sent = [r.json.get("temperature") for r in srv.chat_requests]
    # Pinned to 0 unless asked otherwise: two scorecards of one model compare.
    assert sent and set(sent) == {0.0}
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ok   fix_spelling")
    assert lines[1].startswith("FAIL make_headings")
    assert "3 of 4 tasks passed (75.0%)" in done.stdout
    data = json.loads(open(os.path.join(out, "eval.json"), encoding="utf-8").read())
    tasks = {t["name"]: t for t in data["tasks"]}
    assert [t["name"] for t in data["tasks"]] == ["fix_spelling", "make_headings",
                                                  "tracked_spelling", "question_no_edit"]
    assert tasks["fix_spelling"]["passed"] and tasks["fix_spelling"]["rounds"] == 2
    assert tasks["fix_spelling"]["calls"][-1] == "replace_text"
    kept = [json.loads(line) for line in open(os.path.join(out, "transcripts",
                                                           "make_headings.jsonl"))]
    assert [e["text"] for e in kept if e["type"] == "text"] == ["I made the headings."]
    assert (tasks["fix_spelling"]["prompt_tokens"],
            tasks["fix_spelling"]["completion_tokens"]) == (3600, 25)
    assert tasks["make_headings"]["reason"] == (
        "\u201cIntroduction\u201d is not a Heading 1 (style \u201cText body\u201d) "
        "(no tool called; it answered \u201cI made the headings.\u201d)")
    assert tasks["make_headings"]["rounds"] == 0
    assert tasks["tracked_spelling"]["passed"] and tasks["tracked_spelling"]["mode"] == "tracked"
    assert tasks["question_no_edit"]["passed"]
    assert data["totals"]["passed"] == 3 and data["meta"]["model"] == "test-model"
    assert (data["protocol"], data["edit_protocol"]) == ("old", "tools")
    assert data["meta"]["temperature"] == 0.0
    markdown = open(os.path.join(out, "eval.md"), encoding="utf-8").read()
    assert "| make_headings | direct | FAIL |" in markdown
    assert "**3 of 4 tasks passed (75.0%)**" in markdown


def test_wrong_edits_fail_with_the_reason(tmp_path):
    """Edits that land but are wrong: the kept-out passage refused, harm elsewhere caught."""
    script = [
        # keep_out: the model tries the kept-out paragraph (refused) and fixes one word
        tool_calls_response([("k1", "replace_text", {"search": "recieve teh",
                                                     "replacement": "receive the"}),
                             ("k2", "replace_text", {"search": "comittee",
                                                     "replacement": "committee"})]),
        text_response("Done."),
        # delete_paragraph: deletes the wrong one
        tool_calls_response([("d1", "delete_paragraphs", {"start": 2, "end": 2})]),
        text_response("Deleted."),
    ]
    out = str(tmp_path / "report")
    with ScriptedServer(script) as srv:
        done = _eval("--endpoint", srv.url, "--model", "m", "--out", out, "--only",
                     "keep_out", "delete_paragraph", "--protocol", "old")
    assert done.returncode == 0, done.stderr
    data = json.loads(open(os.path.join(out, "eval.json"), encoding="utf-8").read())
    reasons = {t["name"]: t["reason"] for t in data["tasks"]}
    assert reasons["keep_out"] == "\u201cFebuary\u201d is still in the document"
    assert reasons["delete_paragraph"] == ("the paragraph about the parking lot is still there")


def test_a_task_over_its_time_is_stopped_and_the_next_one_runs(tmp_path):
    stalled = text_response("Let me think", pieces=1)
    stalled["body"] = stalled["body"][:1] + [{"sleep": 60}] + stalled["body"][1:]
    script = [stalled, text_response("Ada Brandt founded it, in 1987.")]
    out = str(tmp_path / "report")
    with ScriptedServer(script) as srv:
        done = _eval("--endpoint", srv.url, "--model", "m", "--out", out, "--task-seconds", "4",
                     "--only", "fix_spelling", "question_no_edit", timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(open(os.path.join(out, "eval.json"), encoding="utf-8").read())
    first, second = data["tasks"]
    # The turn gets what is left of the task's 4 s once its document is open: 3 s when
    # opening it took over half a second (a loaded machine).
    assert re.match(r"the turn took too long: The turn was stopped after [34] s\.",
                    first["reason"]), first["reason"]
    assert first["seconds"] < 30
    assert second["passed"], second["reason"]


def test_unreachable_endpoint_is_one_sentence_and_exit_1(tmp_path):
    with ScriptedServer([]) as srv:
        url = srv.url
    done = _eval("--endpoint", url, "--model", "m", "--out", str(tmp_path / "r"), timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().startswith("The endpoint %s cannot be reached" % url)
    assert len(done.stderr.strip().splitlines()) == 1 and not done.stdout
    assert not os.path.exists(str(tmp_path / "r"))


def test_right_structure_edits_pass_as_libreoffice_saves_them(tmp_path):
    """Tables, lists, comments, bold, tracked changes and Comment-only proposals as the office
    writes them are what the checkers read."""
    table = ("| Fruit | Price |\n|---|---|\n| Apples | 3 euros |\n| Pears | 4 euros |\n"
             "| Plums | 2 euros |")
    script = [
        tool_calls_response([("t1", "replace_paragraphs", {"start": 2, "end": 4,
                                                           "markdown": table})]),
        text_response("Done."),
        tool_calls_response([("l1", "insert_paragraphs", {
            "after_paragraph": 2, "markdown": "- Apples\n- Pears\n- Plums"})]),
        text_response("Done."),
        tool_calls_response([("b1", "format_text", {"search": "the deadline is Friday",
                                                    "bold": True})]),
        text_response("Done."),
        tool_calls_response([("n1", "add_comment", {
            "search": "Drinking coffee makes people live twenty years longer.",
            "comment": "Which study says so?"})]),
        text_response("Done."),
        tool_calls_response([("p1", "replace_text", {"search": "recieve",
                                                     "replacement": "receive"})]),
        text_response("Proposed."),
        # A style change recorded as a suggestion: LibreOffice saves it as an UnknownChange.
        tool_calls_response([("h%d" % n, "set_paragraph_style", {
            "start": n, "end": n, "style": "Heading 1"}) for n in (1, 3, 5)]),
        text_response("Done."),
        tool_calls_response([("j1", "replace_paragraphs", {
            "start": 2, "end": 3,
            "markdown": "The rain started at dawn. It did not stop until noon."})]),
        text_response("Done."),
        tool_calls_response([("f1", "format_text", {"search": "the deadline is Friday",
                                                    "bold": True})]),
        text_response("Proposed."),
    ]
    names = ["to_table", "insert_list", "bold_phrase", "comment_unsupported", "comments_mode",
             "tracked_headings", "tracked_merge", "comments_bold"]
    out = str(tmp_path / "report")
    with ScriptedServer(script) as srv:
        done = _eval("--endpoint", srv.url, "--model", "m", "--out", out, "--protocol", "old",
                     "--only", *names)
    assert done.returncode == 0, done.stderr
    data = json.loads(open(os.path.join(out, "eval.json"), encoding="utf-8").read())
    assert {t["name"]: t["reason"] for t in data["tasks"]} == {name: "" for name in names}


def _users(body):
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def test_both_protocols_run_in_one_office_and_the_report_holds_both_scorecards(tmp_path):
    """Each task runs under new, then old. Here the new protocol's model only talks (a
    failure whatever that protocol's tools are) and the old one's edits with replace_text;
    the multi-turn task's question is judged on the last answer."""
    spelling, meeting = (catalog.by_name()[name].messages
                         for name in ("fix_spelling", "multi_edit_then_question"))
    # The new protocol's requests are short (a few hundred tokens): counts of its size, so
    # the calibration they teach (per server and model, chat.budget) fits the old one's.
    script = [
        text_response("I would fix recieve and definately.", usage=usage(300, 10)),
    ] + _spelling_fixed() + [
        text_response("You can move it yourself.", usage=usage(280, 6)),
        text_response("Tuesday.", usage=usage(320, 2)),
        tool_calls_response([("m1", "replace_text", {"search": "Tuesday",
                                                     "replacement": "Thursday"})]),
        text_response("Done."),
        text_response("Thursday."),
    ]
    out = str(tmp_path / "report")
    with ScriptedServer(script) as srv:
        done = _eval("--endpoint", srv.url, "--model", "test-model", "--out", out,
                     "--protocol", "both", "--only", "fix_spelling", "multi_edit_then_question")
        bodies = [r.json for r in srv.chat_requests]
    assert done.returncode == 0, done.stderr
    assert len(bodies) == len(script)
    for body in bodies:
        # The protocol and the other settings go to the office, never to the server.
        assert body["model"] == "test-model" and body["temperature"] == 0.0
        assert not set(body) & {"edit_protocol", "apply_mode", "track_changes", "api_key"}
    # Each protocol's run of a task is a chat of its own: nothing of the other's.
    for first, message in ((0, spelling[0]), (1, spelling[0]), (3, meeting[0]),
                           (5, meeting[0])):
        users = _users(bodies[first])
        assert len(users) == 1 and message in users[0], users
    for second in (4, 7):
        users = _users(bodies[second])
        assert len(users) == 2 and meeting[0] in users[0] and meeting[1] in users[1]
    lines = done.stdout.splitlines()
    assert [line[:9] for line in lines[:4]] == ["new FAIL ", "old ok   ", "new FAIL ",
                                                "old ok   "], done.stdout
    assert lines[4].startswith("new: 0 of 2 tasks passed (0.0%)")
    assert lines[5].startswith("old: 2 of 2 tasks passed (100.0%)")
    data = json.loads(open(os.path.join(out, "eval.json"), encoding="utf-8").read())
    assert data["protocol"] == "both" and data["meta"]["model"] == "test-model"
    new, old = data["scorecards"]
    assert (new["edit_protocol"], old["edit_protocol"]) == ("rewrite", "tools")
    assert [t["passed"] for t in new["tasks"]] == [False, False]
    assert new["tasks"][1]["reason"].startswith("\u201cTuesday\u201d is still in the document")
    assert [t["passed"] for t in old["tasks"]] == [True, True]
    assert old["tasks"][0]["prompt_tokens"] == 3600 and old["totals"]["passed"] == 2
    assert old["totals"]["seconds_per_pass"] > 0 and new["totals"]["tokens_per_pass"] is None
    markdown = open(os.path.join(out, "eval.md"), encoding="utf-8").read()
    assert "| fix_spelling | direct | FAIL | pass | new: " in markdown
    assert "| old (edit_protocol \u201ctools\u201d) | 2 of 2 | 100.0% |" in markdown
    for protocol in ("new", "old"):
        kept = os.path.join(out, "transcripts", protocol, "multi_edit_then_question.jsonl")
        turns = {json.loads(line)["turn"] for line in open(kept, encoding="utf-8")}
        assert turns == {1, 2}


def test_a_corpus_task_runs_on_its_word_document_left_as_it_was(tmp_path, office):
    """The corpus folder comes from MARGINALIA_CORPUS; the task's .docx (made here through
    the office) is opened as a copy and compared with as the office read it; a task whose
    file is not there fails with that reason and the run goes on."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    made = str(tmp_path / "steps.odt")
    odf.write_odt(made, [h("Short instructions"), p("Open remote folder"), p("Do staff"),
                         p("Close remote folder")])
    word = str(corpus / "golden_nested_anchors_in_header.docx")
    doc = office.load(made)
    headless.save(doc, word)
    office.close(doc)
    before = open(word, "rb").read()
    script = [tool_calls_response([("s1", "replace_text", {"search": "Do staff",
                                                           "replacement": "Do stuff"})]),
              text_response("Fixed.")]
    out = str(tmp_path / "report")
    with ScriptedServer(script) as srv:
        done = _eval("--endpoint", srv.url, "--model", "m", "--out", out, "--protocol", "old",
                     "--only", "corpus_heading", "corpus_fix_word", corpus=str(corpus))
    assert done.returncode == 0, done.stderr
    data = json.loads(open(os.path.join(out, "eval.json"), encoding="utf-8").read())
    assert {t["name"]: t["reason"] for t in data["tasks"]} == {
        "corpus_heading": "the corpus file golden_headers.docx is missing from %s" % corpus,
        "corpus_fix_word": ""}
    # The corpus is read, never written: no lock file, no result, the same bytes.
    assert os.listdir(str(corpus)) == ["golden_nested_anchors_in_header.docx"]
    assert open(word, "rb").read() == before

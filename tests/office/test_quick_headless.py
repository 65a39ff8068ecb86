"""The headless runner's --prompt: a library prompt on the first occurrence of a text, or
on the whole document, saved; and its one-sentence refusals."""

from tests.office.test_headless import events, fox_odt, run_headless  # noqa: F401 (fixture)
from tests.support.office import paragraph_texts
from tests.support.sse_server import ScriptedServer, text_response


def test_prompt_on_the_first_occurrence_of_select(office, fox_odt, tmp_path):  # noqa: F811
    out_path = str(tmp_path / "out.odt")
    with ScriptedServer([text_response("clever animal", pieces=3)]) as srv:
        done = run_headless(fox_odt, "--prompt", "Improve writing", "--select", "fox",
                            "--output", out_path, "--endpoint", srv.url, "--model", "test-model")
        sent = srv.chat_requests[-1].json["messages"][-1]["content"]
    assert done.returncode == 0, done.stderr
    assert sent.startswith("Improve the writing") and "<<<\nfox\n>>>" in sent
    lines = events(done.stdout)
    assert lines[-1] == {"type": "done"}
    result = [line for line in lines if line["type"] == "tool_result"]
    assert [r["summary"] for r in result] == ["Replaced the selection"]
    doc = office.load(out_path)
    try:
        # Only the first fox: the second paragraph's stays.
        assert paragraph_texts(doc) == ["Animals", "The quick brown clever animal jumps.",
                                        "A fox is clever."]
    finally:
        office.close(doc)


def test_prompt_on_the_whole_document_and_refusals(office, fox_odt, tmp_path):  # noqa: F811
    out_path = str(tmp_path / "out.odt")
    with ScriptedServer([text_response("Foxes are quick and clever.", pieces=2)]) as srv:
        done = run_headless(fox_odt, "--prompt", "summarize", "--output", out_path,
                            "--endpoint", srv.url, "--model", "test-model")
        sent = srv.chat_requests[-1].json["messages"][-1]["content"]
    assert done.returncode == 0, done.stderr
    assert "The document:\n<<<\nAnimals\n\nThe quick brown fox jumps.\n\nA fox is clever." \
        in sent
    assert "".join(line.get("text", "") for line in events(done.stdout)) == \
        "Foxes are quick and clever."
    missing = run_headless(fox_odt, "--prompt", "Shorten", "--select", "zebra", "--output",
                           out_path, "--endpoint", "http://127.0.0.1:9/v1", "--model", "m")
    assert missing.returncode == 1
    assert missing.stderr.strip() == "\u201czebra\u201d is not in the document."
    bad = run_headless(fox_odt, "--select", "fox", "--output", out_path, "--model", "m")
    assert bad.returncode == 2 and "Give --message or --prompt." in bad.stderr

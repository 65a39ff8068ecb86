"""The headless runner's --apply modes end to end, with one change line per edit."""

import json

import pytest

from tests.office.test_headless import events, run_headless
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response
from tests.support.writer import annotations, build, save_and_reload


def _script():
    return [tool_calls_response([
        ("c1", "replace_text", {"search": "quick brown fox", "replacement": "slow red fox"}),
        ("c2", "insert_paragraphs", {"markdown": "A closing line.", "after_paragraph": -1})]),
        text_response("Done.")]


@pytest.mark.parametrize("mode", ["direct", "tracked", "comments"])
def test_apply_mode_end_to_end(office, tmp_path, mode):
    base = build(office, [("Heading 1", "Animals"), ("Standard", "The quick brown fox jumps."),
                          ("Standard", "A fox is clever.")])
    doc, path = save_and_reload(office, base, "odt")
    office.close(base)
    office.close(doc)
    out_path = str(tmp_path / ("out-%s.odt" % mode))
    with ScriptedServer(_script()) as srv:
        done = run_headless(path, "--message", "Make the fox slow", "--output", out_path,
                            "--endpoint", srv.url, "--model", "test-model", "--apply", mode,
                            "--edit-protocol", "tools")
    assert done.returncode == 0, done.stderr
    lines = events(done.stdout)
    changes = [line for line in lines if line["type"] == "change"]
    assert [(c["kind"], c["before"], c["after"]) for c in changes] == [
        ("replace", "quick brown fox", "slow red fox"), ("insert", "", "A closing line.")]
    assert changes[0]["paragraphs"] == [2, 2]
    assert changes[1]["paragraphs"] == ([4, 4] if mode != "comments" else [3, 3])
    assert lines[-1]["type"] == "done"
    assert [line["type"] for line in lines].index("change") < len(lines) - 1
    result = office.load(out_path)
    try:
        text = result.getText().getString()
        redlines = result.getRedlines().getCount()
        notes = [content for _a, content, _t in annotations(result)]
        if mode == "direct":
            assert "slow red fox" in text and "quick" not in text and redlines == 0
            assert "A closing line." in text and not notes
        elif mode == "tracked":
            assert redlines >= 2 and not notes
            assert {c["state"] for c in changes} == {"pending"}
        else:
            assert "quick brown fox" in text and "slow red fox" not in text
            assert "A closing line." not in text and redlines == 0
            assert notes == ["Replace with: slow red fox", "Insert after this: A closing line."]
            assert {c["state"] for c in changes} == {"proposed"}
    finally:
        office.close(result)
    assert json.dumps(changes)

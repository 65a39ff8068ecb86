"""python -m marginalia.cli.replay: one JSON object, the same path the turn loop uses."""

import json
import os
import subprocess
import sys

import pytest

from marginalia.cli import replay
from tests.support.streams import counter_ids, run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(HERE, "fixtures", "streams")


def cli(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "pythonpath"),
                                         os.path.join(ROOT, "vendor")])
    return subprocess.run([sys.executable, "-m", "marginalia.cli.replay"] + list(args),
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)


def fixture(name):
    return os.path.join(FIXTURES, name)


def test_prints_one_json_object_with_the_contract_keys():
    done = cli(fixture("openai_parallel_tools.sse"))
    assert done.returncode == 0 and done.stderr == ""
    out = json.loads(done.stdout)
    assert sorted(out) == ["content", "error", "finish_reason", "reasoning", "tool_calls", "usage"]
    assert out["tool_calls"] == [
        {"id": "call_Ab12", "name": "get_paragraph", "arguments": '{"index": 3}'},
        {"id": "call_Cd34", "name": "search_text", "arguments": u'{"query": "\u00e9t\u00e9"}'}]
    assert out["finish_reason"] == "tool_calls"
    assert out["usage"] is None and out["error"] is None


def test_reasoning_and_usage():
    out = json.loads(cli(fixture("deepseek_reasoning_content.sse")).stdout)
    assert out["content"] == "Title: Spring"
    assert out["reasoning"] == "The user wants a title."
    assert out["usage"]["total_tokens"] == 29


def test_errored_stream_shows_no_tool_calls():
    out = json.loads(cli(fixture("midstream_error.sse")).stdout)
    assert out["tool_calls"] == []
    assert out["content"] == "Partial answer"
    assert out["error"] == "The model server reported an error: Provider disconnected."


def test_generated_ids_are_fresh_call_ids():
    out = json.loads(cli(fixture("gemini_null_index.sse")).stdout)
    ids = [c["id"] for c in out["tool_calls"]]
    assert len(set(ids)) == 2 and all(i.startswith("call_") for i in ids)


def test_unreadable_file_exits_non_zero_with_one_sentence():
    done = cli(os.path.join(FIXTURES, "no_such_stream.sse"))
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no_such_stream.sse" in lines[0] and "Traceback" not in done.stderr


def test_directory_is_unreadable_too():
    done = cli(FIXTURES)
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1


def test_wrong_arguments_print_usage():
    done = cli()
    assert done.returncode != 0 and "Usage" in done.stderr


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(FIXTURES) if n.endswith(".sse")))
def test_in_process_summary_matches_the_streaming_path(name):
    """Replay (4 KiB reads) agrees with a byte-at-a-time run of the same body."""
    with open(fixture(name), "rb") as handle:
        body = handle.read()
    got = replay.summary(replay.replay_bytes(body, id_factory=counter_ids()))
    _, acc = run([body[i:i + 1] for i in range(len(body))])
    result = acc.result()
    assert got["content"] == result.content
    assert got["tool_calls"] == [{"id": c["id"], "name": c["name"], "arguments": c["arguments"]}
                                 for c in result.tool_calls]
    assert (got["finish_reason"], got["usage"], got["error"]) == (
        result.finish_reason, result.usage, result.error)

"""Tool calls written as text: parsing, and markup never reaching the display."""

import json
import random

import pytest

from marginalia.chat.textcalls import TextCallFilter, parse


def run(chunks):
    flt = TextCallFilter()
    shown = [flt.feed(c) for c in chunks]
    tail, calls = flt.finish()
    return "".join(shown) + tail, calls, shown


def every_split(whole, seed=11):
    """(displayed, calls) identical for every two-way cut, char by char and random cuts."""
    reference = run([whole])[:2]
    for cut in range(len(whole) + 1):
        assert run([whole[:cut], whole[cut:]])[:2] == reference, cut
    assert run(list(whole))[:2] == reference
    rng = random.Random(seed)
    for _ in range(10):
        cuts = sorted(rng.sample(range(1, len(whole)), min(len(whole) - 1, 5)))
        edges = [0] + cuts + [len(whole)]
        assert run([whole[a:b] for a, b in zip(edges, edges[1:])])[:2] == reference
    return reference


def named(calls):
    return [(c["name"], json.loads(c["arguments"])) for c in calls]


def test_hermes_single_call():
    text = 'Let me look.\n<tool_call>\n{"name": "get_paragraph", "arguments": {"index": 3}}\n</tool_call>'
    shown, calls = every_split(text)
    assert shown == "Let me look.\n"
    assert named(calls) == [("get_paragraph", {"index": 3})]


def test_hermes_several_calls_and_unclosed_last_block():
    text = ('<tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
            '<tool_call>{"name": "b", "arguments": {"x": [1, 2]}}')
    shown, calls = every_split(text)
    assert shown == ""
    assert named(calls) == [("a", {}), ("b", {"x": [1, 2]})]


def test_hermes_string_arguments_and_parameters_key():
    _, calls = every_split('<tool_call>{"name": "a", "arguments": "{\\"k\\": 1}"}</tool_call>'
                           '<tool_call>{"name": "b", "parameters": {"k": 2}}</tool_call>')
    assert named(calls) == [("a", {"k": 1}), ("b", {"k": 2})]


def test_invalid_markup_is_released_as_text():
    text = "Oops <tool_call>{not json}</tool_call>"
    shown, calls = every_split(text)
    assert calls == []
    assert shown == text


def test_mistral_json_list_with_ids():
    text = '[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}, "id": "Ab3dE6gH9"}, {"name": "g", "arguments": {}}]'
    shown, calls = every_split(text)
    assert shown == ""
    assert named(calls) == [("f", {"a": 1}), ("g", {})]
    assert calls[0]["id"] == "Ab3dE6gH9" and "id" not in calls[1]


def test_mistral_v11_name_args_format():
    text = '[TOOL_CALLS]get_outline[ARGS]{"depth": 2}[TOOL_CALLS]count_words[CALL_ID]k9[ARGS]{}'
    shown, calls = every_split(text)
    assert shown == ""
    assert named(calls) == [("get_outline", {"depth": 2}), ("count_words", {})]
    assert calls[1]["id"] == "k9"


def test_llama_python_tag_json_calls():
    text = '<|python_tag|>{"name": "f", "parameters": {"q": "x"}}; {"name": "g", "parameters": {}}'
    shown, calls = every_split(text)
    assert shown == ""
    assert named(calls) == [("f", {"q": "x"}), ("g", {})]


def test_llama_python_code_is_not_a_call():
    text = '<|python_tag|>brave_search.call(query="x")'
    shown, calls = every_split(text)
    assert calls == [] and shown == text


def test_markup_never_displayed_while_streaming():
    chunks = ["Sure", ". <to", "ol_c", "all>{\"name\": ", "\"f\", \"arguments\": {}}", "</tool_call>"]
    _, calls, shown = run(chunks)
    assert shown == ["Sure", ". ", "", "", "", ""]
    assert named(calls) == [("f", {})]


def test_text_that_only_looks_like_a_marker_start_is_released():
    _, _, shown = run(["see <tool", "kit> and [TOOL", "S] here"])
    assert "".join(shown) == "see <toolkit> and [TOOLS] here"
    assert shown[0] == "see "          # "<tool" was held until it could not be a marker


def test_plain_text_passes_straight_through():
    flt = TextCallFilter()
    assert flt.feed("plain words") == "plain words"
    assert flt.passthrough()
    assert flt.finish() == ("", [])


def test_raw_pending_returns_everything_not_displayed():
    flt = TextCallFilter()
    flt.feed("a <tool_call>{\"na")
    assert flt.raw_pending() == "<tool_call>{\"na"
    assert flt.finish() == ("", [])


@pytest.mark.parametrize("markup", ["<tool_call>", "[TOOL_CALLS]", "<|python_tag|>"])
def test_bare_marker_without_body_is_shown(markup):
    calls, leftover = parse(markup)
    assert calls == [] and leftover == markup


def test_text_after_a_closed_hermes_block_is_kept():
    shown, calls = every_split('<tool_call>{"name": "f", "arguments": {}}</tool_call>\nAfter.')
    assert shown == "After."
    assert named(calls) == [("f", {})]

"""The vendored delta merger: the SDK rules and each correction to them."""

import copy
import json

import deltamerge
from deltamerge import DeltaAccumulator, accumulate


def test_strings_concatenate_and_dicts_merge_recursively():
    snap = accumulate([{"content": "Hel"}, {"content": "lo"},
                       {"audio": {"transcript": "a", "extra": {"x": "1"}}},
                       {"audio": {"transcript": "b", "extra": {"x": "2"}}}])
    assert snap == {"content": "Hello", "audio": {"transcript": "ab", "extra": {"x": "12"}}}


def test_role_id_type_index_are_replaced():
    snap = accumulate([{"role": "assistant", "id": "a", "type": "t"},
                       {"role": "assistant", "id": "a", "type": "t"}])
    assert snap == {"role": "assistant", "id": "a", "type": "t"}


def test_numbers_and_booleans_are_replaced_never_added():
    snap = accumulate([{"n": 3, "f": 1.5, "b": True}, {"n": 4, "f": 2.5, "b": False}])
    assert snap == {"n": 4, "f": 2.5, "b": False}


def test_none_never_erases():
    snap = accumulate([{"content": "x", "refusal": None}, {"content": None}])
    assert snap == {"content": "x", "refusal": None}


def test_tool_calls_merge_by_index_value():
    snap = accumulate([
        {"tool_calls": [{"index": 0, "id": "c0", "type": "function",
                         "function": {"name": "f", "arguments": ""}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": '{"a":'}}]},
        {"tool_calls": [{"index": 1, "id": "c1", "type": "function",
                         "function": {"name": "g", "arguments": "{}"}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": " 1}"}}]},
    ])
    calls = snap["tool_calls"]
    assert [c["id"] for c in calls] == ["c0", "c1"]
    assert json.loads(calls[0]["function"]["arguments"]) == {"a": 1}
    assert calls[1]["function"] == {"name": "g", "arguments": "{}"}


def test_gateway_index_starting_at_one_stays_one_entry():
    # The SDK's list.insert(1, ...) on an empty list puts the entry at position 0,
    # then the next index-1 fragment misses it.
    snap = accumulate([
        {"tool_calls": [{"index": 1, "id": "t", "function": {"name": "f", "arguments": "{\"a\""}}]},
        {"tool_calls": [{"index": 1, "function": {"arguments": ": 2}"}}]},
    ])
    assert len(snap["tool_calls"]) == 1
    assert snap["tool_calls"][0]["function"]["arguments"] == '{"a": 2}'


def test_duplicate_index_inside_one_list_merges():
    snap = accumulate([{"tool_calls": [
        {"index": 0, "id": "v", "type": "function", "function": {"name": "f"}},
        {"index": 0, "function": {"arguments": '{"x": 1}'}}]}])
    assert snap["tool_calls"] == [{"index": 0, "id": "v", "type": "function",
                                   "function": {"name": "f", "arguments": '{"x": 1}'}}]


def test_reasoning_details_merge_by_index_and_type():
    snap = accumulate([
        {"reasoning_details": [{"type": "reasoning.summary", "summary": "A", "index": 0,
                                "format": "openai-responses-v1"}]},
        {"reasoning_details": [{"type": "reasoning.summary", "summary": "B", "index": 0,
                                "format": "openai-responses-v1"}]},
        {"reasoning_details": [{"type": "reasoning.encrypted", "data": "xx", "index": 0,
                                "id": "rs_1", "format": "openai-responses-v1",
                                "signature": "sig"}]},
        {"reasoning_details": [{"type": "reasoning.encrypted", "data": "yy", "index": 0,
                                "id": "rs_1", "format": "openai-responses-v1",
                                "signature": "sig"}]},
    ])
    summary, encrypted = snap["reasoning_details"]
    assert summary == {"type": "reasoning.summary", "summary": "AB", "index": 0,
                       "format": "openai-responses-v1"}
    assert encrypted["data"] == "xxyy"
    assert (encrypted["id"], encrypted["signature"], encrypted["format"]) == (
        "rs_1", "sig", "openai-responses-v1")


def test_entries_without_index_are_appended():
    snap = accumulate([{"items": [{"name": "a"}]}, {"items": [{"name": "b"}]}])
    assert snap["items"] == [{"name": "a"}, {"name": "b"}]


def test_lists_of_plain_values_extend():
    assert accumulate([{"tags": ["a"]}, {"tags": ["b", "c"]}])["tags"] == ["a", "b", "c"]


def test_type_change_replaces_the_old_value():
    assert accumulate([{"v": "text"}, {"v": {"k": "d"}}])["v"] == {"k": "d"}
    assert accumulate([{"v": {"k": "d"}}, {"v": 5}])["v"] == 5


def test_inputs_are_never_mutated_or_aliased():
    deltas = [{"tool_calls": [{"index": 0, "function": {"arguments": "a"}}], "tags": ["x"]},
              {"tool_calls": [{"index": 0, "function": {"arguments": "b"}}], "tags": ["y"]}]
    before = copy.deepcopy(deltas)
    acc = DeltaAccumulator()
    for delta in deltas:
        acc.add(delta)
    snap = acc.snapshot()
    assert deltas == before
    snap["tool_calls"][0]["function"]["arguments"] = "changed"
    snap["tags"].append("z")
    assert acc.snapshot()["tool_calls"][0]["function"]["arguments"] == "ab"
    assert acc.snapshot()["tags"] == ["x", "y"]
    assert deltas == before


def test_snapshot_of_one_key_and_membership():
    acc = DeltaAccumulator()
    acc.add({"reasoning_content": "a"})
    acc.add({"reasoning_content": "b"})
    assert acc.snapshot("reasoning_content") == "ab"
    assert acc.snapshot("missing") is None
    assert "reasoning_content" in acc and "missing" not in acc


def test_strings_are_joined_lazily_and_once():
    acc = DeltaAccumulator()
    for _ in range(1000):
        acc.add({"content": "abcd"})
    node = acc._root["content"]
    assert len(node.parts) == 1000           # no rebuilding on every delta
    assert acc.snapshot("content") == "abcd" * 1000
    assert len(node.parts) == 1              # collapsed by the snapshot
    acc.add({"content": "e"})
    assert acc.snapshot("content").endswith("abcde")


def test_module_is_self_contained():
    with open(deltamerge.__file__) as handle:
        source = handle.read()
    imports = [line for line in source.splitlines()
               if line.startswith("import ") or line.startswith("from ")]
    assert imports == []

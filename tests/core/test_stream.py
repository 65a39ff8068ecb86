"""StreamAccumulator against recorded provider streams and hand-built chunks.

Every fixture is fed whole, byte by byte and at seeded random cut points;
all ways must give identical events and results (``replay_all_ways``).
"""

import dataclasses
import json
import os
import random

import pytest

from marginalia import events as ev
from marginalia.chat.sse import SSEEvent
from marginalia.chat.stream import StreamAccumulator
from tests.support.streams import counter_ids, run

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "streams")


def load(name):
    with open(os.path.join(FIXTURES, name), "rb") as handle:
        return handle.read()


def read_splits(body, seed=20240611, rounds=8):
    """(label, reads): whole, byte by byte, and seeded random cut points."""
    yield "whole", [body]
    yield "bytes", [body[i:i + 1] for i in range(len(body))]
    rng = random.Random(seed)
    for n in range(rounds):
        count = rng.randint(1, max(1, min(60, len(body) - 1)))
        cuts = sorted(rng.sample(range(1, len(body)), count)) if len(body) > 1 else []
        edges = [0] + cuts + [len(body)]
        yield "random%d" % n, [body[a:b] for a, b in zip(edges, edges[1:])]


def outcome(events, acc):
    result = acc.result()
    return ([e.to_dict() for e in events],
            dataclasses.asdict(result),
            result.assistant_message())


def replay_all_ways(body, **kwargs):
    """Run every split of ``body``; assert identical outcomes; return (events, result)."""
    reference = None
    for label, reads in read_splits(body):
        assert b"".join(reads) == body
        got = outcome(*run(reads, **kwargs))
        if reference is None:
            reference = got
        else:
            assert got == reference, "split %s differs" % label
    events, acc = run([body], **kwargs)
    return events, acc.result()


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def calls_of(result):
    return [(c["id"], c["name"], json.loads(c["arguments"])) for c in result.tool_calls]


# -- every fixture, every split ------------------------------------------------

EXPECTED = {
    "openai_text.sse": dict(content=u"Bonjour \u2014 \u00e7a va ? \U0001F44B", finish="stop",
                            usage={"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}),
    "openai_parallel_tools.sse": dict(finish="tool_calls", calls=[
        ("call_Ab12", "get_paragraph", {"index": 3}),
        ("call_Cd34", "search_text", {"query": u"\u00e9t\u00e9"})]),
    "ollama_shared_index.sse": dict(finish="tool_calls", calls=[
        ("call_k3v9x1aa", "get_paragraph", {"index": 1}),
        ("call_p0q8z2bb", "get_paragraph", {"index": 2}),
        ("call_m7n6c3cc", "count_words", {})]),
    "mistral_no_index.sse": dict(finish="tool_calls", calls=[
        ("Xk3s9LmQa", "get_paragraph", {"index": 4}),
        ("Pq7Wz2NbV", "replace_text", {"search": "teh", "replace": "the"})],
        usage={"prompt_tokens": 210, "total_tokens": 251, "completion_tokens": 41}),
    "gemini_null_index.sse": dict(content="Let me look.", finish="tool_calls", calls=[
        ("gen_1", "get_paragraph", {"index": 2}), ("gen_2", "search_text", {"query": "draft"})],
        usage={"completion_tokens": 30, "prompt_tokens": 400, "total_tokens": 430}),
    "gateway_index_one.sse": dict(content="Checking the outline.", finish="tool_calls", calls=[
        ("toolu_01AAA", "get_outline", {"depth": 2}), ("toolu_01BBB", "count_words", {})]),
    "vllm_duplicate_index.sse": dict(finish="tool_calls", calls=[
        ("chatcmpl-tool-5f1e", "insert_text", {"text": "Hi", "at": "end"})]),
    "lmstudio_empty_name.sse": dict(finish="tool_calls", calls=[
        ("365174485", "set_style", {"style": "Heading 1"})]),
    "openrouter_reasoning.sse": dict(content="Done.", reasoning="**Planning** the edit.",
                                     finish="stop", usage={
                                         "prompt_tokens": 50, "completion_tokens": 90,
                                         "total_tokens": 140,
                                         "completion_tokens_details": {"reasoning_tokens": 64}}),
    "deepseek_reasoning_content.sse": dict(content="Title: Spring",
                                           reasoning="The user wants a title.", finish="stop"),
    "magistral_parts.sse": dict(content="Briefly.", reasoning="Short word needed.", finish="stop"),
    "r1_lone_close.sse": dict(content="Hello! How can I help?",
                              reasoning="Okay, the user says hi.", finish="stop"),
    "think_tags.sse": dict(content="Large <b>is</b> fine.", reasoning="Synonym for big: 2 < 3.",
                           finish="stop"),
    "hermes_tool_call.sse": dict(content="I will fetch it.\n", finish="stop", calls=[
        ("gen_1", "get_paragraph", {"index": 7}), ("gen_2", "count_words", {})]),
    "midstream_error.sse": dict(content="Partial answer", finish=None,
                                error="The model server reported an error: Provider disconnected."),
    "event_error.sse": dict(content="Working on it", finish=None, error=(
        "The model server reported an error: Rate limit reached for requests.")),
    "llama_bare_error.sse": dict(content="The", finish=None, error=(
        "The model server reported an error: the request exceeds the available context size.")),
    "usage_only_final.sse": dict(content="Yes.", finish="stop",
                                 usage={"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}),
    "perplexity_done.sse": dict(content="Paris.", finish="stop",
                                usage={"prompt_tokens": 4, "completion_tokens": 3, "total_tokens": 7}),
    "crlf_framing.sse": dict(content=u"Line one and two \u00e9", finish="stop"),
    "no_done.sse": dict(content="No terminator", finish="stop"),
    "bom_first_event.sse": dict(content="First words survive.", finish="stop"),
    # The connection closed inside the last event: not garbled data, a cut.
    "cut_mid_event.sse": dict(content="Half an answer, then", finish=None, error=(
        "The connection to the server closed before the answer finished.")),
    # The ids come one fragment after the names; the last call's never comes.
    "late_tool_call_id.sse": dict(finish="tool_calls", calls=[
        ("call_late_A", "replace_text", {"search": "teh", "replace": "the"}),
        ("call_late_B", "get_paragraph", {"index": 2}), ("gen_1", "count_words", {})]),
}


def told(events):
    """(answer, reasoning) as a reader of the events alone would build them."""
    text, reasoning = [], []
    for event in events:
        if event.kind == ev.TEXT:
            text.append(event.text)
        elif event.kind == ev.REASONING:
            reasoning.append(event.text)
        elif event.kind == ev.RECLASSIFY:
            text = []
            reasoning.append(event.text)
    return "".join(text), "".join(reasoning)


def test_every_fixture_has_an_expectation():
    names = sorted(n for n in os.listdir(FIXTURES) if n.endswith(".sse"))
    assert names == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_every_split(name):
    want = EXPECTED[name]
    events, result = replay_all_ways(load(name))
    assert result.content == want.get("content", "")
    assert result.reasoning == want.get("reasoning", "")
    assert calls_of(result) == want.get("calls", [])
    assert result.finish_reason == want["finish"]
    assert result.error == want.get("error")
    if "usage" in want:
        assert result.usage == want["usage"]
    # The events tell the same story as the result (a RECLASSIFY moves the text so far).
    text, reasoning = told(events)
    assert text == result.content
    assert reasoning == want.get("events_reasoning", result.reasoning)
    started = [(e.call_id, e.name) for e in kinds(events, ev.TOOL_CALL_STARTED)]
    if result.error is None:
        assert started == [(c[0], c[1]) for c in want.get("calls", [])]
    assert events[-1].kind == ev.DONE and events[-1].finish_reason == want["finish"]
    assert len(kinds(events, ev.DONE)) == 1
    assert len(kinds(events, ev.ERROR)) == (1 if want.get("error") else 0)


# -- fixture-specific behaviour --------------------------------------------------

def test_openai_text_done_and_message():
    events, result = replay_all_ways(load("openai_text.sse"))
    assert result.done is True
    assert result.assistant_message() == {"role": "assistant", "content": result.content}
    assert [e.usage["total_tokens"] for e in kinds(events, ev.USAGE)] == [19]


def test_no_done_marker_is_not_an_error():
    events, result = replay_all_ways(load("no_done.sse"))
    assert result.done is False
    assert result.error is None
    assert result.finish_reason == "stop"     # eos_token normalised


def test_usage_is_last_non_null_never_summed():
    events, result = replay_all_ways(load("usage_only_final.sse"))
    assert [e.usage["completion_tokens"] for e in kinds(events, ev.USAGE)] == [1, 2]
    assert result.usage["completion_tokens"] == 2


def test_openrouter_reasoning_details_merged_by_index_and_type():
    events, result = replay_all_ways(load("openrouter_reasoning.sse"))
    details = result.reasoning_details
    assert [d["type"] for d in details] == ["reasoning.summary", "reasoning.encrypted"]
    assert details[0]["summary"] == "**Planning** the edit."
    assert details[0]["format"] == "openai-responses-v1"     # replaced, not doubled
    assert details[1]["data"] == "gAAAAABoENCRYPTED=="
    assert details[1]["id"] == "rs_0a1b"
    message = result.assistant_message()
    assert message["reasoning_details"] == details
    assert message["content"] == "Done."
    assert "reasoning_content" not in message


def test_deepseek_reasoning_content_exposed_for_echo():
    _, result = replay_all_ways(load("deepseek_reasoning_content.sse"))
    assert result.reasoning_content == "The user wants a title."
    assert result.assistant_message()["reasoning_content"] == "The user wants a title."


def test_gemini_extra_content_kept_on_the_message():
    _, result = replay_all_ways(load("gemini_null_index.sse"))
    first, second = result.tool_calls
    assert first["extra_content"] == {"google": {"thought_signature": "CiQBHsig+AbCdEf=="}}
    assert "extra_content" not in second
    message = result.assistant_message()
    assert message["content"] == "Let me look."
    assert message["tool_calls"][0] == {
        "id": "gen_1", "type": "function",
        "function": {"name": "get_paragraph", "arguments": '{"index":2}'},
        "extra_content": {"google": {"thought_signature": "CiQBHsig+AbCdEf=="}}}


def test_tool_only_message_has_null_content():
    _, result = replay_all_ways(load("ollama_shared_index.sse"))
    message = result.assistant_message()
    assert message["content"] is None
    assert [c["id"] for c in message["tool_calls"]] == [
        "call_k3v9x1aa", "call_p0q8z2bb", "call_m7n6c3cc"]
    assert all(c["type"] == "function" for c in message["tool_calls"])


def test_midstream_error_keeps_text_and_runs_no_call():
    events, result = replay_all_ways(load("midstream_error.sse"))
    # The call was announced before the error arrived, but must not run.
    assert [e.name for e in kinds(events, ev.TOOL_CALL_STARTED)] == ["delete_paragraph"]
    assert result.tool_calls == []
    assert "tool_calls" not in result.assistant_message()
    assert [e.message for e in kinds(events, ev.ERROR)] == [result.error]


def test_hermes_markup_never_displayed():
    events, result = replay_all_ways(load("hermes_tool_call.sse"))
    shown = "".join(e.text for e in kinds(events, ev.TEXT))
    assert "<tool" not in shown and "tool_call" not in shown and "{" not in shown
    assert [c["function"]["name"] for c in result.assistant_message()["tool_calls"]] == [
        "get_paragraph", "count_words"]


def test_r1_partial_close_tag_never_displayed():
    events, _ = replay_all_ways(load("r1_lone_close.sse"))
    assert not any("<" in e.text or "think" in e.text for e in kinds(events, ev.TEXT))


# -- hand-built chunks -------------------------------------------------------------

def chunk(delta=None, finish=None, **extra):
    body = {"object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}]}
    body.update(extra)
    return body


def tc(**fields):
    function = {}
    for key in ("name", "arguments"):
        if key in fields:
            function[key] = fields.pop(key)
    if function:
        fields["function"] = function
    return fields


def feed_all(chunks, **kwargs):
    """Feed parsed chunks directly, returning (events per chunk + finish, result).

    The same chunks are also serialised as an SSE body and replayed whole,
    byte by byte and at random cuts: all must agree with the direct feed.
    """
    acc = StreamAccumulator(id_factory=counter_ids(), **kwargs)
    per_chunk = [acc.feed(c) for c in chunks]
    per_chunk.append(acc.finish())
    body = b"".join(b"data: " + json.dumps(c, ensure_ascii=False).encode("utf-8") + b"\n\n"
                    for c in chunks)
    events, replayed = replay_all_ways(body, **kwargs)
    assert [e.to_dict() for e in events] == [e.to_dict() for group in per_chunk for e in group]
    direct = acc.result()
    assert dataclasses.astuple(replayed) == dataclasses.astuple(direct)
    return per_chunk, direct


def test_tool_call_started_once_when_name_known_before_arguments_finish():
    per_chunk, result = feed_all([
        chunk({"tool_calls": [tc(index=0, id="a", type="function", name="f", arguments="")]}),
        chunk({"tool_calls": [tc(index=0, arguments='{"x": ')]}),
        chunk({"tool_calls": [tc(index=0, arguments="1}")]}, "tool_calls"),
    ])
    assert [e.to_dict() for e in per_chunk[0]] == [
        {"type": "tool_call_started", "call_id": "a", "name": "f"}]
    assert per_chunk[1] == [] and kinds(per_chunk[2], ev.TOOL_CALL_STARTED) == []
    assert calls_of(result) == [("a", "f", {"x": 1})]


def test_fireworks_full_name_resent_every_chunk_is_not_concatenated():
    _, result = feed_all([
        chunk({"tool_calls": [tc(index=0, id="c1", type="function", name="get_outline",
                                 arguments='{"a"')]}),
        chunk({"tool_calls": [tc(index=0, id="c1", type="function", name="get_outline",
                                 arguments=': 1}')]}, "tool_calls"),
    ])
    assert calls_of(result) == [("c1", "get_outline", {"a": 1})]


def test_role_on_every_chunk_is_replaced():
    per_chunk, result = feed_all([chunk({"role": "assistant", "content": "a"}),
                                  chunk({"role": "assistant", "content": "b"})])
    assert result.content == "ab"
    assert result.assistant_message()["role"] == "assistant"


@pytest.mark.parametrize("arguments", ["", "null", None, "  "])
def test_empty_arguments_become_empty_object(arguments):
    fields = dict(index=0, id="c", name="count_words")
    if arguments is not None:
        fields["arguments"] = arguments
    _, result = feed_all([chunk({"tool_calls": [tc(**fields)]}, "tool_calls")])
    assert result.tool_calls[0]["arguments"] == "{}"


def test_object_arguments_are_serialised():
    _, result = feed_all([chunk({"tool_calls": [
        tc(id="m1", name="f", arguments={"q": u"\u00e9"})]}, "tool_calls")])
    assert json.loads(result.tool_calls[0]["arguments"]) == {"q": u"\u00e9"}


def test_generated_ids_are_unique_with_the_default_factory():
    acc = StreamAccumulator()
    acc.feed(chunk({"tool_calls": [tc(name="a", arguments="{}"), tc(name="b", arguments="{}")]},
                   "tool_calls"))
    acc.finish()
    ids = [c["id"] for c in acc.result().tool_calls]
    assert len(ids) == 2 and len(set(ids)) == 2
    assert all(i.startswith("call_") and len(i) > 10 for i in ids)


def test_no_index_fragment_without_id_or_name_continues_last_call():
    _, result = feed_all([
        chunk({"tool_calls": [tc(index=None, name="f", arguments='{"a": ')]}),
        chunk({"tool_calls": [tc(index=None, arguments='2}')]}, "tool_calls"),
    ])
    assert calls_of(result) == [("gen_1", "f", {"a": 2})]


def test_length_drops_calls_with_invalid_json_only():
    _, result = feed_all([
        chunk({"tool_calls": [tc(index=0, id="ok", name="f", arguments='{"a": 1}'),
                              tc(index=1, id="cut", name="g", arguments='{"b": "unfini')]}),
        chunk({}, "length"),
    ])
    assert [c["id"] for c in result.tool_calls] == ["ok"]
    assert result.finish_reason == "length"


def test_invalid_arguments_kept_when_not_truncated():
    # Invalid JSON goes back to the model as a tool error (tools.py), not dropped.
    _, result = feed_all([chunk({"tool_calls": [tc(index=0, id="x", name="f",
                                                   arguments='{"a": ')]}, "tool_calls")])
    assert result.tool_calls[0]["arguments"] == '{"a": '


def test_delta_applied_before_finish_reason_in_same_chunk():
    per_chunk, result = feed_all([chunk({"content": "Hi"}, "stop")])
    assert [e.kind for e in per_chunk[0]] == [ev.TEXT]
    assert result.content == "Hi" and result.finish_reason == "stop"


def test_finish_reason_last_non_null_wins_and_empty_is_none():
    _, result = feed_all([chunk({"content": "x"}, "length"), chunk({}, ""), chunk({}, None)])
    assert result.finish_reason == "length"
    _, result = feed_all([chunk({}, "eos")])
    assert result.finish_reason == "stop"


def test_finish_reason_error_is_an_error():
    per_chunk, result = feed_all([
        chunk({"content": "Half", "tool_calls": [tc(index=0, id="t", name="f", arguments="{}")]}),
        chunk({}, "error")])
    assert result.error and result.tool_calls == []
    assert result.content == "Half"
    # The text showed at once (no R1 hold-back); the error follows it.
    assert [(e.kind, e.text) for e in per_chunk[0]][0] == (ev.TEXT, "Half")
    assert [(e.kind, e.text) for e in per_chunk[1]] == [(ev.ERROR, None)]


def test_event_error_and_garbled_chunk_are_errors():
    acc = StreamAccumulator()
    assert [e.text for e in acc.feed(chunk({"content": "ok"}))] == ["ok"]
    out = acc.feed_sse(SSEEvent("error", '{"error": {"message": "Rate limit exceeded"}}'))
    assert [(e.kind, e.text, e.message) for e in out] == [
        (ev.ERROR, None, "The model server reported an error: Rate limit exceeded.")]
    assert acc.feed(chunk({"content": " more"})) == []    # nothing after an error
    assert acc.result().content == "ok"
    acc = StreamAccumulator()
    assert acc.feed_sse(SSEEvent(data="{not json"))[0].kind == ev.ERROR
    assert acc.result().error == "The model server sent a garbled answer stream."


def test_invalid_json_in_an_event_cut_by_the_end_of_the_body_is_a_closed_connection():
    acc = StreamAccumulator()
    acc.feed(chunk({"content": "Hel"}))
    out = acc.feed_sse(SSEEvent(data='{"choices": [{"delta": {"content": "lo', complete=False))
    assert [e.message for e in kinds(out, ev.ERROR)] == [
        "The connection to the server closed before the answer finished."]
    assert acc.result().content == "Hel"
    acc = StreamAccumulator()     # a last event complete but for its blank line is fine
    acc.feed_sse(SSEEvent(data=json.dumps(chunk({"content": "ok"}, "stop")), complete=False))
    assert kinds(acc.finish(), ev.ERROR) == []
    assert acc.result().content == "ok" and acc.result().error is None


def test_events_after_done_marker_are_ignored():
    acc = StreamAccumulator()
    assert acc.feed_sse(SSEEvent(data="[DONE]")) == []
    assert acc.feed_sse(SSEEvent(data=json.dumps(chunk({"content": "late"})))) == []
    assert acc.result().done is True and acc.result().content == ""


def test_finish_is_idempotent():
    acc = StreamAccumulator()
    acc.feed(chunk({"content": "ok"}, "stop"))
    assert [e.kind for e in acc.finish()] == [ev.DONE]
    assert acc.finish() == []


def test_a_body_that_ends_with_no_finish_reason_was_cut_and_none_of_its_calls_run():
    # A killed server, a proxy's timeout: whole events, then a plain close.
    per_chunk, result = feed_all([
        chunk({"content": "A reader can try to s"}),
        chunk({"tool_calls": [tc(index=0, id="a", name="f", arguments="{}")]}),
        chunk({"tool_calls": [tc(index=1, id="b", name="g", arguments='{"x": 1}')]})])
    assert [e.message for e in kinds(per_chunk[-1], ev.ERROR)] == [
        "The connection to the server closed before the answer finished."]
    assert result.cut and result.error and result.tool_calls == []
    assert result.content == "A reader can try to s"          # what came stays


def test_a_cut_answer_that_wrote_its_edit_as_text_makes_no_call():
    _, result = feed_all([chunk({"content": "Done.\n```edit\n1: New title\n"})],
                         tools=[{"type": "function", "function": {"name": "edit"}}],
                         fence_tool="edit")
    assert result.cut and result.tool_calls == []


def test_an_empty_body_was_cut_too():
    acc = StreamAccumulator()
    assert [e.kind for e in acc.finish()] == [ev.ERROR, ev.DONE]
    assert acc.result().cut


@pytest.mark.parametrize("tail", [[chunk({}, "stop")], [chunk({}, "tool_calls")],
                                  [chunk({}, "length")], []])
def test_a_finish_reason_or_done_marker_says_the_answer_is_whole(tail):
    acc = StreamAccumulator()
    acc.feed(chunk({"tool_calls": [tc(index=0, id="a", name="f", arguments="{}")]}))
    for piece in tail:
        acc.feed(piece)
    if not tail:
        acc.feed_sse(SSEEvent(data="[DONE]"))     # no finish reason, but [DONE]
    assert kinds(acc.finish(), ev.ERROR) == []
    assert not acc.result().cut and [c["id"] for c in acc.result().tool_calls] == ["a"]


def test_a_reading_stopped_by_the_caller_is_not_called_cut():
    acc = StreamAccumulator()
    acc.feed(chunk({"content": "Half"}))
    assert kinds(acc.finish(body_ended=False), ev.ERROR) == []
    assert not acc.result().cut and acc.result().error is None


def test_reasoning_and_reasoning_content_with_same_text_shown_once():
    # Newer vLLM sends both fields with the same text.
    _, result = feed_all([chunk({"reasoning": "r1", "reasoning_content": "r1"}),
                          chunk({"content": "a"})])
    assert result.reasoning == "r1"
    assert result.reasoning_content == "r1"


def test_ollama_reasoning_field():
    per_chunk, result = feed_all([chunk({"role": "assistant", "content": "", "reasoning": "Hm"}),
                                  chunk({"role": "assistant", "content": "Ok"})])
    assert [e.to_dict() for e in per_chunk[0]] == [{"type": "reasoning", "text": "Hm"}]
    assert result.reasoning == "Hm" and result.content == "Ok"
    assert result.reasoning_content is None


def test_structured_calls_win_over_text_calls():
    _, result = feed_all([
        chunk({"content": '<tool_call>{"name": "text_one", "arguments": {}}</tool_call>'}),
        chunk({"tool_calls": [tc(index=0, id="s", name="structured", arguments="{}")]},
              "tool_calls"),
    ])
    assert [c["name"] for c in result.tool_calls] == ["structured"]
    assert "tool_call" not in result.content


def test_mistral_text_calls_in_content():
    _, result = feed_all([chunk({"content": "[TOOL_"}),
                          chunk({"content": 'CALLS][{"name": "f", "arguments": {"n": 1}}]'},
                                "stop")])
    assert calls_of(result) == [("gen_1", "f", {"n": 1})]
    assert result.content == ""


def test_text_calls_not_run_after_error():
    _, result = feed_all([chunk({"content": '<tool_call>{"name": "f", "arguments": {}}'}),
                          {"error": {"message": "boom"}}])
    assert result.tool_calls == [] and result.error


def test_r1_reasoning_shows_at_once_then_is_reclassified():
    reasoning = "Let me think about this carefully. " * 20
    per_chunk, result = feed_all([chunk({"content": reasoning[:300]}),
                                  chunk({"content": reasoning[300:] + "</think>\n\nAnswer."})])
    assert result.content == "Answer."
    assert result.reasoning == reasoning.strip()
    assert result.assistant_message()["content"] == "Answer."
    # The first words were shown at once; the lone </think> moved them, in one event.
    assert [(e.kind, e.text) for e in per_chunk[0]] == [(ev.TEXT, reasoning[:300].strip())]
    moved = [e for e in per_chunk[1] if e.kind == ev.RECLASSIFY]
    assert [e.text for e in moved] == [reasoning.strip()]
    assert [e.text for e in per_chunk[1] if e.kind == ev.TEXT] == [reasoning[300:], "Answer."]


def test_text_streams_at_once():
    per_chunk, _ = feed_all([chunk({"content": "Hello"})])
    assert [e.text for e in per_chunk[0]] == ["Hello"]


def test_legacy_function_call_delta():
    _, result = feed_all([chunk({"function_call": {"name": "f", "arguments": '{"a"'}}),
                          chunk({"function_call": {"arguments": ": 1}"}}, "function_call")])
    assert calls_of(result) == [("gen_1", "f", {"a": 1})]


def test_nameless_fragments_do_not_become_calls():
    _, result = feed_all([chunk({"tool_calls": [tc(index=0, arguments="{}")]})])
    assert result.tool_calls == []


def test_length_drops_truncated_text_calls_too():
    body = '<tool_call>{"name": "f", "arguments": "{\\"a\\": "}</tool_call>'
    _, result = feed_all([chunk({"content": body}), chunk({}, "length")])
    assert result.tool_calls == [] and result.content == ""
    _, result = feed_all([chunk({"content": body}), chunk({}, "stop")])
    assert [c["arguments"] for c in result.tool_calls] == ['{"a": ']


@pytest.mark.parametrize("error, shown", [
    ({"message": "<html><head><title>502 Bad Gateway</title></head>"
                 "<body><h1>502 Bad Gateway</h1></body></html>"},
     "The model server reported an error while answering."),
    ({"message": 'Traceback (most recent call last):\n  File "/srv/app.py", line 12, in gen\n'
                 '    raise RuntimeError("CUDA out of memory")\nRuntimeError: CUDA out of memory'},
     "The model server reported an error: CUDA out of memory."),
    ({"code": 500}, "The model server reported an error while answering."),
])
def test_midstream_error_sentence_never_shows_html_or_a_traceback(error, shown):
    per_chunk, result = feed_all([chunk({"content": "Partial"}), {"error": error}])
    assert result.content == "Partial" and result.error == shown
    assert [e.message for e in per_chunk[1] if e.kind == ev.ERROR] == [shown]


def test_event_error_with_an_html_page_is_one_plain_sentence():
    acc = StreamAccumulator()
    out = acc.feed_sse(SSEEvent("error", "<!DOCTYPE html>\n<html><body>Error 524</body></html>"))
    assert [e.message for e in out] == ["The model server reported an error while answering."]


@pytest.mark.parametrize("arguments", ['""', '"null"', '"  "', "null"])
def test_empty_text_call_arguments_become_empty_object(arguments):
    # The same rule as structured calls: replay and the loop both see "{}".
    markup = '<tool_call>{"name": "count_words", "arguments": %s}</tool_call>' % arguments
    _, result = feed_all([chunk({"content": markup}), chunk({}, "stop")])
    assert calls_of(result) == [("gen_1", "count_words", {})]
    assert result.tool_calls[0]["arguments"] == "{}"


def test_id_reused_across_indexes_keeps_the_calls_apart_with_unique_ids():
    # DeepSeek and GLM can give parallel calls the same id: the index tells them
    # apart (one slot per index), and the second call gets an id of its own, since
    # the next request would be refused with two results for one id.
    per_chunk, result = feed_all([
        chunk({"tool_calls": [tc(index=0, id="call_0", type="function", name="get_paragraph",
                                 arguments='{"index": ')]}),
        chunk({"tool_calls": [tc(index=0, id="call_0", arguments="1}")]}),
        chunk({"tool_calls": [tc(index=1, id="call_0", type="function", name="count_words",
                                 arguments="")]}),
        chunk({"tool_calls": [tc(index=1, arguments="{}")]}, "tool_calls"),
    ])
    assert calls_of(result) == [("call_0", "get_paragraph", {"index": 1}),
                                ("gen_1", "count_words", {})]
    started = [(e.call_id, e.name) for group in per_chunk for e in group
               if e.kind == ev.TOOL_CALL_STARTED]
    assert started == [("call_0", "get_paragraph"), ("gen_1", "count_words")]


def test_odd_finish_reason_and_usage_values_are_ignored_not_raised():
    _, result = feed_all([chunk({"content": "Hi"}, finish=["stop"]),
                          chunk({}, finish=7, usage="n/a"),
                          chunk({}, finish="stop", usage=[1, 2])])
    assert result.content == "Hi" and result.finish_reason == "stop"
    assert result.usage is None and result.error is None


def test_id_arriving_after_the_arguments_is_still_adopted():
    per_chunk, result = feed_all([
        chunk({"tool_calls": [tc(index=0, type="function", name="f")]}),
        chunk({"tool_calls": [tc(index=0, arguments='{"x": ')]}),
        chunk({"tool_calls": [tc(index=0, arguments="1}")]}),
        chunk({"tool_calls": [tc(index=0, id="call_real")]}, "tool_calls"),
    ])
    assert calls_of(result) == [("call_real", "f", {"x": 1})]
    # Announced at the fragment after the name, before the real id came.
    assert [(e.kind, e.call_id) for e in per_chunk[1]] == [(ev.TOOL_CALL_STARTED, "gen_1")]
    assert sum(len(kinds(group, ev.TOOL_CALL_STARTED)) for group in per_chunk) == 1


def test_late_id_at_the_next_fragment_is_announced_with_the_real_id():
    per_chunk, result = feed_all([
        chunk({"tool_calls": [tc(index=0, type="function", name="f", arguments="")]}),
        chunk({"tool_calls": [tc(index=0, id="call_1", arguments="{}")]}),
        chunk({"tool_calls": [tc(index=1, type="function", name="g", arguments="")]}),
        chunk({"tool_calls": [tc(index=1, id="call_2", arguments='{"a": 1}')]}, "tool_calls"),
    ])
    assert calls_of(result) == [("call_1", "f", {}), ("call_2", "g", {"a": 1})]
    assert [[(e.call_id, e.name) for e in kinds(group, ev.TOOL_CALL_STARTED)]
            for group in per_chunk] == [[], [("call_1", "f")], [], [("call_2", "g")], []]


def test_late_id_already_used_by_another_call_is_not_adopted():
    _, result = feed_all([
        chunk({"tool_calls": [tc(index=0, id="dup", type="function", name="f",
                                 arguments="{}")]}),
        chunk({"tool_calls": [tc(index=1, type="function", name="g", arguments="")]}),
        chunk({"tool_calls": [tc(index=1, id="dup", arguments="{}")]}, "tool_calls"),
    ])
    assert calls_of(result) == [("dup", "f", {}), ("gen_1", "g", {})]


def test_named_calls_without_ids_are_announced_in_call_order():
    per_chunk, result = feed_all([
        chunk({"tool_calls": [tc(name="f", arguments="{}"), tc(id="m2", name="g",
                                                             arguments="{}")]}),
        chunk({}, "tool_calls"),
    ])
    assert calls_of(result) == [("gen_1", "f", {}), ("m2", "g", {})]
    assert [(e.call_id, e.name) for group in per_chunk for e in group
            if e.kind == ev.TOOL_CALL_STARTED] == [("gen_1", "f"), ("m2", "g")]


def test_waiting_call_of_a_failed_response_is_never_announced():
    acc = StreamAccumulator(id_factory=counter_ids())
    acc.feed(chunk({"tool_calls": [tc(index=0, type="function", name="f")]}))
    events = acc.feed({"error": {"message": "Overloaded"}}) + acc.finish()
    assert kinds(events, ev.TOOL_CALL_STARTED) == []
    assert acc.result().tool_calls == []


# -- tool calls written as JSON blocks ---------------------------------------------

TOOLS = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
         for n in ("replace_text", "get_paragraph")]
JSON_CALL = '{"name": "replace_text", "arguments": {"search": "teh", "replace": "the"}}'


def text_chunks(text, size=7):
    return [chunk({"role": "assistant", "content": ""})] + [
        chunk({"content": text[i:i + size]}) for i in range(0, len(text), size)] + [
        chunk({}, "stop")]


@pytest.mark.parametrize("text", ["```json\n" + JSON_CALL + "\n```",
                                  JSON_CALL + "\n",
                                  '```json\n{"name": "get_paragraph", "parameters": {"index": 2}}'
                                  '\n```\n' + JSON_CALL])
def test_json_block_message_is_calls_never_text(text):
    per_chunk, result = feed_all(text_chunks(text), tools=TOOLS)
    events = [e for group in per_chunk for e in group]
    assert kinds(events, ev.TEXT) == [] and result.content == ""
    assert [c[1] for c in calls_of(result)] == [
        n for n in ("get_paragraph", "replace_text") if n in text]
    assert [(e.call_id, e.name) for e in kinds(events, ev.TOOL_CALL_STARTED)] == [
        (c[0], c[1]) for c in calls_of(result)]
    assert result.assistant_message()["content"] is None


@pytest.mark.parametrize("text", [
    '```json\n{"name": "rewrite_all", "arguments": {}}\n```',   # not offered
    '```json\n{"title": "Spring"}\n```',                        # JSON the user asked for
    "Sure:\n" + JSON_CALL,                                      # prose around it
    JSON_CALL + "\nThat is the call I would make.",
])
def test_json_that_is_not_only_offered_calls_is_text(text):
    per_chunk, result = feed_all(text_chunks(text), tools=TOOLS)
    assert result.tool_calls == [] and result.content == text
    assert "".join(e.text for g in per_chunk for e in kinds(g, ev.TEXT)) == text


def test_json_block_is_text_without_offered_tools():
    _, result = feed_all(text_chunks(JSON_CALL))
    assert result.tool_calls == [] and result.content == JSON_CALL


def test_json_block_is_text_when_a_structured_call_came():
    _, result = feed_all(text_chunks(JSON_CALL)[:-1] + [
        chunk({"tool_calls": [tc(index=0, id="s1", name="get_paragraph",
                                 arguments='{"index": 1}')]}, "tool_calls")], tools=TOOLS)
    assert calls_of(result) == [("s1", "get_paragraph", {"index": 1})]
    assert result.content == JSON_CALL


def test_json_block_is_text_after_an_error():
    acc = StreamAccumulator(tools=TOOLS)
    events = acc.feed(chunk({"content": JSON_CALL}))
    events += acc.feed({"error": {"message": "Overloaded"}}) + acc.finish()
    assert "".join(e.text for e in kinds(events, ev.TEXT)) == JSON_CALL
    assert acc.result().tool_calls == [] and acc.result().content == JSON_CALL

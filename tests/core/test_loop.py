"""The turn loop, driven by a scripted fake model and, end to end, by a real local server."""

import copy
import json
import threading
import time

from marginalia.config import Settings
from marginalia.errors import Cancelled, EndpointError, ToolError
from marginalia.events import (DONE, ERROR, REASONING, STATUS, TEXT, TOOL_CALL, TOOL_CALL_STARTED,
                               TOOL_RESULT, USAGE)
from marginalia.chat.transport import CancelToken, ChatClient
from marginalia.chat.loop import CANCELLED_RESULT, Conversation, add_usage, run_turn
from marginalia.chat.tools import ToolRegistry
from tests.support.sse_server import (ScriptedServer, chunk, finish, sse_body, text_delta,
                                      text_response, tool_call_delta, tool_calls_response, usage)


def pieces(response):
    """A scripted response's body as bytes pieces (dict pieces are hooks or skipped)."""
    return [p.encode("utf-8") if isinstance(p, str) else p for p in response["body"]]


class FakeClient(object):
    """A scripted model: each open_stream serves the next response's pieces.

    A response is a list of bytes and callables (run when reached, e.g. to
    cancel), or an exception instance raised by open_stream.
    """

    def __init__(self, *responses):
        self.responses = list(responses)
        self.bodies = []

    def open_stream(self, body, cancel):
        self.bodies.append(copy.deepcopy(body))
        response = self.responses.pop(0)
        if isinstance(response, Exception):
            raise response
        return self._serve(response, cancel)

    def _serve(self, response, cancel):
        for piece in response:
            if callable(piece):
                piece()
            else:
                yield piece


class Recorder(object):
    def __init__(self):
        self.events = []

    def __call__(self, event):
        self.events.append(event)

    def kinds(self, *kinds):
        return [e for e in self.events if e.kind in kinds]


def make_registry(log=None, cancel=None):
    registry = ToolRegistry()
    log = log if log is not None else []

    def get_text(start=0):
        log.append(("get_text", start))
        return "The quick brown fox."

    def add(a, b):
        log.append(("add", a, b))
        return {"sum": a + b}

    def boom():
        log.append(("boom",))
        raise RuntimeError("disk on fire")

    def refuse():
        raise ToolError("That paragraph does not exist.")

    def stop_here():
        log.append(("stop_here",))
        cancel.cancel()
        raise Cancelled()

    registry.register("get_text", "Read the document.", {"type": "object", "properties": {
        "start": {"type": "integer"}}}, get_text)
    registry.register("add", "Add two numbers.", {"type": "object"}, add)
    registry.register("boom", "Always fails.", {"type": "object"}, boom)
    registry.register("refuse", "Always refuses.", {"type": "object"}, refuse)
    registry.register("stop_here", "Simulates Stop pressed mid-tool.", {"type": "object"},
                      stop_here)
    return registry


SETTINGS = Settings(model="test-model", extra_instructions="Use British spelling.")


def turn(client, conversation=None, text="Hello", settings=SETTINGS, registry=None,
         cancel=None, context=None, log=None):
    recorder = Recorder()
    cancel = cancel or CancelToken()
    conversation = conversation if conversation is not None else Conversation()
    registry = registry or make_registry(log, cancel)
    result = run_turn(client, conversation, text, registry, settings, recorder, cancel,
                      context=context)
    return result, recorder, conversation


def assert_history_valid(messages):
    """Every assistant tool call has exactly one tool result, right after it."""
    pending = []
    for message in messages:
        if message["role"] == "tool":
            assert message["tool_call_id"] == pending.pop(0)
            continue
        assert not pending, "tool calls without results: %r" % pending
        pending = [c["id"] for c in message.get("tool_calls") or []]
    assert not pending


def test_plain_answer_events_history_and_request():
    client = FakeClient(pieces(text_response("Hello there", usage=usage(12, 3))))
    result, rec, conversation = turn(client, context="Title: Essay\nParagraphs: 4")
    assert result.text == "Hello there" and result.rounds == 1 and not result.cancelled
    assert "".join(e.text for e in rec.kinds(TEXT)) == "Hello there"
    # The loop names its states; the panel words them (ui.status).
    assert [e.text for e in rec.kinds(STATUS)][:3] == ["connecting", "waiting", "writing"]
    assert rec.events[-1].kind == DONE and rec.events[-1].finish_reason == "stop"
    assert not rec.kinds(ERROR)
    assert rec.kinds(USAGE)[-1].usage["total_tokens"] == 15
    assert conversation.messages == [{"role": "user", "content": "Hello"},
                                     {"role": "assistant", "content": "Hello there"}]
    body = client.bodies[0]
    system = body["messages"][0]
    assert system["role"] == "system"
    assert "document tools" in system["content"]
    assert "Use British spelling." in system["content"]
    assert "Title: Essay" in system["content"]
    assert body["messages"][1:] == [{"role": "user", "content": "Hello"}]
    assert [t["function"]["name"] for t in body["tools"]][:2] == ["get_text", "add"]
    assert body["stream_options"] == {"include_usage": True}


def test_multi_round_tool_use():
    log = []
    client = FakeClient(
        pieces(tool_calls_response([("call_1", "get_text", {"start": 2})], content="Reading.")),
        pieces(text_response("It is about a fox.")))
    result, rec, conversation = turn(client, text="What is it about?", log=log)
    assert log == [("get_text", 2)]
    assert result.rounds == 2
    assert result.text == "Reading.\n\nIt is about a fox."
    assert result.tool_calls == [("get_text", True)]
    kinds = [e.kind for e in rec.events if e.kind in (TOOL_CALL_STARTED, TOOL_CALL,
                                                         TOOL_RESULT, DONE)]
    assert kinds == [TOOL_CALL_STARTED, TOOL_CALL, TOOL_RESULT, DONE]
    assert rec.kinds(TOOL_CALL)[0].arguments == '{"start": 2}'
    assert rec.kinds(TOOL_RESULT)[0].result == "The quick brown fox."
    running = [(e.text, e.name, e.arguments) for e in rec.kinds(STATUS) if e.name]
    # Typed: the tool's name as its call starts streaming, then its arguments as it runs.
    assert running == [("running", "get_text", None), ("running", "get_text", '{"start": 2}')]
    sent = client.bodies[1]["messages"][1:]
    assert [m["role"] for m in sent] == ["user", "assistant", "tool"]
    assert sent[1]["tool_calls"][0]["id"] == "call_1"
    assert sent[1]["tool_calls"][0]["function"] == {"name": "get_text",
                                                    "arguments": '{"start": 2}'}
    assert sent[2] == {"role": "tool", "tool_call_id": "call_1",
                       "content": "The quick brown fox."}
    assert conversation.messages[-1] == {"role": "assistant", "content": "It is about a fox."}
    assert_history_valid(conversation.messages)


def test_parallel_calls_run_in_order_and_pair_by_id():
    log = []
    client = FakeClient(
        pieces(tool_calls_response([("a1", "add", {"a": 1, "b": 2}),
                                    ("a2", "add", {"a": 3, "b": 4}),
                                    ("a3", "get_text", {})])),
        pieces(text_response("3, 7 and a fox.")))
    result, rec, conversation = turn(client, log=log)
    assert log == [("add", 1, 2), ("add", 3, 4), ("get_text", 0)]
    tools = [m for m in conversation.messages if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in tools] == [
        ("a1", '{"sum": 3}'), ("a2", '{"sum": 7}'), ("a3", "The quick brown fox.")]
    assert [e.call_id for e in rec.kinds(TOOL_CALL)] == ["a1", "a2", "a3"]
    assert_history_valid(conversation.messages)


def test_tool_problems_become_error_results_and_the_turn_goes_on():
    client = FakeClient(
        pieces(tool_calls_response([("t1", "no_such_tool", {}),
                                    ("t2", "add", '{"a": 1, "b":'),
                                    ("t3", "boom", {}),
                                    ("t4", "refuse", {})])),
        pieces(text_response("Sorry, several things failed.")))
    result, rec, conversation = turn(client)
    results = rec.kinds(TOOL_RESULT)
    assert [r.ok for r in results] == [False, False, False, False]
    assert "no tool named 'no_such_tool'" in results[0].result
    assert "not valid JSON" in results[1].result
    assert "fault inside Marginalia" in results[2].result
    assert "disk on fire" not in results[2].result      # the exception's text is logged only
    assert results[3].result == "Error: That paragraph does not exist."
    assert result.rounds == 2 and result.error is None and not rec.kinds(ERROR)
    assert len([m for m in client.bodies[1]["messages"] if m["role"] == "tool"]) == 4
    assert_history_valid(conversation.messages)


def test_cancel_mid_stream_keeps_marked_text():
    cancel = CancelToken()
    body = pieces(text_response("Hello there, friend", pieces=3))
    client = FakeClient(body[:3] + [cancel.cancel] + body[3:])
    result, rec, conversation = turn(client, cancel=cancel)
    assert result.cancelled and result.error is None
    assert result.text == "Hello there, f"  # what arrived before Stop
    assert conversation.messages[-1] == {"role": "assistant",
                                         "content": result.text + " [stopped]"}
    assert rec.events[-1].kind == DONE and rec.events[-1].finish_reason == "cancelled"
    assert not rec.kinds(ERROR)


def test_cancel_mid_stream_drops_unrun_tool_calls():
    cancel = CancelToken()
    body = pieces(tool_calls_response([("c1", "add", {"a": 1, "b": 2})], content="Let me add"))
    client = FakeClient(body[:-2] + [cancel.cancel] + body[-2:])
    log = []
    result, rec, conversation = turn(client, cancel=cancel, log=log)
    assert log == [] and not rec.kinds(TOOL_CALL)
    assert conversation.messages[-1] == {"role": "assistant", "content": "Let me add [stopped]"}
    assert_history_valid(conversation.messages)


def test_cancel_before_any_text_keeps_roles_alternating():
    cancel = CancelToken()
    client = FakeClient([cancel.cancel] + pieces(text_response("never")))
    result, _rec, conversation = turn(client, cancel=cancel)
    assert result.cancelled
    assert [m["role"] for m in conversation.messages] == ["user", "assistant"]
    assert conversation.messages[-1]["content"] == "[stopped]"


def test_cancel_mid_tool_gives_every_call_a_result():
    log = []
    client = FakeClient(pieces(tool_calls_response([("k1", "add", {"a": 1, "b": 1}),
                                                    ("k2", "stop_here", {}),
                                                    ("k3", "add", {"a": 2, "b": 2})])))
    result, rec, conversation = turn(client, log=log)
    assert log == [("add", 1, 1), ("stop_here",)]  # k3 never ran
    assert result.cancelled and result.rounds == 1
    tools = [m for m in conversation.messages if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in tools] == [
        ("k1", '{"sum": 2}'), ("k2", CANCELLED_RESULT), ("k3", CANCELLED_RESULT)]
    assert rec.kinds(TOOL_RESULT)[-1].call_id == "k2"
    assert rec.events[-1].finish_reason == "cancelled"
    assert_history_valid(conversation.messages)
    # The repaired history is accepted by the next turn.
    client.responses.append(pieces(text_response("Stopped as asked.")))
    turn(client, conversation=conversation, text="ok")
    assert_history_valid(client.bodies[-1]["messages"][1:])


def test_round_limit_stops_the_turn_with_one_sentence():
    log = []
    looping = pieces(tool_calls_response([("r", "get_text", {})]))
    client = FakeClient(looping, looping, looping)
    result, rec, conversation = turn(client, settings=SETTINGS.copy(max_rounds=2), log=log)
    assert result.rounds == 2 and len(client.bodies) == 2 and len(log) == 2
    errors = rec.kinds(ERROR)
    assert len(errors) == 1 and "after 2 rounds" in errors[0].message
    assert result.error == errors[0].message
    assert rec.events[-1].finish_reason == "max_rounds"
    assert_history_valid(conversation.messages)


def reasoning_tool_round(reasoning, call_id):
    return pieces({"body": sse_body([
        chunk({"role": "assistant", "content": None, "reasoning_content": reasoning}),
        tool_call_delta(0, id=call_id, name="get_text", arguments="{}"),
        finish("tool_calls")])})


def test_deepseek_reasoning_content_echoed_only_within_the_turn():
    client = FakeClient(reasoning_tool_round("I should read it.", "d1"),
                        pieces({"body": sse_body([
                            chunk({"reasoning_content": "Now answer."}),
                            text_delta("A fox."), finish()])}),
                        pieces(text_response("Second turn.")))
    conversation = Conversation()
    result, rec, _ = turn(client, conversation=conversation)
    assert result.reasoning == "I should read it.\n\nNow answer."
    second = client.bodies[1]["messages"]
    assert second[2]["role"] == "assistant" and second[2]["tool_calls"]
    assert second[2]["reasoning_content"] == "I should read it."
    turn(client, conversation=conversation, text="And then?")
    third = client.bodies[2]["messages"]
    assert not any("reasoning_content" in m for m in third)
    # The history itself keeps it, for the transcript.
    assert conversation.messages[1]["reasoning_content"] == "I should read it."


def test_openrouter_reasoning_details_echoed_unchanged():
    details = [{"type": "reasoning.text", "text": "Look first.", "format": "anthropic-claude-v1",
                "index": 0, "signature": "sig=="},
               {"type": "reasoning.encrypted", "data": "b64blob", "format": "anthropic-claude-v1",
                "index": 1}]
    first = pieces({"body": sse_body([
        chunk({"role": "assistant", "content": "", "reasoning": "Look first.",
               "reasoning_details": details}),
        tool_call_delta(0, id="o1", name="get_text", arguments="{}"),
        finish("tool_calls")])})
    client = FakeClient(first, pieces(text_response("Done.")), pieces(text_response("Next.")))
    conversation = Conversation()
    result, rec, _ = turn(client, conversation=conversation)
    assert "".join(e.text for e in rec.kinds(REASONING)) == "Look first."
    assistant = client.bodies[1]["messages"][2]
    assert assistant["reasoning_details"] == details
    turn(client, conversation=conversation, text="More")
    assert not any("reasoning_details" in m for m in client.bodies[2]["messages"])


def test_gemini_extra_content_kept_on_tool_calls():
    signature = {"google": {"thought_signature": "c2lnbmF0dXJl"}}
    first = pieces({"body": sse_body([
        chunk({"role": "assistant", "tool_calls": [{
            "id": "g1", "type": "function", "extra_content": signature,
            "function": {"name": "get_text", "arguments": "{}"}}]}),
        finish("tool_calls")])})
    client = FakeClient(first, pieces(text_response("Done.")), pieces(text_response("More.")))
    conversation = Conversation()
    turn(client, conversation=conversation)
    assert client.bodies[1]["messages"][2]["tool_calls"][0]["extra_content"] == signature
    turn(client, conversation=conversation, text="again")
    assert client.bodies[2]["messages"][2]["tool_calls"][0]["extra_content"] == signature


def test_usage_summed_across_rounds_without_double_counting():
    round_one = tool_calls_response([("u1", "get_text", {})])
    # Cumulative usage chunks within one request: only the last one counts.
    round_one["body"][-1:-1] = sse_body([chunk(no_choices=True, usage=usage(100, 2)),
                                         chunk(no_choices=True, usage=usage(100, 9))],
                                        done=False)
    client = FakeClient(pieces(round_one),
                        pieces(text_response("ok", usage=usage(150, 20,
                                                               completion_tokens_details={
                                                                   "reasoning_tokens": 4}))))
    result, rec, _ = turn(client)
    assert result.usage["prompt_tokens"] == 250
    assert result.usage["completion_tokens"] == 29
    assert result.usage["total_tokens"] == 279
    assert result.usage["completion_tokens_details"] == {"reasoning_tokens": 4}
    usage_events = rec.kinds(USAGE)
    assert usage_events[-1].usage == result.usage
    assert [e.usage["completion_tokens"] for e in usage_events] == [2, 9, 29]


def test_add_usage_ignores_non_numbers():
    total = add_usage({"prompt_tokens": 1, "cost": 0.5, "is_byok": False},
                      {"prompt_tokens": 2, "cost": 0.25, "is_byok": True, "model": "x"})
    assert total == {"prompt_tokens": 3, "cost": 0.75, "is_byok": False}


def test_mid_stream_error_keeps_text_runs_no_tools_and_says_one_sentence():
    log = []
    client = FakeClient(pieces({"body": sse_body([
        text_delta("Half an ans"),
        tool_call_delta(0, id="e1", name="add", arguments='{"a": 1, "b": 2}'),
        {"error": {"message": "Upstream provider crashed", "code": 502}}])}))
    result, rec, conversation = turn(client, log=log)
    assert log == []
    errors = rec.kinds(ERROR)
    assert len(errors) == 1 and "Upstream provider crashed" in errors[0].message
    assert result.error == errors[0].message
    assert conversation.messages[-1] == {"role": "assistant",
                                         "content": "Half an ans [interrupted]"}
    assert rec.events[-1].finish_reason == "error"
    assert_history_valid(conversation.messages)


def test_endpoint_error_at_open_is_one_error_and_keeps_alternation():
    client = FakeClient(EndpointError("The server rejected the API key (401)."))
    result, rec, conversation = turn(client)
    assert [e.message for e in rec.kinds(ERROR)] == ["The server rejected the API key (401)."]
    assert [m["role"] for m in conversation.messages] == ["user", "assistant"]
    assert not result.cancelled and result.rounds == 1


def test_missing_model_is_an_error_event_not_an_exception():
    result, rec, _ = turn(FakeClient(), settings=Settings(model=""))
    assert "Choose a model" in rec.kinds(ERROR)[0].message
    assert rec.events[-1].kind == DONE


def test_reasoning_is_always_emitted_and_kept_hiding_it_is_the_panels_choice():
    client = FakeClient(pieces(text_response("Answer.", reasoning="Secret musing")))
    result, rec, _ = turn(client, settings=SETTINGS.copy(show_thinking=False))
    assert "".join(e.text for e in rec.kinds(REASONING)) == "Secret musing"
    assert "thinking" in [e.text for e in rec.kinds(STATUS)]
    assert result.reasoning == "Secret musing"


# ---------------------------------------------------------------- end to end


def real_client(srv, **changes):
    settings = SETTINGS.copy(endpoint=srv.url, api_key="sk-e2e", read_timeout=5.0, **changes)
    return ChatClient(settings, backoff=(0.05,)), settings


def test_end_to_end_tool_loop_against_the_scripted_server():
    script = [tool_calls_response([("s1", "add", {"a": 20, "b": 22}), ("s2", "get_text", {})],
                                  usage=usage(30, 10), chunked=True, split=[3, 1, 8]),
              text_response("The sum is 42.", usage=usage(60, 5), split=[5, 2])]
    with ScriptedServer(script) as srv:
        client, settings = real_client(srv)
        recorder = Recorder()
        conversation = Conversation()
        result = run_turn(client, conversation, "Add them", make_registry(), settings,
                          recorder, CancelToken(), context="Empty document")
    assert result.text == "The sum is 42."
    assert result.usage["total_tokens"] == 105
    first, second = [r.json for r in srv.chat_requests]
    assert first["messages"][1:] == [{"role": "user", "content": "Add them"}]
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool",
                                                      "tool"]
    assert second["messages"][3] == {"role": "tool", "tool_call_id": "s1",
                                     "content": '{"sum": 42}'}
    assert srv.chat_requests[1].headers["authorization"] == "Bearer sk-e2e"
    assert recorder.events[-1].kind == DONE


def test_end_to_end_cancel_during_a_stalled_stream():
    # The text shows before the stall (nothing is held back for <think>).
    words = "Thinking about it. " * 16
    script = [{"body": sse_body([text_delta(words)], done=False) + [{"sleep": 10}]}]
    with ScriptedServer(script) as srv:
        client, settings = real_client(srv)
        cancel = CancelToken()
        fired = []

        def on_event(event):
            if event.kind == TEXT and not fired:
                def stop():
                    time.sleep(0.1)
                    fired.append(time.monotonic())
                    cancel.cancel()
                threading.Thread(target=stop, daemon=True).start()
        conversation = Conversation()
        result = run_turn(client, conversation, "Go", make_registry(), settings, on_event,
                          cancel)
        latency = time.monotonic() - fired[0]
    print("loop cancel latency: %.3f s" % latency)
    assert latency < 0.5
    assert result.cancelled
    assert conversation.messages[-1] == {"role": "assistant",
                                         "content": words + " [stopped]"}


def test_end_to_end_server_error_is_one_sentence():
    with ScriptedServer([{"status": 401, "headers": {"Content-Type": "application/json"},
                          "body": [json.dumps({"error": {"message": "Invalid key."}})]}]) as srv:
        client, settings = real_client(srv)
        recorder = Recorder()
        result = run_turn(client, Conversation(), "Hi", make_registry(), settings, recorder,
                          CancelToken())
    errors = recorder.kinds(ERROR)
    assert len(errors) == 1 and errors[0].message.startswith("The server rejected the API key")
    assert result.error == errors[0].message


def test_a_call_written_as_a_json_block_runs_and_is_never_shown():
    # Small local models (Qwen2.5-Coder on llama.cpp): the call as a JSON block in the text.
    log = []
    client = FakeClient(
        pieces(text_response('```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```')),
        pieces(text_response("It is 3.")))
    result, rec, conversation = turn(client, log=log)
    assert log == [("add", 1, 2)]
    assert "".join(e.text for e in rec.kinds(TEXT)) == "It is 3." == result.text
    assert_history_valid(conversation.messages)


def test_without_a_registry_a_called_tool_is_an_error_result_not_an_exception():
    client = FakeClient(
        pieces(text_response('<tool_call>{"name": "get_text", "arguments": {}}</tool_call>')),
        pieces(text_response("I cannot read it, sorry.")))
    recorder = Recorder()
    conversation = Conversation()
    result = run_turn(client, conversation, "Read it", None, SETTINGS, recorder, CancelToken())
    assert "tools" not in client.bodies[0]
    assert "cannot edit the document" in client.bodies[0]["messages"][0]["content"]
    results = recorder.kinds(TOOL_RESULT)
    assert len(results) == 1 and not results[0].ok
    assert "no tool named 'get_text'" in results[0].result
    assert result.text.endswith("I cannot read it, sorry.") and result.error is None
    assert_history_valid(conversation.messages)


def test_end_to_end_a_call_written_with_doubled_braces_runs():
    # Issue 25: Qwen2.5-Coder-1.5B behind llama.cpp answered "Fix the spelling mistakes"
    # with this text, no structured call; it was shown and nothing was edited.
    written = ('{{"name": "replace_text", "arguments": '
               '{{"search": "recieve", "replacement": "receive"}}}}')
    log = []
    registry = ToolRegistry()

    def replace_text(search, replacement):
        log.append((search, replacement))
        return {"replaced": 1}
    registry.register("replace_text", "Replace text everywhere.", {"type": "object", "properties": {
        "search": {"type": "string"}, "replacement": {"type": "string"}}}, replace_text)
    script = [text_response(written, pieces=7, chunked=True, split=[5, 3, 11]),
              text_response("Fixed one spelling mistake.")]
    with ScriptedServer(script) as srv:
        client, settings = real_client(srv)
        recorder = Recorder()
        conversation = Conversation()
        result = run_turn(client, conversation, "Fix the spelling mistakes in this document.",
                          registry, settings, recorder, CancelToken())
    assert log == [("recieve", "receive")]
    assert "".join(e.text for e in recorder.kinds(TEXT)) == "Fixed one spelling mistake."
    assert result.text == "Fixed one spelling mistake." and result.error is None
    assert [e.ok for e in recorder.kinds(TOOL_RESULT)] == [True]
    second = srv.chat_requests[1].json["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool"]
    called = second[2]["tool_calls"][0]["function"]
    assert called["name"] == "replace_text"
    assert json.loads(called["arguments"]) == {"search": "recieve", "replacement": "receive"}
    assert_history_valid(conversation.messages)


def _cut_turn(body_chunks, **response):
    """A turn against the real scripted server whose stream ends after ``body_chunks``
    with a plain close: no finish reason, no [DONE]."""
    script = [dict({"body": sse_body(body_chunks, done=False), "delay": 0.01,
                    "split": [7, 3, 11]}, **response), text_response("Never asked.")]
    log = []
    with ScriptedServer(script) as srv:
        client, settings = real_client(srv)
        recorder, conversation = Recorder(), Conversation()
        result = run_turn(client, conversation, "Go", make_registry(log), settings, recorder,
                          CancelToken())
        asked = len(srv.chat_requests)
    return result, recorder, conversation, log, asked


def test_an_answer_cut_after_whole_events_ends_the_turn_as_cut_keeping_its_text():
    result, recorder, conversation, log, asked = _cut_turn(
        [text_delta("Tighten it: a reader can try to s")])
    errors = recorder.kinds(ERROR)
    assert [e.message for e in errors] == [
        "The connection to the server closed before the answer finished."]
    assert result.error == errors[0].message
    assert recorder.events[-1].kind == DONE and recorder.events[-1].finish_reason == "cut"
    assert "".join(e.text for e in recorder.kinds(TEXT)) == "Tighten it: a reader can try to s"
    assert conversation.messages[-1] == {
        "role": "assistant", "content": "Tighten it: a reader can try to s [interrupted]"}
    assert asked == 1


def test_a_cut_inside_the_second_of_two_calls_runs_neither():
    result, recorder, conversation, log, asked = _cut_turn([
        tool_call_delta(0, id="a", name="add", arguments='{"a": 1, "b": 2}'),
        tool_call_delta(1, id="b", name="get_text", arguments='{"sta')])
    assert log == [] and recorder.kinds(TOOL_CALL) == []
    assert recorder.events[-1].finish_reason == "cut" and result.error
    assert asked == 1                      # nothing went back to the model as a failed call
    assert_history_valid(conversation.messages)


def test_a_cut_after_an_edit_round_is_told():
    script = [tool_calls_response([("s1", "add", {"a": 20, "b": 22})]),
              {"body": sse_body([text_delta("I added th")], done=False)}]
    log = []
    with ScriptedServer(script) as srv:
        client, settings = real_client(srv)
        recorder = Recorder()
        result = run_turn(client, Conversation(), "Go", make_registry(log), settings, recorder,
                          CancelToken())
    assert log == [("add", 20, 22)]        # the first round's call ran
    assert recorder.events[-1].finish_reason == "cut"
    assert result.error == "The connection to the server closed before the answer finished."


def test_a_connection_reset_mid_answer_is_a_cut_too():
    result, recorder, _, _, _ = _cut_turn([text_delta("Half an ans")],
                                          body=sse_body([text_delta("Half an ans")],
                                                        done=False) + [{"cut": True}],
                                          chunked=True)
    assert recorder.events[-1].finish_reason == "cut" and result.error

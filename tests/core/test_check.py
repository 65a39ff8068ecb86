"""Test connection against a scripted server, and a model that cannot call tools still chats."""

import json

from marginalia.chat.check import AS_TEXT, NOT_CALLED, REFUSED, STRUCTURED, TOOL, check
from marginalia.chat.loop import NO_EDITS, Conversation, run_turn
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.transport import CancelToken, ChatClient
from marginalia.config import Settings
from marginalia.chat.budget import Window
from marginalia.events import CONTEXT, ERROR, NOTICE
from marginalia.ui.check_report import report_lines, report_summary, report_text
from tests.support.sse_server import (ScriptedServer, error_response, json_response,
                                      text_response, tool_calls_response)

OLLAMA_REFUSAL = error_response(400, "registry.ollama.ai/library/gemma:2b does not support tools")


def settings_for(srv, **changes):
    values = dict(provider="custom", endpoint=srv.url, model="test-model")
    values.update(changes)
    return Settings(**values)


def test_a_model_that_calls_the_tool_and_thinks_is_reported_in_a_few_lines():
    answer = tool_calls_response([("call_1", "get_secret_word", {})],
                                 reasoning="The user wants me to call the tool.")
    # As vLLM lists its models: with max_model_len.
    models = json_response({"data": [{"id": "test-model", "max_model_len": 32768}]})
    with ScriptedServer([answer], models=models) as srv:
        settings = settings_for(srv)
        report = check(settings)
        sent = srv.chat_requests[0].json
    assert report.error is None and report.reached and report.model_listed
    assert (report.streamed, report.tools, report.thinking) == (True, STRUCTURED, True)
    assert report.window.tokens == 32768
    assert sent["stream"] is True and sent["tools"] == [TOOL]
    assert report_lines(report, settings) == [
        'Connected to %s; the model "test-model" is available.' % settings.endpoint,
        "streaming \u2714 \u00b7 tool calls: structured \u2714 \u00b7 thinking: shown",
        "context window: 32,768 tokens"]
    assert report_text(report, settings, lines=2).count("\n") == 1
    assert report_summary(report, settings) == ("Connected: streaming \u2714 \u00b7 tool calls "
                                                "\u2714 \u00b7 thinking shown \u00b7 window "
                                                "32,768.")


def test_calls_written_as_text_and_no_call_at_all_are_told_apart():
    text_call = text_response('<tool_call>{"name": "get_secret_word", "arguments": {}}'
                              '</tool_call>')
    with ScriptedServer([text_call, text_response("The word is banana.")]) as srv:
        first = check(settings_for(srv))
        second = check(settings_for(srv))
    assert (first.tools, first.thinking) == (AS_TEXT, False)
    assert second.tools == NOT_CALLED
    lines = report_lines(first, settings_for(srv))
    assert "tool calls: written as text \u2714" in lines[1] and "thinking: none" in lines[1]
    assert "context window: not reported by the server" in lines


def test_a_server_that_ignores_streaming_and_a_model_not_listed():
    whole = json_response({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [{
            "id": "c1", "type": "function",
            "function": {"name": "get_secret_word", "arguments": "{}"}}]}}]})
    with ScriptedServer([whole], models=("other-model", "test-model")) as srv:
        report = check(settings_for(srv))
    assert (report.streamed, report.tools) == (False, STRUCTURED)
    with ScriptedServer([], models=("other-model",)) as srv:
        missing = check(settings_for(srv, model="mistral"))
    assert missing.model_listed is False and missing.tools is None   # nothing asked of it
    assert report_lines(missing, settings_for(srv, model="mistral")) == [
        'Connected to %s, but it has no model named "mistral"; choose one from the list.'
        % srv.url]


def test_a_bad_key_or_no_server_is_one_sentence():
    with ScriptedServer([], api_key="sk-right") as srv:
        settings = settings_for(srv, api_key="sk-wrong")
        report = check(settings)
    assert not report.reached and "rejected the API key" in report.error
    assert report_lines(report, settings) == [report.error]


def test_ollamas_does_not_support_tools_is_reported_and_the_turn_chats_without_tools():
    with ScriptedServer([OLLAMA_REFUSAL], models=("gemma:2b",)) as srv:
        report = check(settings_for(srv, provider="custom", model="gemma:2b"))
    assert report.tools == REFUSED and report.error is None
    assert "not supported \u2718 (edits are unavailable with this model)" in \
        report_lines(report, settings_for(srv))[1]
    assert report_summary(report, settings_for(srv)) == (
        "Connected: tool calls \u2718: edits unavailable with this model.")

    registry = ToolRegistry()
    registry.register("read_document", "Read the document. " * 250, {"type": "object"},
                      lambda: "text")
    with ScriptedServer([OLLAMA_REFUSAL, text_response("Here is a suggestion.")]) as srv:
        settings = settings_for(srv, provider="custom", model="gemma:2b")
        events = []
        result = run_turn(ChatClient(settings), Conversation(), "Improve paragraph 2.",
                          registry, settings, events.append, CancelToken(),
                          window=Window(32768))
        bodies = [r.json for r in srv.chat_requests]
    assert result.error is None and result.text == "Here is a suggestion."
    assert [e.message for e in events if e.kind == NOTICE] == [NO_EDITS]
    assert not [e for e in events if e.kind == ERROR]
    assert "tools" in bodies[0] and "tools" not in bodies[1]
    # The meter's estimate for the resend no longer counts the tool schemas.
    meters = [e.usage["tokens"] for e in events if e.kind == CONTEXT]
    assert len(meters) == 2 and meters[0] - meters[1] > 1000
    assert "cannot edit the document in this session" in bodies[1]["messages"][0]["content"]
    assert json.dumps(bodies[1]).count("Improve paragraph 2.") == 1

"""Tool schemas Gemini refuses: resent once stripped, then sent stripped from the start.

Against the real scripted server on 127.0.0.1. Each test's server has its own
port and the endpoint a path no other test uses, so the in-process memory of
refusing servers cannot leak between tests.
"""

import copy
import json

import pytest

from marginalia.chat.server_errors import rejects_schema_keywords
from marginalia.chat.toolschema import strip_schema, strip_tools
from marginalia.chat.transport import ChatClient
from marginalia.config import Settings
from marginalia.errors import EndpointError
from tests.support.sse_server import error_response, text_response

# What a tool registry builds from a signature, with the keywords Gemini refuses, and
# properties that happen to be named like them.
PARAMETERS = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "title": "set_heading",
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string", "title": "Title", "description": "the heading's text"},
        "default": {"type": "boolean", "default": False},
        "level": {"type": "integer", "enum": [1, 2, 3], "default": 1},
        "style": {"anyOf": [{"type": "string", "title": "name"},
                            {"type": "object", "additionalProperties": {"type": "string"},
                             "properties": {"title": {"type": "string"}}}]},
        "marks": {"type": "array", "items": {"type": "object", "title": "Mark",
                                             "additionalProperties": False}},
    },
    "required": ["title"],
}
STRIPPED = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "description": "the heading's text"},
        "default": {"type": "boolean"},
        "level": {"type": "integer", "enum": [1, 2, 3]},
        "style": {"anyOf": [{"type": "string"},
                            {"type": "object", "properties": {"title": {"type": "string"}}}]},
        "marks": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["title"],
}
TOOLS = [{"type": "function", "function": {"name": "set_heading",
                                           "description": "Make a heading.",
                                           "parameters": PARAMETERS}}]
BODY = {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "hi"}],
        "stream": True, "stream_options": {"include_usage": True}, "tools": TOOLS}

GEMINI_MESSAGE = ('Invalid JSON payload received. Unknown name "additionalProperties" at '
                  "'tools[0].function.parameters': Cannot find field.")


def gemini_refusal():
    """Gemini's OpenAI-compatible endpoint: a list holding one error object."""
    error = {"code": 400, "message": GEMINI_MESSAGE, "status": "INVALID_ARGUMENT"}
    return {"status": 400, "headers": {"Content-Type": "application/json"},
            "body": [json.dumps([{"error": error}])]}


def make_client(server, path):
    settings = Settings(endpoint=server.root + path, model="gemini-2.5-flash",
                        api_key="sk-gemini-test", connect_timeout=2.0, read_timeout=5.0)
    return ChatClient(settings, backoff=(0.05,))


def sent_parameters(request):
    return request.json["tools"][0]["function"]["parameters"]


def test_stripping_keeps_properties_named_like_keywords_and_data_as_written():
    assert strip_schema(PARAMETERS) == STRIPPED
    assert strip_schema({"enum": [{"title": "kept", "default": 1}]}) == \
        {"enum": [{"title": "kept", "default": 1}]}
    original = copy.deepcopy(BODY)
    stripped = strip_tools(BODY)
    assert BODY == original  # the caller's body is never changed in place
    assert stripped["tools"][0]["function"]["name"] == "set_heading"
    assert stripped["tools"][0]["function"]["parameters"] == STRIPPED
    assert strip_tools(dict(BODY, tools=[{"type": "function", "function": {
        "name": "f", "parameters": STRIPPED}}])) is None  # nothing left to strip
    assert strip_tools({"model": "m"}) is None


@pytest.mark.parametrize("body", [
    json.dumps([{"error": {"code": 400, "message": GEMINI_MESSAGE}}]),
    json.dumps({"error": {"message": GEMINI_MESSAGE.replace("additionalProperties", "$schema")}}),
    # A gateway in front of Gemini, quoting the provider's answer inside its own.
    json.dumps({"error": {"message": "Provider returned error", "metadata": {
        "raw": json.dumps({"error": {"message": GEMINI_MESSAGE.replace(
            "additionalProperties", "title")}})}}}),
    'Invalid JSON payload received. Unknown name "default" at \'tools[0]\'',
])
def test_the_refusal_is_recognised_in_every_shape(body):
    assert rejects_schema_keywords(400, body.encode("utf-8"))


@pytest.mark.parametrize("status, body", [
    (400, json.dumps({"error": {"message": 'Invalid JSON payload received. Unknown name '
                                           '"foo": Cannot find field.'}})),
    (400, json.dumps({"error": {"message": "This model's maximum context length is 8192"}})),
    (500, json.dumps([{"error": {"message": GEMINI_MESSAGE}}])),
])
def test_other_answers_are_not_a_schema_refusal(status, body):
    assert not rejects_schema_keywords(status, body.encode("utf-8"))


def test_refusal_then_success_and_later_requests_send_the_stripped_form_at_once(server):
    server.add(gemini_refusal(), text_response("heading made"), text_response("again"))
    data = b"".join(make_client(server, "/v1beta/openai").open_stream(BODY))
    assert b'"finish_reason": "stop"' in data
    first, second = server.chat_requests
    assert sent_parameters(first) == PARAMETERS
    assert sent_parameters(second) == STRIPPED
    assert "title" in sent_parameters(second)["properties"]
    # Only the schemas changed: stream_options was not what the server refused.
    assert second.json["stream_options"] == {"include_usage": True}
    assert second.json["messages"] == BODY["messages"]

    # A later request (a new turn makes a new client) sends the stripped form first.
    later = b"".join(make_client(server, "/v1beta/openai").open_stream(BODY))
    assert b'"finish_reason": "stop"' in later
    assert len(server.chat_requests) == 3
    assert sent_parameters(server.chat_requests[2]) == STRIPPED


def test_another_server_still_gets_the_schemas_as_written(server):
    server.add(gemini_refusal(), text_response("ok"), text_response("elsewhere"))
    list(make_client(server, "/gemini-a").open_stream(BODY))
    list(make_client(server, "/other-b").open_stream(BODY))
    assert sent_parameters(server.chat_requests[2]) == PARAMETERS


def test_a_400_of_another_kind_is_not_retried(server):
    server.add(error_response(400, "Please reduce the length of the messages."),
               text_response("never"))
    with pytest.raises(EndpointError) as info:
        make_client(server, "/not-gemini").open_stream(BODY)
    assert "rejected the request (400)" in str(info.value)
    assert len(server.chat_requests) == 1
    assert sent_parameters(server.chat_requests[0]) == PARAMETERS


def test_a_second_refusal_fails_without_a_third_request(server):
    server.add(gemini_refusal(), gemini_refusal(), text_response("never"))
    with pytest.raises(EndpointError) as info:
        make_client(server, "/still-refusing").open_stream(BODY)
    assert "rejected the request (400)" in str(info.value)
    assert "Unknown name" in str(info.value)
    # Neither a second schema resend nor a stream_options one ("Unknown name" matches both).
    assert len(server.chat_requests) == 2


def test_a_request_without_tools_is_not_resent(server):
    server.add(gemini_refusal(), text_response("never"))
    body = dict((k, v) for k, v in BODY.items() if k not in ("tools", "stream_options"))
    with pytest.raises(EndpointError):
        make_client(server, "/no-tools").open_stream(body)
    assert len(server.chat_requests) == 1

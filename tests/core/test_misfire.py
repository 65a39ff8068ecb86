"""A call written as text: told apart from answers, and told once to the model."""

from marginalia.chat import misfire
from marginalia.chat.loop import Conversation
from marginalia.events import TEXT
from tests.core.test_loop import FakeClient, assert_history_valid, pieces, turn
from tests.support.sse_server import text_response, tool_calls_response

NAMES = ["replace_text", "insert_paragraphs", "read_document"]


def test_calls_written_into_prose_are_misfires():
    said = [
        'Here is the corrected text: {{"name": "replace_text", "arguments": {"search": "a"}}}',
        "I will call {'name': 'insert_paragraphs', 'arguments': {}} now.",
        'Sure:\n```\n{"name": "functions.read_document", "arguments": {}\n```\nDone.',
        'replace_text(search="recieve", replacement="receive")',
        "First I call read_document() and then fix it.",
        "<tools> {\"name\": \"replace_text\", \"arguments\": {\"search\": \"c",
        'Replace_text, {"search": "client", "replacement": "customer"}',
    ]
    assert [misfire.misfired(text, NAMES) for text in said] == [
        "replace_text", "insert_paragraphs", "read_document", "replace_text",
        "read_document", "replace_text", "replace_text"]


def test_answers_that_only_talk_are_not():
    said = [
        "I will help you fix the spelling mistakes in the document.",
        "Ada Brandt founded the company in 1987.",
        "You can use replace_text to change words, or ask me to.",
        'The JSON you asked for: {"name": "Ada", "age": 40}',
        'my_replace_text(search="x")',
        "",
    ]
    assert [misfire.misfired(text, NAMES) for text in said] == [None] * len(said)
    assert misfire.misfired('{"name": "delete_paragraphs"}', NAMES) is None   # not offered


def test_forget_takes_out_only_the_answer_and_the_nudge_it_added():
    messages = [{"role": "user", "content": "Fix it"},
                {"role": "assistant", "content": 'replace_text(search="a")'}]
    at = misfire.tell(messages, messages[-1]["content"], NAMES)
    assert at == 1 and messages[2]["role"] == "user"
    assert messages[2]["content"].startswith("Nothing changed: you wrote the call to "
                                             "replace_text")
    messages.append({"role": "assistant", "content": "Done."})
    misfire.forget(messages, at)
    assert messages == [{"role": "user", "content": "Fix it"},
                        {"role": "assistant", "content": "Done."}]
    misfire.forget(messages, 0)           # nothing the nudge put there: left alone
    assert len(messages) == 2


def test_the_loop_tells_the_model_once_and_the_call_that_follows_runs():
    log = []
    client = FakeClient(
        pieces(text_response('Here you go: {{"name": "get_text", "arguments": {"start": 1}}}')),
        pieces(tool_calls_response([("c1", "get_text", {"start": 1})])),
        pieces(text_response("It is about a fox.")))
    result, rec, conversation = turn(client, text="Read it", log=log)
    assert log == [("get_text", 1)]
    assert result.tool_calls == [("get_text", True)] and result.rounds == 3
    nudge = client.bodies[1]["messages"][-1]
    assert nudge["role"] == "user" and "get_text" in nudge["content"]
    # What the user saw stays in the panel; the history keeps only the real call.
    shown = "".join(e.text for e in rec.kinds(TEXT))
    assert shown.startswith("Here you go:") and shown.endswith("It is about a fox.")
    assert [m["role"] for m in conversation.messages] == ["user", "assistant", "tool",
                                                           "assistant"]
    assert_history_valid(conversation.messages)


def test_a_second_misfire_ends_the_turn_as_text():
    again = 'get_text(start=1)'
    client = FakeClient(pieces(text_response(again)), pieces(text_response(again)))
    result, _rec, conversation = turn(client, text="Read it")
    assert result.rounds == 2 and result.tool_calls == []
    assert [m["role"] for m in conversation.messages] == ["user", "assistant"]
    assert conversation.messages[-1]["content"] == again


def test_an_answer_without_a_call_is_not_nudged():
    client = FakeClient(pieces(text_response("You could call get_text for that.")))
    result, _rec, conversation = turn(client, text="How?")
    assert result.rounds == 1 and len(client.bodies) == 1
    assert len(conversation) == 2
    assert isinstance(conversation, Conversation)


def test_a_call_to_a_tool_that_does_not_exist_is_told_the_tools():
    said = '```json\n{"name": "search_text", "arguments": {"query": "invoice"}}\n```'
    assert misfire.misfired(said, NAMES) is None
    assert misfire.unknown_call(said, NAMES) == "search_text"
    messages = [{"role": "user", "content": "What is the invoice number?"},
                {"role": "assistant", "content": said}]
    at = misfire.tell(messages, said, NAMES)
    assert at == 1 and "there is no tool named search_text" in messages[2]["content"]
    assert "replace_text, insert_paragraphs, read_document" in messages[2]["content"]
    misfire.forget(messages, at)
    assert len(messages) == 1
    # Plain JSON data a user asked for is no call.
    assert misfire.unknown_call('{"name": "Ada", "age": 40}', NAMES) is None

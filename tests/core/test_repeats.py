"""A model that repeats the same call with the same result is told, then stopped."""

import functools

from marginalia.chat.loop import Conversation, run_turn
from marginalia.chat.repeats import REPEATED, STUCK, RepeatWatch
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.transport import CancelToken
from marginalia.config import Settings
from marginalia.errors import ToolError
from marginalia.events import DONE, ERROR, TOOL_RESULT
from tests.support.tokens import CountingModel, answer, calls


def registry():
    tools = ToolRegistry()

    def replace_text(search, replacement):
        raise ToolError("No text matches %r." % search)

    def search_document(query):
        return {"query": query, "count": 0, "matches": []}

    tools.register("replace_text", "Replace text.", {"type": "object"}, replace_text, edits=True)
    tools.register("search_document", "Find text.", {"type": "object"}, search_document)
    return tools


def run(replies, max_rounds=12):
    model = CountingModel(replies)
    events = []
    conversation = Conversation()
    result = run_turn(model, conversation, "Fix the word 'teh'.", registry(),
                      Settings(model="qwen-0.5b", max_rounds=max_rounds), events.append,
                      CancelToken())
    return model, events, conversation, result


def test_the_same_failing_call_is_told_then_the_turn_ends_with_one_sentence():
    # As the 0.5B model did: replace_text and search_document in turn, same arguments.
    fix = functools.partial(calls, [("a", "replace_text", {"search": "teh",
                                                           "replacement": "the"})])
    look = functools.partial(calls, [("b", "search_document", {"query": "teh"})])
    model, events, conversation, result = run([fix, look] * 6)
    results = [e.result for e in events if e.kind == TOOL_RESULT]
    assert REPEATED not in results[0] and REPEATED not in results[1]
    assert results[2].endswith(REPEATED) and results[3].endswith(REPEATED)
    assert len(model.bodies) == 5              # not 12 rounds
    sentence = STUCK % "replace_text"
    assert result.error == sentence
    assert [e.message for e in events if e.kind == ERROR] == [sentence]
    assert [e.finish_reason for e in events if e.kind == DONE] == ["repeating"]
    # Every call kept its result: the history can be sent again.
    tool_ids = [m["tool_call_id"] for m in conversation.messages if m["role"] == "tool"]
    assert len(tool_ids) == 5


def test_different_arguments_or_a_changed_result_are_not_repeats():
    watch = RepeatWatch()
    assert watch.seen_before("read_document", '{"start": 1, "end": 3}', "1: a") == 0
    assert watch.seen_before("read_document", '{"end": 3, "start": 1}', "1: a") == 1
    assert watch.seen_before("read_document", '{"start": 1, "end": 3}', "1: b") == 0
    assert watch.seen_before("read_document", '{"start": 2, "end": 3}', "1: a") == 0
    assert watch.stuck is None
    assert watch.seen_before("read_document", '{"start":1,"end":3}', "1: a") == 2
    assert watch.stuck == "read_document"


def test_a_normal_turn_is_untouched():
    look = functools.partial(calls, [("b", "search_document", {"query": "teh"})])
    model, events, _conversation, result = run([look, functools.partial(answer, "Fixed.")])
    assert result.error is None and result.text == "Fixed."
    assert all(REPEATED not in e.result for e in events if e.kind == TOOL_RESULT)

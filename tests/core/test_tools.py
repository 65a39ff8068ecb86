"""The tool registry (chat/tools.py): who is blamed when a call goes wrong."""

import functools
import logging

import pytest

from marginalia.chat.tools import ToolOutput, ToolRegistry, ToolResult, parse_arguments
from marginalia.document import tool_lines
from marginalia.errors import Cancelled, ToolError


def word_count(text, minimum=1):
    """A real tool with a bug: a string ``minimum`` makes its comparison raise TypeError."""
    words = [w for w in text.split() if len(w) >= minimum]
    return {"words": len(words)}


def registry_with(*tools, invoke=None):
    registry = ToolRegistry(invoke=invoke)
    for name, fn in tools:
        registry.register(name, "A test tool.", {"type": "object"}, fn)
    return registry


def test_a_missing_argument_is_the_models_error_and_the_tool_never_runs():
    ran = []

    def insert(markdown, after_paragraph):
        ran.append((markdown, after_paragraph))

    result = registry_with(("insert", insert)).call("insert", '{"markdown": "x"}')
    assert result == ToolResult(False, "Error: bad arguments for insert: it needs "
                                "after_paragraph.", "insert failed: bad arguments",
                                tool_lines.incomplete_request())
    assert ran == []


def test_an_unknown_argument_is_named_back_to_the_model():
    result = registry_with(("word_count", word_count)).call(
        "word_count", {"text": "a b", "colour": "red"})
    assert not result.ok
    # In words the model can act on, not Python's ("got an unexpected keyword argument").
    assert result.content == ("Error: bad arguments for word_count: it has no argument "
                              "\u201ccolour\u201d (its arguments: text, minimum).")
    assert result.summary == "word_count failed: bad arguments"


def test_a_type_error_inside_a_tool_is_a_tool_failure_logged_with_its_traceback(caplog):
    registry = registry_with(("word_count", word_count))
    with caplog.at_level(logging.ERROR, logger="marginalia.chat.tools"):
        result = registry.call("word_count", '{"text": "a bb ccc", "minimum": "2"}')
    assert not result.ok
    assert "bad arguments" not in result.content
    # One plain sentence: the exception's own text stays in the log.
    assert result.content.startswith("Error: word_count failed because of a fault inside")
    assert "not supported" not in result.content and "TypeError" not in result.content
    assert result.summary == "word_count failed"
    [record] = caplog.records
    assert record.exc_info and record.exc_info[0] is TypeError
    assert "word_count raised" in record.getMessage()


def test_arguments_are_bound_before_the_invoke_hook_runs():
    seen = []

    def invoke(tool, kwargs):
        seen.append((tool.name, kwargs))
        return tool.fn(**kwargs)

    registry = registry_with(("word_count", word_count), invoke=invoke)
    assert not registry.call("word_count", "{}").ok
    assert seen == []
    result = registry.call("word_count", '{"text": "one two"}')
    assert result == ToolResult(True, '{"words": 2}', "word_count")
    assert seen == [("word_count", {"text": "one two"})]


def test_a_partial_exposes_the_signature_left_to_the_model():
    def tool(doc, text):
        return ToolOutput("%s:%s" % (doc, text), "Read %s" % doc)

    registry = registry_with(("read", functools.partial(tool, "doc1")))
    assert registry.call("read", {"text": "hi"}) == ToolResult(True, "doc1:hi", "Read doc1")
    refused = registry.call("read", {"doc": "other", "text": "hi"})
    assert "it has no argument \u201cdoc\u201d (its arguments: text)" in refused.content


def test_refusals_cancellation_and_unknown_tools():
    def refuse():
        raise ToolError("That paragraph does not exist.")

    def stop():
        raise Cancelled()

    registry = registry_with(("refuse", refuse), ("stop", stop))
    assert registry.call("refuse", None) == ToolResult(
        False, "Error: That paragraph does not exist.",
        "refuse failed: That paragraph does not exist.")
    with pytest.raises(Cancelled):
        registry.call("stop", "")
    unknown = registry.call("nope", "{}")
    assert unknown.content == "Error: there is no tool named 'nope'. Available tools: refuse, stop."
    assert [s["function"]["name"] for s in registry.schemas()] == ["refuse", "stop"]
    with pytest.raises(ValueError):
        registry.register("stop", "again", {}, stop)


@pytest.mark.parametrize("arguments, expected", [
    (None, {}), ("", {}), (" null ", {}), ("null", {}), ('{"a": 1}', {"a": 1}),
    ({"b": 2}, {"b": 2})])
def test_parse_arguments(arguments, expected):
    assert parse_arguments(arguments) == expected


@pytest.mark.parametrize("arguments, words", [
    ('{"a": ', "not valid JSON"), ("[1, 2]", "must be a JSON object")])
def test_arguments_that_are_not_an_object_are_refused(arguments, words):
    with pytest.raises(ToolError) as info:
        parse_arguments(arguments)
    assert words in str(info.value)

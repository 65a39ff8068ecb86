"""Tool calls written as text: parsing, and markup never reaching the display."""

import json
import random

import pytest

from marginalia.chat.textcalls import JSON_HOLD_LIMIT, TextCallFilter, parse, tool_names


def run(chunks, names=()):
    flt = TextCallFilter(names)
    shown = [flt.feed(c) for c in chunks]
    tail, calls = flt.finish()
    return "".join(shown) + tail, calls, shown


def every_split(whole, seed=11, names=()):
    """(displayed, calls) identical for every two-way cut, char by char and random cuts."""
    reference = run([whole], names)[:2]
    for cut in range(len(whole) + 1):
        assert run([whole[:cut], whole[cut:]], names)[:2] == reference, cut
    assert run(list(whole), names)[:2] == reference
    rng = random.Random(seed)
    for _ in range(10):
        cuts = sorted(rng.sample(range(1, len(whole)), min(len(whole) - 1, 5)))
        edges = [0] + cuts + [len(whole)]
        assert run([whole[a:b] for a, b in zip(edges, edges[1:])], names)[:2] == reference
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


# -- tool calls written as JSON blocks (only with the offered tool names) ----------

TOOLS = ("replace_text", "get_paragraph", "count_words")
CALL = '{"name": "replace_text", "arguments": {"search": "teh", "replace": "the"}}'


def json_calls(text):
    """every_split with the offered names; also: nothing is shown before the end."""
    shown, calls = every_split(text, names=TOOLS)
    if calls:
        assert "".join(run(list(text), TOOLS)[2]) == ""
    return shown, named(calls)


@pytest.mark.parametrize("text", [
    "```json\n" + CALL + "\n```",                 # Qwen2.5-Coder on llama.cpp
    "```\n" + CALL + "\n```\n",
    "```JSON\n" + CALL + "```",
    CALL,                                            # the same object on a bare line
    "\n  " + CALL + "  \n\n",
    "```json\n" + CALL + "\n",                      # the closing fence never came
    '{"name": "replace_text", "parameters": {"search": "teh", "replace": "the"}}',
    '{"type": "function", "name": "replace_text", "arguments": '
    '"{\\"search\\": \\"teh\\", \\"replace\\": \\"the\\"}"}',
])
def test_json_block_call_forms(text):
    shown, calls = json_calls(text)
    assert shown == ""
    assert calls == [("replace_text", {"search": "teh", "replace": "the"})]


def test_several_json_blocks_are_several_calls_in_order():
    text = ("```json\n" + CALL + "\n```\n\n"
            '{"name": "get_paragraph", "arguments": {"index": 2}}\n'
            '```json\n{"name": "count_words", "arguments": {}}\n```')
    shown, calls = json_calls(text)
    assert shown == ""
    assert [c[0] for c in calls] == ["replace_text", "get_paragraph", "count_words"]


@pytest.mark.parametrize("text", [
    '{"name": "delete_everything", "arguments": {}}',               # not an offered tool
    '```json\n{"title": "Spring", "tags": ["a", "b"]}\n```',        # JSON the user asked for
    "Here it is:\n```json\n" + CALL + "\n```",                     # prose before
    "```json\n" + CALL + "\n```\nDone, I fixed it.",               # prose after
    CALL + " and that is all",                                      # prose on the line
    '{"name": "replace_text", "arguments": [1, 2]}',                # arguments not an object
    '{"name": "replace_text", "arguments": "not json"}',
    '{"name": "replace_text", "arguments": "[1]"}',
    '{"name": "replace_text"}',                                     # no arguments at all
    '{"name": "replace_text", "arguments": {}, "note": "x"}',      # a key a call never has
    '```python\nprint({"name": "replace_text", "arguments": {}})\n```',
    "```json\n" + CALL[:-5],                                        # cut inside the object
    "{not json at all}",
    "{}",
    "```",
])
def test_anything_else_stays_text(text):
    shown, calls = json_calls(text)
    assert calls == [] and shown == text


def test_without_offered_tools_json_is_text_and_streams_at_once():
    shown, calls, pieces = run([CALL[:10], CALL[10:]])
    assert calls == [] and pieces == [CALL[:10], CALL[10:]] and shown == CALL


@pytest.mark.parametrize("text, shown_by", [
    ('{"title": "Spring", "body": "' + "x" * 500 + '"}', len('{"title":')),
    ('{"name": "nope", "arguments": {"text": "' + "x" * 500 + '"}}', len('{"name": "nope"')),
    ("```python\n" + "x = 1\n" * 100 + "```", len("```p")),
    ("Plain answer " * 40, 1),
])
def test_text_that_cannot_be_a_json_call_is_released_early(text, shown_by):
    _, calls, pieces = run(list(text), TOOLS)
    assert calls == []
    assert "".join(pieces) == text                 # all of it streamed, none held to the end
    assert "".join(pieces[:shown_by]) == text[:shown_by]


def test_json_hold_back_is_bounded():
    big = '{"name": "replace_text", "arguments": {"replace": "' + "y" * JSON_HOLD_LIMIT + '"}}'
    shown, calls, pieces = run([big[i:i + 100] for i in range(0, len(big), 100)], TOOLS)
    assert calls == [] and shown == big
    # Released by the first piece past the limit, not at the end.
    first = JSON_HOLD_LIMIT // 100 + 1
    assert "".join(pieces[:first]) == big[:first * 100] and len(big) > first * 100


def test_markers_after_a_released_json_start_still_work():
    text = '{"answer": 42}\n<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    shown, calls = every_split(text, names=TOOLS)
    assert shown == '{"answer": 42}\n' and named(calls) == [("f", {})]


def test_json_calls_are_released_as_text_when_calls_are_not_allowed():
    flt = TextCallFilter(TOOLS)
    assert flt.feed(CALL) == ""
    assert flt.finish(calls_allowed=False) == (CALL, [])


def test_raw_pending_includes_a_held_json_start():
    flt = TextCallFilter(TOOLS)
    assert flt.feed('{"name": "replace') == ""
    assert flt.raw_pending() == '{"name": "replace'


def test_tool_names_from_schemas():
    schemas = [{"type": "function", "function": {"name": "a", "parameters": {}}},
               {"type": "function", "function": {}}, "junk", {"function": {"name": "b"}}]
    assert tool_names(schemas) == ["a", "b"]
    assert tool_names(None) == []


# -- near-misses small models write (issue 25): still calls ------------------------
# Each is what a small model (Qwen2.5 0.5B-7B, Llama 3.2 1B/3B, Phi) was seen to write
# on llama.cpp or Ollama instead of its template's call format.

ARGS = {"search": "teh", "replace": "the"}
QWEN_DOUBLED = '{{"name": "replace_text", "arguments": {{"search": "teh", "replace": "the"}}}}'


@pytest.mark.parametrize("text", [
    QWEN_DOUBLED,                                    # Qwen2.5-Coder-1.5B on llama.cpp
    "```json\n" + QWEN_DOUBLED + "\n```",
    '{{"name": "replace_text", "arguments": {"search": "teh", "replace": "the"}}}',
    '{{ "name": "replace_text", "arguments": {{"search": "teh", "replace": "the"}} }}',
    '{{"name": "replace_text", "arguments": {{"search": "teh", "replace": "the"}}}',  # one short
    "{'name': 'replace_text', 'arguments': {'search': 'teh', 'replace': 'the'}}",    # a repr()
    '{"name": "replace_text", "arguments": {"search": "teh", "replace": "the",},}',  # commas
    '{name: "replace_text", arguments: {search: "teh", replace: "the"}}',            # bare keys
    '{"name": "replace_text", "arguments": "{\'search\': \'teh\', \'replace\': \'the\'}"}',
    '{"name": "replace_text", "arguments": "{{\\"search\\": \\"teh\\", \\"replace\\": \\"the\\"}}"}',
    '{"type": "function", "function": {"name": "replace_text", "arguments": '
    '"{\\"search\\": \\"teh\\", \\"replace\\": \\"the\\"}"}}',                      # OpenAI shape
    '{"function": "replace_text", "parameters": {"search": "teh", "replace": "the"}}',
    '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "replace_text", '
    '"arguments": {"search": "teh", "replace": "the"}}}]}',
    '{"name": "functions.replace_text", "arguments": {"search": "teh", "replace": "the"}}',
    "```tool_call\n" + CALL + "\n```",
    "```json\n[" + CALL + "]\n```",                  # a list of one call
    "[\n  " + CALL + "\n]",
    "<|im_start|>assistant\n" + CALL + "<|im_end|>",  # ChatML leftovers around it
    CALL + "<|eot_id|>",
    CALL + "}",                                      # one closing brace too many
    "```json\n" + CALL + "}\n```",
    "```json\n{'name': 'replace_text', 'parameters': {'search': 'teh', 'replace': 'the'}}\n```",
])
def test_near_miss_json_call_forms(text):
    shown, calls = json_calls(text)
    assert shown == ""
    assert calls == [("replace_text", ARGS)]


def test_python_literals_become_json_values():
    text = ("{'name': 'replace_text', 'arguments': {'search': 'teh', 'replace': 'the', "
            "'all': True, 'case': False, 'where': None}}")
    _, calls = json_calls(text)
    assert calls == [("replace_text", dict(ARGS, all=True, case=False, where=None))]


def test_raw_newline_inside_a_string_is_kept():
    _, calls = json_calls('{"name": "replace_text", "arguments": {"search": "a\nb", '
                          '"replace": "c"}}')
    assert calls == [("replace_text", {"search": "a\nb", "replace": "c"})]


def test_a_list_and_objects_on_one_line_are_several_calls():
    two = '[' + CALL + ', {"name": "count_words", "arguments": {}},]'
    _, calls = json_calls(two)
    assert [c[0] for c in calls] == ["replace_text", "count_words"]
    _, calls = json_calls(CALL + ' {"name": "count_words", "arguments": {}}')
    assert [c[0] for c in calls] == ["replace_text", "count_words"]


@pytest.mark.parametrize("text", [
    "<tool_call>\n" + QWEN_DOUBLED,                 # unclosed, doubled braces
    "<tool_call>\n{'name': 'replace_text', 'arguments': {'search': 'teh', 'replace': 'the'}}"
    "\n</tool_call>",
    "<tool_call>\n```json\n" + CALL + "\n```\n</tool_call>",   # a fence inside the block
    '<tool_call>{"name": "functions.replace_text", "arguments": {"search": "teh", '
    '"replace": "the",}}</tool_call><|im_end|>',
])
def test_near_misses_inside_hermes_markup(text):
    shown, calls = every_split(text, names=TOOLS)
    assert shown == ""
    assert named(calls) == [("replace_text", ARGS)]


def test_a_doubled_call_streamed_in_tokens_is_never_shown():
    text = "```json\n" + QWEN_DOUBLED + "\n```"
    pieces = [text[i:i + 3] for i in range(0, len(text), 3)]
    shown, calls, parts = run(pieces, TOOLS)
    assert parts == [""] * len(pieces) and shown == ""
    assert named(calls) == [("replace_text", ARGS)]


# -- ... and what stays text however lenient the reading ---------------------------

@pytest.mark.parametrize("text", [
    "Use this: " + QWEN_DOUBLED,                                  # prose before
    QWEN_DOUBLED + " should do it.",                              # prose after, same line
    '{{"name": "delete_everything", "arguments": {{}}}}',         # not an offered tool
    '{"name": "functions.delete_everything", "arguments": {}}',
    '{"tool_calls": [{"function": {"name": "delete_everything", "arguments": {}}}]}',
    '[' + CALL + ', {"name": "nope", "arguments": {}}]',          # one call of the list unknown
    "{'title': 'Spring', 'tags': ['a', 'b']}",                    # a Python dict to show
    "{{ user_name }}",                                            # a template placeholder
    "{{name}} and {{date}}",
    "[1, 2, 3]",
    '[{"title": "Spring"}]',
    "[link](https://example.org) is the source.",
    "```json\n{'title': 'x', 'n': True,}\n```",
    "```json\n" + QWEN_DOUBLED + "\n```\nDone.",                  # prose after the fence
    "<|im_start|>assistant\nHello there.",
    "<|im_end|>",
    '{"name": "replace_text", "arguments": {"search": "teh", "replace": "the"}, "x": 1}',
    '{"function": {"name": "replace_text", "arguments": {}}, "note": "x"}',
    "{'name': 'replace_text', 'arguments': \"not json\"}",
])
def test_lenient_reading_keeps_everything_else_text(text):
    shown, calls = json_calls(text)
    assert calls == [] and shown == text


@pytest.mark.parametrize("text, shown_by", [
    ("{'title': 'Spring', 'body': '" + "x" * 300 + "'}", len("{'title':")),
    ('{{"name": "nope", "arguments": {{"text": "' + "x" * 300 + '"}}}}', len('{{"name": "nope"')),
    ("[1, 2, " + "3, " * 100 + "4]", 2),
    ("{{ user_name }} " * 30, len("{{ user_name }")),
])
def test_lenient_non_calls_are_released_early(text, shown_by):
    _, calls, pieces = run(list(text), TOOLS)
    assert calls == [] and "".join(pieces) == text
    assert "".join(pieces[:shown_by]) == text[:shown_by]


def test_an_emoji_written_as_a_surrogate_pair_escape_arrives_whole():
    # A lone surrogate in the arguments could not be encoded: every later request failed.
    calls, _rest = parse('<tool_call>{"name": "replace_text", "arguments": {"search": "x", '
                         '"replacement": "Great \\ud83d\\ude00"}}</tool_call>', ["replace_text"])
    assert json.loads(calls[0]["arguments"])["replacement"] == "Great \U0001F600"


@pytest.mark.parametrize("payload", [
    json.dumps([{"id": i, "title": "Item number %d here" % i} for i in range(200)]),
    json.dumps({"type": "object", "properties": {"p%d" % i: {"type": "string"}
                                                for i in range(200)}}),
])
def test_long_json_for_the_user_shows_as_it_streams(payload):
    # Held and read again with every piece, an 8 KB list took seconds and showed at the end.
    flt = TextCallFilter(["replace_text"])
    shown = "".join(flt.feed(payload[i:i + 3]) for i in range(0, len(payload) // 2, 3))
    assert len(shown) > len(payload) // 4


@pytest.mark.parametrize("message", [
    '<tools> {"name": "replace_text", "arguments": {"search": "colour", "replacement": '
    '"color", "all": true}} </tools>',
    '<tools>\n{"name": "replace_text", "arguments": {"search": "colour", "replacement": '
    '"color"}}\n</tools>',
    '<tools> {"name": "replace_text", "arguments": {"search": "colour", "replacement": '
    '"color"}}',
])
def test_a_call_written_between_the_templates_tools_tags_runs(message):
    # Qwen2.5's template lists the tools between <tools> tags, and the 1.5B model wrote its
    # call between them: the eval's replace_everywhere, make_headings... ran no tool.
    for step in (1, 3, 7):
        flt = TextCallFilter(["replace_text"])
        shown = "".join(flt.feed(message[i:i + step]) for i in range(0, len(message), step))
        rest, calls = flt.finish()
        assert shown + rest == "" and [c["name"] for c in calls] == ["replace_text"]


@pytest.mark.parametrize("message", ["Use <tools> to list them.",
                                     "<tools> are what I can use: replace_text and more."])
def test_the_word_tools_in_tags_within_prose_stays_text(message):
    flt = TextCallFilter(["replace_text"])
    shown = "".join(flt.feed(message[i:i + 3]) for i in range(0, len(message), 3))
    rest, calls = flt.finish()
    assert shown + rest == message and calls == []


FENCED = ("I fixed the two words.\n```edit\n2: We will receive the guests.\n"
          "3: The museum is definitely worth a visit.\n```\nAnything else?")


def test_a_fenced_edit_is_a_call_of_the_fence_tool_at_every_cut():
    """The rewrite protocol's fenced form, streamed cut at every position: the block is
    never shown, the prose around it is, and it is one call of the edit tool."""
    want_text = "I fixed the two words.\n\nAnything else?"
    want_calls = [{"name": "edit", "arguments": json.dumps(
        {"text": "2: We will receive the guests.\n3: The museum is definitely worth a visit."})}]
    for cut in range(1, len(FENCED)):
        f = TextCallFilter(["edit"], fence_tool="edit")
        shown = f.feed(FENCED[:cut]) + f.feed(FENCED[cut:])
        assert "`" not in shown, cut
        tail, calls = f.finish()
        assert (shown + tail).replace("\n\n\n", "\n\n") in (want_text, want_text + "\n"), cut
        assert calls == want_calls, cut


def test_fences_are_plain_text_without_the_fence_tool():
    f = TextCallFilter(["edit"])
    shown = f.feed(FENCED)
    tail, calls = f.finish()
    assert shown + tail == FENCED and calls == []
    # Other fences and inline code pass with it too.
    f = TextCallFilter(["edit"], fence_tool="edit")
    text = "Use `code` here.\n```python\nprint(1)\n```\n"
    shown = f.feed(text)
    tail, calls = f.finish()
    assert shown + tail == text and calls == []


def test_a_json_call_amid_prose_is_made_in_the_rewrite_protocol_only():
    """The 1.5B explains a call and shows it in a JSON block instead of making it."""
    text = ("To change it, call replace_text:\n```json\n{\"name\": \"replace_text\", "
            "\"arguments\": {\"search\": \"4471\", \"replacement\": \"4472\"}}\n```\nDone.")
    for cut in range(1, len(text), 7):
        f = TextCallFilter(["replace_text"], fence_tool="edit", bare_lines=True)
        shown = f.feed(text[:cut]) + f.feed(text[cut:])
        tail, calls = f.finish()
        assert "```" not in shown + tail and "Done." in shown + tail, cut
        assert named(calls) == [("replace_text", {"search": "4471", "replacement": "4472"})]
    # Not for a question (bare_lines off), nor a block naming no offered tool.
    for f in (TextCallFilter(["replace_text"], fence_tool="edit"),
              TextCallFilter(["add_comment"], fence_tool="edit", bare_lines=True)):
        shown = f.feed(text)
        tail, calls = f.finish()
        assert calls == [] and "4472" in shown + tail


def test_an_answer_of_numbered_lines_is_an_edit_unless_it_answers_a_question():
    lines = "2: We will receive the guests.\n3: The museum is definitely worth it."
    for cut in range(1, len(lines)):
        f = TextCallFilter([], fence_tool="edit", bare_lines=True)
        shown = f.feed(lines[:cut]) + f.feed(lines[cut:])
        tail, calls = f.finish()
        assert shown + tail == "" and named(calls) == [("edit", {"text": lines})], cut
    f = TextCallFilter([], fence_tool="edit", bare_lines=True)
    shown = f.feed("Here is the fix:\n" + lines)
    tail, calls = f.finish()
    assert shown + tail == "Here is the fix:" and len(calls) == 1
    # Prose after the lines, or a question asked: an answer, shown as it is.
    for text, bare in ((lines + "\nI fixed both.", True), (lines, False)):
        f = TextCallFilter([], fence_tool="edit", bare_lines=bare)
        shown = f.feed(text)
        tail, calls = f.finish()
        assert calls == [] and shown + tail == text


def test_list_items_and_headings_after_a_numbered_line_belong_to_the_edit():
    text = "4: These grow in our garden.\n- Apple\n- Banana\n## Vegetables"
    for cut in range(1, len(text)):
        f = TextCallFilter([], fence_tool="edit", bare_lines=True)
        shown = f.feed(text[:cut]) + f.feed(text[cut:])
        tail, calls = f.finish()
        assert shown + tail == "" and named(calls) == [("edit", {"text": text})], cut

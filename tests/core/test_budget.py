"""Fitting requests into a context window (chat.budget), alone and inside the turn loop."""

import functools
import json
import random

from marginalia.chat import budget
from marginalia.chat.budget import Calibration, Window, fit, reserve_for, short_count
from marginalia.chat.loop import Conversation, run_turn, system_prompt
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.toolschema import compact_tools
from marginalia.chat.transport import CancelToken
from marginalia.config import Settings
from marginalia.events import CONTEXT, ERROR, NOTICE
from tests.support.tokens import CountingModel, answer, calls, count

SYSTEM = system_prompt(Settings(), "Document: Report\nSize: 40 paragraphs.")
TOOLS = [{"type": "function", "function": {
    "name": "read_document", "description": "Read numbered paragraphs start..end. " * 3,
    "parameters": {"type": "object", "properties": {
        "start": {"type": "integer", "description": "First paragraph number."}}}}}]
TOOLS_SIZE = len(json.dumps(TOOLS))


def assert_paired(messages):
    """Every tool call has its one result right after it, and every result its call."""
    pending = []
    for message in messages:
        if message["role"] == "tool":
            assert pending and message["tool_call_id"] == pending.pop(0), message
            continue
        assert not pending, "tool calls without results: %r" % pending
        pending = [c["id"] for c in message.get("tool_calls") or []]
    assert not pending


_RNG = random.Random(5)
TEXT = " ".join(_RNG.choice(("word", "text", "écrit", "paragraph", "fox", "des", "日本語"))
                for _ in range(60000))


def words(rng, size):
    """``size`` characters of mixed ASCII, accented and CJK words."""
    start = rng.randint(0, len(TEXT) - 1)
    text = TEXT[start:start + size]
    while len(text) < size:
        text += " " + TEXT[:size - len(text)]
    return text


def random_history(rng, turns, huge):
    """(messages, turn_start): ``turns`` finished turns, then a current one with tool rounds."""
    messages = []
    ident = [0]

    def round_(big):
        ident[0] += 1
        ids = ["call_%d_%d" % (ident[0], n) for n in range(rng.randint(1, 3))]
        messages.append({"role": "assistant", "content": words(rng, rng.randint(0, 80)) or None,
                         "tool_calls": [{"id": i, "type": "function", "function": {
                             "name": rng.choice(("read_document", "search_document")),
                             "arguments": json.dumps({"start": rng.randint(1, 99)})}}
                             for i in ids]})
        for i in ids:
            size = rng.choice((50, 800, 5000, huge)) if big else rng.randint(10, 400)
            messages.append({"role": "tool", "tool_call_id": i, "content": words(rng, size)})

    for _ in range(turns):
        messages.append({"role": "user", "content": words(rng, rng.randint(5, 600))})
        for _ in range(rng.randint(0, 3)):
            round_(True)
        messages.append({"role": "assistant", "content": words(rng, rng.randint(5, 1500))})
    turn_start = len(messages)
    messages.append({"role": "user", "content": words(rng, rng.randint(5, 2000))})
    for _ in range(rng.randint(0, 4)):        # tool rounds of the turn in flight
        round_(rng.random() < 0.5)
    return messages, turn_start


def request_body(fitted):
    return {"messages": [{"role": "system", "content": SYSTEM}] + fitted.messages,
            "tools": TOOLS}


def test_random_histories_always_fit_the_window_with_calls_and_results_paired():
    rng = random.Random(12)
    for trial in range(150):
        window = rng.choice((2048, 4096, 8192, 32768))
        messages, turn_start = random_history(rng, rng.randint(0, 40),
                                              rng.choice((20000, 80000)))
        original = json.dumps(messages)
        reserve = reserve_for(window)
        fitted = fit(SYSTEM, TOOLS_SIZE, messages, turn_start, window, Calibration(), reserve)
        assert json.dumps(messages) == original          # the history itself is untouched
        if fitted.error is not None:
            assert fitted.error in (budget.NO_FIT,) or "too long" in fitted.error
            continue
        real = count(request_body(fitted))
        assert real + reserve <= window, (trial, real, window)
        assert fitted.tokens >= real * 0.95               # the estimate is not optimistic
        assert_paired(fitted.messages)
        assert fitted.messages[0]["role"] == "user"
        # The current turn's message is always there, whole.
        assert messages[turn_start] in fitted.messages
        assert fitted.room >= 0


def test_a_history_that_fits_is_sent_as_it_is():
    messages = [{"role": "user", "content": "Hello"}, {"role": "assistant", "content": "Hi"},
                {"role": "user", "content": "Shorten paragraph 2"}]
    fitted = fit(SYSTEM, TOOLS_SIZE, messages, 2, 32768, Calibration(), 4096)
    assert fitted.messages == messages
    assert (fitted.shortened, fitted.dropped, fitted.cut) == (0, 0, 0)
    assert 0 < fitted.tokens < 1000 and fitted.room > 20000


def test_old_tool_results_become_a_note_before_any_turn_is_dropped():
    big = "x " * 9000
    messages = [{"role": "user", "content": "Read it"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "a", "type": "function",
                     "function": {"name": "read_document", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "a", "content": big},
                {"role": "assistant", "content": "It is about foxes."},
                {"role": "user", "content": "And the ending?"}]
    fitted = fit(SYSTEM, TOOLS_SIZE, messages, 4, 4096, Calibration(), 512)
    assert fitted.error is None and fitted.shortened == 1 and fitted.dropped == 0
    note = fitted.messages[2]["content"]
    assert "read_document" in note and "18000 characters" in note
    assert fitted.messages[3]["content"] == "It is about foxes."


def test_oldest_whole_turns_go_first():
    messages = []
    for n in range(30):
        messages += [{"role": "user", "content": "question %d " % n + "y" * 1500},
                     {"role": "assistant", "content": "answer %d " % n + "z" * 1500}]
    messages.append({"role": "user", "content": "last question"})
    fitted = fit(SYSTEM, TOOLS_SIZE, messages, 60, 8192, Calibration(), 1024)
    assert fitted.error is None and fitted.dropped % 2 == 0 and fitted.dropped > 0
    kept = [m["content"].split(" ")[1] for m in fitted.messages[:-1]]
    assert kept[0] == str(fitted.dropped // 2)      # the newest turns stayed, in order
    assert fitted.messages[-1]["content"] == "last question"


def test_a_message_that_cannot_fit_is_one_sentence_and_nothing_else():
    messages = [{"role": "user", "content": "w " * 20000}]
    fitted = fit(SYSTEM, TOOLS_SIZE, messages, 0, 4096, Calibration(), 512)
    assert fitted.error.startswith("Your message is too long for this model's context window")
    assert fitted.error.count(".") == 1
    small = fit(SYSTEM, TOOLS_SIZE, [{"role": "user", "content": "hi"}], 0, 600,
                Calibration(), 256)
    assert "too small for Marginalia's instructions" in small.error


def test_calibration_converges_on_the_servers_counts():
    # A conversation growing turn by turn, as a chat does, against tokenizers
    # that pack 2.2 (code-like), 3.6 (English) and 4.5 bytes into a token.
    for per in (2.2, 3.6, 4.5):
        calibration = Calibration()
        rng = random.Random(int(per * 10))
        history, _start = random_history(rng, 2, 3000)
        errors = []
        for _ in range(10):
            more, _start = random_history(rng, 1, 3000)
            history += more
            turn_start = max(i for i, m in enumerate(history) if m["role"] == "user")
            fitted = fit(SYSTEM, TOOLS_SIZE, history, turn_start, 131072, calibration, 4096)
            real = count(request_body(fitted), per)
            errors.append((fitted.tokens - real) / float(real))
            calibration.observe(fitted.size, len(fitted.messages) + 1, real)
        assert all(abs(e) < 0.03 for e in errors[-4:]), (per, errors)
        assert errors[0] > 0 or per < 2.5      # before any count, cautious for prose


def test_a_cached_prompt_count_does_not_pull_the_estimate_down():
    calibration = Calibration()
    calibration.observe(40000, 10, 11000)
    ratio = calibration.ratio
    calibration.observe(40000, 10, 900)   # Ollama: only the tokens after its cached prefix
    assert calibration.ratio == ratio


def test_read_limit_follows_the_room_left_and_the_meter_numbers_are_short():
    small = fit(SYSTEM, TOOLS_SIZE, [{"role": "user", "content": "hi"}], 0, 4096,
                Calibration(), 512)
    large = fit(SYSTEM, TOOLS_SIZE, [{"role": "user", "content": "hi"}], 0, 131072,
                Calibration(), 4096)
    assert budget.MIN_READ <= small.read_limit(0.32) < 10000 < large.read_limit(0.32)
    assert [short_count(n) for n in (900, 5200, 32768, 131072)] == \
        ["900", "5.2k", "32k", "131k"]


def test_compact_tools_keep_names_and_parameters_but_lose_the_prose():
    tools = [{"type": "function", "function": {
        "name": "replace_text",
        "description": "Replace text everywhere or at its first occurrence; the replacement "
                       "keeps the character formatting. Returns how many were replaced.",
        "parameters": {"type": "object", "properties": {
            "search": {"type": "string", "description": "Exact text to replace."},
            "description": {"type": "string", "description": "A property so named stays."},
            "mode": {"type": "string", "enum": ["a", "b"]}},
            "required": ["search"]}}}]
    small = compact_tools(tools)
    function = small[0]["function"]
    assert function["name"] == "replace_text"
    assert function["description"] == ("Replace text everywhere or at its first occurrence; "
                                       "the replacement keeps the character formatting.")
    properties = function["parameters"]["properties"]
    assert set(properties) == {"search", "description", "mode"}
    assert properties["search"] == {"type": "string"} and properties["mode"]["enum"] == ["a", "b"]
    assert function["parameters"]["required"] == ["search"]
    assert len(json.dumps(small)) < len(json.dumps(tools)) * 0.8
    assert tools[0]["function"]["parameters"]["properties"]["search"]["description"]


# -- inside the turn loop ---------------------------------------------------------------

def reading_registry(seen):
    registry = ToolRegistry()

    def read_document(start=1, budget=20000):
        seen.append(budget)
        return (("%d: " % start) + "lorem ipsum dolor sit amet " * 2000)[:budget]

    registry.register("read_document", "Read numbered paragraphs. " * 100,
                      {"type": "object", "properties": {"start": {"type": "integer"}}},
                      read_document, sized=True)
    return registry


def test_a_ten_turn_chat_with_large_reads_never_exceeds_a_4k_window():
    settings = Settings(model="small-model", endpoint="http://127.0.0.1:9/budget-ten-turns")
    window = Window(4096, "test")
    conversation = Conversation()
    seen = []
    events = []
    model = CountingModel([])
    for n in range(10):
        model.replies = [functools.partial(calls, [("c%d" % n, "read_document", {"start": n})]),
                         functools.partial(answer, "Paragraph %d is fine." % n)]
        result = run_turn(model, conversation, "Check paragraph %d please." % n,
                          reading_registry(seen), settings, events.append, CancelToken(),
                          context="Document: Report", window=window)
        assert result.error is None, result.error
    assert len(model.counts) == 20
    reserve = reserve_for(4096)
    assert max(model.counts) + reserve <= 4096, model.counts
    assert all(limit < 20000 for limit in seen)            # reads sized to the room left
    for body in model.bodies:
        assert_paired(body["messages"][1:])
    # Compact tools on a small window.
    assert model.bodies[0]["tools"][0]["function"]["description"] == "Read numbered paragraphs."
    meters = [e.usage for e in events if e.kind == CONTEXT]
    assert meters and all(m["window"] == 4096 and 0 < m["tokens"] <= 4096 for m in meters)
    # The conversation itself keeps everything; only the requests were fitted.
    assert len(conversation) == 40


def test_too_long_a_message_sends_nothing_and_leaves_history_as_it_was():
    conversation = Conversation([{"role": "user", "content": "Hi"},
                                 {"role": "assistant", "content": "Hello"}])
    model = CountingModel([functools.partial(answer, "never")])
    events = []
    result = run_turn(model, conversation, "word " * 20000, None,
                      Settings(model="m", endpoint="http://127.0.0.1:9/too-long"), events.append,
                      CancelToken(), window=Window(4096))
    assert model.bodies == []
    assert "too long" in result.error
    assert [e.message for e in events if e.kind == ERROR] == [result.error]
    assert len(conversation) == 2


def test_a_hint_is_told_once_when_the_server_runs_the_model_smaller():
    hint = "Ollama runs this model with 4,096 tokens of context; set OLLAMA_CONTEXT_LENGTH."
    settings = Settings(model="m", endpoint="http://127.0.0.1:9/hint-once")
    window = Window(4096, "ollama /api/ps", model_max=131072, hint=hint)
    conversation = Conversation()
    notices = []
    for n in range(4):
        model = CountingModel([functools.partial(answer, "ok " * 400)])
        events = []
        run_turn(model, conversation, "long question " * 300, None, settings, events.append,
                 CancelToken(), window=window)
        notices += [e.message for e in events if e.kind == NOTICE]
    assert notices == [hint]

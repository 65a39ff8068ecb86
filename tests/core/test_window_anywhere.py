"""A small window learned whatever the server's address: its signatures, its refusals, its counts.

The server here is a real HTTP server on 127.0.0.1, on a port of its own and
behind a path prefix, that answers like Ollama loaded with 4,096 tokens: it
refuses a request its (pretend) tokenizer counts above the window, the way
llama.cpp-based servers do.
"""

import json

from marginalia.chat import window, window_errors
from marginalia.chat.budget import reserve_for
from marginalia.chat.loop import Conversation, run_turn
from marginalia.i18n.catalog import tr
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.transport import CancelToken, ChatClient
from marginalia.config import Settings
from marginalia.events import ERROR, NOTICE
from tests.support.sse_server import (ScriptedServer, text_response, tool_calls_response,
                                      usage)
from tests.support.tokens import count

WINDOW = 4096
DOCUMENT = ("The committee met on Tuesday to discuss the budget for next year. " * 320)[:20000]
OLLAMA_SHOW = {"parameters": "num_ctx 4096\ntemperature 0.7",
               "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 4096}}
PLAIN_REFUSAL = {"error": "the request exceeds the available context size"}


class SmallServer(ScriptedServer):
    """Refuses (400, without using up the script) a chat request counted above WINDOW."""

    def __init__(self, script, refusal=PLAIN_REFUSAL, always_refuse=False, **options):
        super().__init__(script, **options)
        self.refusal = refusal
        self.always_refuse = always_refuse
        self.refused = []

    def _respond_to(self, request):
        path = request.path.split("?")[0]
        if request.method == "POST" and path.endswith("/chat/completions"):
            tokens = count(request.json)
            if self.always_refuse or tokens > WINDOW:
                with self._lock:
                    self.requests.append(request)
                    self.refused.append(tokens)
                body = self.refusal(tokens) if callable(self.refusal) else self.refusal
                return {"status": 400, "headers": {"Content-Type": "application/json"},
                        "body": [json.dumps(body)]}
        return super()._respond_to(request)


def six_turn_script():
    script = []
    for n in range(6):
        script.append(tool_calls_response([("call_%d" % n, "read_document", {"start": n})]))
        script.append(text_response("Part %d reads well." % n))
    return script


def registry_reading(reads):
    registry = ToolRegistry()

    def read_document(start=0, budget=len(DOCUMENT)):
        reads.append(budget)
        return DOCUMENT[:budget]

    registry.register("read_document", "Read the document's text.",
                      {"type": "object", "properties": {"start": {"type": "integer"}}},
                      read_document, sized=True)
    return registry


def six_turns(srv, settings):
    """Six turns that each read the ~20,000-character document; (results, events)."""
    registry = registry_reading([])
    conversation = Conversation()
    events, results = [], []
    client = ChatClient(settings)
    for n in range(6):
        fits = window.window_for(settings)        # as the chat session asks, per turn
        results.append(run_turn(client, conversation, "Is part %d clear?" % n, registry,
                                settings, events.append, CancelToken(),
                                context="Document: Minutes", window=fits))
    return results, events


def test_an_ollama_behind_a_path_prefix_on_its_own_port_is_found_and_never_overrun():
    # Old code: the kind was "" (no preset, port not 11434), nothing was asked, the
    # budget was 8,192, the second request (4,728 tokens) was refused and all six turns failed.
    routes = {"/ollama/api/version": {"version": "0.6.2"}, "/ollama/api/show": OLLAMA_SHOW}
    with SmallServer(six_turn_script(), routes=routes) as srv:
        settings = Settings(provider="custom", endpoint=srv.root + "/ollama/v1", model="qwen2")
        results, events = six_turns(srv, settings)
        sizes = [count(r.json) for r in srv.chat_requests]
        asked = [r.path for r in srv.requests if "/api/" in r.path]
    assert [r.error for r in results] == [None] * 6
    assert srv.refused == [], srv.refused
    assert len(sizes) == 12 and max(sizes) + reserve_for(WINDOW) <= WINDOW, sizes
    assert asked[:2] == ["/ollama/api/version", "/ollama/api/show"]
    assert asked.count("/ollama/api/version") == 1            # the kind is cached
    assert not [e for e in events if e.kind == ERROR]


def test_a_server_that_only_refuses_is_learned_from_its_refusal_and_the_turn_goes_on():
    # Old code: the refusal ended the turn with "The server rejected the request (400)".
    with SmallServer(six_turn_script()) as srv:           # no signatures answer: a bare proxy
        settings = Settings(provider="custom", endpoint=srv.root + "/ollama/v1", model="qwen2")
        results, events = six_turns(srv, settings)
        accepted = [count(r.json) for r in srv.chat_requests]
    accepted = [t for t in accepted if t <= WINDOW]
    assert [r.error for r in results] == [None] * 6
    assert len(srv.refused) == 1, srv.refused                 # once, then remembered
    assert len(accepted) == 12 and max(accepted) <= WINDOW, accepted
    notices = [e.message for e in events if e.kind == NOTICE]
    assert notices == [tr(window_errors.SHRUNK) % "4,096"]
    assert window.window_for(settings).tokens == WINDOW


def test_a_llama_cpp_refusal_names_its_window_and_a_second_refusal_fails_plainly():
    def llama_cpp(tokens):
        return {"error": {"code": 400, "message": "request (%d tokens) exceeds the available "
                          "context size (3000 tokens), try increasing it" % tokens,
                          "type": "exceed_context_size_error", "n_prompt_tokens": tokens,
                          "n_ctx": 3000}}
    with SmallServer([], refusal=llama_cpp, always_refuse=True) as srv:
        settings = Settings(provider="custom", endpoint=srv.url, model="m")
        events = []
        conversation = Conversation([{"role": "user", "content": DOCUMENT},
                                     {"role": "assistant", "content": "Noted."}])
        result = run_turn(ChatClient(settings), conversation, "Summarise it.", None, settings,
                          events.append, CancelToken(), window=window.window_for(settings))
    # Old code: one request, "The server rejected the request (400)..." and no resend.
    assert len(srv.refused) == 2                              # the first, and one resend only
    assert srv.refused[1] < srv.refused[0]
    assert result.error == tr(window_errors.STILL_TOO_LONG) % "3,000"
    assert [e.message for e in events if e.kind == NOTICE] == [tr(window_errors.SHRUNK) % "3,000"]
    assert "Traceback" not in result.error and "exceed_context_size_error" not in result.error


def test_a_prompt_cut_silently_is_told_once_per_chat_with_the_fix():
    # Ollama: counts only what it kept. Old code: nothing said, the count calibrated the
    # estimate downwards, so every later request was estimated (and sent) even larger.
    script = [text_response("Fine.", usage=usage(prompt=3950)) for _ in range(2)]
    with ScriptedServer(script) as srv:
        settings = Settings(provider="custom", endpoint=srv.url, model="m")
        conversation = Conversation([{"role": "user", "content": DOCUMENT},
                                     {"role": "assistant", "content": "Noted."}])
        events = []
        for text in ("Summarise it.", "And shorter?"):
            run_turn(ChatClient(settings), conversation, text, None, settings, events.append,
                     CancelToken(), window=window.Window(32768, "setting"))
    notices = [e.message for e in events if e.kind == NOTICE]
    assert len(notices) == 1 and "3,950" in notices[0] and "num_ctx" in notices[0]
    assert "OLLAMA_CONTEXT_LENGTH" in notices[0]
    assert window.learned(settings) == 4096


def test_each_servers_wording_of_too_long_and_the_window_in_it():
    refusal = window_errors.refusal
    llama = json.dumps({"error": {"code": 400, "message": "request (8708 tokens) exceeds the "
                                  "available context size (8192 tokens), try increasing it",
                                  "type": "exceed_context_size_error",
                                  "n_prompt_tokens": 8708, "n_ctx": 8192}}).encode()
    assert refusal(400, llama) == window_errors.Refusal(8192, 8708)
    old_llama = json.dumps({"error": {"code": 500, "message": "the request exceeds the "
                                      "available context size. try increasing the context "
                                      "size or enable context shift",
                                      "type": "exceed_context_size_error",
                                      "n_prompt_tokens": 1407, "n_ctx": 256}}).encode()
    assert refusal(500, old_llama).window == 256
    vllm = json.dumps({"object": "error", "message": "This model's maximum context length is "
                       "4096 tokens. However, you requested 5000 tokens (4800 in the messages, "
                       "200 in the completion).", "type": "BadRequestError",
                       "code": 400}).encode()
    assert refusal(400, vllm).window == 4096
    openai = json.dumps({"error": {"message": "This model's maximum context length is 128,000 "
                                   "tokens. However, your messages resulted in 130,012 tokens.",
                                   "type": "invalid_request_error",
                                   "code": "context_length_exceeded"}}).encode()
    assert refusal(400, openai).window == 128000
    lmstudio = json.dumps({"error": "Trying to keep the first 10136 tokens when context the "
                           "overflows. However, the model is loaded with context length of "
                           "only 7866 tokens, which is not enough."}).encode()
    assert refusal(400, lmstudio).window == 7866
    n_keep = json.dumps({"error": "The number of tokens to keep from the initial prompt is "
                         "greater than the context length (n_keep: 13055>= n_ctx: 4096)."})
    assert refusal(400, n_keep.encode()).window == 4096
    plain = json.dumps(PLAIN_REFUSAL).encode()
    assert refusal(400, plain) == window_errors.Refusal(None, None)
    assert refusal(400, b"Requested tokens (5000) exceed context window of 4096").window == 4096
    # Not about length: no refusal, whatever the status.
    for body in (b'{"error": {"message": "model \\"x\\" not found"}}', b"<html>502</html>",
                 b'{"choices": []}'):
        assert refusal(400, body) is None and refusal(200, body) is None
    assert window_errors.guess_window(4568) == 4096 and window_errors.guess_window(900) == 1024


def test_a_small_prompt_count_from_a_prompt_cache_is_no_cut():
    # Some servers count only what their prompt cache did not hold (or say 0): no
    # notice, and the window stays the server's.
    script = [text_response("Fine.", usage=usage(prompt=2100)),
              text_response("Fine.", usage=usage(prompt=60)),
              text_response("Fine.", usage=usage(prompt=0))]
    with ScriptedServer(script) as srv:
        settings = Settings(provider="custom", endpoint=srv.url, model="cached")
        conversation = Conversation([{"role": "user", "content": DOCUMENT},
                                     {"role": "assistant", "content": "Noted."}])
        events = []
        for text in ("Summarise it.", "And shorter?", "Shorter still?"):
            run_turn(ChatClient(settings), conversation, text, None, settings, events.append,
                     CancelToken(), window=window.Window(32768, "setting"))
    assert [e for e in events if e.kind == NOTICE] == []
    assert window.learned(settings) is None
    assert window_errors.truncated(60, 2116, {"prompt_tokens_details": {"cached_tokens": 2050}}) \
        is False


def test_a_max_tokens_error_is_no_length_refusal_of_the_prompt():
    vllm = json.dumps({"error": {"message": "'max_tokens' or 'max_completion_tokens' is too "
                                 "large: 9000. This model's maximum context length is 8192 "
                                 "tokens and your request has 120 input tokens (9000 > 8192 "
                                 "- 120).", "type": "BadRequestError", "code": 400}}).encode()
    assert window_errors.refusal(400, vllm) is None


def test_a_second_refusal_leaves_a_history_the_next_request_can_use():
    refused = {"status": 400, "headers": {"Content-Type": "application/json"},
               "body": [json.dumps({"error": {"message": "the request exceeds the available "
                                              "context size", "code": 400}})]}
    with ScriptedServer([refused, refused]) as srv:
        settings = Settings(provider="custom", endpoint=srv.url, model="tiny")
        conversation = Conversation([{"role": "user", "content": DOCUMENT},
                                     {"role": "assistant", "content": "Noted."}])
        run_turn(ChatClient(settings), conversation, "Summarise it.", None, settings,
                 lambda e: None, CancelToken(), window=window.Window(32768, "setting"))
    roles = [m["role"] for m in conversation.messages]
    assert roles[-1] == "assistant" and "user" not in roles[-1:]
    assert all(a != b or a != "user" for a, b in zip(roles, roles[1:]))


def test_only_local_or_plain_http_servers_are_asked_what_they_are():
    from marginalia.chat.endpoint import Endpoint
    # A cloud service behind the custom provider is never sent guesses with the key.
    assert not window._may_sniff(Endpoint("https://api.together.xyz/v1"))
    assert not window._may_sniff(Endpoint("https://api.openai.com/v1"))
    assert window._may_sniff(Endpoint("http://10.0.0.5:9000/ollama/v1"))
    assert window._may_sniff(Endpoint("https://localhost:8443/v1"))
    assert window._may_sniff(Endpoint("http://gpu-box.example:8081/v1"))


def test_a_length_refusal_inside_a_200_stream_is_resent_fitted_like_a_400():
    # Gateways (OpenRouter, LiteLLM) answer 200 and put the error in the stream's first
    # event. Old code: shown as "The model server reported an error: ...", no resend.
    def in_stream(tokens):
        return {"error": {"message": "This model's maximum context length is 3000 tokens. "
                          "However, your messages resulted in %d tokens." % tokens,
                          "code": "context_length_exceeded"}}

    class StreamRefuser(SmallServer):
        def _respond_to(self, request):
            answer = super()._respond_to(request)
            if answer.get("status") == 400:
                body = json.loads(answer["body"][0])
                return {"status": 200, "headers": {"Content-Type": "text/event-stream"},
                        "body": ["data: %s\n\n" % json.dumps(body), "data: [DONE]\n\n"]}
            return answer

    with StreamRefuser([text_response("A short summary.")], refusal=in_stream) as srv:
        settings = Settings(provider="custom", endpoint=srv.url, model="m")
        events = []
        conversation = Conversation([{"role": "user", "content": DOCUMENT},
                                     {"role": "assistant", "content": "Noted."}])
        result = run_turn(ChatClient(settings), conversation, "Summarise it.", None, settings,
                          events.append, CancelToken(), window=window.Window(32768, "setting"))
        sizes = [count(r.json) for r in srv.chat_requests]
    assert result.error is None and result.text == "A short summary."
    assert len(srv.refused) == 1 and sizes[-1] <= WINDOW, sizes
    assert [e.message for e in events if e.kind == NOTICE] == [tr(window_errors.SHRUNK) % "3,000"]
    assert not [e for e in events if e.kind == ERROR]


def test_an_honest_first_count_below_the_cautious_estimate_is_no_cut():
    # A first request of ~1,700 real tokens estimated at ~2,300 (English prose counts
    # ~0.75 of the cautious estimate). Old code: "cut to 2,048", the window set to 2,048,
    # and the next turn refused as too small for the instructions and tools.
    prose = ("The committee met on Tuesday to discuss the budget for next year. " * 110)
    script = [text_response("Fine.", usage=usage(prompt=1700)),
              text_response("Fine.", usage=usage(prompt=1750))]
    with ScriptedServer(script) as srv:
        settings = Settings(provider="custom", endpoint=srv.url, model="honest")
        conversation = Conversation()
        events = []
        results = [run_turn(ChatClient(settings), conversation, text, None, settings,
                            events.append, CancelToken(), context=prose,
                            window=window.Window(8192, "default"))
                   for text in ("Summarise it.", "Shorter?")]
    assert [r.error for r in results] == [None, None]
    assert [e for e in events if e.kind == NOTICE] == []
    assert window.learned(settings) is None
    estimate = 2300
    assert window_errors.truncated(1700, estimate, calibrated=False) is False
    assert window_errors.truncated(1700, estimate, calibrated=True) is True
    assert window_errors.truncated(1400, estimate, calibrated=False) is False   # no round fill
    assert window_errors.truncated(3900, 6500, calibrated=False) is True        # Ollama's cut


def test_a_server_that_says_its_window_is_never_suspected_of_cutting():
    assert window_errors.may_cut("default") and window_errors.may_cut("setting")
    assert window_errors.may_cut("ollama /api/ps") and window_errors.may_cut("ollama default")
    assert not window_errors.may_cut("llamacpp server")
    assert not window_errors.may_cut("lmstudio server")
    assert not window_errors.may_cut("the server's refusal")

"""The context window, asked of a scripted server that answers like each server kind."""

import json
import socket

from marginalia.chat import window
from marginalia.chat.budget import Window, reserve_for
from marginalia.chat.loop import Conversation, run_turn
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.transport import CancelToken, ChatClient
from marginalia.config import Settings
from marginalia.events import CONTEXT, NOTICE
from tests.support.sse_server import (ScriptedServer, json_response, text_response,
                                      tool_calls_response)
from tests.support.tokens import count

OLLAMA_SHOW = {"modelfile": "FROM qwen3", "parameters": "temperature 0.7\nstop \"<|im_end|>\"",
               "model_info": {"general.architecture": "qwen3", "qwen3.context_length": 131072}}


def ollama_ps(context_length=4096, name="qwen3:latest"):
    return {"models": [{"name": name, "model": name, "size": 5000000000,
                        "expires_at": "2026-11-25T00:00:00Z", "size_vram": 5000000000,
                        "context_length": context_length}]}


def settings_for(srv, provider, model="qwen3", **changes):
    return Settings(provider=provider, endpoint=srv.url, model=model, **changes)


def test_ollama_loaded_at_4096_of_128k_is_budgeted_to_4096_with_the_fix_to_tell():
    with ScriptedServer(routes={"/api/show": OLLAMA_SHOW, "/api/ps": ollama_ps()}) as srv:
        settings = settings_for(srv, "ollama")
        found = window.probe(settings, kind="ollama")
        assert (found.tokens, found.model_max, found.source) == (4096, 131072, "ollama /api/ps")
        assert "OLLAMA_CONTEXT_LENGTH=32768" in found.hint and "num_ctx" in found.hint
        assert "4,096" in found.hint and "131,072" in found.hint
        show = [r for r in srv.requests if r.path == "/api/show"][0]
        assert show.method == "POST" and json.loads(show.body)["model"] == "qwen3"
        # A setting larger than what Ollama runs with cannot lift the limit.
        assert window.effective(settings.copy(context_window=65536), found).tokens == 4096
        assert window.effective(settings.copy(context_window=2048), found).tokens == 2048


def test_ollama_model_not_loaded_yet_uses_num_ctx_or_ollamas_default_and_asks_again_soon():
    show = dict(OLLAMA_SHOW, parameters="num_ctx 16384\ntemperature 0.7")
    with ScriptedServer(routes={"/api/show": show, "/api/ps": {"models": []}}) as srv:
        found = window.probe(settings_for(srv, "ollama"), kind="ollama")
        assert (found.tokens, found.source) == (16384, "ollama default")
    with ScriptedServer(routes={"/api/show": OLLAMA_SHOW, "/api/ps": {"models": []}}) as srv:
        settings = settings_for(srv, "ollama")
        assert window.probe(settings, kind="ollama").tokens == window.OLLAMA_DEFAULT
        expires, _found = window._cache[window._key(settings)]
        assert expires - window.time.monotonic() <= window.UNLOADED_SECONDS


def test_lm_studio_llama_cpp_vllm_and_openrouter_each_from_their_own_endpoint():
    lmstudio = {"data": [{"id": "other", "max_context_length": 4096},
                         {"id": "qwen3", "loaded_context_length": 8192,
                          "max_context_length": 32768}]}
    with ScriptedServer(routes={"/api/v0/models": lmstudio}) as srv:
        assert window.probe(settings_for(srv, "lmstudio"), kind="lmstudio").tokens == 8192
    props = {"default_generation_settings": {"n_ctx": 4096}, "total_slots": 2}
    with ScriptedServer(routes={"/props": props}) as srv:
        assert window.probe(settings_for(srv, "llamacpp"), kind="llamacpp").tokens == 4096
    vllm = json_response({"object": "list", "data": [{"id": "qwen3", "max_model_len": 32768}]})
    with ScriptedServer(models=vllm) as srv:
        assert window.probe(settings_for(srv, "vllm"), kind="vllm").tokens == 32768
    openrouter = json_response({"data": [{"id": "qwen3", "context_length": 40960,
                                          "top_provider": {"context_length": 40960}}]})
    with ScriptedServer(models=openrouter) as srv:
        assert window.probe(settings_for(srv, "openrouter"), kind="openrouter").tokens == 40960


def test_a_failed_probe_is_never_an_error_and_the_answer_is_cached():
    with ScriptedServer(routes={"/props": json_response({"error": "nope"}, 500)},
                        models=json_response({"weird": True})) as srv:
        settings = settings_for(srv, "llamacpp")
        assert window.probe(settings, kind="llamacpp") is None
        asked = len(srv.requests)
        chosen = window.window_for(settings)     # cached: no new request
        assert len(srv.requests) == asked
        assert (chosen.tokens, chosen.source) == (window.DEFAULT_LOCAL, "default")
        assert window.window_for(settings.copy(context_window=16000)).tokens == 16000
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    nobody = Settings(provider="ollama", endpoint="http://127.0.0.1:%d/v1" % port, model="m")
    assert window.probe(nobody, kind="ollama").tokens == window.OLLAMA_DEFAULT   # assumed
    cloud = Settings(provider="openai", endpoint="https://api.invalid/v1", model="gpt-x")
    assert window.effective(cloud, None).tokens == window.DEFAULT_REMOTE


def test_a_ten_turn_chat_with_large_reads_never_exceeds_ollamas_4096():
    script = []
    for n in range(10):
        script.append(tool_calls_response([("call_%d" % n, "read_document", {"start": n})]))
        script.append(text_response("Paragraph %d reads well." % n))
    routes = {"/api/show": OLLAMA_SHOW, "/api/ps": ollama_ps()}
    with ScriptedServer(script, models=("qwen3",), routes=routes) as srv:
        settings = settings_for(srv, "ollama")
        registry = ToolRegistry()
        limits = []

        def read_document(start=1, budget=20000):
            limits.append(budget)
            return ("%d: " % start + "The committee met on Tuesday to discuss it. " * 900)[:budget]

        registry.register("read_document", "Read numbered paragraphs.",
                          {"type": "object", "properties": {"start": {"type": "integer"}}},
                          read_document, sized=True)
        conversation = Conversation()
        events = []
        client = ChatClient(settings)
        for n in range(10):
            chosen = window.window_for(settings, kind="ollama")
            result = run_turn(client, conversation, "Is paragraph %d clear?" % n, registry,
                              settings, events.append, CancelToken(),
                              context="Document: Minutes", window=chosen)
            assert result.error is None, result.error
        sizes = [count(r.json) for r in srv.chat_requests]
    assert len(sizes) == 20
    assert max(sizes) + reserve_for(4096) <= 4096, sizes
    assert max(sizes) > 2000                       # the window was used, not wasted
    assert min(limits) < 20000
    notices = [e.message for e in events if e.kind == NOTICE]
    assert len(notices) == 1 and "OLLAMA_CONTEXT_LENGTH" in notices[0]
    assert all(e.usage["window"] == 4096 for e in events if e.kind == CONTEXT)


def test_the_kind_comes_from_the_preset_only_while_the_port_is_the_presets():
    from marginalia.chat.endpoint import Endpoint
    kind = window.server_kind
    assert kind(Settings(provider="ollama"), Endpoint("http://localhost:11434/v1")) == "ollama"
    assert kind(Settings(provider="ollama"), Endpoint("http://127.0.0.1:5555/v1")) == ""
    assert kind(Settings(provider="custom"), Endpoint("http://192.168.1.9:11434")) == "ollama"
    assert kind(Settings(provider="custom"), Endpoint("http://gpu.example:8080")) == ""
    assert kind(Settings(provider="custom"), Endpoint("https://openrouter.ai/api/v1")) == \
        "openrouter"
    assert Window(4096).model_max is None and Window(4096).hint is None


def test_the_context_window_field_on_the_options_page():
    from marginalia.ui import options_form
    assert options_form.parse_context_window("") == 0
    assert options_form.parse_context_window(" 32,768 ") == 32768
    for bad in ("big", "100", "-4096", "4096.5"):
        try:
            options_form.parse_context_window(bad)
        except ValueError as exc:
            assert str(exc).startswith("Context window must be a whole number")
        else:
            raise AssertionError(bad)
    form = options_form.settings_to_form(Settings())
    assert form["context_window"] == ""                     # 0: as the server says
    settings, problems = options_form.form_to_settings(Settings(), dict(form,
                                                                        context_window="16384"))
    assert settings.context_window == 16384 and problems == []
    assert options_form.settings_to_form(settings)["context_window"] == "16384"
    _same, problems = options_form.form_to_settings(settings, dict(form, context_window="x"))
    assert _same.context_window == 16384 and len(problems) == 1
    assert options_form.window_note(131072) == "Context window detected: 131,072"
    assert options_form.window_note(None) == "Context window: not reported"

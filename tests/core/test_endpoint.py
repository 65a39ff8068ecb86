"""Base URL normalisation, host policy and request bodies (chat/endpoint.py)."""

import json

import pytest

from marginalia.config import PRESETS, Settings
from marginalia.chat.endpoint import (Endpoint, build_body, check_policy, default_port,
                                      endpoint_for, is_local_host, is_reasoning_model,
                                      origin_of)
from marginalia.errors import ConfigError


@pytest.mark.parametrize("pasted, base", [
    ("http://localhost:11434", "http://localhost:11434/v1"),
    ("http://localhost:11434/", "http://localhost:11434/v1"),
    ("http://localhost:11434/v1", "http://localhost:11434/v1"),
    ("http://localhost:11434/v1/", "http://localhost:11434/v1"),
    ("  http://localhost:1234/v1/chat/completions  ", "http://localhost:1234/v1"),
    ("https://api.openai.com/v1/chat/completions/", "https://api.openai.com/v1"),
    ("https://api.openai.com/v1/models", "https://api.openai.com/v1"),
    ("https://generativelanguage.googleapis.com/v1beta/openai",
     "https://generativelanguage.googleapis.com/v1beta/openai"),
    ("https://generativelanguage.googleapis.com/v1beta/openai/",
     "https://generativelanguage.googleapis.com/v1beta/openai"),
    ("https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"),
    ("https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"),
    ("HTTP://LocalHost:8080", "http://localhost:8080/v1"),
    ("localhost:11434", "http://localhost:11434/v1"),
    ("api.example.com/v1", "https://api.example.com/v1"),
    ("http://[::1]:8000", "http://[::1]:8000/v1"),
])
def test_base_url_normalisation(pasted, base):
    endpoint = Endpoint(pasted)
    assert endpoint.base == base
    assert endpoint.chat_url == base + "/chat/completions"
    assert endpoint.models_url == base + "/models"


def test_an_existing_path_is_never_given_v1():
    # A pasted chat URL without /v1 (llama.cpp also serves /chat/completions).
    assert Endpoint("http://localhost:8080/chat/completions").chat_url == \
        "http://localhost:8080/chat/completions"
    assert Endpoint("https://example.com/proxy/openai").base == "https://example.com/proxy/openai"


def test_query_string_is_kept_on_both_urls():
    endpoint = Endpoint("https://x.openai.azure.com/openai/deployments/d?api-version=2024-10-21")
    assert endpoint.chat_url == ("https://x.openai.azure.com/openai/deployments/d"
                                 "/chat/completions?api-version=2024-10-21")
    assert endpoint.models_url.endswith("/models?api-version=2024-10-21")


def test_every_preset_normalises_to_itself():
    for _pid, _label, url in PRESETS:
        if url:
            assert Endpoint(url).base == url


def test_origin_has_default_ports():
    assert Endpoint("https://api.openai.com/v1").origin == ("https", "api.openai.com", 443)
    assert Endpoint("http://LOCALHOST").origin == ("http", "localhost", 80)
    assert origin_of("http://localhost:9/x") == ("http", "localhost", 9)
    assert origin_of("HTTPS://example.com/v1") == ("https", "example.com", 443)
    assert (default_port("https"), default_port("http"), default_port("")) == (443, 80, 80)


@pytest.mark.parametrize("bad, word", [
    ("", "Enter"),
    ("   ", "Enter"),
    ("ftp://example.com", "http"),
    ("http://", "host"),
    ("http://localhost:notaport", "valid"),
    ("https://user:secret@example.com/v1", "API key field"),
])
def test_bad_addresses_are_config_errors(bad, word):
    with pytest.raises(ConfigError) as info:
        Endpoint(bad)
    assert word in str(info.value)
    assert "secret" not in str(info.value)


@pytest.mark.parametrize("host", [
    "localhost", "LOCALHOST", "ollama.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]",
    "10.0.0.5", "172.16.3.4", "172.31.255.1", "192.168.1.20", "169.254.1.1",
    "fd12:3456::1", "fe80::1%eth0", "gpu.local", "box.home.arpa", "::ffff:192.168.0.9",
])
def test_local_hosts(host):
    assert is_local_host(host)


@pytest.mark.parametrize("host", [
    "example.com", "api.openai.com", "8.8.8.8", "172.32.0.1", "100.64.0.1",
    "2001:4860::8888", "localhost.example.com", "gpu-box", "",
])
def test_non_local_hosts(host):
    assert not is_local_host(host)


def test_plain_http_to_a_remote_host_needs_allow_http():
    with pytest.raises(ConfigError) as info:
        endpoint_for(Settings(endpoint="http://api.example.com/v1"))
    assert "api.example.com" in str(info.value)
    assert endpoint_for(Settings(endpoint="http://api.example.com/v1",
                                 allow_http=True)).base == "http://api.example.com/v1"
    assert endpoint_for(Settings(endpoint="http://192.168.1.9:11434")).is_local
    check_policy("https", "api.example.com", False)  # https is always fine


def test_reasoning_model_detection():
    for name in ("o1", "o1-mini", "o3", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini",
                 "GPT-5.1", "openai/o3-mini", "openai/gpt-5"):
        assert is_reasoning_model(name), name
    for name in ("gpt-4o", "gpt-4.1", "llama3.1", "omni", "o", "qwen3:8b", "deepseek-reasoner",
                 "ollama", ""):
        assert not is_reasoning_model(name), name


MESSAGES = [{"role": "user", "content": "hi"}]
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {}}}]


def test_minimal_body_omits_everything_unset():
    body = build_body(Settings(model="llama3.1"), MESSAGES, [])
    assert body == {"model": "llama3.1", "messages": MESSAGES, "stream": True,
                    "stream_options": {"include_usage": True}}


def test_body_without_usage_option_and_with_tools():
    body = build_body(Settings(model="m"), MESSAGES, TOOLS, include_usage=False)
    assert "stream_options" not in body
    assert body["tools"] == TOOLS


def test_ordinary_model_gets_max_tokens_and_set_temperature():
    body = build_body(Settings(model="gpt-4o", temperature=0.2, max_tokens=500,
                               reasoning_effort=""), MESSAGES)
    assert body["max_tokens"] == 500
    assert body["temperature"] == 0.2
    assert "max_completion_tokens" not in body and "reasoning_effort" not in body


def test_reasoning_model_gets_max_completion_tokens_and_no_default_temperature():
    body = build_body(Settings(model="o3-mini", max_tokens=800, reasoning_effort="high"),
                      MESSAGES)
    assert body["max_completion_tokens"] == 800
    assert "max_tokens" not in body
    assert "temperature" not in body
    assert body["reasoning_effort"] == "high"
    # A temperature the user typed is still sent.
    assert build_body(Settings(model="gpt-5", temperature=1), MESSAGES)["temperature"] == 1.0


def test_temperature_zero_is_a_setting_not_an_absence():
    assert build_body(Settings(model="m", temperature=0.0), MESSAGES)["temperature"] == 0.0


def test_no_model_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        build_body(Settings(model="  "), MESSAGES)
    # The sentence tells a Writer user where to fix it.
    assert "Tools > Options > Marginalia" in str(info.value)


def test_a_server_traceback_is_never_shown():
    from marginalia.chat.server_errors import status_error
    body = json.dumps({"detail": 'Traceback (most recent call last):\n  File "/srv/api.py", '
                                 'line 88, in chat\n    out = model(x)\nValueError: context '
                                 'length exceeded'}).encode("utf-8")
    error = status_error(500, {"Content-Type": "application/json"}, body,
                         Settings(model="m"), Endpoint("http://localhost:8000"))
    message = str(error)
    assert "Traceback" not in message and "File " not in message and "line 88" not in message
    assert message == ('The model server had an error (500). The server said: '
                       '"context length exceeded"')

"""The API key in what a server says: a secret is masked, a placeholder word is not."""

import json

import pytest

from marginalia.chat.server_errors import clean_message, is_secret, mask_key, server_message
from marginalia.config import Settings

REAL = "sk-proj-4fT9xQ2mZ7LwB1cVn8Kd3RsY"


@pytest.mark.parametrize("key", [
    "ollama", "lm-studio", "LM-Studio", "none", "EMPTY", "sk-no-key-required", "not-needed",
    "dummy", "Local", "x", "123", "",
])
def test_placeholder_keys_are_not_secrets(key):
    assert not is_secret(key)


@pytest.mark.parametrize("key", [
    REAL,
    "sk-ant-api03-abcdefghijklmnop",                 # a digit
    "AIzaSyD-abcdefghijklmnopqrstuvw",                # mixed case inside a part
    "3f1c2a9be0d44c8e9a7b6f5e4d3c2b1a",               # hex
    "token-abc123",                                    # vLLM's docs example
    "abcdefghijklmnopqrstuvwxyz",                      # a long run of letters
    "pass/word",                                       # another character
    "1234",
])
def test_keys_that_may_be_secrets(key):
    assert is_secret(key)


def test_ollamas_advice_keeps_its_word_with_the_key_ollama():
    # Issue 25: Ollama's own advice reached the user as "... *** pull qwen3".
    body = json.dumps({"error": 'model "qwen3" not found, try pulling it first: ollama pull qwen3'})
    message, _ = server_message(body.encode(), "application/json", secret="ollama")
    assert message == 'model "qwen3" not found, try pulling it first: ollama pull qwen3'


@pytest.mark.parametrize("text, shown", [
    ("Incorrect API key provided: " + REAL + ".", "Incorrect API key provided: ***."),
    ("GET https://x.example/v1?key=" + REAL + "&alt=sse failed",
     "GET https://x.example/v1?key=***&alt=sse failed"),
    ('{"api_key": "' + REAL + '"} rejected', '{"api_key": "***"} rejected'),
    ("Bearer" + REAL + " and " + REAL, "Bearer*** and ***"),
])
def test_a_real_key_is_masked_everywhere(text, shown):
    assert mask_key(text, REAL) == shown
    assert clean_message(text, REAL) == shown


def test_a_url_encoded_key_is_masked_too():
    key = "ab+cd/ef=12"
    assert mask_key("key=ab%2Bcd%2Fef%3D12 and ab+cd/ef=12", key) == "key=*** and ***"


def test_a_key_with_spaces_around_is_masked_by_its_value():
    assert mask_key("bad key " + REAL, "  " + REAL + "\n") == "bad key ***"


def test_settings_never_show_a_key_even_a_placeholder():
    # The settings' repr stands for the whole value, so masking eats no server word there.
    assert "api_key='***'" in repr(Settings(api_key="ollama"))
    assert REAL not in repr(Settings(api_key=REAL))


def test_a_passphrase_is_a_secret_masked_as_a_whole_only():
    key = "correct-horse-battery-staple"
    assert is_secret(key)
    assert mask_key("bad key correct-horse-battery-staple.", key) == "bad key ***."
    # Never part of a longer word or name.
    assert mask_key("see incorrect-horse-battery-staples", key) == \
        "see incorrect-horse-battery-staples"

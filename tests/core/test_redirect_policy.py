"""A redirect is checked by the administrator's policy before anything is re-sent
(chat.transport with policy): the body must not reach a server the policy refuses."""

import pytest

from marginalia.config import Settings
from marginalia.errors import PolicyError
from marginalia.chat.transport import ChatClient
from marginalia import policy
from tests.support.sse_server import ScriptedServer, text_response

BODY = {"model": "test-model", "messages": [{"role": "user", "content": "secret text"}],
        "stream": True}


def _client(first, rules, via_settings):
    def check(url):
        return policy.address_refusal(rules, url) or None
    settings = Settings(endpoint=first.url, model="test-model", connect_timeout=2.0,
                        read_timeout=5.0)
    if via_settings:
        return ChatClient(settings.copy(endpoint_check=check), retries=0)
    return ChatClient(settings, retries=0, allow=check)


@pytest.mark.parametrize("via_settings", [False, True])
@pytest.mark.parametrize("status", [307, 308])
def test_a_redirect_to_a_server_not_allowed_sends_nothing_there(status, via_settings):
    with ScriptedServer([text_response("leaked")]) as other:
        target = other.url + "/chat/completions"
        with ScriptedServer([{"status": status, "headers": {"Location": target},
                              "body": []}]) as first:
            rules = policy.Policy(allowed_endpoints=(first.url,))
            with pytest.raises(PolicyError) as info:
                _client(first, rules, via_settings).open_stream(BODY)
        assert other.requests == []
        assert str(info.value) == policy.endpoint_refusal(rules, target)
        assert str(info.value).startswith("Your administrator allows only these model servers")


def test_a_get_redirect_is_checked_too():
    # The model list (and the window probe, Test connection) follow redirects as well.
    with ScriptedServer(models=["leaked"]) as other:
        moved = {"status": 307, "headers": {"Location": other.url + "/models"}, "body": []}
        with ScriptedServer([], routes={"/v1/models": moved}) as first:
            rules = policy.Policy(allowed_endpoints=(first.url,))
            with pytest.raises(PolicyError):
                _client(first, rules, True).list_models()
        assert other.requests == []


def test_a_redirect_within_the_allowed_server_is_followed():
    with ScriptedServer([{"status": 307, "headers": {"Location": "/v1/chat/completions2"},
                          "body": []}, text_response("fine")]) as first:
        rules = policy.Policy(allowed_endpoints=(first.url,))
        b"".join(_client(first, rules, True).open_stream(BODY))
    assert [r.path for r in first.chat_requests] == ["/v1/chat/completions",
                                                     "/v1/chat/completions2"]

"""The HTTP transport against a real scripted server on 127.0.0.1 (no mocks)."""

import json
import logging
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time

import pytest

from marginalia.config import Settings
from marginalia.errors import Cancelled, ConfigError, EndpointError
from marginalia.events import ERROR
from marginalia.chat.loop import Conversation, run_turn
from marginalia.chat.server_errors import STREAM_CUT, broken_stream_error
from marginalia.chat.transport import CancelToken, ChatClient
from tests.support.sse_server import (ScriptedServer, error_response, finish, html_response,
                                      sse_body, stream_response, text_delta, text_response)

KEY = "sk-test-123456"
BODY = {"model": "test-model", "messages": [{"role": "user", "content": "hi"}],
        "stream": True, "stream_options": {"include_usage": True}}


def make_client(url, **settings):
    values = dict(endpoint=url, model="test-model", api_key=KEY, connect_timeout=2.0,
                  read_timeout=5.0)
    values.update(settings)
    return ChatClient(Settings(**values), backoff=(0.05, 0.05))


def expected_bytes(response):
    return b"".join(p.encode("utf-8") if isinstance(p, str) else p
                    for p in response["body"] if not isinstance(p, dict))


def collect(stream):
    """(pieces, seconds from start to each piece)."""
    start = time.monotonic()
    pieces, times = [], []
    for piece in stream:
        pieces.append(piece)
        times.append(time.monotonic() - start)
    return pieces, times


@pytest.mark.parametrize("options", [
    {"chunked": True, "split": [1, 2, 5, 3, 11], "delay": 0.003},
    {"chunked": False, "split": [7, 1, 4], "delay": 0.003},
    {"content_length": True, "split": 13, "delay": 0.003},
])
def test_stream_arrives_whole_and_incrementally(server, options):
    response = text_response("Grüße, café ☕ and more text", pieces=5, **options)
    server.add(response)
    pieces, times = collect(make_client(server.url).open_stream(BODY))
    assert b"".join(pieces) == expected_bytes(response)
    # Incremental: the first piece is delivered long before the last one.
    assert len(pieces) > 10
    assert times[0] < times[-1] / 3


def test_request_carries_body_and_headers(server):
    server.add(text_response("ok"))
    list(make_client(server.url).open_stream(BODY))
    request = server.chat_requests[0]
    assert request.method == "POST" and request.path == "/v1/chat/completions"
    assert request.json == BODY
    assert request.headers["authorization"] == "Bearer " + KEY
    assert request.headers["content-type"] == "application/json"
    assert request.headers["accept"] == "text/event-stream"


def test_chunked_stream_cut_mid_json_is_an_error_after_the_prefix(server):
    body = sse_body([text_delta("Hello"), text_delta("world")])
    first = body[0]
    server.add({"chunked": True, "body": [first, body[1][:25], {"cut": True}, body[1][25:]]})
    received = []
    with pytest.raises(EndpointError) as info:
        for piece in make_client(server.url).open_stream(BODY):
            received.append(piece)
    assert b"".join(received) == (first + body[1][:25]).encode("utf-8")
    assert str(info.value) == STREAM_CUT


def test_content_length_stream_cut_short_is_an_error(server):
    server.add({"content_length": True,
                "body": ['data: {"choices": [', {"cut": True}, "never sent"]})
    with pytest.raises(EndpointError) as info:
        list(make_client(server.url).open_stream(BODY))
    assert str(info.value) == STREAM_CUT


def test_close_delimited_stream_cut_ends_quietly_with_the_prefix(server):
    # Without framing the transport cannot tell a cut from the end; the
    # accumulator notices the missing finish (documented behaviour).
    server.add({"body": ['data: {"choices": [{"delta": {"content": "Hi"', {"cut": True}]})
    assert b"".join(make_client(server.url).open_stream(BODY)) == \
        b'data: {"choices": [{"delta": {"content": "Hi"'


def answer_turn(server, response):
    """One turn of the real loop against ``response``: (TurnResult, history, ERROR events)."""
    server.add(response)
    client = make_client(server.url)
    events, conversation = [], Conversation()
    result = run_turn(client, conversation, "Hi", None, client.settings, events.append,
                      CancelToken())
    return result, conversation.messages, [e.message for e in events if e.kind == ERROR]


CUT_BODY = sse_body([text_delta("Hello"), text_delta(" world")], done=False)


@pytest.mark.parametrize("framing", [
    {"chunked": True},            # http.client: IncompleteRead
    {"content_length": True},     # http.client: IncompleteRead
    {},                           # close-delimited: the body just ends, inside an event
])
def test_stream_cut_mid_answer_says_the_connection_closed_and_keeps_the_text(server, framing):
    response = dict(framing, body=[CUT_BODY[0], CUT_BODY[1][:20], {"cut": True}, "never"])
    result, history, errors = answer_turn(server, response)
    assert errors == [STREAM_CUT] and result.error == STREAM_CUT
    assert result.text == "Hello"
    assert history[-1] == {"role": "assistant", "content": "Hello [interrupted]"}


def test_stream_with_invalid_data_is_still_called_garbled(server):
    # Whole events that are not JSON: the data is bad, the connection was fine.
    result, history, errors = answer_turn(server, {"chunked": True, "body": [
        CUT_BODY[0], "data: {\"choices\": [}\n\n", CUT_BODY[1], "data: [DONE]\n\n"]})
    assert errors == ["The model server sent a garbled answer stream."]
    assert result.text == "Hello"
    assert history[-1] == {"role": "assistant", "content": "Hello [interrupted]"}


def test_last_event_without_its_blank_line_is_not_a_cut(server):
    body = sse_body([text_delta("Hello"), finish()], done=False)
    result, history, errors = answer_turn(server, {"body": body[:-1] + [body[-1].rstrip()]})
    assert errors == [] and result.error is None
    assert history[-1] == {"role": "assistant", "content": "Hello"}


@pytest.mark.parametrize("exc", [ConnectionResetError(104, "Connection reset by peer"),
                                 ConnectionAbortedError(), ssl.SSLEOFError(8, "EOF")])
def test_reset_or_closed_connection_mid_stream_is_the_closed_sentence(exc):
    assert str(broken_stream_error(exc, 5.0)) == STREAM_CUT


def test_other_failures_mid_stream_keep_their_own_sentences():
    assert str(broken_stream_error(socket.timeout("timed out"), 5.0)) == (
        "The server sent nothing for 5 seconds, so the answer was cut off.")
    assert str(broken_stream_error(OSError(113, "No route to host"), 5.0)) == (
        "The connection to the server broke in the middle of the answer.")


def test_401_is_a_key_sentence_with_the_server_message_and_no_retry(server):
    server.add(error_response(401, "Incorrect API key provided: %s." % KEY, "invalid_api_key"))
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    message = str(info.value)
    assert message.startswith("The server rejected the API key (401)")
    assert "Incorrect API key provided" in message
    assert KEY not in message  # a server echoing the key never gets it shown
    assert info.value.status == 401 and not info.value.retryable
    assert len(server.chat_requests) == 1


@pytest.mark.parametrize("response", [
    error_response(404, "The model `nope-7b` does not exist or you do not have access to it.",
                   "model_not_found"),
    error_response(404, 'model "nope-7b" not found, try pulling it first'),  # Ollama
    error_response(400, "nope-7b is not a valid model ID"),                  # OpenRouter
])
def test_unknown_model_names_the_model(server, response):
    server.add(response)
    with pytest.raises(EndpointError) as info:
        make_client(server.url, model="nope-7b").open_stream(dict(BODY, model="nope-7b"))
    assert 'does not know the model "nope-7b"' in str(info.value)


def test_404_without_a_model_message_points_at_the_address(server):
    server.add({"status": 404, "headers": {"Content-Type": "text/plain"}, "body": []})
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert "Nothing answered at %s/chat/completions (404)" % server.url in str(info.value)


def test_403_forbidden(server):
    server.add(error_response(403, "Project does not have access to model"))
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert "refused access (403)" in str(info.value)


def test_429_then_200_honours_retry_after(server):
    server.add(error_response(429, "Rate limit reached", headers={"Retry-After": "0.4"}),
               text_response("after the wait"))
    start = time.monotonic()
    data = b"".join(make_client(server.url).open_stream(BODY))
    assert time.monotonic() - start >= 0.4
    assert b"after the wait"[:5] in data
    assert len(server.chat_requests) == 2


def test_429_asking_for_too_long_a_wait_fails_at_once(server):
    server.add(error_response(429, "Slow down", headers={"Retry-After": "120"}))
    start = time.monotonic()
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert time.monotonic() - start < 1.0
    assert "limiting requests (429)" in str(info.value)
    assert len(server.chat_requests) == 1


def test_insufficient_quota_429_is_not_retried(server):
    server.add(error_response(429, "You exceeded your current quota.", "insufficient_quota"))
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert "run out of credit" in str(info.value)
    assert len(server.chat_requests) == 1


def test_503_retries_are_bounded(server):
    server.add(*[error_response(503, "overloaded")] * 4)
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert "had an error (503)" in str(info.value)
    assert len(server.chat_requests) == 3  # the first attempt and two retries


def test_500_html_page_is_never_shown_and_not_retried(server):
    server.add(html_response(500))
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    message = str(info.value)
    assert "web page" in message and "(status 500)" in message
    assert "<" not in message and "nginx" not in message
    assert len(server.chat_requests) == 1


def test_502_html_from_a_proxy_is_retried(server):
    server.add(html_response(502), text_response("fine"))
    assert b"fine"[:2] in b"".join(make_client(server.url).open_stream(BODY))
    assert len(server.chat_requests) == 2


def test_200_html_page_is_an_error(server):
    server.add({"headers": {"Content-Type": "text/html"}, "body": ["<html>login</html>"]})
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert "web page" in str(info.value)


def test_non_streamed_json_answer_becomes_sse(server):
    answer = {"choices": [{"index": 0, "finish_reason": "stop",
                           "message": {"role": "assistant", "content": "Whole answer"}}],
              "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}
    server.add({"headers": {"Content-Type": "application/json"}, "body": [json.dumps(answer)]})
    data = b"".join(make_client(server.url).open_stream(BODY)).decode()
    events = [json.loads(line[6:]) for line in data.split("\n\n") if line.startswith("data: {")]
    assert events[0]["choices"][0]["delta"]["content"] == "Whole answer"
    assert events[1]["usage"]["total_tokens"] == 5
    assert data.endswith("data: [DONE]\n\n")


def test_event_stream_mislabelled_as_json_still_streams(server):
    response = text_response("labelled wrong", split=9, delay=0.002,
                             headers={"Content-Type": "application/json"})
    server.add(response)
    pieces = list(make_client(server.url).open_stream(BODY))
    assert b"".join(pieces) == expected_bytes(response)
    assert len(pieces) > 5


def test_stall_past_the_idle_timeout_is_an_error(server):
    server.add(stream_response([text_delta("partial")], done=False,
                               body=sse_body([text_delta("partial")], done=False)
                               + [{"sleep": 3}, "data: [DONE]\n\n"]))
    received = []
    start = time.monotonic()
    with pytest.raises(EndpointError) as info:
        for piece in make_client(server.url, read_timeout=0.3).open_stream(BODY):
            received.append(piece)
    elapsed = time.monotonic() - start
    assert received and b"partial" in b"".join(received)
    assert "sent nothing for 0.3 seconds" in str(info.value)
    assert 0.25 < elapsed < 1.5


def test_no_response_head_within_the_read_timeout(server):
    server.add(dict(text_response("late"), head_delay=3))
    start = time.monotonic()
    with pytest.raises(EndpointError) as info:
        make_client(server.url, read_timeout=0.3).open_stream(BODY)
    assert "did not answer within 0.3 seconds" in str(info.value)
    assert time.monotonic() - start < 1.5


def cancel_after(token, seconds):
    """Cancel from another thread; returns a list that receives the cancel time."""
    when = []

    def fire():
        time.sleep(seconds)
        when.append(time.monotonic())
        token.cancel()
    threading.Thread(target=fire, daemon=True).start()
    return when


def test_cancel_mid_stream_returns_within_half_a_second(server):
    server.add({"body": sse_body([text_delta("first")], done=False) + [{"sleep": 10}]})
    token = CancelToken()
    stream = make_client(server.url).open_stream(BODY, token)
    assert b"first" in next(stream)
    fired = cancel_after(token, 0.2)
    with pytest.raises(Cancelled):
        next(stream)
    latency = time.monotonic() - fired[0]
    print("cancel latency mid-stream: %.3f s" % latency)
    assert latency < 0.5
    with pytest.raises(StopIteration):
        next(stream)  # closed for good


def test_cancel_while_waiting_for_the_head(server):
    server.add(dict(text_response("late"), head_delay=10))
    token = CancelToken()
    fired = cancel_after(token, 0.2)
    with pytest.raises(Cancelled):
        make_client(server.url).open_stream(BODY, token)
    assert time.monotonic() - fired[0] < 0.5


def test_cancel_while_waiting_to_retry(server):
    server.add(error_response(429, "wait", headers={"Retry-After": "10"}), text_response("x"))
    token = CancelToken()
    fired = cancel_after(token, 0.2)
    with pytest.raises(Cancelled):
        make_client(server.url).open_stream(BODY, token)
    assert time.monotonic() - fired[0] < 0.5
    assert len(server.chat_requests) == 1


def free_port():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def test_connection_refused_is_retried_then_explained():
    client = make_client("http://127.0.0.1:%d/v1" % free_port())
    start = time.monotonic()
    with pytest.raises(EndpointError) as info:
        client.open_stream(BODY)
    assert "connection refused" in str(info.value)
    assert "model server running" in str(info.value)
    assert info.value.retryable
    assert 0.1 <= time.monotonic() - start < 2.0  # two short backoffs happened


def test_dns_failure():
    client = make_client("https://no-such-host.invalid/v1", connect_timeout=3, read_timeout=3)
    with pytest.raises(EndpointError) as info:
        client.open_stream(BODY)
    assert "no-such-host.invalid could not be found" in str(info.value)


def test_stream_options_rejected_then_retried_once_without(server):
    server.add(error_response(400, "Unrecognized request argument supplied: stream_options"),
               text_response("usage-free"))
    data = b"".join(make_client(server.url).open_stream(BODY))
    assert b"\"finish_reason\": \"stop\"" in data
    first, second = server.chat_requests
    assert first.json["stream_options"] == {"include_usage": True}
    assert "stream_options" not in second.json
    assert second.json["messages"] == BODY["messages"]


def test_stream_options_fallback_happens_only_once(server):
    server.add(*[error_response(400, "extra inputs are not permitted")] * 3)
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert "rejected the request (400)" in str(info.value)
    assert len(server.chat_requests) == 2


def test_authorization_dropped_on_redirect_to_another_host():
    with ScriptedServer([text_response("from the other host")]) as other:
        target = other.url_with_host("localhost") + "/chat/completions"
        with ScriptedServer([{"status": 307, "headers": {"Location": target},
                              "body": []}]) as first:
            data = b"".join(make_client(first.url).open_stream(BODY))
        assert b"other" in data
        assert first.chat_requests[0].headers["authorization"] == "Bearer " + KEY
        redirected = other.chat_requests[0]
        assert "authorization" not in redirected.headers
        assert redirected.json == BODY  # 307 keeps the method and body


def test_authorization_kept_on_redirect_within_the_host(server):
    server.add({"status": 308, "headers": {"Location": "/v2/chat/completions"}, "body": []},
               text_response("moved"))
    list(make_client(server.url).open_stream(BODY))
    first, second = server.chat_requests
    assert second.path == "/v2/chat/completions"
    assert second.headers["authorization"] == "Bearer " + KEY


def test_redirect_to_plain_http_on_the_internet_is_refused(server):
    server.add({"status": 307, "headers": {"Location": "http://example.com/v1/chat/completions"},
                "body": []})
    with pytest.raises(ConfigError):
        make_client(server.url).open_stream(BODY)


def test_list_models_sends_the_key_and_sorts():
    with ScriptedServer(models=["zeta", "alpha", "mid"], api_key=KEY) as srv:
        assert make_client(srv.url).list_models() == ["alpha", "mid", "zeta"]
        request = srv.requests[0]
        assert request.method == "GET" and request.path == "/v1/models"
        assert request.headers["authorization"] == "Bearer " + KEY
        with pytest.raises(EndpointError) as info:
            make_client(srv.url, api_key="wrong").list_models()
        assert "(401)" in str(info.value)


def test_list_models_reads_ollama_native_shape(server):
    server.models = {"headers": {"Content-Type": "application/json"},
                     "body": [json.dumps({"models": [{"name": "qwen3:8b"}, {"name": "gemma3"}]})]}
    assert make_client(server.url, api_key="").list_models() == ["gemma3", "qwen3:8b"]
    assert "authorization" not in server.requests[0].headers


def test_the_key_is_never_logged(server, caplog):
    server.add(error_response(401, "bad key"), text_response("x"))
    caplog.set_level(logging.DEBUG)
    with pytest.raises(EndpointError):
        make_client(server.url).open_stream(BODY)
    assert caplog.records  # something was logged...
    assert KEY not in caplog.text  # ...but never the key


@pytest.fixture
def tls_server(tmp_path):
    """A TLS listener with a self-signed certificate, which a client must refuse."""
    if not shutil.which("openssl"):
        pytest.fail("openssl is needed to make a test certificate (python3 build.py test "
                    "installs it)", pytrace=False)
    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            try:
                context.wrap_socket(conn, server_side=True).close()
            except (ssl.SSLError, OSError):
                conn.close()
    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()


def test_tls_certificate_failure(tls_server):
    client = make_client("https://localhost:%d/v1" % tls_server)
    with pytest.raises(EndpointError) as info:
        client.open_stream(BODY)
    assert "certificate of localhost could not be verified" in str(info.value)
    assert "self-signed" in str(info.value) or "self signed" in str(info.value)


def test_https_to_a_plain_http_port(server):
    client = make_client(server.url.replace("http://", "https://"))
    with pytest.raises(EndpointError) as info:
        client.open_stream(BODY)
    assert "secure connection" in str(info.value)
    assert os.linesep not in str(info.value)


def test_exhausted_script_answers_500_naming_the_request(server):
    server.add(text_response("only one"))
    list(make_client(server.url).open_stream(BODY))
    with pytest.raises(EndpointError) as info:
        make_client(server.url).open_stream(BODY)
    assert "had an error (500)" in str(info.value)
    assert "no response left for request 2" in str(info.value)


def test_standalone_server_process(tmp_path):
    """The way a LibreOffice test runs it: a separate process, a port file, a record file."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"responses": [text_response("Standalone works")],
                                  "models": ["m1", "m0"], "api_key": KEY}))
    port_file, record = tmp_path / "port", tmp_path / "record.jsonl"
    server_py = os.path.join(os.path.dirname(__file__), "..", "support", "sse_server.py")
    process = subprocess.Popen([sys.executable, server_py, "--script", str(script),
                                "--port-file", str(port_file), "--record", str(record)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while not port_file.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        port = int(port_file.read_text())
        client = make_client("http://127.0.0.1:%d/v1" % port)
        assert client.list_models() == ["m0", "m1"]
        data = b"".join(client.open_stream(BODY))
        assert b'"finish_reason": "stop"' in data and data.endswith(b"data: [DONE]\n\n")
    finally:
        process.terminate()
        process.wait(10)
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(r["method"], r["path"]) for r in lines] == [("GET", "/v1/models"),
                                                         ("POST", "/v1/chat/completions")]
    assert lines[1]["json"] == BODY
    assert lines[1]["headers"]["authorization"] == "Bearer " + KEY


@pytest.mark.parametrize("key", [KEY + "\u200b", "\u201c" + KEY + "\u201d"])
def test_a_key_that_cannot_be_sent_is_one_plain_sentence(server, key):
    # An invisible character or curly quotes pasted with the key: http.client
    # cannot encode the header, which must not surface as a Python class name.
    server.add(text_response("never"))
    client = make_client(server.url, api_key=key)
    for call in (lambda: client.open_stream(BODY), client.list_models):
        with pytest.raises(ConfigError) as info:
            call()
        message = str(info.value)
        assert message.startswith("The API key contains a character that cannot be sent")
        assert "Error" not in message and key not in message
    assert server.requests == []


def test_an_unexpected_failure_names_no_python_class():
    from urllib.parse import urlsplit
    from marginalia.chat.server_errors import transport_error
    error = transport_error("wait", ValueError("boom"), urlsplit("http://localhost:1234/v1"),
                            5, 5)
    assert str(error) == "Could not talk to localhost:1234; check the server address."

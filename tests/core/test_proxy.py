"""Proxies: which requests go through one, and a real CONNECT proxy in front of a TLS server."""

import ssl

import pytest

from marginalia.chat import proxy
from marginalia.chat.loop import Conversation, run_turn
from marginalia.chat.proxy import Proxies, Route
from marginalia.chat.tls import TlsSetup
from marginalia.chat.transport import CancelToken, ChatClient
from marginalia.config import Settings
from marginalia.errors import ConfigError, EndpointError
from tests.support.certs import make_ca, make_leaf
from tests.support.proxy_server import ProxyServer
from tests.support.sse_server import ScriptedServer, text_response

KEY = "sk-test-through-the-tunnel-0123456789"


def test_which_requests_go_through_the_proxy():
    proxies = Proxies("proxy.corp:3128", "http://u%40x:p%3Ass@proxy.corp:8080",
                      "intranet.corp, .example.org;*.lan,gpu-box:8000")
    assert proxy.route("https://api.openai.com/v1/models", proxies) == Route("proxy.corp", 3128)
    plain = proxy.route("http://models.example.com/v1", proxies)
    assert (plain.host, plain.port) == ("proxy.corp", 8080)
    assert plain.authorization == "Basic dUB4OnA6c3M="            # "u@x:p:ss"
    for direct in ("https://intranet.corp/v1", "https://a.intranet.corp/v1",
                   "https://www.example.org/v1", "https://box.lan/v1", "http://gpu-box:8000/v1",
                   "http://localhost:11434/v1", "http://127.0.0.1:8080/v1", "http://[::1]:1234/"):
        assert proxy.route(direct, proxies) is None, direct
    assert proxy.route("http://gpu-box:9000/v1", proxies) is not None     # another port
    assert proxy.route("https://notintranet.corp/v1", proxies) is not None
    assert proxy.route("https://x.y/v1", Proxies("p:1", "", "*")) is None
    assert proxy.route("https://x.y/v1", Proxies()) is None
    with pytest.raises(ConfigError):
        proxy.parse("https://secure-proxy:443")


def test_environment_and_libreoffice_settings():
    env = {"https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2", "NO_PROXY": "a.b"}
    assert proxy.from_environment(env) == Proxies("http://lower:1", "", "a.b")
    manual = proxy.from_office(1, "office-proxy", 3128, "office-http", 0, "*.local;intranet")
    assert manual == Proxies("office-proxy:3128", "office-http:80", "*.local;intranet")
    assert proxy.from_office(0, "x", 1, "", 0, "") is None        # none: the environment decides
    assert proxy.from_office(2, "x", 1, "", 0, "") is None        # system: likewise
    assert proxy.from_office(1, "", 0, " ", 0, "") is None        # LibreOffice's default
    try:
        proxy.use_office(manual)
        assert proxy.current(env) == manual
        proxy.use_office(None)
        assert proxy.current(env) == proxy.from_environment(env)
    finally:
        proxy.use_office(None)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pki")
    ca = make_ca(folder)
    other_ca = make_ca(tmp_path_factory.mktemp("other"))
    return {"ca": ca, "good": make_leaf(folder, "models.test", ca),
            "wrong_name": make_leaf(folder, "wrong.test", ca),
            "wrong_ca": make_leaf(tmp_path_factory.mktemp("o2"), "models.test", other_ca)}


def tls_server(certificate, script):
    srv = ScriptedServer(script, models=("test-model",))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    srv._httpd.socket = context.wrap_socket(srv._httpd.socket, server_side=True)
    return srv


def trusting(ca):
    context = ssl.create_default_context(cafile=ca[0])
    return TlsSetup(context, ca[0])


def client_for(srv, pki, proxies, host="models.test", **changes):
    settings = Settings(endpoint="https://%s:%d/v1" % (host, srv.port), model="test-model",
                        api_key=KEY, **changes)
    return settings, ChatClient(settings, tls=trusting(pki["ca"]), proxies=proxies, retries=0)


def test_a_chat_through_a_connect_proxy_keeps_tls_end_to_end(pki):
    with tls_server(pki["good"], [text_response("Hello through the proxy.")]) as srv, \
            ProxyServer() as relay:
        settings, client = client_for(srv, pki, Proxies(https=relay.address))
        assert client.list_models() == ["test-model"]
        result = run_turn(client, Conversation(), "A private question about my novel.", None,
                          settings, lambda e: None, CancelToken())
        assert result.error is None and result.text == "Hello through the proxy."
        assert [(m, t) for m, t, _h in relay.requests] == [("CONNECT", "models.test:%d"
                                                            % srv.port)] * 2
        # The key reached the server, inside TLS: the proxy never saw it.
        assert srv.chat_requests[0].headers["authorization"] == "Bearer " + KEY
        assert srv.chat_requests[0].headers["host"] == "models.test:%d" % srv.port
        carried = b"".join(relay.tunnelled)
        assert len(carried) > 1000 and KEY.encode() not in carried
        assert b"private question" not in carried
        assert all("authorization" not in h.lower() for _m, _t, hs in relay.requests for h in hs)


def test_a_wrong_certificate_still_fails_through_the_proxy(pki):
    for certificate, why in ((pki["wrong_name"], "Hostname mismatch"),
                             (pki["wrong_ca"], "unable to get local issuer certificate")):
        with tls_server(certificate, []) as srv, ProxyServer() as relay:
            _settings, client = client_for(srv, pki, Proxies(https=relay.address))
            with pytest.raises(EndpointError) as caught:
                client.list_models()
            assert caught.value.secure
            assert str(caught.value).startswith("The certificate of models.test could not be "
                                                "verified")
            assert why.lower() in str(caught.value).lower()
            assert relay.requests[0][0] == "CONNECT"
            assert not srv.requests                  # nothing was sent over the bad channel


def test_proxy_credentials_and_a_refusal_in_one_sentence(pki):
    with tls_server(pki["good"], []) as srv, ProxyServer(credentials="ana:s3cret") as relay:
        _s, client = client_for(srv, pki, Proxies(https="http://ana:s3cret@" + relay.address))
        assert client.list_models() == ["test-model"]
        _s, refused = client_for(srv, pki, Proxies(https=relay.address))
        with pytest.raises(EndpointError) as caught:
            refused.list_models()
        assert str(caught.value) == ("The proxy refused to connect to models.test:%d (407 Proxy "
                                     "Authentication Required); check the proxy settings."
                                     % srv.port)


def test_plain_http_goes_in_absolute_form_and_local_servers_never_use_the_proxy(monkeypatch):
    with ScriptedServer([text_response("plain", pieces=1)]) as srv, ProxyServer() as relay:
        settings = Settings(endpoint="http://models.test:%d/v1" % srv.port, model="test-model",
                            allow_http=True)
        client = ChatClient(settings, proxies=Proxies(http=relay.address), retries=0)
        assert client.list_models() == ["test-model"]
        assert relay.requests[0][:2] == ("GET", "http://models.test:%d/v1/models" % srv.port)
        monkeypatch.setenv("HTTPS_PROXY", relay.address)
        monkeypatch.setenv("HTTP_PROXY", relay.address)
        local = ChatClient(Settings(endpoint=srv.url, model="test-model"), retries=0)
        assert local.proxies.http == relay.address        # read from the environment
        stream = local.open_stream({"model": "test-model", "messages": [], "stream": True})
        assert b"plain" in b"".join(stream)
        assert len(relay.requests) == 1                   # 127.0.0.1 went direct

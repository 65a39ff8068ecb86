"""Trusted certificates where Python has none (LibreOffice's own Python on macOS).

A context that starts empty stands in for that Python; a certificate made
with the openssl command at test time stands in for the system's bundle, and
a real https server on 127.0.0.1 presents it.
"""

import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from marginalia.chat.server_errors import transport_error
from marginalia.chat.tls import BUNDLE_PATHS, TlsSetup, shared_tls, verifying_context
from marginalia.chat.transport import ChatClient
from marginalia.config import Settings
from marginalia.errors import EndpointError

ANSWER = b'data: {"choices": [{"index": 0, "delta": {"content": "secure"}}]}\n\ndata: [DONE]\n\n'
BODY = {"model": "test-model", "messages": [{"role": "user", "content": "hi"}], "stream": True}


def empty_context() -> ssl.SSLContext:
    """What LibreOffice's Python on macOS gives: a client context trusting nothing."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def careless_context() -> ssl.SSLContext:
    """An empty context that does not even verify: the set-up must turn checking back on."""
    context = empty_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def make_certificate(folder, name: str = "localhost"):
    """(cert.pem, key.pem): a self-signed certificate for ``name``, made now by openssl."""
    cert, key = str(folder / (name + ".pem")), str(folder / (name + ".key"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                    "-subj", "/CN=" + name, "-addext", "subjectAltName=DNS:" + name,
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """The certificate the test https server presents."""
    return make_certificate(tmp_path_factory.mktemp("tls"))


class _Answer(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(ANSWER)))
        self.end_headers()
        self.wfile.write(ANSWER)

    def log_message(self, *args):
        pass


@pytest.fixture
def https_server(certificate):
    """A real https chat server on 127.0.0.1 presenting the test certificate; its port."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def client(port: int, tls: TlsSetup) -> ChatClient:
    settings = Settings(endpoint="https://localhost:%d/v1" % port, model="test-model",
                        connect_timeout=3.0, read_timeout=3.0)
    return ChatClient(settings, retries=0, tls=tls)


def test_an_empty_context_takes_the_first_bundle_found_and_still_verifies(certificate,
                                                                          tmp_path):
    setup = verifying_context(careless_context,
                              [str(tmp_path / "absent.pem"), certificate[0]])
    assert setup.source == certificate[0] and not setup.no_ca_list
    assert setup.context.cert_store_stats()["x509_ca"] == 1
    assert setup.context.verify_mode == ssl.CERT_REQUIRED
    assert setup.context.check_hostname is True


def test_a_bundle_that_cannot_be_read_is_passed_over(certificate, tmp_path):
    broken = tmp_path / "broken.pem"
    broken.write_text("-----BEGIN CERTIFICATE-----\nnot base64 at all\n")
    setup = verifying_context(empty_context, [str(broken), certificate[0]])
    assert setup.source == certificate[0]


def test_a_context_with_certificates_is_kept_as_it_is(certificate):
    def with_one():
        context = empty_context()
        context.load_verify_locations(certificate[0])
        return context
    setup = verifying_context(with_one, [str(certificate[0]) + ".never-read"])
    assert setup.source == "default"
    assert setup.context.cert_store_stats()["x509_ca"] == 1


def test_the_bundle_found_lets_a_real_https_server_be_verified(certificate, https_server):
    setup = verifying_context(empty_context, [certificate[0]])
    assert b"".join(client(https_server, setup).open_stream(BODY)) == ANSWER


def test_no_bundle_anywhere_says_so_and_how_to_fix_it(tmp_path, https_server):
    setup = verifying_context(empty_context, [str(tmp_path / "absent.pem")])
    assert setup.no_ca_list and setup.context.cert_store_stats()["x509_ca"] == 0
    assert setup.context.verify_mode == ssl.CERT_REQUIRED
    with pytest.raises(EndpointError) as info:
        client(https_server, setup).open_stream(BODY)
    message = str(info.value)
    assert message == (
        "The certificate of localhost could not be checked because the Python inside this "
        "LibreOffice has no list of trusted certificates; install your system's CA "
        "certificates, or put a PEM bundle at /etc/ssl/cert.pem, and restart LibreOffice.")


def test_with_a_list_an_unknown_certificate_keeps_the_usual_sentence(tmp_path, https_server):
    # The list is there, it just does not trust this server: no advice about installing one.
    setup = verifying_context(empty_context, [make_certificate(tmp_path, "other")[0]])
    with pytest.raises(EndpointError) as info:
        client(https_server, setup).open_stream(BODY)
    assert str(info.value).startswith("The certificate of localhost could not be verified (")


def test_the_macos_bundle_is_a_candidate_and_linux_ones_too():
    assert "/etc/ssl/cert.pem" in BUNDLE_PATHS
    assert "/etc/ssl/certs/ca-certificates.crt" in BUNDLE_PATHS
    assert "/etc/pki/tls/certs/ca-bundle.crt" in BUNDLE_PATHS


def test_the_shared_set_up_is_made_once_and_verifies():
    first = shared_tls()
    assert shared_tls() is first
    assert first.context.verify_mode == ssl.CERT_REQUIRED and first.context.check_hostname


def test_the_no_list_sentence_is_only_for_certificate_failures():
    from urllib.parse import urlsplit
    error = transport_error("connect", ConnectionRefusedError(), urlsplit("https://h:1/v1"),
                            5, 5, no_ca_list=True)
    assert "trusted certificates" not in str(error)

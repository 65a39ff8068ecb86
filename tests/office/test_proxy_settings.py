"""LibreOffice's own proxy settings (Tools > Options > Internet > Proxy) carry the chat.

The office's org.openoffice.Inet/Settings are set to a manual http proxy: a real
proxy on 127.0.0.1 (tests/support/proxy_server.py) in front of the scripted
model server, reached by a name only the proxy resolves. The chat answers only
if the extension read those settings and went through the proxy.
"""

import time

import uno

from tests.support.proxy_server import ProxyServer
from tests.support.sse_server import ScriptedServer, text_response

INET = "/org.openoffice.Inet/Settings"
NAMES = ("ooInetProxyType", "ooInetHTTPProxyName", "ooInetHTTPProxyPort", "ooInetNoProxy")


def _inet(office):
    provider = office.create("com.sun.star.configuration.ConfigurationProvider")
    arg = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    arg.Name, arg.Value = "nodepath", INET
    return provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationUpdateAccess", (arg,))


def _set(node, values):
    for name, value in values.items():
        if name in ("ooInetProxyType", "ooInetHTTPProxyPort"):
            value = uno.Any("long", value)
            uno.invoke(node, "replaceByName", (name, value))
        else:
            node.replaceByName(name, value)
    node.commitChanges()


def _wait_done(office, doc):
    entries = []
    deadline = time.time() + 30
    while time.time() < deadline:
        entries.extend(office.job("chat.poll", doc)["entries"])
        if any(e["type"] == "done" for e in entries):
            return entries
        time.sleep(0.05)
    raise AssertionError("the turn did not end: %r" % entries)


def test_a_manual_proxy_in_libreoffice_carries_the_chat(office):
    node = _inet(office)
    before = dict((name, node.getByName(name)) for name in NAMES)
    doc = office.new_writer()
    try:
        with ScriptedServer([text_response("Through the office proxy.")]) as srv, \
                ProxyServer() as relay:
            _set(node, {"ooInetProxyType": 1, "ooInetHTTPProxyName": "127.0.0.1",
                        "ooInetHTTPProxyPort": int(relay.address.split(":")[1]),
                        "ooInetNoProxy": "intranet.test"})
            endpoint = "http://models.test:%d/v1" % srv.port
            office.job("chat.start", doc, message="hi", settings={
                "endpoint": endpoint, "model": "test-model", "provider": "custom",
                "edit_protocol": "tools",
                "allow_http": True})
            entries = _wait_done(office, doc)
            text = "".join(e.get("text", "") for e in entries if e["type"] == "text")
            assert text == "Through the office proxy.", entries
            targets = [target for _method, target, _headers in relay.requests]
            assert endpoint + "/chat/completions" in targets
            assert srv.chat_requests[0].json["messages"][-1]["content"] == "hi"
    finally:
        _set(node, dict((k, v if v is not None else (0 if "Port" in k or "Type" in k else ""))
                        for k, v in before.items()))
        office.close(doc)

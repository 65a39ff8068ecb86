"""Which proxy, if any, a request goes through (pure: plain values in, a route out).

Sources, first that applies: LibreOffice's own proxy settings when set to
manual (Tools > Options > Internet > Proxy, read on the office side and handed
here with ``use_office``), else the environment's ``HTTPS_PROXY`` /
``HTTP_PROXY`` / ``NO_PROXY`` (either case), as curl and Python read them.

An https request through a proxy is a CONNECT tunnel: TLS runs end to end with
the real host and is verified against its name, so the proxy sees neither the
key nor the conversation. Hosts on this computer (localhost, loopback) never go
through a proxy: a local model server is not behind the office's web proxy.
"""

import base64
import threading
from dataclasses import dataclass
from typing import Mapping, Optional
from urllib.parse import unquote, urlsplit

from marginalia.chat.endpoint import default_port
from marginalia.errors import ConfigError


@dataclass(frozen=True)
class Proxies:
    """Proxy URLs ("host:port" or "http://user:pass@host:port") and the bypass list."""

    https: str = ""
    http: str = ""
    no_proxy: str = ""      # comma- or semicolon-separated: hosts, .domains, *.domains, *


@dataclass(frozen=True)
class Route:
    """Where to connect for a request: the proxy's host and port, and its credentials."""

    host: str
    port: int
    authorization: Optional[str] = None     # a Proxy-Authorization header value


def from_environment(env: Mapping[str, str]) -> Proxies:
    def get(name):
        return (env.get(name.lower()) or env.get(name.upper()) or "").strip()
    return Proxies(get("https_proxy"), get("http_proxy"), get("no_proxy"))


def from_office(kind: int, https_host: str, https_port: int, http_host: str, http_port: int,
                no_proxy: str) -> Optional[Proxies]:
    """LibreOffice's org.openoffice.Inet/Settings values; None unless set to manual (1).

    ooInetProxyType is 0 for none and 2 for the system's settings; for both the
    environment decides, as it does for the rest of the desktop. LibreOffice ships
    with manual (1) and no proxy named, which also leaves it to the environment.
    """
    if kind != 1 or not ((https_host or "").strip() or (http_host or "").strip()):
        return None

    def address(host, port):
        host = (host or "").strip()
        return "%s:%d" % (host, port or 80) if host else ""
    return Proxies(address(https_host, https_port), address(http_host, http_port),
                   no_proxy or "")


_office: Optional[Proxies] = None
_lock = threading.Lock()


def use_office(proxies: Optional[Proxies]) -> None:
    """Remember LibreOffice's proxy settings (None: not manual) for later requests."""
    global _office
    with _lock:
        _office = proxies


def current(env: Mapping[str, str]) -> Proxies:
    """The proxies in force: LibreOffice's manual settings, else the environment."""
    with _lock:
        office = _office
    return office if office is not None else from_environment(env)


def _bypassed(host: str, port: int, no_proxy: str) -> bool:
    host = host.lower().strip("[]")
    if host == "localhost" or host.endswith(".localhost") or host.startswith("127.") \
            or host == "::1":
        return True
    for entry in no_proxy.replace(";", ",").split(","):
        entry = entry.strip().lower()
        if not entry:
            continue
        if entry == "*":
            return True
        if entry.startswith("[") or entry.count(":") == 1:   # "host:port"
            name, _, wanted = entry.rpartition(":")
            if wanted.isdigit() and int(wanted) != port:
                continue
            entry = name
        entry = entry.strip("[]").lstrip("*")
        if host == entry.lstrip(".") or (entry.startswith(".") and host.endswith(entry)) \
                or (not entry.startswith(".") and host.endswith("." + entry)):
            return True
    return False


def route(url: str, proxies: Proxies) -> Optional[Route]:
    """The proxy to go through for ``url``, or None to connect directly."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    port = parts.port or default_port(scheme)
    chosen = proxies.https if scheme == "https" else proxies.http
    if not chosen or _bypassed(host, port, proxies.no_proxy):
        return None
    return parse(chosen)


def parse(proxy: str) -> Route:
    """A Route from "host:port" or "http://user:pass@host:port"; ConfigError when unusable."""
    text = proxy.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ConfigError("The proxy address %r is not valid; check the proxy settings." % proxy)
    if parts.scheme.lower() != "http" or not parts.hostname:
        # An https:// proxy (TLS to the proxy itself) is rare and http.client cannot do it.
        raise ConfigError("The proxy address %r is not an http proxy; Marginalia can use an "
                          "http proxy (host:port)." % proxy)
    authorization = None
    if parts.username:
        pair = "%s:%s" % (unquote(parts.username), unquote(parts.password or ""))
        authorization = "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")
    return Route(parts.hostname, port or 80, authorization)


def describe(value: Optional[Route]) -> str:
    """For the log: where a request goes, never the credentials."""
    return "direct" if value is None else "via proxy %s:%d" % (value.host, value.port)


"""Where the model server is, whether we may talk to it, and what we send it.

Pure: no I/O. ``Endpoint`` turns whatever the user pasted into a base URL and
the chat and models URLs; ``check_policy`` decides whether plain http is
allowed; ``build_body`` builds the chat request from the settings, sending
only what the user actually set. What the server answers, and the sentence a
user sees for a failure, live in ``server_errors``.

Host policy. Plain http is allowed without asking only to hosts on this
computer or the local network, because that is where local model servers
(Ollama, LM Studio, llama.cpp, vLLM) live and they rarely speak https:
``localhost`` and ``*.localhost``, loopback (127.0.0.0/8, ::1), the private
LAN ranges (10/8, 172.16/12, 192.168/16, fc00::/7), link-local
(169.254/16, fe80::/10), and the LAN-only names ``*.local`` (mDNS) and
``*.home.arpa`` (RFC 8375). The decision is made on the name as written,
without a DNS lookup, so a LAN box reached by a plain name (``gpu-box``) or
through CGNAT/Tailscale (100.64/10) needs ``allow_http``: we cannot tell
those apart from the internet without resolving. Everything else needs
https unless the user ticks ``allow_http``.
"""

import ipaddress
import re
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlsplit, urlunsplit

from marginalia.config import Settings
from marginalia.errors import ConfigError

Origin = Tuple[str, str, int]

_LAN_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
    "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10"))

_LOCAL_SUFFIXES = (".localhost", ".local", ".home.arpa")

# Endings people paste from API docs; the base URL is what comes before them.
_ENDPOINT_SUFFIXES = ("/chat/completions", "/completions", "/models")

# OpenAI o-series (o1, o3-mini, o4-mini...) and the gpt-5 family take
# max_completion_tokens and reject temperature.
_REASONING_MODEL = re.compile(r"^(o[1-9](-|$)|gpt-5)")


def default_port(scheme: Optional[str]) -> int:
    """The port a URL without one uses: 443 for https, 80 otherwise."""
    return 443 if scheme == "https" else 80


def is_local_host(host: Optional[str]) -> bool:
    """True for this computer or a private-LAN host (see the module docstring)."""
    name = (host or "").strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name == "localhost" or name.endswith(_LOCAL_SUFFIXES):
        return True
    try:
        ip = ipaddress.ip_address(name.split("%", 1)[0])  # drop an IPv6 zone id
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in _LAN_NETWORKS if net.version == ip.version)


class Endpoint:
    """A normalised server address: ``base`` plus the chat and models URLs."""

    __slots__ = ("scheme", "host", "port", "netloc", "path", "query")

    def __init__(self, url: Optional[str]) -> None:
        text = (url or "").strip()
        if not text:
            raise ConfigError("Enter the address of the model server in the options.")
        if "://" not in text:
            # A pasted "localhost:11434" or "api.example.com/v1": guess the
            # scheme the way the host policy would accept it.
            host = re.split(r"[/:?#]", text, maxsplit=1)[0]
            text = ("http://" if is_local_host(host) else "https://") + text
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError:
            raise ConfigError("The server address %r is not a valid URL." % (url,))
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https"):
            raise ConfigError("The server address must start with http:// or https://.")
        if not parts.hostname:
            raise ConfigError("The server address %r has no host name." % (url,))
        if parts.username or parts.password:
            raise ConfigError("Put the key in the API key field, not in the server address.")
        path = parts.path.rstrip("/")
        for suffix in _ENDPOINT_SUFFIXES:
            if path.endswith(suffix):
                path = path[:-len(suffix)].rstrip("/")
                break
        if not path and not parts.path.rstrip("/"):
            # Only a bare host gets /v1 (Ollama, LM Studio, llama.cpp all
            # serve there); an existing path such as Gemini's /v1beta/openai
            # or OpenRouter's /api/v1 is the user's and is kept.
            path = "/v1"
        self.scheme = scheme
        self.host = parts.hostname.lower()
        self.port = port or default_port(scheme)
        self.netloc = parts.netloc.lower()
        self.path = path
        # Kept for servers that need one (Azure's ?api-version=...).
        self.query = parts.query

    @property
    def base(self) -> str:
        return urlunsplit((self.scheme, self.netloc, self.path, "", ""))

    def url(self, suffix: str) -> str:
        """The base URL plus ``suffix`` (e.g. "/models"), with the user's query kept."""
        return urlunsplit((self.scheme, self.netloc, self.path + suffix, self.query, ""))

    @property
    def chat_url(self) -> str:
        return self.url("/chat/completions")

    @property
    def models_url(self) -> str:
        return self.url("/models")

    @property
    def origin(self) -> Origin:
        """(scheme, host, port): the only place the API key may be sent."""
        return (self.scheme, self.host, self.port)

    @property
    def is_local(self) -> bool:
        return is_local_host(self.host)

    def __repr__(self) -> str:
        return "Endpoint(%r)" % (self.base,)


def origin_of(url: str) -> Origin:
    """(scheme, host, port) of any absolute URL, for comparing with Endpoint.origin."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return (scheme, (parts.hostname or "").lower(), parts.port or default_port(scheme))


def check_policy(scheme: str, host: str, allow_http: bool) -> None:
    """Raise ConfigError for plain http to a non-local host unless allowed."""
    if scheme == "http" and not allow_http and not is_local_host(host):
        raise ConfigError(
            "Plain http is only used for servers on this computer or the local network; "
            "use https for %s, or allow http in the options." % host)


def endpoint_for(settings: Settings) -> Endpoint:
    """The settings' Endpoint, after the host policy check."""
    endpoint = Endpoint(settings.endpoint)
    check_policy(endpoint.scheme, endpoint.host, settings.allow_http)
    return endpoint


def is_reasoning_model(model: Optional[str]) -> bool:
    """True for OpenAI-style reasoning models, also behind a gateway prefix ("openai/o3")."""
    name = (model or "").strip().lower().rsplit("/", 1)[-1]
    return bool(_REASONING_MODEL.match(name))


def build_body(settings: Settings, messages: List[Dict[str, Any]],
               tools: Optional[List[Dict[str, Any]]] = None,
               include_usage: bool = True) -> Dict[str, Any]:
    """The chat request body; optional parameters only when the user set them."""
    model = (settings.model or "").strip()
    if not model:
        raise ConfigError("Choose a model under Tools > Options > Marginalia first.")
    body = {"model": model, "messages": messages, "stream": True}
    if tools:
        body["tools"] = tools
    if include_usage:
        body["stream_options"] = {"include_usage": True}
    reasoning = is_reasoning_model(model)
    if settings.temperature is not None:
        # Reasoning models reject temperature, but a value the user typed is
        # theirs to send: only our own default is never sent.
        body["temperature"] = float(settings.temperature)
    if settings.max_tokens:
        key = "max_completion_tokens" if reasoning else "max_tokens"
        body[key] = int(settings.max_tokens)
    if settings.reasoning_effort:
        body["reasoning_effort"] = settings.reasoning_effort
    return body

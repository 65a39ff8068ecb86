"""The chosen model's context window, asked of the server, best source first.

Each server kind says it somewhere else:

* Ollama: ``/api/ps`` the context a loaded model actually runs with (4,096 by
  default, whatever the model supports), ``/api/show`` the model's own
  maximum (``model_info["<arch>.context_length"]``) and a Modelfile's
  ``num_ctx``. A model not loaded yet will be loaded with ``num_ctx`` or, by
  default, 4,096; the next turn asks again.
* LM Studio: ``/api/v0/models``, ``loaded_context_length`` and ``max_context_length``.
* llama.cpp server: ``/props``, ``default_generation_settings.n_ctx`` (per slot).
* vLLM: ``/v1/models``, ``max_model_len``; OpenRouter: ``/models``, ``context_length``;
  Groq: ``context_window``.

A server on an address of its own (another port, a container, a reverse proxy
with a path prefix) is recognised by its cheap signatures instead, asked once
per cache period: Ollama's ``/api/version`` (or ``/api/tags``), llama.cpp's
``/props``, LM Studio's ``/api/v0/models``; vLLM's ``max_model_len`` comes with
the model list every probe reads last.

The user's "Context window" setting is used when nothing was found, and also
when smaller; a window a server is running with is a hard limit either way, and
so is one a server named when it refused a request as too long (``learn``).
Answers are cached per server and model; a probe that fails is never an
error for the chat, it just finds nothing.
"""

import logging
import re
import threading
import time
from typing import Any, Dict, Optional, Tuple

from marginalia.chat import window_errors
from marginalia.chat.budget import Window
from marginalia.chat.endpoint import Endpoint
from marginalia.chat.transport import ChatClient, CancelToken
from marginalia.config import PRESETS, Settings, preset_endpoint
from marginalia.errors import EndpointError, MarginaliaError
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr

log = logging.getLogger("marginalia.chat.window")

OLLAMA_DEFAULT = 4096        # what Ollama loads a model with unless told otherwise
DEFAULT_LOCAL = 8192         # unknown local server: cautious, it may cut silently
DEFAULT_REMOTE = 128000      # unknown cloud API: they refuse an overlong prompt, not cut it
PROBE_TIMEOUT = 5.0
SNIFF_TIMEOUT = 2.0          # each signature request of a server of unknown kind
LEARNED_SECONDS = 3600.0     # a window named in a refusal: until the user may have reloaded
CACHE_SECONDS = 600.0
UNLOADED_SECONDS = 20.0      # an Ollama model not loaded yet: ask again soon

OLLAMA_HINT = N_("Ollama runs %(model)s with a %(runs)s-token context, though the model "
                 "supports %(most)s; Marginalia shortens the chat to fit. For more, start "
                 "Ollama with OLLAMA_CONTEXT_LENGTH=%(suggest)s (or set num_ctx in a "
                 "Modelfile).")

_PORTS = {11434: "ollama", 1234: "lmstudio", 8080: "llamacpp", 8000: "vllm"}
_cache: Dict[Tuple[str, str], Tuple[float, Optional[Window]]] = {}
_kinds: Dict[str, Tuple[float, str]] = {}          # server root -> (expires, sniffed kind)
_learned: Dict[Tuple[str, str], Tuple[float, int]] = {}
_lock = threading.Lock()


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and value > 0:
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def server_kind(settings: Settings, endpoint: Endpoint) -> str:
    """ollama, lmstudio, llamacpp, vllm, openrouter or "" (from the preset, else the address).

    A preset counts only while the address still has its port: asking a server of
    another kind for Ollama's /api/show would be a wasted request.
    """
    if endpoint.host.endswith("openrouter.ai"):
        return "openrouter"
    preset = preset_endpoint(settings.provider)
    if settings.provider in _PORTS.values() and preset and Endpoint(preset).port == endpoint.port:
        return settings.provider
    return _PORTS.get(endpoint.port, "") if endpoint.is_local else ""


def server_root(endpoint: Endpoint) -> str:
    """The address the server's own API hangs from: the endpoint without its /v1.

    Behind a reverse proxy that is more than the host: ``http://gpu:9000/ollama/v1``
    serves Ollama's ``/api/show`` at ``http://gpu:9000/ollama/api/show``.
    """
    path = endpoint.path
    if path.endswith("/v1"):
        path = path[:-len("/v1")]
    return "%s://%s%s" % (endpoint.scheme, endpoint.netloc, path)


# A cloud API is never asked for a local server's signatures.
_CLOUD_HOSTS = frozenset(Endpoint(url).host for _id, _label, url in PRESETS
                         if url and not Endpoint(url).is_local)

# path, kind, and whether an answer there is that kind's (not another server's 200
# with an error in it: LM Studio answers unknown paths so).
_SIGNATURES = (
    ("/api/version", "ollama", lambda d: isinstance(d, dict) and isinstance(d.get("version"),
                                                                             str)),
    ("/props", "llamacpp", lambda d: from_llamacpp(d) is not None),
    ("/api/v0/models", "lmstudio", lambda d: isinstance(d, dict) and isinstance(
        d.get("data"), list) and any(isinstance(i, dict) and "max_context_length" in i
                                     for i in d["data"])),
    ("/api/tags", "ollama", lambda d: isinstance(d, dict) and isinstance(d.get("models"), list)),
)


def _may_sniff(endpoint: Endpoint) -> bool:
    """Whether to ask a server of unknown kind what it is: a local or LAN host, or plain
    http. A cloud service (a custom one included) is never sent guesses, with the key."""
    return endpoint.host not in _CLOUD_HOSTS and (
        endpoint.is_local or endpoint.scheme == "http")


def sniff(settings: Settings, root: str, cancel: Optional[CancelToken] = None) -> str:
    """The kind of the server at ``root`` from its signatures, "" when none answers.

    Cached per root for the cache period. Short timeouts: this runs on the turn's
    worker before the first request, and a server that does not answer at all is
    not asked the rest.
    """
    known, kind = _fresh(_kinds, root)
    if known:
        return kind
    client = ChatClient(settings.copy(read_timeout=SNIFF_TIMEOUT,
                                      connect_timeout=SNIFF_TIMEOUT), retries=0)
    kind = ""
    for path, candidate, fits in _SIGNATURES:
        try:
            data = client.fetch_json(root + path, None, cancel)
        except EndpointError as exc:
            if exc.status is None:
                break          # nothing answered at all: the other paths will not either
            continue
        if fits(data):
            kind = candidate
            break
    _keep(_kinds, root, CACHE_SECONDS, kind)
    return kind


def _same_model(name: Any, model: str) -> bool:
    if not isinstance(name, str):
        return False
    strip = lambda n: n[:-len(":latest")] if n.endswith(":latest") else n  # noqa: E731
    return strip(name) == strip(model)


def from_models_list(data: Any, model: str) -> Optional[int]:
    """A context length in an OpenAI-style model list (vLLM, OpenRouter, Groq, LM Studio)."""
    items = data.get("data", data.get("models")) if isinstance(data, dict) else data
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and (_same_model(item.get("id"), model)
                                       or _same_model(item.get("name"), model)):
            top = item.get("top_provider") if isinstance(item.get("top_provider"), dict) else {}
            for value in (item.get("loaded_context_length"), item.get("max_model_len"),
                          item.get("context_length"), item.get("context_window"),
                          top.get("context_length"), item.get("max_context_length")):
                if _int(value):
                    return _int(value)
    return None


def from_lmstudio(data: Any, model: str) -> Tuple[Optional[int], Optional[int]]:
    """(loaded, maximum) from LM Studio's /api/v0/models."""
    for item in (data.get("data") or []) if isinstance(data, dict) else ():
        if isinstance(item, dict) and _same_model(item.get("id"), model):
            return _int(item.get("loaded_context_length")), _int(item.get("max_context_length"))
    return None, None


def from_llamacpp(data: Any) -> Optional[int]:
    """The context of one slot from llama.cpp's /props."""
    if not isinstance(data, dict):
        return None
    settings = data.get("default_generation_settings")
    if isinstance(settings, dict) and _int(settings.get("n_ctx")):
        return _int(settings.get("n_ctx"))
    return _int(data.get("n_ctx"))


def from_ollama_ps(data: Any, model: str) -> Optional[int]:
    """The context a loaded model runs with, from Ollama's /api/ps; None when not loaded."""
    for item in (data.get("models") or []) if isinstance(data, dict) else ():
        if isinstance(item, dict) and (_same_model(item.get("name"), model)
                                       or _same_model(item.get("model"), model)):
            return _int(item.get("context_length"))
    return None


def from_ollama_show(data: Any) -> Tuple[Optional[int], Optional[int]]:
    """(the model's maximum, a Modelfile's num_ctx) from Ollama's /api/show."""
    if not isinstance(data, dict):
        return None, None
    maximum = None
    info = data.get("model_info")
    for key, value in (info.items() if isinstance(info, dict) else ()):
        if key.endswith(".context_length") and _int(value):
            maximum = _int(value)
    found = re.search(r"(?m)^\s*num_ctx\s+(\d+)", data.get("parameters") or "")
    return maximum, int(found.group(1)) if found else None


def _ollama(client: ChatClient, root: str, model: str, cancel) -> Tuple[Optional[Window], bool]:
    maximum, num_ctx = None, None
    try:
        # "name" for Ollama before 0.5, "model" after.
        maximum, num_ctx = from_ollama_show(client.fetch_json(
            root + "/api/show", {"model": model, "name": model}, cancel))
    except MarginaliaError as exc:
        log.info("ollama /api/show: %s", exc)
    try:
        loaded = from_ollama_ps(client.fetch_json(root + "/api/ps", None, cancel), model)
    except MarginaliaError as exc:
        log.info("ollama /api/ps: %s", exc)
        loaded = None
    runs = loaded or num_ctx or OLLAMA_DEFAULT
    if maximum:
        runs = min(runs, maximum)
    source = "ollama /api/ps" if loaded else "ollama default"
    if maximum and runs < maximum:
        suggest = min(maximum, 32768)
        hint = tr(OLLAMA_HINT) % {"model": model, "runs": formats.number(runs),
                                  "most": formats.number(maximum), "suggest": suggest}
        return Window(runs, source, model_max=maximum, hint=hint), bool(loaded)
    return Window(runs, source), bool(loaded)


def probe(settings: Settings, cancel: Optional[CancelToken] = None,
          kind: Optional[str] = None) -> Optional[Window]:
    """Ask the server for the model's window; None when it does not say (never raises).

    ``kind`` overrides server_kind (a test server on a port of its own).
    """
    model = (settings.model or "").strip()
    try:
        client = ChatClient(settings.copy(read_timeout=PROBE_TIMEOUT,
                                          connect_timeout=min(settings.connect_timeout or 5,
                                                              PROBE_TIMEOUT)),
                            retries=0)
        endpoint = client.endpoint
        root = server_root(endpoint)
        kind = server_kind(settings, endpoint) if kind is None else kind
        if not kind and _may_sniff(endpoint):
            kind = sniff(settings, root, cancel)
        if kind == "ollama":
            found, loaded = _ollama(client, root, model, cancel)
            _remember(settings, found, CACHE_SECONDS if loaded else UNLOADED_SECONDS)
            return found
        tokens = None
        if kind == "lmstudio":
            loaded, maximum = from_lmstudio(client.fetch_json(root + "/api/v0/models", None,
                                                              cancel), model)
            tokens = loaded or maximum
        elif kind == "llamacpp":
            tokens = from_llamacpp(client.fetch_json(root + "/props", None, cancel))
        if tokens is None:
            tokens = from_models_list(client.fetch_json(endpoint.models_url, None, cancel), model)
        found = Window(tokens, kind + window_errors.FROM_SERVER) if tokens else None
    except MarginaliaError as exc:
        log.info("no context window from the server: %s", exc)
        found = None
    except Exception:      # a probe never fails the chat, whatever the server sent
        log.exception("context window probe failed")
        found = None
    _remember(settings, found, CACHE_SECONDS)
    return found


def _key(settings: Settings) -> Tuple[str, str]:
    return ((settings.endpoint or "").strip(), (settings.model or "").strip())


def _keep(table: Dict, key: Any, seconds: float, value: Any) -> None:
    """Keep ``value`` in one of the module's caches for ``seconds``."""
    with _lock:
        table[key] = (time.monotonic() + seconds, value)


def _fresh(table: Dict, key: Any) -> Tuple[bool, Any]:
    """(known, value) of ``key`` in one of the module's caches while it is fresh."""
    with _lock:
        entry = table.get(key)
    if entry is None or entry[0] < time.monotonic():
        return False, None
    return True, entry[1]


def _remember(settings, found, seconds):
    _keep(_cache, _key(settings), seconds, found)


def cached(settings: Settings) -> Tuple[bool, Optional[Window]]:
    """(known, window) from the cache, without asking the server."""
    return _fresh(_cache, _key(settings))


def detected(settings: Settings, cancel: Optional[CancelToken] = None,
             kind: Optional[str] = None) -> Optional[Window]:
    """The server's window for the model, cached (a probe only when unknown or stale)."""
    known, found = cached(settings)
    return found if known else probe(settings, cancel, kind)


def learn(settings: Settings, tokens: int) -> Window:
    """Remember the window a server named when it refused a request as too long."""
    _keep(_learned, _key(settings), LEARNED_SECONDS, tokens)
    return Window(tokens, window_errors.FROM_REFUSAL)


def learned(settings: Settings) -> Optional[int]:
    """A window remembered from a refusal for this server and model, if still fresh."""
    return _fresh(_learned, _key(settings))[1]


def effective(settings: Settings, found: Optional[Window]) -> Window:
    """The window to budget to, never above one the server named when it refused a request."""
    chosen = _effective(settings, found)
    refused = learned(settings)
    if refused and refused < chosen.tokens:
        return Window(refused, window_errors.FROM_REFUSAL)
    return chosen


def _effective(settings: Settings, found: Optional[Window]) -> Window:
    """The server's window, the user's setting, or a cautious default."""
    user = _int(settings.context_window)
    if found is not None and found.model_max:      # what the server runs with: a hard limit
        return found if not user or user >= found.tokens else Window(user, "setting")
    if user and (found is None or user < found.tokens):
        return Window(user, "setting")
    if found is not None:
        return found
    try:
        local = Endpoint(settings.endpoint).is_local
    except MarginaliaError:
        local = True
    return Window(DEFAULT_LOCAL if local else DEFAULT_REMOTE, "default")


def window_for(settings: Settings, cancel: Optional[CancelToken] = None,
               kind: Optional[str] = None) -> Window:
    """The window a turn budgets to (asks the server at most once per cache period)."""
    return effective(settings, detected(settings, cancel, kind))

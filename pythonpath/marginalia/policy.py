"""The administrator's policy and what it allows (pure).

The values come from the registry group ``/org.marginalia.Settings/Policy``
(office.settings_store.load_policy), set and finalized by the administrator's
configuration extension (``build.py admin-config``). Every decision is made
here, the office side only applies it, and every refusal is one sentence that
names the policy, so a user knows it is not a fault to report.
"""

import ipaddress
import socket
import time
from typing import Callable, Iterable, List, Mapping, NamedTuple, Optional, Tuple
from urllib.parse import urlsplit

from marginalia.chat.endpoint import Endpoint
from marginalia.errors import ConfigError
from marginalia.i18n.catalog import N_, tr

# chat_days: kept as the user chooses (the Keep chats setting), without a limit.
USER_CHOOSES = -1

# The tools a selection-only policy leaves: they read and replace the selection and
# nothing else. A read tool (read_document, search_document, get_document_info) would
# show the rest of the document; an edit tool that finds its text or addresses
# paragraphs by number would tell the model about it through its results.
SELECTION_TOOLS = ("get_selection", "replace_selection")

# Single-label names (an intranet host) and these suffixes never resolve on the
# public internet (RFC 6761, RFC 8375, ICANN's .internal).
LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home.arpa")

# The user's sentences are English here and translated where shown; SELECTION_NOTE is the
# model's (writer.toolbox's tool results), so it stays English.
TEST_OFF = N_("Your administrator has turned off Test connection.")
TEST_OFF_NOTE = N_("Your administrator has turned off Test connection")    # a control's note
SELECTION_NOTE = ("Your administrator allows the assistant to see only the selected text: "
                  "no other part of the document can be read.")

# The outside agents' server (office.mcp_host) stays off under a policy that limits where
# document text may go, unless the administrator allows it: an agent is a program the
# user runs, which sends what it reads to servers the administrator never saw.
OUTSIDE_AGENTS_OFF = N_("Your administrator does not allow outside agents.")
AGENTS_OFF = "off"           # agents_scope: no outside agent at all

SELECT_FIRST = N_("Your administrator allows the assistant to see only the selected text: "
                  "select the text first.")


class Policy(NamedTuple):
    allowed_endpoints: Tuple[str, ...] = ()
    local_only: bool = False
    selection_only: bool = False
    chat_days: int = USER_CHOOSES
    allow_test_connection: bool = True
    api_key_env: str = ""
    api_key_file: str = ""
    # Outside agents (MCP) although local_only or allowed_endpoints limit the servers.
    allow_outside_agents: bool = False
    # The most an outside agent's token may do (mcp.scopes: read, comment, suggest, edit),
    # "off" for no outside agents at all; "": as each token says.
    agents_scope: str = ""

    @property
    def key_from_admin(self) -> bool:
        """The administrator provides the key: the user never types one."""
        return bool(self.api_key_env or self.api_key_file)


def _parts(text: str, sent: bool = True) -> Optional[Tuple[str, str, int, str]]:
    """(scheme, host, port, path) as the transport reads ``text`` (chat.endpoint.Endpoint:
    a scheme-less "localhost:11434" gets the scheme it would, a missing port the scheme's,
    and, for an address ``sent`` to, a bare host the /v1 it is sent to), or None when it
    is no address the transport would send to."""
    try:
        endpoint = Endpoint(text)
    except ConfigError:
        return None
    text = (text or "").strip()
    path = urlsplit(text if "://" in text else "//" + text).path
    if sent and not path.rstrip("/"):
        path = endpoint.path
    return endpoint.scheme, endpoint.host.rstrip("."), endpoint.port, path


def _matches(entry: str, parts: Tuple[str, str, int, str]) -> bool:
    """``entry`` (a URL prefix or a host, host:port) allows the address ``parts``."""
    entry = entry.strip()
    if not entry:
        return False
    scheme, host, port, path = parts
    if "://" in entry:
        want = _parts(entry, sent=False)
        if want is None or want[:3] != (scheme, host, port):
            return False
        # The path must continue at a boundary: /v1 allows /v1/ and /v1, not /v10.
        prefix = want[3].rstrip("/")
        return path == prefix or path.startswith(prefix + "/") or not prefix
    want_host, _sep, want_port = entry.lower().rstrip("/").partition(":")
    if want_host.rstrip(".") != host:
        return False
    return not want_port or (want_port.isdigit() and port == int(want_port))


def is_local(host: str) -> bool:
    """A host on this computer or a private network (not resolved: no I/O here)."""
    host = (host or "").lower().strip("[]").rstrip(".")
    if not host:
        return False
    address = None
    if ":" not in host:
        # getaddrinfo reads "134744072", "0x08080808" or "8.8" as IPv4 (8.8.8.8, 8.0.0.8):
        # judge the address they name, before the no-dot rule could call them local.
        try:
            address = ipaddress.ip_address(socket.inet_aton(host))
        except (OSError, ValueError):
            address = None
    if address is None:
        try:
            address = ipaddress.ip_address(host.split("%", 1)[0])   # an IPv6 zone id
        except ValueError:
            return (host == "localhost" or "." not in host
                    or any(host.endswith(suffix) for suffix in LOCAL_SUFFIXES))
    if address.version == 6:
        # ::ffff:8.8.8.8 and 2002:0808:0808:: are 8.8.8.8; older Pythons count the
        # mapped form as private, so judge the IPv4 address inside.
        address = address.ipv4_mapped or address.sixtofour or address
    return address.is_loopback or address.is_private or address.is_link_local


def endpoint_refusal(policy: Policy, endpoint: str) -> str:
    """The sentence refusing ``endpoint`` before any request, or "" when it is allowed.
    An address the transport cannot read is "" too: its ConfigError says what is wrong."""
    parts = _parts(endpoint)
    if parts is None:
        return ""
    shown = (endpoint or "").strip()
    if policy.allowed_endpoints and not any(_matches(entry, parts)
                                            for entry in policy.allowed_endpoints):
        return tr("Your administrator allows only these model servers: %(allowed)s; nothing "
                  "was sent to %(address)s.") % {"allowed": ", ".join(policy.allowed_endpoints),
                                                 "address": shown}
    if policy.local_only and not is_local(parts[1]):
        return tr("Your administrator allows only model servers on this computer or the "
                  "local network; nothing was sent to %s.") % shown
    return ""


def address_refusal(policy: Policy, url: str) -> str:
    """endpoint_refusal for an address a server sent us to (a redirect): one the policy
    cannot read is refused whenever the policy limits the servers at all."""
    if _parts(url) is None and (policy.allowed_endpoints or policy.local_only):
        return tr("Your administrator allows only some model servers; nothing was sent "
                  "to %s.") % (url or "").strip()[:120]
    return endpoint_refusal(policy, url)


def test_refusal(policy: Policy, endpoint: str) -> str:
    """Test connection's refusal, or "" when it may run."""
    if not policy.allow_test_connection:
        return tr(TEST_OFF)
    return endpoint_refusal(policy, endpoint)


def offers(policy: Policy, name: str) -> bool:
    """Whether the model is offered tool ``name``: a tool not offered cannot be called
    (the registry answers that there is no such tool)."""
    return not policy.selection_only or name in SELECTION_TOOLS


def outside_agents_refusal(policy: Policy) -> str:
    """Why outside agents may not be served (office.mcp_host stays off), or "": the policy
    limits the model servers document text may reach and does not allow them."""
    if policy.agents_scope == AGENTS_OFF:
        return tr(OUTSIDE_AGENTS_OFF)
    if (policy.local_only or policy.allowed_endpoints) and not policy.allow_outside_agents:
        return tr(OUTSIDE_AGENTS_OFF)
    return ""


def document_titles(policy: Policy, titles: Iterable[str]) -> List[str]:
    """The titles an outside agent is told: under selection only, "Document 1", ...
    (a title can say what the document holds). The agent's words: English."""
    titles = list(titles)
    if policy.selection_only:
        return ["Document %d" % n for n in range(1, len(titles) + 1)]
    return titles


def keeps_chats(policy: Policy, user_keeps: bool) -> bool:
    """Whether the chats are kept at all: never when the administrator turned it off."""
    return policy.chat_days != 0 and bool(user_keeps)


def expired(policy: Policy, saved: float, now: Optional[float] = None) -> bool:
    """A chat saved at ``saved`` (seconds since the epoch) is past the kept days."""
    if policy.chat_days < 0:
        return False
    now = time.time() if now is None else now
    return now - saved > policy.chat_days * 86400


def admin_key_applies(policy: Policy, endpoint: str, endpoint_locked: bool) -> bool:
    """Whether the administrator's key goes to ``endpoint``: only to the administrator's
    server, the locked endpoint or one on a non-empty allowed list. A key the user never
    sees must not travel to any server the user types."""
    if not policy.key_from_admin:
        return False
    if endpoint_locked:
        return True
    return bool(policy.allowed_endpoints) and _parts(endpoint) is not None and not \
        endpoint_refusal(Policy(allowed_endpoints=policy.allowed_endpoints), endpoint)


def key_refusal(policy: Policy, endpoint: str, endpoint_locked: bool) -> str:
    """The sentence when the administrator provides the key and ``endpoint`` is not the
    administrator's server (the user cannot give a key of their own), else ""."""
    if not policy.key_from_admin or admin_key_applies(policy, endpoint, endpoint_locked):
        return ""
    return tr("The API key from your administrator is only for your administrator's model "
              "server; nothing was sent to %s.") % ((endpoint or "").strip()
                                                   or tr("(no server)"))


def admin_key(policy: Policy, environ: Mapping[str, str],
              read: Callable[[str], str]) -> str:
    """The key the administrator provides; raises ValueError with the user's sentence when
    it is missing. ``read(path)`` reads a file (injected: this module does no I/O)."""
    if policy.api_key_env:
        key = (environ.get(policy.api_key_env) or "").strip()
        if key:
            return key
        if not policy.api_key_file:
            raise ValueError(tr("Your administrator provides the API key in the environment "
                                "variable %s, which is not set; ask your administrator.")
                             % policy.api_key_env)
    try:
        key = read(policy.api_key_file).strip()
    except OSError:
        key = ""
    if not key:
        raise ValueError(tr("Your administrator provides the API key in the file %s, which "
                            "could not be read; ask your administrator.")
                         % policy.api_key_file)
    return key

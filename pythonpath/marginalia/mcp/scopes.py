"""What an agent may do, by the token it sent: read, comment, suggest or edit (pure).

The user gives each agent a named token with a scope (office.mcp_token keeps them); an
administrator may cap every scope (marginalia.policy). The server finds the request's token
in a ``Keyring`` and acts with its ``Grant`` whatever the request says: the protocol lists and
runs only the tools the grant's scope may call (``may_call``: a read-only grant gets the
tools declared ``readOnlyHint``), and the backend makes the edits in the apply mode the
scope allows (``apply_mode``: comment-only turns every edit into a comment proposal,
suggest into tracked changes). The scopes are ordered: each allows what the ones before it do.
"""

import hmac
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from marginalia.document import change_log as cl
from marginalia.i18n.catalog import N_

READ, COMMENT, SUGGEST, EDIT = "read", "comment", "suggest", "edit"
SCOPES = (READ, COMMENT, SUGGEST, EDIT)            # weakest first
# What the options page calls each scope.
LABELS = {READ: N_("Read only"), COMMENT: N_("Comment only"),
          SUGGEST: N_("Suggest (tracked changes)"), EDIT: N_("Edit")}
# The id of the one token profiles had before tokens had names and scopes: it could edit.
FIRST_ID = "marginalia"

# What an agent reads when its grant does not allow a tool (the tool's result, so its model
# can tell the user). English: agents' words are.
READ_ONLY = ("This agent's token lets it read the documents, not change them; the user can "
             "give it a token that allows changes in LibreOffice under Tools > Options > "
             "Marginalia > Other agents.")


class Grant(NamedTuple):
    """Who a token belongs to: its id (kept with it, never secret), the name the user gave
    it, and its scope (one of SCOPES, already capped by the administrator)."""
    id: str
    name: str
    scope: str


# A request's grant when the server has no token list of its own to give one (the protocol's
# own tests): one token that may do everything, as before tokens had scopes.
ANYTHING = Grant(FIRST_ID, "", EDIT)


def known(scope: str) -> str:
    """``scope`` when it is one of SCOPES; otherwise the weakest (a damaged record never
    gives more than reading)."""
    return scope if scope in SCOPES else READ


def capped(scope: str, ceiling: Optional[str]) -> str:
    """The weaker of ``scope`` and the administrator's ``ceiling`` (None or "": no cap)."""
    scope = known(scope)
    if not ceiling:
        return scope
    return SCOPES[min(SCOPES.index(scope), SCOPES.index(known(ceiling)))]


def read_only(tool: Dict[str, Any]) -> bool:
    """Whether a tool declaration says it changes nothing (its ``readOnlyHint``)."""
    annotations = tool.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


def may_call(scope: str, read_only: bool) -> bool:
    """Whether a grant of ``scope`` may call a tool that changes nothing (``read_only``)
    or one that may change a document (every scope but READ: comment-only and suggest
    turn the change into a comment or a tracked change)."""
    return read_only or known(scope) != READ


def apply_mode(scope: str, chosen: str) -> Optional[str]:
    """The apply mode (document.change_log) an edit of a grant of ``scope`` is made in,
    given the mode the user chose for agents: the stricter of the two. None for READ,
    which makes no edit."""
    scope = known(scope)
    chosen = chosen if chosen in cl.MODES else cl.TRACKED
    if scope == READ:
        return None
    if scope == COMMENT or chosen == cl.COMMENTS:
        return cl.COMMENTS
    if scope == SUGGEST:
        return cl.TRACKED
    return chosen


def _bearer(authorization: Optional[str]) -> Optional[str]:
    if not authorization:
        return None
    scheme, _, given = authorization.strip().partition(" ")
    return given.strip() if scheme.lower() == "bearer" and given.strip() else None


class Keyring:
    """The tokens the server accepts, each with its grant. Immutable: the office builds a
    new one when the user adds, renews or revokes a token, and the server swaps it whole."""

    def __init__(self, entries: Iterable[Tuple[str, Grant]] = ()) -> None:
        self._entries = tuple((secret, grant) for secret, grant in entries if secret)

    @classmethod
    def single(cls, token: str, scope: str = EDIT) -> "Keyring":
        """One token that may do ``scope`` (the server's tests, and one-token setups)."""
        return cls([(token, Grant(FIRST_ID, "", scope))])

    def match(self, authorization: Optional[str]) -> Optional[Grant]:
        """The grant of the token an Authorization header carries (``Bearer <token>``), or
        None. Every token is compared, in constant time each: how long the answer takes does
        not say how many there are before the match, nor how much of one matched."""
        given = _bearer(authorization)
        if given is None:
            return None
        given_bytes = given.encode("utf-8")
        found = None
        for secret, grant in self._entries:
            if hmac.compare_digest(given_bytes, secret.encode("utf-8")) and found is None:
                found = grant
        return found

    def secrets(self) -> List[str]:
        """Every token, for the log's redactor; never for a log line of its own."""
        return [secret for secret, _grant in self._entries]

    def grants(self) -> Sequence[Grant]:
        return tuple(grant for _secret, grant in self._entries)

    def __len__(self) -> int:
        return len(self._entries)

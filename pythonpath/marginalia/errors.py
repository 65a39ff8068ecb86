"""Typed errors. Each carries one plain sentence fit to show a Writer user.

The sentence is translated where the error is raised (``tr(...) % values``), in the
language the user reads, except where it also goes to the model: a ToolError's text is a
tool result (English: models follow it best), and UNEXPECTED stays English in the constant
(the MCP server sends it to the agent) and is translated only in ``user_sentence``.
"""

from typing import Any, Optional

from marginalia.i18n.catalog import N_, tr

UNEXPECTED = N_("Something went wrong inside Marginalia; the details are in the log file "
                "(marginalia.log in your LibreOffice profile).")
STOPPED = N_("Stopped.")


class MarginaliaError(Exception):
    """Base class: str(error) is the sentence shown in the panel."""


class EndpointError(MarginaliaError):
    """The model server could not be reached or refused the request.

    ``retryable`` is set for failures that happened before any answer byte
    arrived and that a bounded retry may cure (connect errors, 429/502/503).
    ``secure`` marks a failure in the TLS set-up: something answered, so the
    first-run card must not say that nothing is running there. ``no_tools`` marks a
    refusal because the model cannot call tools: the turn goes on without them.
    ``too_long`` (a chat.window_errors.Refusal) marks a refusal of a request too long
    for the server's context window: the turn shrinks the request and sends it again.
    ``cut`` marks an answer the connection cut: the turn ends as "cut" (Retry offered).
    """

    no_tools = False
    too_long = None
    cut = False

    def __init__(self, message: str, status: Optional[int] = None, retryable: bool = False,
                 retry_after: Optional[float] = None, secure: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.secure = secure


class ConfigError(MarginaliaError):
    """The settings are incomplete or invalid (bad URL, http to a remote host...)."""


class PolicyError(ConfigError):
    """The administrator's policy refuses it (marginalia.policy); nothing was sent."""


class ToolError(MarginaliaError):
    """A tool refused its arguments or could not act; its text goes back to the model,
    ``phrase`` (an i18n.phrase.Phrase, when the refuser wrote one) to the user."""

    def __init__(self, message: str = "", phrase: Any = None) -> None:
        super().__init__(message)
        self.phrase = phrase


class Cancelled(MarginaliaError):
    """The user stopped the turn."""

    def __init__(self, message: Optional[str] = None) -> None:
        super().__init__(tr(STOPPED) if message is None else message)


def user_sentence(exc: BaseException) -> str:
    """The one sentence a user sees for an exception: ours say it, anything else is UNEXPECTED."""
    if isinstance(exc, MarginaliaError) and str(exc):
        return str(exc)
    return tr(UNEXPECTED)

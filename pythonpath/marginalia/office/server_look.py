"""A quick look at the model server (its model list) on a worker, for the Options page and
the first-run card.

The look runs ``ChatClient.list_models`` on a daemon thread and posts the result
(a list of ids, or the exception) to the main thread; a window closed meanwhile
just drops it. It never retries: a user who pressed Test wants the answer now,
and a dead local port refuses at once (the first-run card's connect timeout on
local hosts comes from ui.first_run.probe_settings).
"""

import logging
from typing import Any, Callable, List, Optional, Union

from marginalia import config, threads
from marginalia.errors import MarginaliaError, user_sentence
from marginalia.office import mainthread
from marginalia.ui.first_run import probe_settings

log = logging.getLogger("marginalia.look")

Result = Union[List[str], Exception]


class Latest:
    """Only the newest look's answer is shown.

    Looks overlap when the user changes provider while a slow server is still
    answering: its model list must not land on the newer choice. Call
    ``forget()`` when the server changed (main thread only, like the looks).
    """

    def __init__(self) -> None:
        self._count = 0

    def ticket(self) -> int:
        self._count += 1
        return self._count

    def forget(self) -> None:
        self._count += 1

    def current(self, ticket: int) -> bool:
        return ticket == self._count


def list_models_later(ctx, settings: config.Settings, show: Callable[[Result], None],
                      latest: Latest) -> None:
    """Ask for the model list on a worker; ``show(models or exception)`` on the main thread,
    unless a newer look (or ``latest.forget()``) came since."""
    def models():
        from marginalia.chat.transport import ChatClient
        return ChatClient(probe_settings(settings), retries=0).list_models()
    later(ctx, models, show, latest, _refusal(ctx, settings))


def check_later(ctx, settings: config.Settings, show: Callable[[Any], None],
                latest: Latest) -> None:
    """Test connection (chat.check) on a worker; ``show(CheckReport)`` on the main thread."""
    def test():
        from marginalia.chat.check import check
        return check(probe_settings(settings))
    later(ctx, test, show, latest, _refusal(ctx, settings, testing=True))


def window_later(ctx, settings: config.Settings, show: Callable[[Any], None],
                 latest: Latest) -> None:
    """The context window the server reports (chat.window), or None, shown on the main thread."""
    def probe():
        from marginalia.chat import window
        return window.probe(probe_settings(settings))
    later(ctx, probe, show, latest, _refusal(ctx, settings))


def _refusal(ctx, settings, testing=False):
    from marginalia.office import settings_store
    return settings_store.refusal(ctx, settings, testing)


def later(ctx, work: Callable[[], Any], show: Callable[[Any], None], latest: Latest,
          refused: Optional[Exception] = None) -> None:
    """Run ``work`` on a worker; ``show(its result or exception)`` on the main thread, unless
    a newer look (or ``latest.forget()``) came since. ``refused`` (the administrator's
    policy) is shown instead, and ``work`` never runs: nothing is sent."""
    ticket = latest.ticket()

    def run():
        if refused is not None:
            result = refused
        else:
            try:
                result = work()
            except Exception as exc:  # shown as a sentence by show()
                result = exc
        mainthread.post(ctx, lambda: _show_safely(show, result, latest, ticket))
    threads.start(run, name="marginalia-look")


def fill_models(combo, models: List[str]) -> None:
    """Offer ``models`` in a model combo box, keeping what the user typed there."""
    typed = combo.getText()
    combo.removeItems(0, combo.getItemCount())
    if models:
        combo.addItems(tuple(models), 0)
    combo.setText(typed)


def _show_safely(show, result, latest, ticket):
    if not latest.current(ticket):
        return   # about a server the user has since left
    try:
        show(result)
    except Exception:
        # Most likely the window was closed while we waited.
        log.info("server look result dropped", exc_info=True)


def sentence(exc: Exception) -> str:
    """The user's sentence for a failed look; anything unexpected is logged."""
    if not isinstance(exc, MarginaliaError):
        log.error("server look failed", exc_info=exc)
    return user_sentence(exc)

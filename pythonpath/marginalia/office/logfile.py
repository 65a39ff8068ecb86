"""The extension's log files, in the user profile.

``marginalia.log`` never holds the API key (see config.Settings.__repr__), nor document
text, prompts or answers: it takes INFO and above, and its tracebacks always leave the
exception's message out. The debug log (``/debuglog``, marginalia.debuglog) goes to a
file of its own, ``marginalia-debug.log``, which the next start deletes: the text it
holds never rotates into the kept log nor outlives the next LibreOffice.
"""

import logging
import logging.handlers
import os

from marginalia import debuglog

_configured = [False]
# The debug log's path once setup knows the profile ("" with no writable profile).
_debug_path = [""]

DEBUG_NAME = "marginalia-debug.log"


class _KeptFormatter(debuglog.SafeFormatter):
    """marginalia.log's formatter: an exception's message stays out even with the debug
    log on (the message may quote the document; the debug file has it)."""

    follows_debug = False


def log_path(ctx) -> str:
    """``<profile>/user/marginalia/marginalia.log`` as a system path."""
    from marginalia.writer import profile   # here: start() is used without an office (tests)
    return os.path.join(profile.folder(ctx), "marginalia.log")


def debug_path(path: str) -> str:
    """The debug log beside the log at ``path``."""
    return os.path.join(os.path.dirname(path), DEBUG_NAME)


def setup(ctx) -> None:
    """Send the ``marginalia`` loggers to a small rotating file, once per process."""
    if _configured[0]:
        return
    _configured[0] = True
    try:
        path = log_path(ctx)
    except Exception:
        path = ""
    start(path)


def start(path: str) -> None:
    """The logger at INFO writing to ``path`` (stderr when it cannot be written); the last
    session's debug log, if any, deleted."""
    logger = logging.getLogger("marginalia")
    logger.setLevel(logging.INFO)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        stale = debug_path(path)
        if os.path.exists(stale):
            os.remove(stale)     # the debug log lasts until LibreOffice closes
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=512 * 1024, backupCount=2, encoding="utf-8")
        _debug_path[0] = debug_path(path)
    except Exception:
        # No writable profile: log to stderr rather than fail the extension.
        handler = logging.StreamHandler()
        _debug_path[0] = ""
    # DEBUG records carry text: never in the kept log, even with the debug log on.
    handler.setLevel(logging.INFO)
    handler.setFormatter(_KeptFormatter(
        "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False


def debug_on() -> None:
    """Turn on the debug log until LibreOffice closes: document text, prompts and answers
    go into marginalia-debug.log (every record, for the whole story) from now on."""
    logger = logging.getLogger("marginalia")
    if not debuglog.is_on() and _debug_path[0]:
        try:
            handler = logging.FileHandler(_debug_path[0], mode="w", encoding="utf-8")
        except OSError:
            handler = None
        if handler is not None:
            handler.setLevel(logging.DEBUG)
            handler.setFormatter(debuglog.SafeFormatter(
                "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"))
            logger.addHandler(handler)
    debuglog.turn_on()
    logger.setLevel(logging.DEBUG)
    logger.info("debug log on until LibreOffice closes: %s", _debug_path[0] or "stderr")

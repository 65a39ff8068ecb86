"""The extension's log file, in the user profile.

It never holds the API key (see config.Settings.__repr__), nor document text,
prompts or answers unless the user turned on the debug log (marginalia.debuglog).
"""

import logging
import logging.handlers
import os

import uno

from marginalia import debuglog

_configured = [False]


def log_path(ctx) -> str:
    """``<profile>/user/marginalia/marginalia.log`` as a system path."""
    subst = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.util.PathSubstitution", ctx)
    user_dir = uno.fileUrlToSystemPath(subst.substituteVariables("$(user)", True))
    return os.path.join(user_dir, "marginalia", "marginalia.log")


def setup(ctx) -> None:
    """Send the ``marginalia`` loggers to a small rotating file, once per process."""
    if _configured[0]:
        return
    _configured[0] = True
    logger = logging.getLogger("marginalia")
    logger.setLevel(logging.INFO)
    try:
        path = log_path(ctx)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=512 * 1024, backupCount=2, encoding="utf-8")
    except Exception:
        # No writable profile: log to stderr rather than fail the extension.
        handler = logging.StreamHandler()
    handler.setFormatter(debuglog.SafeFormatter(
        "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False


def debug_on() -> None:
    """Turn on the debug log until LibreOffice closes: document text, prompts and answers
    go into the log from now on."""
    debuglog.turn_on()
    logger = logging.getLogger("marginalia")
    logger.setLevel(logging.DEBUG)
    logger.info("debug log on until LibreOffice closes")

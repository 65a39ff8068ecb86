"""The log holds no document text unless the debug log is on (marginalia.debuglog), pure."""

import io
import logging

from marginalia import debuglog
from marginalia.ui import policy

SECRET = "The lighthouse keeper counted eleven herons at dawn."


def _logged(level=logging.INFO):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(debuglog.SafeFormatter("%(levelname)s %(message)s"))
    logger = logging.getLogger("marginalia.test_debuglog")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(level)
    return logger, stream


def test_a_traceback_keeps_its_frames_and_type_but_not_a_message_quoting_the_document(
        monkeypatch):
    monkeypatch.setattr(debuglog, "_on", [False])
    logger, stream = _logged()
    message = "could not replace '%s'" % SECRET
    try:
        raise RuntimeError(message)
    except RuntimeError:
        logger.exception("tool %s raised", "replace_text")
    text = stream.getvalue()
    assert "tool replace_text raised" in text
    assert "in test_a_traceback_keeps" in text            # where it happened
    assert "RuntimeError (its message, %d characters, left out)" % len(message) in text
    assert "lighthouse" not in text


def test_with_the_debug_log_on_the_message_is_kept(monkeypatch):
    monkeypatch.setattr(debuglog, "_on", [False])
    logger, stream = _logged()
    try:
        raise RuntimeError(SECRET)
    except RuntimeError:
        logger.exception("first")
        debuglog.turn_on()
        # The same record's traceback formatted again: the cache must not hide the change.
        logger.exception("second")
    first, second = stream.getvalue().split("ERROR second")
    assert SECRET not in first and SECRET in second
    assert debuglog.is_on()


def test_text_logged_at_debug_stays_out_at_the_default_level():
    logger, stream = _logged(logging.INFO)
    logger.debug("body: %s", SECRET)
    logger.info("POST /v1/chat/completions -> 200 (%s)", debuglog.size(SECRET))
    assert SECRET not in stream.getvalue()
    assert "52 characters" in stream.getvalue()


def test_the_options_page_says_while_the_debug_log_is_on():
    assert policy.page_note([], policy.Policy(), debug_log=True) == debuglog.NOTE
    assert "until LibreOffice closes" in debuglog.NOTE

"""The log holds no document text unless the debug log is on (marginalia.debuglog), pure."""

import io
import logging
import os

import pytest

from marginalia import debuglog, policy
from marginalia.office import logfile
from marginalia.ui import admin_locks

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


@pytest.fixture
def real_logger(monkeypatch, tmp_path):
    """The real ``marginalia`` logger set up by logfile.start in ``tmp_path``, put back
    as it was afterwards."""
    logger = logging.getLogger("marginalia")
    saved = (logger.level, list(logger.handlers), logger.propagate)
    monkeypatch.setattr(debuglog, "_on", [False])
    monkeypatch.setattr(logfile, "_debug_path", [""])
    logger.handlers[:] = []
    yield logger, str(tmp_path / "marginalia" / "marginalia.log")
    for handler in logger.handlers:
        handler.close()
    logger.level, logger.handlers[:], logger.propagate = saved[0], saved[1], saved[2]


def _read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def test_text_logged_at_debug_stays_out_of_the_log_logfile_sets_up(real_logger):
    logger, path = real_logger
    logfile.start(path)
    assert logger.getEffectiveLevel() == logging.INFO
    log = logging.getLogger("marginalia.chat.transport")
    log.debug("body: %s", SECRET)
    log.info("POST /v1/chat/completions -> 200 (%s)", debuglog.size(SECRET))
    assert SECRET not in _read(path)
    assert "52 characters" in _read(path)


def test_the_debug_log_has_a_file_of_its_own_that_the_next_start_deletes(real_logger):
    logger, path = real_logger
    logfile.start(path)
    logfile.debug_on()
    log = logging.getLogger("marginalia.chat.transport")
    log.debug("body: %s", SECRET)
    try:
        raise RuntimeError(SECRET)
    except RuntimeError:
        log.exception("tool raised")
    debug = logfile.debug_path(path)
    assert _read(debug).count(SECRET) == 2
    assert SECRET not in _read(path)            # nor rotated into .1/.2 later
    assert "debug log on until LibreOffice closes" in _read(path)
    # The next LibreOffice: the debug file is gone, the kept log is not.
    for handler in logger.handlers:
        handler.close()
    logger.handlers[:] = []
    debuglog._on[0] = False
    logfile.start(path)
    assert not os.path.exists(debug) and os.path.exists(path)


def test_the_options_page_says_while_the_debug_log_is_on():
    assert admin_locks.options_note([], policy.Policy(), debug_log=True) == debuglog.NOTE
    assert "until LibreOffice closes" in debuglog.NOTE

"""The PDF helper (office.source_xpdf.read_lines) run as a child process: a real
time limit, Stop, and a PDF without text told apart from a helper that failed.
The helpers are shell scripts standing in for xpdfimport."""

import os
import threading
import time

import pytest

from marginalia.chat.exchange import CancelToken
from marginalia.errors import Cancelled
from marginalia.office import source_xpdf


def _helper(tmp_path, body):
    path = tmp_path / "xpdfimport"
    path.write_text("#!/bin/sh\n" + body + "\n")
    os.chmod(str(path), 0o755)
    return str(path)


def test_a_helper_that_hangs_is_stopped_at_the_time_limit(tmp_path, monkeypatch):
    # It prints a page and then says nothing, its output pipe open (as a stuck parse does).
    program = _helper(tmp_path, 'echo "startPage 61200 79200"\nsleep 60')
    monkeypatch.setattr(source_xpdf, "TIMEOUT", 1.0)
    started = time.monotonic()
    with pytest.raises(source_xpdf.TooLong):
        source_xpdf.read_lines(program, str(tmp_path / "x.pdf"))
    assert time.monotonic() - started < 15.0      # not the helper's 60 s


def test_stop_ends_a_helper_still_reading(tmp_path):
    program = _helper(tmp_path, 'echo "startPage 61200 79200"\nsleep 60')
    cancel = CancelToken()
    threading.Timer(0.5, cancel.cancel).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        source_xpdf.read_lines(program, str(tmp_path / "x.pdf"), cancel)
    assert time.monotonic() - started < 15.0


def test_a_pdf_without_text_is_not_a_failed_helper(tmp_path):
    # Exit 0 with pages but no glyphs: a scanned PDF, [] (no fallback); exit 1: None.
    empty = _helper(tmp_path, 'echo "startPage 61200 79200"\necho "endPage"')
    assert source_xpdf.read_lines(empty, str(tmp_path / "x.pdf")) == []
    failed = _helper(tmp_path, 'exit 1')
    assert source_xpdf.read_lines(failed, str(tmp_path / "x.pdf")) is None
    # Not a PDF: the real helper ends well, having read no page.
    broken = _helper(tmp_path, 'echo "setPageNum 0"')
    assert source_xpdf.read_lines(broken, str(tmp_path / "x.pdf")) is None

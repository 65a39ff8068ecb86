"""A PDF read through LibreOffice's own PDF parser, xpdfimport, off the main thread.

Why: LibreOffice's PDF import runs in two halves. ``xpdfimport`` (a helper
program in LibreOffice's program folder, Poppler inside) parses the PDF and
prints what each page draws; the import filter then builds a document of text
shapes from that, on the main thread: 17 s of frozen Writer for a 160-page
report (measured), against about 1 s for xpdfimport itself. Here the helper
runs as a child process on the caller's worker thread and its output is read
straight into lines (source_pdf.Line), so the main thread is never held.

The output is one operation a line; the ones read here:
``startPage W H`` (a new page, size in 1/100 pt) and ``drawChar x0 y0 x1 y1 a b c d
size text`` (one glyph or ligature, PDF points from the page's bottom). Glyphs on
a baseline follow each other into one line; a jump back, a change of baseline or
a gap of several em starts another (a table's next cell). Only when the helper
is missing does source_reader fall back to the import filter (which runs this
same helper, then holds the main thread): a PDF the helper finds no text in is
one with no text. A watchdog stops a helper that runs past TIMEOUT or a turn
that is stopped.
"""

import logging
import os
import signal
import subprocess
import threading
import time
from typing import Any, Iterable, List, Optional

from marginalia import threads
from marginalia.errors import Cancelled
from marginalia.office.source_pdf import Line

log = logging.getLogger("marginalia.sources")

MM100_PER_POINT = 2540.0 / 72.0
GAP_EMS = 1.5        # a gap this many font sizes wide starts a new piece of the row
# A gap wider than this many font sizes is a space between words where the PDF draws
# none (TeX and others place each word; no space glyph). TeX's word space shrinks to
# 0.22 em on a tight line; kerning inside a word stays well under 0.1 em.
SPACE_EMS = 0.18
TIMEOUT = 300.0      # seconds a PDF may take to read before the helper is stopped
POLL = 0.2           # how often the watchdog looks at the clock and the Stop button


def helper(program_dir: str) -> Optional[str]:
    """The xpdfimport program in LibreOffice's program folder, or None."""
    for name in ("xpdfimport", "xpdfimport.exe"):
        path = os.path.join(program_dir, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _unescape(text: str) -> str:
    # The helper escapes the three characters that would break its line format.
    if "\\" not in text:
        return text
    return text.replace("\\n", "\n").replace("\\r", "\r").replace("\\\\", "\\")


class _Lines:
    """Glyphs gathered into source_pdf.Lines, page by page."""

    def __init__(self) -> None:
        self.lines: List[Line] = []
        self.page = 0
        self.height = 0.0
        self._chars: List[str] = []
        self._start = self._end = self._base = self._size = 0.0
        self._ink = 0.0        # where the last glyph that is not a space ends

    def new_page(self, height: float) -> None:
        self.flush()
        self.page += 1
        self.height = height

    def glyph(self, x0: float, y0: float, x1: float, size: float, text: str) -> None:
        if self._chars and (abs(y0 - self._base) > size * 0.3 or x0 < self._end - size
                            or x0 - self._end > GAP_EMS * size or abs(size - self._size) > 0.5):
            self.flush()
        if not self._chars:
            if not text.strip():
                return                   # a row never starts with a space
            self._start, self._base, self._size = x0, y0, size
        elif (x0 - self._end > SPACE_EMS * size and text.strip()
              and self._chars[-1].strip()):
            self._chars.append(" ")
        self._chars.append(text)
        self._end = max(self._end, x1) if len(self._chars) > 1 else x1
        if text.strip():
            # A trailing space is left out of the width: the gap to the next piece of
            # the row then shows the space (source_pdf joins the pieces with one).
            self._ink = x1

    def flush(self) -> None:
        text = "".join(self._chars).strip()
        self._chars = []
        if not text:
            return
        top = self.height - self._base - self._size      # from the page's top, in points
        self.lines.append(Line(
            max(self.page, 1), int(self._start * MM100_PER_POINT), int(top * MM100_PER_POINT),
            int((self._ink - self._start) * MM100_PER_POINT),
            int(self._size * 1.2 * MM100_PER_POINT), round(self._size, 1), text))


def parse(output: Iterable[str]) -> List[Line]:
    """The lines of xpdfimport's output (see the module docstring)."""
    return _gather(output).lines


def _gather(output: Iterable[str]) -> _Lines:
    gathered = _Lines()
    for raw in output:
        if raw.startswith("drawChar "):
            parts = raw.rstrip("\r\n").split(" ", 10)
            if len(parts) < 11:
                continue
            try:
                x0, y0, x1 = float(parts[1]), float(parts[2]), float(parts[3])
                size = float(parts[9])
            except ValueError:
                continue
            gathered.glyph(x0, y0, x1, size, _unescape(parts[10]))
        elif raw.startswith("startPage "):
            try:
                gathered.new_page(float(raw.split()[2]) / 100.0)
            except (IndexError, ValueError):
                gathered.new_page(gathered.height)
        elif raw.startswith("endPage"):
            gathered.flush()
    gathered.flush()
    return gathered


class TooLong(Exception):
    """The helper ran past TIMEOUT and was stopped."""


def _watch(process: Any, deadline: float, cancel: Any, done: threading.Event,
           why: List[str]) -> None:
    # The helper is killed at the deadline or on Stop: reading its output would
    # otherwise wait for as long as it keeps its pipe open, a hung helper forever.
    while not done.wait(POLL):
        if cancel is not None and cancel.cancelled:
            why.append("cancelled")
        elif time.monotonic() > deadline:
            why.append("timeout")
        else:
            continue
        _kill(process)
        return


def _kill(process: Any) -> None:
    try:
        if os.name == "nt":
            process.kill()
        else:
            # The whole group: a child of the helper holding the pipe would keep the read waiting.
            os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        pass        # it ended just now


def read_lines(program: str, path: str, cancel: Any = None) -> Optional[List[Line]]:
    """The PDF's lines through the helper ([] when it read pages with no text), or None
    when it failed (no page read). Raises TooLong past TIMEOUT and errors.Cancelled when ``cancel``
    (a chat.exchange.CancelToken) is set; the helper is stopped either way."""
    try:
        # No console window flashing up on Windows (CREATE_NO_WINDOW).
        flags = 0x08000000 if os.name == "nt" else 0
        process = subprocess.Popen([program, path], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   creationflags=flags, start_new_session=os.name != "nt")
    except OSError:
        log.exception("could not start xpdfimport")
        return None
    done = threading.Event()
    why: List[str] = []
    threads.start(_watch, process, time.monotonic() + TIMEOUT, cancel, done, why,
                  name="marginalia-xpdf-watch")
    try:
        with process.stdout:
            text = (line.decode("utf-8", "replace") for line in process.stdout)
            gathered = _gather(text)
        code = process.wait()      # the watchdog still kills one that never ends
    except Exception:
        log.exception("reading a PDF through xpdfimport failed")
        _kill(process)
        process.wait()             # reaped, not left a zombie
        return None
    finally:
        done.set()
    if why and why[0] == "cancelled":
        raise Cancelled()
    if why:
        raise TooLong()
    if code != 0 or not gathered.page:
        # Not a PDF it could open: it ends well but draws no page at all.
        log.warning("xpdfimport ended with %s after %d pages", code, gathered.page)
        return None
    return gathered.lines

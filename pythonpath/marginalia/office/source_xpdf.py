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
a gap of several em starts another (a table's next cell). When the helper is
missing or says nothing, source_reader falls back to the import filter.
"""

import logging
import os
import subprocess
from typing import Iterable, List, Optional

from marginalia.office.source_pdf import Line

log = logging.getLogger("marginalia.sources")

MM100_PER_POINT = 2540.0 / 72.0
GAP_EMS = 1.5        # a gap this many font sizes wide starts a new piece of the row
TIMEOUT = 300.0


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
    return gathered.lines


def read_lines(program: str, path: str) -> Optional[List[Line]]:
    """The PDF's lines through the helper, or None when it failed (the caller falls back)."""
    try:
        # No console window flashing up on Windows (CREATE_NO_WINDOW).
        flags = 0x08000000 if os.name == "nt" else 0
        process = subprocess.Popen([program, path], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   creationflags=flags)
    except OSError:
        log.exception("could not start xpdfimport")
        return None
    try:
        with process.stdout:
            text = (line.decode("utf-8", "replace") for line in process.stdout)
            lines = parse(text)
        code = process.wait(TIMEOUT)
    except Exception:
        process.kill()
        log.exception("reading a PDF through xpdfimport failed")
        return None
    if code != 0 or not lines:
        return None
    return lines

"""The log of outside agents' calls the user reads: Options > Other agents (pure).

After each ``tools/call`` and ``resources/read`` the office records one ``Call``: when, which
agent (its label) with which access token (the token's name), which tool, which document (its
title), and how it ended: done, failed (the tool ran and reported an error), refused (by
scope, a stopped agent, keep-out, a closed document), with a short reason code, or asked
(the call waits for the user's answer, mcp.questions; the agent calls again).

What is not kept is the point: no document text, no arguments, no results, no tokens. A
``Call`` has these fields and no others, so nothing else can be handed in; the reason is a
code ("scope"), never a sentence that could quote the document. Agent names and tool names
come from the agent, so every string is cleaned of control characters and cut short.

``CallLog`` keeps the newest calls in memory for several HTTP threads at once and in a JSON
Lines file on this computer (private to the user): one line appended per call, rewritten
to the newest ``limit`` once it passes twice that. A file that cannot be read or written
never stops a call: bad lines are skipped, write errors are logged and the memory log goes on.
"""

import json
import logging
import math
import os
import re
import threading
import time as _time
import unicodedata
from collections import deque
from typing import Any, Callable, Deque, Dict, List, Optional

from marginalia.i18n.catalog import N_, tr

log = logging.getLogger("marginalia.mcp")

# How it ended, as stored in the file (stable codes: never translated).
DONE = "done"
FAILED = "failed"
REFUSED = "refused"
ASKED = "asked"
OUTCOMES = (DONE, FAILED, REFUSED, ASKED)

# The words for them on the options page, translated when the line is built.
OUTCOME_WORDS = {DONE: N_("done"), FAILED: N_("failed"), REFUSED: N_("refused"),
                 ASKED: N_("asked the user")}

# The tool of a resources/read, where a call names a tool. No tool name holds a space, so
# it cannot be mistaken for one; it is stored in English and translated when shown.
READ_RESOURCE = N_("read resource")

# Reason codes for a refusal or failure. Codes only: a sentence could carry the document's
# words (a refusal may quote what it refused), so ``reason`` accepts nothing else.
REASON_SCOPE = "scope"            # the token does not allow this tool or document
REASON_STOPPED = "stopped"        # the user stopped the agent
REASON_KEEP_OUT = "keep-out"      # the passage is kept out
REASON_CLOSED = "closed"          # the document was closed (or never open)
REASON_UNKNOWN = "unknown"        # no tool or resource of that name
REASON_ERROR = "error"            # the tool reported an error
_REASON = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
REASON_LIMIT = 40

TEXT_LIMIT = 120                  # characters of an agent, token, tool or document name
DEFAULT_LIMIT = 200               # calls kept
SEPARATOR = " \u00b7 "            # "14:03 · Claude Code · edit · Report.odt · refused"
FILE_MODE = 0o600                 # the user's own: what agents did is nobody else's business
_LINE_BYTES = 4096                # more than any line can take (7 short fields, escaped)
# localtime() fails past year 3000 on Windows; a time outside this is a broken line.
_LATEST = 32503680000.0

# Bidi embeddings, overrides and isolates: an agent's name could turn the line around
# ("Claude Code" shown, something else written). Control characters would break the line.
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
_SPACE = re.compile(r"\s+")


def clean(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` on one line: control, line-separating and bidi-override characters (and lone
    surrogates, which UTF-8 cannot write) gone, runs of space made one, cut to ``limit``."""
    if not isinstance(text, str):
        raise TypeError("expected a str, got %s" % type(text).__name__)
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            kept.append(" ")
        elif category != "Cs" and ord(char) not in _BIDI:
            kept.append(char)
    text = _SPACE.sub(" ", "".join(kept)).strip()
    if len(text) > limit:
        text = text[:limit - 1].rstrip() + "\u2026"
    return text


class Call:
    """One call of an outside agent, as the user may read it later. Keyword arguments only,
    these and no more; strings are cleaned (``clean``); the object does not change after.

    ``time`` is epoch seconds; ``agent`` the agent's label ("Claude Code"); ``token_name`` the
    name the user gave its access token ("Research agent") or ""; ``tool`` the tool's name or
    ``READ_RESOURCE``; ``document`` the document's title or ""; ``outcome`` one of ``OUTCOMES``;
    ``reason`` a code such as ``REASON_SCOPE`` or "".
    """

    __slots__ = ("time", "agent", "token_name", "tool", "document", "outcome", "reason")

    def __init__(self, *, time: float, agent: str, tool: str, outcome: str,
                 token_name: str = "", document: str = "", reason: str = "") -> None:
        if isinstance(time, bool) or not isinstance(time, (int, float)):
            raise TypeError("time is epoch seconds, got %s" % type(time).__name__)
        if not (math.isfinite(time) and 0 <= time < _LATEST):
            raise ValueError("time out of range: %r" % (time,))
        if outcome not in OUTCOMES:
            raise ValueError("outcome is one of %s, got %r" % (", ".join(OUTCOMES), outcome))
        if not isinstance(reason, str):
            raise TypeError("reason is a str code, got %s" % type(reason).__name__)
        if reason and (len(reason) > REASON_LIMIT or not _REASON.match(reason)):
            raise ValueError("reason is a short code such as %r, not a sentence" % REASON_SCOPE)
        values = (float(time), clean(agent), clean(token_name), clean(tool), clean(document),
                  outcome, reason)
        for name, value in zip(self.__slots__, values):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Call is not changed once made")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Call is not changed once made")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Call):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "Call(%s)" % ", ".join("%s=%r" % pair for pair in zip(self.__slots__,
                                                                      self._values()))

    def to_json(self) -> Dict[str, Any]:
        return dict(zip(self.__slots__, self._values()))

    @classmethod
    def from_json(cls, data: Any) -> Optional["Call"]:
        """The call a file line's object holds, or None when it is not one (a field
        missing or of the wrong type). Fields a later version adds are ignored."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(**{name: data[name] for name in cls.__slots__ if name in data})
        except (TypeError, ValueError):
            return None


class CallLog:
    """The newest ``limit`` calls, newest last inside; safe to use from several threads.

    ``path`` is the JSON Lines file (None: memory only). It is read once here: a missing or
    unreadable file is an empty log, and lines that are not calls are skipped.
    """

    def __init__(self, path: Optional[str] = None, limit: int = DEFAULT_LIMIT) -> None:
        self._path = path
        self._limit = max(1, int(limit))
        self._calls = deque(maxlen=self._limit)   # type: Deque[Call]
        self._lock = threading.Lock()
        self._lines = 0                 # lines in the file, calls or not: when to compact
        self._open_line = False         # the file ends inside a line (a write cut short)
        self._warned = False            # one warning until writing works again
        if path is not None:
            self._load(path)

    @property
    def path(self) -> Optional[str]:
        return self._path

    @property
    def limit(self) -> int:
        return self._limit

    def __len__(self) -> int:
        with self._lock:
            return len(self._calls)

    def add(self, call: Call) -> None:
        """Keep ``call``, in memory and in the file. Never raises for the file's sake."""
        if not isinstance(call, Call):
            raise TypeError("CallLog.add takes a Call, got %s" % type(call).__name__)
        with self._lock:
            self._calls.append(call)
            if self._path is None:
                return
            # Under the lock: the file's lines stay in the order the memory has them.
            data = _encode(call)
            if self._open_line:
                data = b"\n" + data
            if self._write(lambda: _append(self._path, data)):
                self._open_line = False
                self._lines += 1
            else:
                self._open_line = True  # it may have stopped mid-line: at worst a blank line
            if self._lines > 2 * self._limit:
                self._compact()

    def recent(self, limit: Optional[int] = None, agent: Optional[str] = None) -> List[Call]:
        """The newest calls first, at most ``limit`` (None: all kept); only ``agent``'s
        (its label) when given."""
        with self._lock:
            calls = list(self._calls)
        calls.reverse()
        if agent is not None:
            calls = [c for c in calls if c.agent == agent]
        return calls if limit is None else calls[:max(0, limit)]

    def clear(self) -> None:
        """Forget every call: the memory's, and the file goes (nothing of it stays on disk)."""
        with self._lock:
            self._calls.clear()
            if self._path is None:
                return
            if self._write(lambda: _remove(self._path)):
                self._lines, self._open_line = 0, False

    # ------------------------------------------------------------------ the file

    def _load(self, path: str) -> None:
        try:
            with open(path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                size = handle.tell()
                budget = 2 * self._limit * _LINE_BYTES
                handle.seek(max(0, size - budget))
                data = handle.read()
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            log.warning("MCP call log: cannot read %s (%s); starting empty", path, error)
            return
        lines = data.split(b"\n")
        if size > budget:
            lines = lines[1:]           # the first is a line's tail
        self._open_line = bool(lines) and lines[-1] != b""
        if lines and not self._open_line:
            lines.pop()                 # "" after the last newline
        for raw in lines:
            try:
                call = Call.from_json(json.loads(raw.decode("utf-8")))
            except ValueError:          # not JSON, or not UTF-8 (both are ValueErrors)
                call = None
            if call is not None:
                self._calls.append(call)
        # A file cut from the end was too long: rewrite it at the next call.
        self._lines = 2 * self._limit + 1 if size > budget else len(lines)

    def _compact(self) -> None:
        data = b"".join(_encode(call) for call in self._calls)
        if self._write(lambda: _replace(self._path, data)):
            self._lines, self._open_line = len(self._calls), False

    def _write(self, action: Callable[[], None]) -> bool:
        try:
            action()
        except OSError as error:
            if not self._warned:
                log.warning("MCP call log: cannot write %s (%s); calls are kept in memory "
                            "only", self._path, error)
                self._warned = True
            return False
        self._warned = False
        return True


def _encode(call: Call) -> bytes:
    text = json.dumps(call.to_json(), ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode("utf-8")


# O_BINARY: Windows would otherwise write each "\n" as "\r\n".
_FLAGS = os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _private(fd: int) -> None:
    # os.open's mode applies to a new file only: an older one may have been made wider.
    # Best effort: a file the user cannot change the mode of may still take the line.
    if hasattr(os, "fchmod"):
        try:
            os.fchmod(fd, FILE_MODE)
        except OSError:
            pass


def _append(path: str, data: bytes) -> None:
    folder = os.path.dirname(path)
    if folder and not os.path.isdir(folder):
        os.makedirs(folder, 0o700, exist_ok=True)
    fd = os.open(path, _FLAGS | os.O_APPEND, FILE_MODE)
    try:
        _private(fd)
        _write_all(fd, data)
    finally:
        os.close(fd)


def _replace(path: str, data: bytes) -> None:
    """The file holding ``data`` alone, all at once: a crash leaves the old file or the new."""
    temporary = path + ".tmp"
    fd = os.open(temporary, _FLAGS | os.O_TRUNC, FILE_MODE)
    try:
        _private(fd)
        _write_all(fd, data)
    finally:
        os.close(fd)
    try:
        os.replace(temporary, path)
    except OSError:
        _remove(temporary)
        raise


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


# ---------------------------------------------------------------------- the options page


def hour_minute(moment: _time.struct_time) -> str:
    """The plain clock: 14:03 (the options page passes the locale's, i18n.formats.clock)."""
    return _time.strftime("%H:%M", moment)


def year_month_day(moment: _time.struct_time) -> str:
    """The plain date: 2026-11-26 (the options page passes the locale's)."""
    return "%04d-%02d-%02d" % (moment.tm_year, moment.tm_mon, moment.tm_mday)


def line(call: Call, now: Optional[float] = None,
         clock: Callable[[_time.struct_time], str] = hour_minute,
         date: Callable[[_time.struct_time], str] = year_month_day) -> str:
    """One short line for the options page's list:
    "14:03 · Claude Code (Research agent) · edit · Report.odt · refused".

    The time alone for a call of ``now``'s day (local time), else its date before it; the
    token's name in brackets when there is one; no document part when there is none.
    """
    now = _time.time() if now is None else now
    moment = _time.localtime(call.time)
    when = clock(moment)
    if moment[:3] != _time.localtime(now)[:3]:
        when = "%s %s" % (date(moment), when)
    who = "%s (%s)" % (call.agent, call.token_name) if call.token_name else call.agent
    tool = tr(READ_RESOURCE) if call.tool == READ_RESOURCE else call.tool
    parts = [when, who, tool]
    if call.document:
        parts.append(call.document)
    parts.append(tr(OUTCOME_WORDS[call.outcome]))
    return SEPARATOR.join(parts)

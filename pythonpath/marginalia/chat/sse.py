"""Server-Sent Events decoding: network bytes in, SSEEvent values out.

Follows the WHATWG event-stream rules with the quirks chat servers need:

* A UTF-8 byte order mark at the very start of the stream is dropped, also
  when it arrives split across reads (anywhere else it is ordinary data).
* Lines end with LF, CRLF or CR. A CR that ends one read and an LF that
  starts the next are one line break, not two (which would dispatch an
  event early).
* Bytes are split into lines before any UTF-8 decoding: only complete lines
  are decoded, so a multibyte character cut between two reads survives.
  Invalid bytes decode to U+FFFD rather than raising.
* Several ``data:`` lines of one event join with ``\\n``; lines starting with
  ``:`` are comments (OpenRouter ``: OPENROUTER PROCESSING`` keep-alives).
* ``event:``, ``id:`` and ``retry:`` are kept. ``event: error`` passes
  through as the event name; old llama.cpp builds send a bare
  ``error: {...}`` line, which becomes an event named "error".
* An event is dispatched at a blank line, or by ``close()`` at end of body
  (servers that never send the final blank line); such an event has
  ``complete`` False, so a reader can tell a cut-off last event from bad
  data. Unlike the spec, an event with a name but no data is still
  dispatched, so a data-less ``event: error`` is not lost.
"""

from dataclasses import dataclass
from typing import List, Optional

BOM = b"\xef\xbb\xbf"


@dataclass
class SSEEvent:
    """One dispatched event: ``event`` name ("message" by default), ``data``, ``id``, ``retry``.

    ``complete`` is False when the body ended before the blank line that ends the event.
    """

    event: str = "message"
    data: str = ""
    id: Optional[str] = None
    retry: Optional[int] = None
    complete: bool = True


class SSEDecoder:
    """Incremental decoder: ``feed(bytes) -> [SSEEvent]``, then ``close() -> [SSEEvent]``."""

    def __init__(self) -> None:
        self._pending: List[bytes] = []         # bytes of a line not yet terminated
        self._skip_lf = False                    # the last read ended with CR: drop a leading LF
        self._data: List[str] = []               # data lines of the event being built
        self._event: Optional[str] = None        # event name of the event being built
        self._retry: Optional[int] = None
        self._last_id: Optional[str] = None      # the spec keeps the last id across events
        self._head: Optional[bytes] = b""        # first bytes while a BOM may be coming

    def feed(self, data: bytes) -> List[SSEEvent]:
        """Decode one network read; returns the events it completed."""
        if self._head is not None:
            data = self._strip_bom(data)
        if not data:
            return []
        if self._skip_lf:
            self._skip_lf = False
            if data[:1] == b"\n":
                data = data[1:]
                if not data:
                    return []
        has_cr = b"\r" in data
        if not has_cr and b"\n" not in data:
            self._pending.append(data)
            return []
        if self._pending:
            self._pending.append(data)
            data = b"".join(self._pending)
            self._pending = []
        if has_cr:
            # The final CR completes its line now; remember to swallow the LF
            # of a CRLF pair if it arrives at the start of the next read.
            self._skip_lf = data.endswith(b"\r")
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        end = data.rfind(b"\n")
        if end < len(data) - 1:
            self._pending.append(data[end + 1:])
        # Complete lines end on an ASCII LF, so no character is cut here.
        text = data[:end].decode("utf-8", "replace")
        return self._complete(text)

    def _strip_bom(self, data):
        """The stream's first bytes without a leading BOM; b"" while undecided."""
        head = self._head + data
        if len(head) < len(BOM) and BOM.startswith(head):
            self._head = head
            return b""
        self._head = None
        return head[len(BOM):] if head.startswith(BOM) else head

    def close(self) -> List[SSEEvent]:
        """End of body: process an unterminated last line and flush the last event."""
        if self._head:
            self._pending.append(self._head)     # a body of one or two BOM bytes
        self._head = None
        events = []
        if self._pending:
            line = b"".join(self._pending).decode("utf-8", "replace")
            self._pending = []
            events = self._lines([line])
        event = self._dispatch()
        if event is not None:
            event.complete = False
            events.append(event)
        return events

    def _complete(self, text):
        """Events from complete lines joined by LF.

        Chat servers send one ``data:`` line per event, so blank-line-separated
        blocks are scanned first and a one-line data block becomes an event
        directly; anything else goes through the line-by-line rules.
        """
        if self._data or self._event is not None or self._retry is not None \
                or "\n\n" not in text:
            return self._lines(text.split("\n"))
        blocks = text.split("\n\n")
        tail = blocks.pop()          # not known to be followed by a blank line
        events = []
        for block in blocks:
            # Each block ends at a blank line, so the event state is clean here.
            if block.startswith("data: ") and "\n" not in block:
                events.append(SSEEvent("message", block[6:], self._last_id))
                continue
            events.extend(self._lines(block.split("\n")))
            event = self._dispatch()
            if event is not None:
                events.append(event)
        events.extend(self._lines(tail.split("\n")))
        return events

    def _dispatch(self):
        if not self._data and self._event is None:
            self._retry = None
            return None
        event = SSEEvent(self._event or "message", "\n".join(self._data),
                         self._last_id, self._retry)
        self._data = []
        self._event = None
        self._retry = None
        return event

    def _lines(self, lines):
        events = []
        for line in lines:
            if not line:
                if self._data and self._event is None and self._retry is None:
                    # Hot path: a plain data event, dispatched inline.
                    data = self._data
                    events.append(SSEEvent("message", data[0] if len(data) == 1
                                           else "\n".join(data), self._last_id))
                    self._data = []
                    continue
                event = self._dispatch()
                if event is not None:
                    events.append(event)
                continue
            if line.startswith("data: "):
                self._data.append(line[6:])
                continue
            if line[0] == ":":
                continue
            field, sep, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if field == "data":
                self._data.append(value)
            elif field == "event":
                self._event = value
            elif field == "id":
                if "\0" not in value:
                    self._last_id = value
            elif field == "retry":
                if value and value.strip("0123456789") == "":
                    self._retry = int(value)
            elif field == "error":
                # Old llama.cpp: a bare "error: {...}" line instead of an event.
                self._event = "error"
                self._data.append(value)
        return events

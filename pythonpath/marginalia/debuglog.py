"""What the log may hold: never document text, prompts or answers, unless the user turned
on the debug log, which lasts until LibreOffice closes (pure).

The log file stays in the user's profile, but it is what a user attaches to a bug
report and what an administrator collects: by default it says what happened (sizes,
ids, types, statuses), not what was written. Two rules keep it so:

- what carries text is logged at DEBUG only (the request body, the streamed bytes),
  the marginalia logger is at INFO until the debug log is on, and DEBUG records go
  only to a debug file of their own (office.logfile) that the next start deletes;
- an exception's message may quote the document (a UNO error about a text range, a
  ToolError naming the searched words), so tracebacks keep their frames and the
  exception's type, and leave the message out.
"""

import logging
import traceback

from marginalia.i18n.catalog import N_

_on = [False]

NOTE = N_("Debug log on until LibreOffice closes: marginalia-debug.log now holds document "
          "text, prompts and answers.")


def turn_on() -> None:
    """The debug log, for this process (nothing stored: a restart turns it off)."""
    _on[0] = True


def is_on() -> bool:
    return _on[0]


def size(text) -> str:
    """What the log says of a text instead of the text."""
    return "%d characters" % len(text or "")


class SafeFormatter(logging.Formatter):
    """A formatter that leaves exception messages out unless the debug log is on."""

    # False for a file that must never hold them (logfile's kept log).
    follows_debug = True

    def formatException(self, ei) -> str:
        if self.follows_debug and is_on():
            return super().formatException(ei)
        etype, value, tb = ei
        frames = "".join(traceback.format_tb(tb))
        return "Traceback (most recent call last):\n%s%s (its message, %s, left out)" % (
            frames, getattr(etype, "__name__", "Exception"), size(str(value)))

    def format(self, record) -> str:
        # logging caches the formatted traceback on the record: another handler (or this
        # one before the debug log was turned on) must not decide what this one writes.
        record.exc_text = None
        return super().format(record)

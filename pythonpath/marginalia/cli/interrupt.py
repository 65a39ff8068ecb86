"""Ctrl+C and SIGTERM that end the runner even while a call into the office blocks.

Python runs a signal handler only between two bytecodes of the main thread. A
call into the office waits inside the UNO bridge, so while the office is busy or
hung (closing a document whose turn still reads a stalled server, say) the
KeyboardInterrupt would come only when that call returns: perhaps never, and the
runner would sit silent. The C-level handler still writes the signal's number to
the wakeup fd, at once: a watcher thread reads it there, gives the main thread
GRACE seconds to stop the turn, close the document and end the office the usual
way, and otherwise ends the office itself (killed, its lock files removed) and
exits with the sentence and code the main thread would have given.
"""

import logging
import os
import signal
import socket
import sys
import threading
import traceback
from typing import Any, Callable, Optional

from marginalia.i18n.catalog import N_, tr

log = logging.getLogger("marginalia.cli")

# Long enough for the usual way out (stop the turn, close the document, quit the
# office: a second or two, several on a loaded machine), short enough that a user
# pressing Ctrl+C is not left waiting on a hung office. Ending the office here in
# the middle of a slow usual way out costs nothing: nothing was to be saved.
GRACE = 15.0
STOPPED = N_("Stopped; the document was not saved.")


class Watch:
    """Watches for SIGINT/SIGTERM on a thread of its own; see the module docstring.

    ``office`` and ``document`` are set once known: the office to end and the
    document whose lock file a killed office leaves behind.
    """

    def __init__(self, grace: float = GRACE,
                 exit_: Callable[[int], Any] = os._exit) -> None:
        self.grace = grace
        self.office: Any = None
        self.document: Optional[str] = None
        self._exit = exit_
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._ending = False
        self._told = False               # the run's one sentence on stderr is said
        self._ended = threading.Event()
        self._reader: Optional[socket.socket] = None
        self._writer: Optional[socket.socket] = None

    def install(self) -> None:
        """Start watching (main thread only: set_wakeup_fd requires it)."""
        self._reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)
        signal.set_wakeup_fd(self._writer.fileno())
        threading.Thread(target=self._watch, name="marginalia-interrupt",
                         daemon=True).start()

    def tell(self, sentence: str) -> None:
        """Say the run's one closing sentence on stderr, once: the watcher and the main
        thread (whose call failed as the watcher ended the office) may both reach the end
        at the same moment; whichever returns, the sentence has been written."""
        # Written under the lock: a second caller returns only once the sentence is out.
        # The watcher exits the process right after its call, which once cut the main
        # thread's sentence before it was written (exit 130, nothing on stderr).
        with self._lock:
            if self._told:
                return
            self._told = True
            sys.stderr.write(sentence + "\n")
            sys.stderr.flush()

    def finished(self) -> None:
        """The main thread ends the run itself. Once the office is being ended here, the
        main thread (whose call into it failed then) waits for that to finish: exiting
        first would leave the document's lock file behind."""
        with self._lock:
            self._done.set()
            ending = self._ending
        if ending:
            self._ended.wait(self.grace)

    def _watch(self) -> None:
        try:
            data = self._reader.recv(1)
        except OSError:
            return
        if not data or self._done.wait(self.grace):
            return
        with self._lock:
            if self._done.is_set():
                return
            self._ending = True
        code = 143 if data[0] == signal.SIGTERM else 130
        self._stuck()
        self._ended.set()
        with self._lock:
            if self._done.is_set():     # the main thread says its own sentence
                return
        self.tell(tr(STOPPED))
        self._exit(code)

    def _stuck(self) -> None:
        """End the office the main thread cannot reach; never raises."""
        main = sys._current_frames().get(threading.main_thread().ident)
        # Debug level: the runner has no log file, and stderr is for the user's sentence.
        log.debug("the runner did not end %g s after the interrupt; ending the office. "
                    "It was at:\n%s", self.grace,
                    "".join(traceback.format_stack(main)) if main else "(unknown)")
        try:
            if self.office is not None:
                self.office.kill()
            if self.document:
                from marginalia.cli import doclock
                doclock.holder(self.document)   # removes the lock a killed office left
        except Exception:
            log.debug("ending the office after an interrupt failed", exc_info=True)

"""The runner's closing sentence is said once (cli/interrupt.Watch.tell): the watcher
thread, which ends a stuck office after an interrupt, and the main thread, whose call into
that office fails at the same moment, may both reach the end together (a full run once
printed "Stopped; the document was not saved." twice)."""

import threading

from marginalia.cli import interrupt


def test_the_closing_sentence_is_said_once_from_two_threads(capsys):
    for _ in range(50):
        watch = interrupt.Watch()
        start = threading.Barrier(2)

        def say():
            start.wait()
            watch.tell("Stopped; the document was not saved.")
        threads = [threading.Thread(target=say) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert capsys.readouterr().err.count("Stopped") == 1


class _SlowStderr:
    """A stderr whose write takes a while, as a pipe to a busy reader can."""

    def __init__(self):
        self.text = ""
        self.writing = threading.Event()

    def write(self, text):
        self.writing.set()
        threading.Event().wait(0.3)
        self.text += text

    def flush(self):
        pass


def test_a_second_caller_returns_only_once_the_sentence_is_written(monkeypatch):
    """The watcher exits the process as soon as its own tell returns: had it returned
    while the main thread was still writing, the run would end with exit 130 and an empty
    stderr (seen once in a full run)."""
    slow = _SlowStderr()
    monkeypatch.setattr("sys.stderr", slow)
    watch = interrupt.Watch()
    first = threading.Thread(target=watch.tell, args=("Stopped; the document was not saved.",))
    first.start()
    assert slow.writing.wait(5)
    watch.tell("Stopped; the document was not saved.")   # the watcher's call, just before exit
    seen = slow.text
    first.join()
    assert seen.count("Stopped") == 1

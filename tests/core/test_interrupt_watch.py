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

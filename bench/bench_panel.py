"""What a streaming answer costs LibreOffice's main thread, measured on the real panel.

    /usr/bin/python3 bench/bench_panel.py      (or .venv/bin/python; needs uno, Xvfb, xdotool)

Starts a private LibreOffice on Xvfb with the built .oxt, opens the Marginalia
deck in a fresh window per run, and streams answers from a local scripted
server at a fixed chunk rate (turns started through the Job interface, which
drives the same per-document session the panel listens to).
The main thread's CPU time is read from /proc (utime + stime of the thread
whose id is soffice.bin's pid: the VCL main thread), so everything the panel
causes there counts: our Python, the edit control, painting.

1. Main-thread time per streamed second at 200 and 2000 chunks/s.
2. Main-thread time per transcript update with a 1 KB and a 200 KB transcript
   already in the panel (the session hands the panel at most 1 / INTERVAL
   batches a second, one update each, so the update count is taken as that
   rate x stream seconds). The pane keeps only its
   latest ~80,000 characters and appends through the edit's peer, so the
   ratio should be close to 1.
3. How long an answer's first words take from the server to the screen: the
   server sends one word and pauses; the panel logs when it put the answer's
   first text in the pane ("answer text on screen at"), the server when the
   request came (the word follows at once). Target: 100 ms.
"""

import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("", "pythonpath", "vendor"):
    sys.path.insert(0, os.path.join(ROOT, sub))

import build  # noqa: E402
from tests.support import sse_server as sse  # noqa: E402
from tests.support.office import OfficeHarness  # noqa: E402
from marginalia.office.chat_session import _Pump  # noqa: E402

UPDATES_PER_SECOND = 1.0 / _Pump.INTERVAL

TICK = os.sysconf("SC_CLK_TCK")
STREAM_SECONDS = 4.0


def soffice_bin_pid(launcher_pid):
    """soffice.bin in the launcher's process group (the harness starts a new session)."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            with open("/proc/%s/comm" % name) as handle:
                comm = handle.read().strip()
        except OSError:
            continue
        if comm == "soffice.bin" and int(fields[2]) == launcher_pid:
            return int(name)
    raise RuntimeError("soffice.bin not found")


def main_thread_seconds(pid):
    with open("/proc/%d/task/%d/stat" % (pid, pid)) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / float(TICK)


def words_response(count, rate, word="w", line_every=0):
    """count one-word chunks at rate per second; a newline every line_every words if set."""
    pieces = [sse.text_delta("%s%d%s" % (word, i, "\n" if line_every and i % line_every
                                         == line_every - 1 else " ")) for i in range(count)]
    return sse.stream_response(pieces + [sse.finish()], delay=1.0 / rate)


def shown_times(path):
    """The panel's "answer text on screen at" times in the extension's log."""
    with open(path, encoding="utf-8") as handle:
        return [float(m) for m in re.findall(r"answer text on screen at ([\d.]+)", handle.read())]


class Bench(object):
    """Drives turns through the job interface (no accessibility: it would add its own
    listeners to the edit controls and cost main-thread time of its own)."""

    def __init__(self, harness, server):
        self.harness = harness
        self.server = server
        self.pid = soffice_bin_pid(harness.office.process.pid)

    def window_with_panel(self):
        doc = self.harness.new_writer()
        doc.CurrentController.Frame.ContainerWindow.setPosSize(0, 0, 1180, 950, 15)
        sidebar = doc.CurrentController.getSidebar()
        sidebar.setVisible(True)
        deck = sidebar.getDecks().getByName("MarginaliaDeck")
        if not deck.isActive():
            deck.activate(True)
        time.sleep(1.0)
        return doc

    def turn(self, doc, response):
        """Stream one answer; returns (main-thread s, wall s)."""
        self.server.add(response)
        before = main_thread_seconds(self.pid)
        started = time.time()
        assert self.harness.job("chat.start", document=doc, message="go")["started"]
        while True:
            time.sleep(0.25)
            polled = self.harness.job("chat.poll", document=doc)
            if not polled["busy"]:
                break
        wall = time.time() - started
        time.sleep(0.3)   # the panel's last update and the end-of-turn status
        return main_thread_seconds(self.pid) - before, wall


def main():
    harness = OfficeHarness(build.build(), gui=True).start()
    server = sse.ScriptedServer([])
    server.start()
    try:
        harness.job("settings.save", endpoint=server.url, model="test-model",
                    provider="custom", show_thinking=True)
        bench = Bench(harness, server)
        idle_before = main_thread_seconds(bench.pid)
        time.sleep(2.0)
        idle = (main_thread_seconds(bench.pid) - idle_before) / 2.0
        print("idle main thread: %.1f ms per second" % (idle * 1000))

        print("\n1. main-thread time per streamed second (fresh panel each run)")
        # One long paragraph is the edit control's worst case (it lays the
        # paragraph out again on each update; the renderer's soft wrap bounds
        # it); an answer in short paragraphs is the usual one.
        for rate in (200, 2000):
            for shape, line_every in (("one paragraph", 0), ("10-word lines", 10)):
                count = int(rate * STREAM_SECONDS)
                doc = bench.window_with_panel()
                cpu, wall = bench.turn(doc, words_response(count, rate, "w", line_every))
                harness.close(doc)
                print("  %5d chunks/s, %-13s: %d chunks in %5.2f s wall, main thread %4.0f ms "
                      "per streamed second" % (rate, shape, count, wall, 1000 * cpu / wall))

        print("\n2. main-thread time per transcript update, by transcript size")
        results = {}
        for label, size in (("1 KB", 1024), ("200 KB", 200 * 1024)):
            doc = bench.window_with_panel()
            # Fill the transcript fast (a few big pieces), then measure a normal stream.
            filler = "x" * 99 + "\n"
            body = [sse.text_delta(filler * 10) for _ in range(max(1, size // 1000))]
            bench.turn(doc, sse.stream_response(body + [sse.finish()]))
            cpu, wall = bench.turn(doc, words_response(int(200 * STREAM_SECONDS), 200, "w", 10))
            harness.close(doc)
            per_update = cpu / (UPDATES_PER_SECOND * wall)
            results[label] = per_update
            print("  %-6s transcript: %.2f ms main thread per update (%.0f ms per streamed s)"
                  % (label, per_update * 1000, 1000 * cpu / wall))
        ratio = results["200 KB"] / results["1 KB"] if results["1 KB"] else float("nan")
        print("  ratio 200 KB / 1 KB: %.2f" % ratio)

        print("\n3. first words: from the server to the screen")
        log_path = os.path.join(harness.profile_dir, "user", "marginalia", "marginalia.log")
        doc = bench.window_with_panel()
        delays = []
        for _ in range(5):
            seen = len(shown_times(log_path))
            response = sse.stream_response([sse.text_delta("First"),
                                            sse.text_delta(" words."), sse.finish()])
            response["body"][1] = {"data": response["body"][1], "delay": 0.6}
            bench.turn(doc, response)
            shown = shown_times(log_path)[seen:]
            delays.append(shown[0] - server.chat_requests[-1].at)
        harness.close(doc)
        delays.sort()
        print("  median %.0f ms, worst %.0f ms (target 100 ms)"
              % (1000 * delays[len(delays) // 2], 1000 * delays[-1]))
    finally:
        server.stop()
        harness.stop()


if __name__ == "__main__":
    main()

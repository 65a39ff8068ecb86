"""What a long kept chat costs when its document opens: 500 messages.

    /usr/bin/python3 bench/bench_history.py      (or .venv/bin/python; needs uno, Xvfb)

1. In Python alone: reading the kept chat (chat.history.read_chat: json plus
   rebuilding the events) and rendering it for the panes (TranscriptRenderer),
   against the floor of json.load of the same file.
2. In a real window: how long the panel takes to be made for a freshly
   loaded document (the panel logs it; it restores and shows the kept chat
   before its constructor returns), for a document with a 500-message chat
   and for the same document with none. The goal: under 300 ms with the chat.
"""

import os
import re
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("", "pythonpath", "vendor"):
    sys.path.insert(0, os.path.join(ROOT, sub))

from marginalia import events as ev  # noqa: E402
from marginalia.chat import history  # noqa: E402
from marginalia.ui.transcript import TranscriptRenderer, replay_start  # noqa: E402

REPLAY_CHARS = 4000     # office.panel.REPLAY_CHARS (that module needs uno)

MESSAGES = 500
GOAL_MS = 300.0
RUNS = 5
ANSWER = ("The second paragraph repeats the point of the first; I would merge them and keep "
          "the example with the figures, which is the stronger of the two. ") * 4


def long_chat():
    """A chat of MESSAGES conversation messages: questions, answers, some tool calls."""
    chat = history.KeptChat()
    turn = 0
    while len(chat.messages) < MESSAGES:
        question = "Question %d: can you tighten paragraph %d?" % (turn, turn % 40 + 1)
        chat.messages.append({"role": "user", "content": question})
        chat.log.append(("user", question))
        if turn % 5 == 0 and len(chat.messages) + 3 <= MESSAGES:
            call = "call_%d" % turn
            args = '{"start": %d, "end": %d, "markdown": "%s"}' % (turn, turn, ANSWER[:200])
            chat.messages.append({"role": "assistant", "content": "", "tool_calls": [
                {"id": call, "type": "function",
                 "function": {"name": "replace_paragraphs", "arguments": args}}]})
            chat.messages.append({"role": "tool", "tool_call_id": call,
                                  "content": '{"removed": 1, "inserted": 1}'})
            chat.log.append(("event", ev.Event(ev.TOOL_CALL, call_id=call,
                                               name="replace_paragraphs", arguments=args)))
            chat.log.append(("event", ev.Event(ev.TOOL_RESULT, call_id=call,
                                               name="replace_paragraphs", ok=True,
                                               summary="Replaced paragraphs %d\u2013%d"
                                               % (turn, turn))))
        chat.messages.append({"role": "assistant", "content": ANSWER})
        chat.log.append(("event", ev.Event(ev.REASONING, text="The user wants it shorter.")))
        chat.log.append(("event", ev.Event(ev.TEXT, text=ANSWER)))
        chat.log.append(("event", ev.Event(ev.USAGE, usage={"prompt_tokens": 900 + turn,
                                                            "completion_tokens": 80})))
        chat.log.append(("event", ev.Event(ev.DONE, finish_reason="stop")))
        turn += 1
    return chat


def best_of(fn, runs=15):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def pure_part(chat):
    import json
    folder = tempfile.mkdtemp(prefix="marginalia-bench-")
    try:
        shelf = history.Shelf(folder, "doc")
        shelf.save(chat)
        path = shelf.path(chat.chat_id)
        size = os.path.getsize(path)

        def floor():
            with open(path, encoding="utf-8") as handle:
                json.load(handle)

        def ours():
            kept = history.read_chat(path)
            start = replay_start(kept.log, REPLAY_CHARS)
            TranscriptRenderer().render(kept.log[start:])
        floor_s, ours_s = best_of(floor), best_of(ours)
        print("1. %d messages (%d log entries, %.0f KB on disk), median of 15:"
              % (len(chat.messages), len(chat.log), size / 1024.0))
        print("   json.load floor %.1f ms; read + render what the panes show %.1f ms; ratio %.2f"
              % (floor_s * 1000, ours_s * 1000, ours_s / floor_s))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _panel_times(log_path, seen):
    """(ms, chat entries) of the panels made since ``seen`` lines of marginalia.log."""
    with open(log_path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    out = []
    for line in lines[seen:]:
        match = re.search(r"panel ready in (\d+) ms with (\d+) chat entries", line)
        if match:
            out.append((int(match.group(1)), int(match.group(2))))
    return out, len(lines)


def office_part(chat):
    import uno
    import build
    from marginalia.office.chat_store import PROPERTY, REMOVABLE
    from tests.support.office import OfficeHarness, props
    from tests.support.panel_driver import DECK, PanelDriver, wait_for

    harness = OfficeHarness(build.build(), gui=True).start()
    folder = tempfile.mkdtemp(prefix="marginalia-bench-")
    try:
        probe = harness.new_writer()
        chats_dir = harness.job("chat.history", probe)["folder"]
        harness.close(probe)
        log_path = os.path.join(os.path.dirname(chats_dir), "marginalia.log")
        paths = {}
        for label, with_chat in (("with", True), ("without", False)):
            doc = harness.new_writer()
            doc.Text.setString("A document with a long conversation.")
            if with_chat:
                doc_id = history.new_id()
                doc.DocumentProperties.UserDefinedProperties.addProperty(
                    PROPERTY, REMOVABLE, doc_id)
                history.Shelf(chats_dir, doc_id).save(chat)
            paths[label] = os.path.join(folder, label + ".odt")
            doc.storeAsURL(uno.systemPathToFileUrl(paths[label]), props(FilterName="writer8"))
            harness.close(doc)

        def open_panel(path):
            """Load the document in a window and open the deck: the panel is made."""
            doc = harness.load(path)
            doc.CurrentController.Frame.ContainerWindow.setPosSize(0, 0, 1180, 950, 15)
            sidebar = doc.CurrentController.getSidebar()
            sidebar.setVisible(True)
            deck = sidebar.getDecks().getByName(DECK)
            if not deck.isActive():
                deck.activate(True)
            driver = PanelDriver.__new__(PanelDriver)
            driver.frame = doc.CurrentController.Frame
            wait_for(driver._find_controls, timeout=30, what="the panel")
            harness.close(doc)

        results = {"with": [], "without": []}
        _times, seen = _panel_times(log_path, 0)
        for label in ("without", "with") * RUNS:
            open_panel(paths[label])
            made, seen = _panel_times(log_path, seen)
            # The sidebar may make the panel more than once; the kept chat is read on the
            # first (the document's session is made then): count that one.
            results[label].append(made[0])
        assert all(n == 0 for _ms, n in results["without"])
        assert all(n > MESSAGES for _ms, n in results["with"])
        without = statistics.median(ms for ms, _n in results["without"])
        with_chat = statistics.median(ms for ms, _n in results["with"])
        print("2. the panel made for a freshly opened document (its constructor, from "
              "marginalia.log), median of %d:" % RUNS)
        print("   no kept chat %.0f ms; %d-message chat %.0f ms (ratio %.2f, the chat adds "
              "%.0f ms); goal under %.0f ms: %s"
              % (without, len(chat.messages), with_chat, with_chat / max(without, 1),
                 with_chat - without, GOAL_MS, "met" if with_chat < GOAL_MS else "NOT met"))
    finally:
        harness.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    chat = long_chat()
    pure_part(chat)
    if "--pure" not in sys.argv:
        office_part(chat)


if __name__ == "__main__":
    main()

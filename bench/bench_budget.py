"""Benchmark fitting a 200-turn history into a context window.

Builds a 200-turn chat (questions, answers, and every third turn a round of
tool calls with a 6,000-character read result) and measures, in one run:

(a) ``budget.fit`` of that history to a 128k window (it fits after old
    results are shortened and old turns dropped) and to a 4k window, against
    the floor of a bare ``json.dumps`` of the same history, which every request
    pays anyway when it is sent: the ratio is printed, the target is that fit
    costs at most 5 ms.

Each figure is the best of several repeats (time.process_time). Exits non-zero
if the target is missed.

    PYTHONPATH=pythonpath:vendor python3 bench/bench_budget.py
"""

import json
import os
import sys
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _sub in ("pythonpath", "vendor"):
    if os.path.join(_ROOT, _sub) not in sys.path:
        sys.path.insert(0, os.path.join(_ROOT, _sub))

from marginalia.chat.budget import Calibration, fit, reserve_for  # noqa: E402

REPEATS = 15
TARGET_MS = 5.0
SYSTEM = "You are Marginalia, a writing partner. " * 40
TOOLS_SIZE = 8000


def history(turns=200):
    messages = []
    for n in range(turns):
        messages.append({"role": "user", "content": "Please look at paragraph %d and tighten "
                         "the wording a little, keeping my voice. " % n * 3})
        if n % 3 == 0:
            arguments = '{"start": %d, "end": %d}' % (n, n + 20)
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_%d" % n, "type": "function",
                 "function": {"name": "read_document", "arguments": arguments}}]})
            messages.append({"role": "tool", "tool_call_id": "call_%d" % n,
                             "content": ("%d: Some paragraph text with a few words. " % n) * 150})
        messages.append({"role": "assistant", "content": "I tightened paragraph %d: shorter "
                         "sentences, same meaning. " % n * 4})
    messages.append({"role": "user", "content": "And now the conclusion?"})
    return messages


def best(fn):
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def main():
    messages = history()
    turn_start = len(messages) - 1
    floor = best(lambda: json.dumps(messages))
    print("200-turn history: %d messages, %d KB as JSON" % (
        len(messages), len(json.dumps(messages)) // 1024))
    print("floor json.dumps: %.2f ms" % (floor * 1000))
    failed = False
    for window in (131072, 32768, 4096):
        calibration = Calibration()
        reserve = reserve_for(window)
        cost = best(lambda: fit(SYSTEM, TOOLS_SIZE, messages, turn_start, window,
                                calibration, reserve))
        fitted = fit(SYSTEM, TOOLS_SIZE, messages, turn_start, window, calibration, reserve)
        print("fit to %6d tokens: %.2f ms (%.2fx json.dumps), %d kept, %d shortened, "
              "%d dropped" % (window, cost * 1000, cost / floor, len(fitted.messages),
                              fitted.shortened, fitted.dropped))
        if cost * 1000 > TARGET_MS:
            print("  missed: more than %.0f ms" % TARGET_MS)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

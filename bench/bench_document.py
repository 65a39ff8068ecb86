"""Benchmark the Writer tools on a generated 300-page document, against Writer itself.

For each office state it starts a private headless LibreOffice, generates a
long report (chapters, sections, body paragraphs; 1000 hits of a rare word)
and times, inside the office through the org.marginalia.Job service, each
tool next to the Writer call doing the same work in the same process, on
the main thread, just before (bench.floor):

    replace_text all=true, 1000 hits   vs  one replaceAll (Replace All)
      whole words, and only a letter
      added (the word-diff path)
    get_document_info, first call       vs  one body getString()
      after a change, and unchanged
    search_document (1000 hits)         vs  one findAll
      also right after undoing the 1000 replacements

Each figure is the median of several runs, printed as a ratio to the floor
(the machine is shared, so absolute seconds drift; ratios within one run
hold). The states:

    restart  the extension installed, then the office restarted: what users
             have, and what the headless runner and the tests run in now;
    live     installed by addExtension and used without a restart: the
             extension then runs inside the deployment's helper uno.bin
             process, every call a round trip (the old runner's state).

Also printed: the longest main-thread stretch of each tool, the first read
after a change on twice the pages, reading the whole document, block edits.
Run with the Python that has uno:

    .venv/bin/python bench/bench_document.py [--state restart|live|both] [--runs N]
"""

import argparse
import json
import os
import statistics
import sys
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _sub in ("pythonpath", "vendor", ""):
    path = os.path.join(_ROOT, _sub) if _sub else _ROOT
    if path not in sys.path:
        sys.path.insert(0, path)

import build  # noqa: E402
from marginalia.cli.office_process import Office  # noqa: E402

CHAPTERS, SECTIONS, PARAGRAPHS = 30, 8, 10
HITS = 1000


def call(office, doc, name, **arguments):
    result = office.job("writer.call_tools", doc, title="bench",
                        calls=[{"name": name, "arguments": arguments}])[0]
    if not result["ok"]:
        raise SystemExit("%s failed: %s" % (name, result["content"]))
    return result


def change(doc):
    """A one-character edit, so the next call cannot reuse anything cached."""
    text = doc.getText()
    text.insertString(text.getStart(), "x", False)


def start_office(oxt, state):
    office = Office()
    office.start()
    if state == "live":
        office.install(oxt)
    else:
        office.install_and_restart(oxt)
    return office


def generated(office, chapters=CHAPTERS):
    doc = office.new_writer()
    office.job("writer.generate", doc, chapters=chapters, sections=SECTIONS,
               paragraphs=PARAGRAPHS, rare=HITS)
    return doc


def replaced_everywhere(office, doc, replacement):
    """replace_text all=true of the rare word (undone again); checks the count."""
    result = call(office, doc, "replace_text", search="zephyr", replacement=replacement,
                  all=True)
    if json.loads(result["content"])["replaced"] != HITS:
        raise SystemExit("expected %d replacements: %s" % (HITS, result["content"]))
    doc.getUndoManager().undo()
    return result


def one_run(office, doc):
    """Seconds (and longest main-thread stretches) of one round of every measure."""
    floor = office.job("bench.floor", doc)
    # The word-diff path (only a letter added) against Replace All of the same.
    floor["replaceAll_partial"] = office.job("bench.floor", doc, replacement="zephyrs")[
        "replaceAll"]
    row = {"floor": floor}
    change(doc)
    row["info_changed"] = call(office, doc, "get_document_info")
    row["info_same"] = call(office, doc, "get_document_info")
    row["search"] = call(office, doc, "search_document", query="zephyr", match_case=True)
    row["replace"] = replaced_everywhere(office, doc, "westerly")
    row["search_undone"] = call(office, doc, "search_document", query="zephyr",
                                match_case=True)
    row["replace_partial"] = replaced_everywhere(office, doc, "zephyrs")
    return row


ROWS = (
    ("replace_text all=true, 1000 hits", "replace", "replaceAll"),
    ("replace_text, a letter added, 1000 hits", "replace_partial", "replaceAll_partial"),
    ("get_document_info, first after a change", "info_changed", "getString"),
    ("get_document_info, unchanged", "info_same", "getString"),
    ("search_document, 1000 hits", "search", "findAll"),
    ("search_document right after undo", "search_undone", "findAll"),
)


def table(state, runs):
    print("\nstate: %s (medians of %d runs; ratio = tool / Writer's own call, same office)"
          % (state, len(runs)))
    print("%-42s %8s %9s %9s %9s" % ("tool", "ratio", "tool s", "floor s", "main max"))
    for label, key, floor in ROWS:
        ratios = [r[key]["seconds"] / r["floor"][floor] for r in runs]
        print("%-42s %7.2fx %9.3f %9.3f %9.3f" % (
            label, statistics.median(ratios),
            statistics.median(r[key]["seconds"] for r in runs),
            statistics.median(r["floor"][floor] for r in runs),
            max(r[key]["longest_main"] for r in runs)))


def scaling(office):
    """First get_document_info after a change on N and 2N chapters: the time ratio."""
    out = []
    for chapters in (CHAPTERS, 2 * CHAPTERS):
        doc = generated(office, chapters)
        seconds = []
        for _i in range(3):
            change(doc)
            seconds.append(call(office, doc, "get_document_info")["seconds"])
        out.append(statistics.median(seconds))
        doc.close(True)
    print("first get_document_info after a change: %.3f s, twice the pages %.3f s (%.2fx)"
          % (out[0], out[1], out[1] / out[0]))


def secondary(office, doc):
    """Reading the whole document and the block edits, in seconds."""
    data = json.loads(call(office, doc, "get_document_info")["content"])
    print("document: %d pages, %d paragraphs, %d words" % (data["pages"], data["paragraphs"],
                                                          data["words"]))
    start, pieces, seconds = 1, 0, 0.0
    while True:
        result = call(office, doc, "read_document", start=start, end=-1)
        pieces += 1
        seconds += result["seconds"]
        last = result["content"].split("\n")[-1]
        if not last.startswith("[Stopped at paragraph"):
            break
        start = int(last.split("start=")[1].split(",")[0])
    print("read_document, whole document: %d pieces, %.3f s (%.3f s per piece)"
          % (pieces, seconds, seconds / pieces))
    count = data["paragraphs"]
    middle = count // 2
    for label, name, arguments in (
            ("insert_paragraphs at the end", "insert_paragraphs",
             {"markdown": "Closing words.", "after_paragraph": -1}),
            ("replace_paragraphs 2 in the middle", "replace_paragraphs",
             {"start": middle, "end": middle + 1, "markdown": "A new middle paragraph."}),
            ("set_paragraph_style on 20 in the middle", "set_paragraph_style",
             {"start": middle + 10, "end": middle + 29, "style": "Quotations"}),
            ("delete_paragraphs 3 near the end", "delete_paragraphs",
             {"start": count - 20, "end": count - 18})):
        change(doc)
        result = call(office, doc, name, **arguments)
        print("%s, first call after a change: %.3f s (main max %.3f s)"
              % (label, result["seconds"], result["longest_main"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--state", choices=("restart", "live", "both"), default="both")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    oxt = build.build()
    for state in (("restart", "live") if args.state == "both" else (args.state,)):
        office = start_office(oxt, state)
        try:
            blank = office.new_writer()
            probe = office.job("bench.probe", blank)
            print("\n== %s: the extension runs in %s, main-thread callbacks on the main "
                  "thread: %s, %.1f us per call; round trip %.1f ms"
                  % (state, probe["process"], probe["on_main_thread"], probe["call_us"],
                     1e3 * office.job("bench.roundtrip", blank)))
            blank.close(True)
            doc = generated(office)
            call(office, doc, "get_document_info")      # first-use costs out of the runs
            runs = [one_run(office, doc) for _i in range(args.runs)]
            table(state, runs)
            scaling(office)
            secondary(office, doc)
            doc.close(True)
        finally:
            office.terminate()


if __name__ == "__main__":
    started = time.time()
    main()
    print("\n(%.0f s)" % (time.time() - started))

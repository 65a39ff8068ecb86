"""Benchmark the Writer tools on a generated 300-page document, in process.

Starts a private headless LibreOffice with the freshly built extension,
generates a long report (chapters, sections, body paragraphs), then times,
inside the office through the org.marginalia.Job service:

- get_document_info and the per-turn context;
- reading the whole document with read_document in budgeted pieces;
- a replace_text with 1000 hits (all=true), undone again in one step, once
  replacing whole words and once adding a letter (the word-diff path), each
  against Writer's own replaceAll of the same as the floor;
- the block edits (insert, replace, restyle, delete paragraphs) at the end or
  in the middle, each the first call after a change;

and compares the compact numbered form's size with the plain text's.
Prints the numbers. Run with the Python that has uno:

    .venv/bin/python bench/bench_document.py
"""

import json
import os
import sys
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _sub in ("pythonpath", "vendor", ""):
    path = os.path.join(_ROOT, _sub) if _sub else _ROOT
    if path not in sys.path:
        sys.path.insert(0, path)

import build  # noqa: E402
from tests.support.office import OfficeHarness  # noqa: E402

CHAPTERS, SECTIONS, PARAGRAPHS = 30, 8, 10
HITS = 1000


def call(harness, doc, name, **arguments):
    result = harness.job("writer.call_tools", document=doc, title="bench",
                         calls=[{"name": name, "arguments": arguments}])[0]
    if not result["ok"]:
        raise SystemExit("%s failed: %s" % (name, result["content"]))
    return result


def edits(harness, doc, count):
    """The block edits, each the first call after a change (the previous edit)."""
    middle = count // 2
    rows = (
        ("insert_paragraphs at the end", "insert_paragraphs",
         {"markdown": "Closing words.", "after_paragraph": -1}),
        ("replace_paragraphs 2 in the middle", "replace_paragraphs",
         {"start": middle, "end": middle + 1, "markdown": "A new middle paragraph."}),
        ("set_paragraph_style on 20 in the middle", "set_paragraph_style",
         {"start": middle + 10, "end": middle + 29, "style": "Quotations"}),
        ("delete_paragraphs 3 near the end", "delete_paragraphs",
         {"start": count - 20, "end": count - 18}),
    )
    for label, name, arguments in rows:
        # A change first, so the call cannot reuse anything cached for the old text.
        doc.getText().insertString(doc.getText().getStart(), "x", False)
        result = call(harness, doc, name, **arguments)
        print("%s, first call after a change: %.3f s" % (label, result["seconds"]))


def writer_replace_all(doc, search, replacement):
    """Seconds for Writer's own replaceAll (in an undo context with the controllers locked,
    as the tools run and as Edit > Find & Replace's Replace All makes one undo step), undone."""
    rd = doc.createReplaceDescriptor()
    rd.setSearchString(search)
    rd.setReplaceString(replacement)
    rd.setPropertyValue("SearchCaseSensitive", True)
    um = doc.getUndoManager()
    started = time.perf_counter()
    um.enterUndoContext("floor")
    doc.lockControllers()
    try:
        count = doc.replaceAll(rd)
    finally:
        doc.unlockControllers()
        um.leaveUndoContext()
    seconds = time.perf_counter() - started
    if count != HITS:
        raise SystemExit("expected %d replacements, Writer made %d" % (HITS, count))
    doc.getUndoManager().undo()
    return seconds


def main():
    harness = OfficeHarness(build.build()).start()
    try:
        doc = harness.new_writer()
        gen = harness.job("writer.generate", document=doc, chapters=CHAPTERS,
                          sections=SECTIONS, paragraphs=PARAGRAPHS, rare=HITS)
        info = call(harness, doc, "get_document_info")
        data = json.loads(info["content"])
        print("document: %d pages, %d paragraphs, %d words, %d characters of plain text "
              "(generated in %.2f s)" % (data["pages"], data["paragraphs"], data["words"],
                                         gen["plain_chars"], gen["seconds"]))
        print("get_document_info, first call: %.3f s" % info["seconds"])
        info = call(harness, doc, "get_document_info")
        print("get_document_info, document unchanged: %.3f s" % info["seconds"])
        ctx = harness.job("writer.context", document=doc)
        print("context: %.3f s, %d characters" % (ctx["seconds"], len(ctx["context"])))

        start, pieces, seconds, compact = 1, 0, 0.0, 0
        while True:
            result = call(harness, doc, "read_document", start=start, end=-1)
            pieces += 1
            seconds += result["seconds"]
            lines = result["content"].split("\n")
            if lines[-1].startswith("[Stopped at paragraph"):
                compact += len("\n".join(lines[:-1])) + 1
                start = int(lines[-1].split("start=")[1].split(",")[0])
            else:
                compact += len(result["content"]) + 1
                break
        print("read_document, whole document: %d pieces, %.3f s in total, %.3f s per piece"
              % (pieces, seconds, seconds / pieces))
        print("compact form: %d characters vs %d plain text (%.3fx)"
              % (compact, gen["plain_chars"], compact / float(gen["plain_chars"])))

        started = time.perf_counter()
        result = harness.job("writer.call_tools", document=doc, title="bench replace",
                             calls=[{"name": "replace_text",
                                     "arguments": {"search": "zephyr",
                                                   "replacement": "westerly", "all": True}}])[0]
        wall = time.perf_counter() - started
        replaced = json.loads(result["content"])["replaced"]
        print("replace_text all=true: %d replacements in %.3f s (turn incl. undo step: %.3f s)"
              % (replaced, result["seconds"], wall))
        if replaced != HITS:
            raise SystemExit("expected %d replacements" % HITS)
        whole_seconds = result["seconds"]
        started = time.perf_counter()
        doc.getUndoManager().undo()
        print("one undo of the replacement turn: %.3f s" % (time.perf_counter() - started))
        partial = call(harness, doc, "replace_text", search="zephyr", replacement="zephyrs",
                       all=True)
        print("replace_text all=true, only a letter added (zephyr -> zephyrs): %d in %.3f s"
              % (json.loads(partial["content"])["replaced"], partial["seconds"]))
        doc.getUndoManager().undo()
        floor_whole = writer_replace_all(doc, "zephyr", "westerly")
        floor_partial = writer_replace_all(doc, "zephyr", "zephyrs")
        print("Writer's own replaceAll (the floor): zephyr -> westerly %.3f s, -> zephyrs %.3f s"
              % (floor_whole, floor_partial))
        print("replace_text / floor: whole words %.2fx, a letter added %.2fx"
              % (whole_seconds / floor_whole, partial["seconds"] / floor_partial))
        info = call(harness, doc, "get_document_info")
        print("get_document_info, first call after the change: %.3f s" % info["seconds"])
        result = call(harness, doc, "search_document", query="zephyr")
        print("search_document, 1000 hits (50 listed): %.3f s" % result["seconds"])
        edits(harness, doc, data["paragraphs"])
        harness.close(doc)
    finally:
        harness.stop()


if __name__ == "__main__":
    main()

"""python -m tests.support.corpus_check DIR: the no-harm checks over a folder of documents.

Every edit tool in every apply mode on every .odt and .docx of DIR (the shared
corpus beside the project), in a private headless office with the built .oxt.
Prints, per mode, "documents without harm: N of M", one line per harm, and
writes the whole report as JSON to artifacts/.
"""

import argparse
import json
import os
import sys
import time
from typing import Dict, List

from tests.support.noharm import MODES, TOOLS, Problem, check_document
from tests.support.office import ARTIFACTS, OfficeHarness


def documents(folder: str) -> List[str]:
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if name.lower().endswith((".odt", ".docx")) and not name.startswith("~"))


def summary(paths: List[str], problems: List[Problem]) -> List[str]:
    """The report's lines: per mode the count without harm, then each harm and finding."""
    lines = []
    names = [os.path.basename(p) for p in paths]
    for mode in MODES:
        harmed = set(p.document for p in problems if p.mode == mode and not p.finding)
        lines.append("%s: documents without harm: %d of %d"
                     % (mode, len([n for n in names if n not in harmed]), len(names)))
    for kind, finding in (("harm", False), ("finding", True)):
        for p in problems:
            if p.finding == finding:
                lines.append("%s: %s | %s | %s | %s" % (kind, p.document, p.mode, p.tool,
                                                        p.what))
    return lines


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--oxt", default=os.environ.get("MARGINALIA_OXT", "dist/marginalia.oxt"))
    parser.add_argument("--only", action="append", default=[],
                        help="check only documents whose name contains this (repeatable)")
    parser.add_argument("--no-save", action="store_true", help="skip the save and load check")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.folder):
        sys.stderr.write("The folder %s is not there, so there is nothing to check.\n"
                         % args.folder)
        return 2
    paths = documents(args.folder)
    if args.only:
        paths = [p for p in paths if any(o in os.path.basename(p) for o in args.only)]
    if not paths:
        sys.stderr.write("The folder %s holds no .odt or .docx documents.\n" % args.folder)
        return 2
    started = time.time()
    office = OfficeHarness(args.oxt).start()
    problems = []               # type: List[Problem]
    seconds = {}                # type: Dict[str, float]
    try:
        for n, path in enumerate(paths, 1):
            began = time.time()
            try:
                found = check_document(office, path, save=not args.no_save)
            except Exception as exc:        # a document LibreOffice itself cannot open
                if not office.alive():
                    office.revive()
                found = [Problem(os.path.basename(path), MODES[0], "(loading)",
                                 "not checked: %s" % (str(exc).strip().splitlines() or
                                                      [type(exc).__name__])[0][:200],
                                 finding=True)]
            seconds[os.path.basename(path)] = round(time.time() - began, 2)
            problems.extend(found)
            print("[%d/%d] %s: %s (%.1f s)" % (n, len(paths), os.path.basename(path),
                                               "%d problem(s)" % len(found) if found else "ok",
                                               time.time() - began), flush=True)
            for p in found:     # as they come: a long run stopped part-way still tells
                print("    %s: %s | %s | %s" % ("finding" if p.finding else "harm", p.mode,
                                                p.tool, p.what[:300]), flush=True)
    finally:
        office.stop()
    lines = summary(paths, problems)
    print("\n".join(lines))
    elapsed = time.time() - started
    print("checked %d documents x %d modes x %d tools in %.0f s"
          % (len(paths), len(MODES), len(TOOLS), elapsed))
    os.makedirs(ARTIFACTS, exist_ok=True)
    report = os.path.join(ARTIFACTS, "corpus-no-harm.json")
    with open(report, "w", encoding="utf-8") as f:
        json.dump({"folder": os.path.abspath(args.folder), "seconds": round(elapsed, 1),
                   "documents": [os.path.basename(p) for p in paths], "summary": lines[:3],
                   "per_document_seconds": seconds,
                   "problems": [p._asdict() for p in problems]}, f, indent=1)
    print("report: %s" % os.path.relpath(report))
    return 1 if any(not p.finding for p in problems) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

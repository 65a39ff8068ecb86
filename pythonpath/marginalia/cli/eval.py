"""Measure how well a model does Marginalia's document tasks.

    PYTHONPATH=pythonpath:vendor python3 -m marginalia.cli.eval --endpoint URL --model NAME \\
        [--api-key-env VAR] [--only TASK ...] [--out DIR] [--oxt PATH] \\
        [--task-seconds S] [--temperature T] [--protocol new|old|both]

Every task (marginalia.eval.catalog) gets a fresh copy of its source
document, opened in one private headless LibreOffice with the built .oxt;
its messages run as chat turns through the headless runner's own functions
(the sidebar's ChatSession, loop and tools), the result is saved as .odt and
read back, and the task's checker says pass or why not. One office serves all
tasks: starting one per task would cost more than a small model's answer.
The scorecard goes to the terminal and, as Markdown and JSON, to --out; each
task's events (what the model said and called) to --out/transcripts/.

A corpus task's source is a real document of the shared corpus, found in
MARGINALIA_CORPUS or else ../shared/corpus beside the repository; a copy is
opened (the corpus is never written to, not even a lock file) and saved as .odt
before the first turn, the original its checker compares with. Without the
folder those tasks fail, each with that reason.

--protocol picks the editing protocol the turns use (the edit_protocol
setting, report.PROTOCOLS): new ("rewrite", the default) or old ("tools"), or
both: each task then runs under new, then old, in the same office, the
terminal's lines name their protocol, the report holds both scorecards side
by side (report.py says how) and the transcripts go to transcripts/<protocol>/.

A weak model failing tasks is a result, not an error: exit code 0. An endpoint
that cannot be reached, or an office that cannot start, is exit code 1.
"""

import argparse
import io
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any, Dict, List, NamedTuple, NoReturn, Optional

from marginalia.cli import headless
from marginalia.eval import catalog, odf, report
from marginalia.eval.task import Task

REACH_SECONDS = 15
CORPUS = os.path.join(os.path.dirname(headless.ROOT), "shared", "corpus")


def corpus_folder(environ: Dict[str, str]) -> str:
    """Where the corpus tasks' documents are: MARGINALIA_CORPUS, else beside the repository."""
    return environ.get("MARGINALIA_CORPUS") or CORPUS


class TaskSourceMissing(Exception):
    """A task's document cannot be had; str() is the task's reason for failing."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise headless.UsageError("Bad arguments: %s (see --help)." % message)


def parse_args(argv: List[str]) -> argparse.Namespace:
    p = _Parser(prog="python3 -m marginalia.cli.eval",
                description="Run Marginalia's document tasks against a model and score them.")
    p.add_argument("--endpoint", required=True, help="the server's base URL, e.g. "
                                                     "http://127.0.0.1:11434/v1")
    p.add_argument("--model", required=True)
    p.add_argument("--api-key-env", metavar="VAR",
                   help="name of the environment variable holding the API key")
    p.add_argument("--only", nargs="+", action="extend", default=[], metavar="TASK",
                   help="run only these tasks")
    p.add_argument("--out", default="eval-report", help="folder for the report files")
    p.add_argument("--task-seconds", type=float, default=300.0, metavar="S",
                   help="stop a task's turns still running after S seconds (default 300)")
    p.add_argument("--temperature", type=float, default=0.0,
                   help="sampling temperature sent with every request (default 0: a model "
                        "answers the same way each run, so two scorecards compare)")
    p.add_argument("--protocol", choices=("new", "old", "both"), default="new",
                   help="the editing protocol: new (edit_protocol \"rewrite\", the default), "
                        "old (\"tools\"), or both, each task under each in one run")
    p.add_argument("--oxt", default=headless.DEFAULT_OXT, help="the extension to install")
    args = p.parse_args(argv)
    args.protocols = list(report.PROTOCOLS) if args.protocol == "both" else [args.protocol]
    args.corpus = corpus_folder(dict(os.environ))
    known = catalog.by_name()
    unknown = [name for name in args.only if name not in known]
    if unknown:
        raise headless.UsageError("No task named %s. The tasks: %s." % (
            ", ".join(unknown), ", ".join(known)))
    args.tasks = [known[name] for name in args.only] if args.only else catalog.all_tasks()
    if args.api_key_env and args.api_key_env not in os.environ:
        raise headless.UsageError("The environment variable %s is not set." % args.api_key_env)
    args.api_key = os.environ.get(args.api_key_env or "MARGINALIA_API_KEY", "")
    if not os.path.isfile(args.oxt):
        raise headless.UsageError("The extension %s is missing; build it with "
                                  "`python3 build.py`." % args.oxt)
    return args


def reachable(endpoint: str, api_key: str) -> Optional[str]:
    """None when the server answers at all (any HTTP status), else the sentence to print.
    Checked once up front so a wrong address is one line, not a failure per task."""
    request = urllib.request.Request(endpoint.rstrip("/") + "/models")
    if api_key:
        request.add_header("Authorization", "Bearer " + api_key)
    try:
        urllib.request.urlopen(request, timeout=REACH_SECONDS).close()
    except urllib.error.HTTPError:
        return None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        why = getattr(exc, "reason", None) or exc
        return "The endpoint %s cannot be reached (%s)." % (endpoint, why)
    return None


def _events(buffer: io.StringIO) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]


def _source(task: Task, folder: str, corpus: str) -> str:
    """The document the task opens: its paragraphs written as .odt, or a copy of its corpus
    file (the office puts a lock file beside what it opens; the corpus stays as it is)."""
    if not task.file:
        path = os.path.join(folder, task.name + ".odt")
        odf.write_odt(path, task.source)
        return path
    if not os.path.isdir(corpus):
        raise TaskSourceMissing("the corpus folder %s is missing (set MARGINALIA_CORPUS to "
                                "where it is)" % corpus)
    found = os.path.join(corpus, task.file)
    if not os.path.isfile(found):
        raise TaskSourceMissing("the corpus file %s is missing from %s" % (task.file, corpus))
    path = os.path.join(folder, task.name + os.path.splitext(task.file)[1])
    shutil.copyfile(found, path)
    return path


def run_task(office: Any, task: Task, settings: Dict[str, Any], folder: str,
             transcripts: Optional[str] = None, limit: float = 300.0,
             corpus: str = CORPUS) -> report.Outcome:
    """One task in the running office: source written, turns run, result saved and checked.
    With ``transcripts`` (a folder) the turns' events are kept there as <task>.jsonl: the
    scorecard says what failed, the transcript shows what the model did."""
    try:
        source = _source(task, folder, corpus)
    except TaskSourceMissing as missing:
        return report.Outcome(task.name, task.title, task.mode, False, str(missing))
    result = os.path.join(folder, task.name + "-result.odt")
    mode = dict(settings, apply_mode=task.mode, track_changes=task.mode == "tracked")
    started = time.monotonic()
    turns: List[List[Dict[str, Any]]] = []
    stopped = None       # the sentence of a turn stopped at the task's time limit
    original = None      # a corpus document as the office read it, before any turn
    doc = office.load(source, hidden=True)
    try:
        if task.file:
            read_as = os.path.join(folder, task.name + "-original.odt")
            headless.save(doc, read_as)
            original = odf.read_odt(read_as)
        for message in task.messages:
            buffer = io.StringIO()
            left = max(1, int(round(limit - (time.monotonic() - started))))
            error = headless.run_turn(office, doc, message, mode, buffer, left)
            turns.append(_events(buffer))
            if error:
                stopped = error if error == headless.TIMED_OUT % left else None
                break
        headless.save(doc, result)
    finally:
        office.close(doc)
    seconds = time.monotonic() - started
    if transcripts:
        _keep_transcript(transcripts, task.name, turns)
    counted = report.tally(turns)
    if stopped:
        reason: Optional[str] = "the turn took too long: %s" % stopped
    elif counted.error:
        reason = "the turn failed: %s" % counted.error
    else:
        try:
            reason = task.judge(odf.read_odt(result), counted.last_answer, original)
        except Exception as exc:  # a checker's own fault must not hide the other tasks
            reason = "the checker failed (%s: %s)" % (type(exc).__name__, exc)
    if reason is not None:
        reason = report.explained(reason, counted)
    return report.Outcome(task.name, task.title, task.mode, reason is None, reason or "",
                          round(seconds, 1), counted.prompt_tokens, counted.completion_tokens,
                          counted.rounds, counted.calls)


def _keep_transcript(folder: str, name: str, turns: List[List[Dict[str, Any]]]) -> None:
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".jsonl"), "w", encoding="utf-8") as handle:
        for number, events in enumerate(turns, 1):
            for event in events:
                handle.write(json.dumps(dict(event, turn=number), ensure_ascii=False) + "\n")


def _office_failed(task: Task, exc: Exception) -> report.Outcome:
    return report.Outcome(task.name, task.title, task.mode, False,
                          "LibreOffice failed during the task (%s)" % (str(exc) or
                                                                       type(exc).__name__))


class Run(NamedTuple):
    """One protocol's part of a run."""
    card: report.Card                # its scorecard, filled as tasks end
    settings: Dict[str, Any]         # the turns' settings override, edit_protocol included
    work: str                        # the folder for its documents
    transcripts: str                 # the folder for its tasks' events


def protocol_runs(args: argparse.Namespace, folder: str) -> List[Run]:
    """A Run per protocol asked for, its work folder made under ``folder``; with both, each
    protocol's transcripts go to a folder of its own."""
    settings = {"model": args.model, "api_key": args.api_key, "endpoint": args.endpoint,
                "keep_chats": False, "temperature": args.temperature}
    runs = []
    for protocol in args.protocols:
        work = os.path.join(folder, protocol)
        os.makedirs(work)
        transcripts = os.path.join(args.out, "transcripts")
        if len(args.protocols) > 1:
            transcripts = os.path.join(transcripts, protocol)
        runs.append(Run(report.Card(protocol, []),
                        dict(settings, edit_protocol=report.PROTOCOLS[protocol]), work,
                        transcripts))
    return runs


def _ready(office: Any, oxt: str) -> None:
    """The .oxt installed, unless the office has Marginalia already (installed for every
    user: a copy in the profile would fail; headless.run does the same)."""
    note = office.use_installed(oxt)
    if note is None:
        office.install_and_restart(oxt)
    elif note:
        sys.stderr.write(note + "\n")


def run_all(args: argparse.Namespace, out: Any) -> List[report.Card]:
    """Every task under every protocol asked for, in one office; one scorecard a protocol.
    A task runs under each protocol before the next task starts, so an interrupted run
    still compares like with like."""
    from marginalia.cli.office_process import Office
    folder = tempfile.mkdtemp(prefix="marginalia-eval-")
    runs = protocol_runs(args, folder)
    both = len(runs) > 1
    office = Office()
    try:
        office.start()
        _ready(office, args.oxt)
        for task in args.tasks:
            for card, settings, work, transcripts in runs:
                try:
                    outcome = run_task(office, task, settings, work, transcripts,
                                       args.task_seconds, args.corpus)
                except Exception as exc:
                    outcome = _office_failed(task, exc)
                    if not office.answers():
                        # The office died under the task: the next one gets a fresh office.
                        office.terminate()
                        office = Office()
                        office.start()
                        _ready(office, args.oxt)
                card.outcomes.append(outcome)
                out.write(report.console_line(outcome, card.protocol if both else "") + "\n")
                out.flush()
    finally:
        office.terminate()
        shutil.rmtree(folder, ignore_errors=True)
    return [run.card for run in runs]


def write_report(folder: str, cards: List[report.Card], meta: Dict[str, Any]) -> List[str]:
    os.makedirs(folder, exist_ok=True)
    paths = [os.path.join(folder, "eval.md"), os.path.join(folder, "eval.json")]
    with open(paths[0], "w", encoding="utf-8") as handle:
        handle.write(report.as_markdown(cards, meta))
    with open(paths[1], "w", encoding="utf-8") as handle:
        handle.write(report.as_json(cards, meta) + "\n")
    return paths


def _interrupt(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt()


def main(argv: Optional[List[str]] = None, out: Optional[Any] = None) -> int:
    out = out or sys.stdout
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except headless.UsageError as exc:
        sys.stderr.write("%s\n" % exc)
        return 2
    problem = reachable(args.endpoint, args.api_key)
    if problem:
        sys.stderr.write(problem + "\n")
        return 1
    try:
        from marginalia.cli.office_process import OfficeError
    except ImportError:
        sys.stderr.write("This Python cannot reach LibreOffice: run the eval with the Python "
                         "that has LibreOffice's bridge (on Debian /usr/bin/python3).\n")
        return 1
    meta = {"model": args.model, "endpoint": args.endpoint, "temperature": args.temperature,
            "date": time.strftime("%Y-%m-%d %H:%M"), "tasks": [t.name for t in args.tasks]}
    # A stopped run (kill, a CI timeout) ends like Ctrl+C: its office is closed, not orphaned.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        cards = run_all(args, out)
    except OfficeError as exc:
        sys.stderr.write("%s\n" % exc)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("Stopped; no report was written.\n")
        return 130
    for card in cards:
        out.write(report.console_total(card.outcomes, card.protocol if len(cards) > 1
                                       else "") + "\n")
    try:
        paths = write_report(args.out, cards, meta)
    except OSError as exc:
        sys.stderr.write("The report could not be written to %s (%s).\n"
                         % (args.out, exc.strerror or exc))
        return 1
    out.write("Report: %s\n" % ", ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run Marginalia's agent on a document from the command line.

    PYTHONPATH=pythonpath:vendor python3 -m marginalia.cli.headless DOCUMENT \\
        (--message TEXT [--message TEXT ...] | --prompt NAME [--select TEXT] [--argument A])
        --output OUT [--endpoint URL] [--model NAME] \\
        [--api-key-env VAR] [--apply direct|tracked|comments] [--oxt PATH] [--ignore-lock] \\
        [--transcript FILE.md] [--continue [--chats-dir DIR]] [--source FILE ...]

A private headless LibreOffice with a throwaway profile gets the built .oxt
(unless Marginalia is installed for every user: then that one is used);
each message runs as one chat turn *inside* the office through the
extension's own ChatSession (same loop, tools, undo and tracked changes as
the sidebar). Events go to stdout as JSON lines; OUT is saved in the format
its extension names. ``--transcript`` writes the chat as Markdown (as the
panel's Export chat does); ``--continue`` first takes up the document's kept
chat from the user's own LibreOffice profile (or --chats-dir) and keeps the
turns there afterwards. ``--prompt`` runs a library prompt (a quick action,
with its output mode) on the first occurrence of ``--select``'s text, or on
the whole document, before any messages. ``--source`` (repeatable) gives the
chat a file to search, read and cite (office.chat_sources). Needs the Python
that has ``uno``.
"""

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from typing import Any, Dict, List, NoReturn, Optional, TextIO, Tuple

from marginalia.cli import doclock, interrupt, terminal_language
from marginalia.cli.profile_lock import default_profile
from marginalia.i18n.catalog import N_, tr

# pythonpath/marginalia/cli/headless.py -> the checkout, where build.py puts dist/.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DEFAULT_OXT = os.path.join(ROOT, "dist", "marginalia.oxt")
FILTERS = {".odt": "writer8", ".docx": "MS Word 2007 XML", ".pdf": "writer_pdf_Export"}
POLL_SECONDS = 0.05
MISSING_OXT = N_("The extension %s is missing; build it with `python3 build.py`.")


class UsageError(Exception):
    """Bad command-line arguments: exit code 2."""


class RunError(Exception):
    """The document, the office or the endpoint failed: exit code 1."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(tr("Bad arguments: %s (see --help).") % message)


def parse_args(argv: List[str]) -> argparse.Namespace:
    p = _Parser(prog="python3 -m marginalia.cli.headless",
                description=tr("Run Marginalia chat turns on a document and save the result."))
    p.add_argument("document")
    p.add_argument("--message", action="append", default=[],
                   help=tr("a chat message; repeat for several turns"))
    p.add_argument("--prompt", metavar="NAME",
                   help=tr("run this library prompt (e.g. Shorten, or translate) first"))
    p.add_argument("--select", metavar="TEXT",
                   help=tr("the prompt works on the first occurrence of TEXT (default: all)"))
    p.add_argument("--argument", metavar="TEXT", default="",
                   help=tr("what the prompt takes (Translate: the language)"))
    p.add_argument("--output", required=True, help=tr("where to save (.odt, .docx or .pdf)"))
    p.add_argument("--endpoint", default=os.environ.get("MARGINALIA_ENDPOINT"))
    p.add_argument("--model", default=os.environ.get("MARGINALIA_MODEL"))
    p.add_argument("--api-key-env", metavar="VAR",
                   help=tr("name of the environment variable holding the API key "
                           "(default MARGINALIA_API_KEY)"))
    p.add_argument("--apply", choices=("direct", "tracked", "comments"), default=None,
                   help=tr("how edits are applied: directly, as tracked changes, or only as "
                           "comments proposing them (default: direct)"))
    p.add_argument("--track-changes", action="store_true",
                   help=tr("the same as --apply tracked"))
    p.add_argument("--edit-protocol", choices=("rewrite", "tools"), default=None,
                   help=tr("how the model edits: it writes the new lines (rewrite, the "
                           "default) or drives the full tool set (tools)"))
    p.add_argument("--oxt", default=DEFAULT_OXT, help=tr("the extension to install"))
    p.add_argument("--ignore-lock", action="store_true",
                   help=tr("work on a copy when another LibreOffice has the document open"))
    p.add_argument("--transcript", metavar="FILE.md",
                   help=tr("write the chat as Markdown to this file"))
    p.add_argument("--continue", dest="continue_chat", action="store_true",
                   help=tr("continue the document's kept chat (and keep the new turns)"))
    p.add_argument("--chats-dir", metavar="DIR", default=None,
                   help=tr("where the kept chats are (default: the user's LibreOffice "
                           "profile)"))
    p.add_argument("--source", action="append", default=[], metavar="FILE",
                   help=tr("a file the chat may search, read and cite; repeat for several"))
    args = p.parse_args(argv)
    ext = os.path.splitext(args.output)[1].lower()
    if ext not in FILTERS:
        raise UsageError(tr("The output must end in .odt, .docx or .pdf."))
    if not args.message and not args.prompt:
        raise UsageError(tr("Give --message or --prompt."))
    if (args.select or args.argument) and not args.prompt:
        raise UsageError(tr("--select and --argument go with --prompt."))
    if not os.path.isfile(args.document) or not os.access(args.document, os.R_OK):
        raise UsageError(tr("The document %s does not exist or cannot be read.")
                         % args.document)
    # The built .oxt is not needed where LibreOffice has Marginalia installed already
    # (run() finds out): only one asked for by name must be there.
    if args.oxt != DEFAULT_OXT and not os.path.isfile(args.oxt):
        raise UsageError(tr(MISSING_OXT) % args.oxt)
    if not args.model:
        raise UsageError(tr("No model given: use --model or MARGINALIA_MODEL."))
    key_var = args.api_key_env or "MARGINALIA_API_KEY"
    if args.api_key_env and args.api_key_env not in os.environ:
        raise UsageError(tr("The environment variable %s is not set.") % args.api_key_env)
    args.api_key = os.environ.get(key_var, "")
    for source in args.source:
        if not os.path.isfile(source):
            raise UsageError(tr("The source %s does not exist.") % source)
    if args.chats_dir and not args.continue_chat:
        raise UsageError(tr("--chats-dir goes with --continue."))
    if args.transcript:
        folder = os.path.dirname(os.path.abspath(args.transcript))
        if not os.path.isdir(folder):
            raise UsageError(tr("The folder for the transcript, %s, does not exist.") % folder)
    return args


def user_chats_dir() -> str:
    """The kept chats of the user's own LibreOffice profile (office.chat_store's folder)."""
    return os.path.join(default_profile(), "user", "marginalia", "chats")


def output_line(entry: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """Map a session entry to the runner's JSON-lines vocabulary (None: not shown)."""
    kind = entry.get("type")
    if kind in ("reasoning", "text"):
        return {"type": kind, "text": entry.get("text", "")}
    if kind == "tool_call":
        return {"type": "tool_call", "id": entry.get("call_id"), "name": entry.get("name"),
                "arguments": entry.get("arguments")}
    if kind == "tool_result":
        return {"type": "tool_result", "id": entry.get("call_id"), "name": entry.get("name"),
                "ok": bool(entry.get("ok")), "result": entry.get("result"),
                "summary": entry.get("summary")}
    if kind == "usage":
        out = {"type": "usage"}
        out.update(entry.get("usage") or {})
        return out
    if kind == "change":
        change = entry.get("change") or {}
        out = {"type": "change"}
        for key in ("kind", "paragraphs", "before", "after", "tool", "state", "turn", "id"):
            out[key] = change.get(key)
        for key in ("places", "source"):
            if change.get(key):
                out[key] = change[key]
        return out
    if kind == "citations":
        out = {"type": "citations"}
        out.update(entry.get("citations") or {})
        return out
    if kind == "notice":
        return {"type": "notice", "message": entry.get("message")}
    if kind == "error":
        return {"type": "error", "message": entry.get("message")}
    if kind == "done":
        return {"type": "done"}
    return None


def _emit(line: Dict[str, Any], out: TextIO) -> None:
    out.write(json.dumps(line, ensure_ascii=False) + "\n")
    out.flush()


def run_turn(office: Any, doc: Any, message: str, settings: Dict[str, Any],
             out: TextIO, seconds: Optional[float] = None) -> Optional[str]:
    """One chat turn; returns the error sentence it ended with, or None. With ``seconds``
    a turn still running then is stopped (as Stop does) and ends with TIMED_OUT."""
    started = office.job("chat.start", doc, message=message, settings=settings)
    if not started.get("started"):
        raise RunError(tr("The chat turn could not start."))
    deadline = None if seconds is None else time.monotonic() + seconds
    return _follow(office, doc, out, deadline, seconds)


def run_prompt(office: Any, doc: Any, args: argparse.Namespace, settings: Dict[str, Any],
               out: TextIO) -> Optional[str]:
    """The --prompt action as one turn; returns the error sentence it ended with, or None."""
    started = office.job("quick.run", doc, prompt=args.prompt, select=args.select or "",
                         argument=args.argument, settings=settings)
    if not started.get("started"):
        raise RunError(started.get("sentence") or tr("The prompt could not start."))
    return _follow(office, doc, out)


TIMED_OUT = N_("The turn was stopped after %g s.")


def _follow(office: Any, doc: Any, out: TextIO, deadline: Optional[float] = None,
            seconds: Optional[float] = None) -> Optional[str]:
    """Print the running turn's entries until it ends; its error sentence, or None."""
    try:
        return _entries(office, doc, out, deadline, seconds)
    except KeyboardInterrupt:
        # Stop the turn inside the office first so it quits promptly, wherever Ctrl+C
        # landed: most often in the sleep between two polls, where it once went
        # unnoticed and closing the document waited for the running turn.
        try:
            office.job("chat.stop", doc)
        except Exception:  # the office is ended next anyway
            pass
        raise


def _entries(office: Any, doc: Any, out: TextIO, deadline: Optional[float],
             seconds: Optional[float]) -> Optional[str]:
    error = None
    while True:
        if deadline is not None and time.monotonic() > deadline:
            deadline = None
            error = tr(TIMED_OUT) % seconds
            office.job("chat.stop", doc)      # the turn ends as stopped; its entries follow
        polled = office.job("chat.poll", doc)
        for entry in polled["entries"]:
            line = output_line(entry)
            if line is None:
                continue
            _emit(line, out)
            if line["type"] == "error" and error is None:
                error = line["message"]
            if line["type"] == "done":
                return error
        time.sleep(POLL_SECONDS)


def _continue(office: Any, doc: Any, folder: str) -> None:
    continued = office.job("chat.continue", doc, folder=folder)
    for note in continued.get("notes") or []:
        sys.stderr.write("%s\n" % note)
    if not continued.get("continued"):
        sys.stderr.write(tr("This document has no kept chat in %s; starting a new one.")
                         % folder + "\n")


def _add_source(office: Any, doc: Any, path: str, out: TextIO) -> None:
    """Give the chat a source (read inside the office); a file it cannot read ends the run."""
    added = office.job("sources.add", doc, path=os.path.abspath(path))
    if added.get("sentence"):
        raise RunError(added["sentence"])
    _emit({"type": "source", "id": added["id"], "name": added["name"],
           "passages": added.get("passages")}, out)


def _write_transcript(office: Any, doc: Any, path: str) -> None:
    markdown = office.job("chat.transcript", doc)["markdown"]
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(markdown)
    except OSError as exc:
        raise RunError(tr("The transcript could not be written to %(path)s (%(reason)s).")
                       % {"path": path, "reason": exc.strerror or exc})


def save(doc: Any, path: str) -> None:
    """Save ``doc`` to ``path`` in the format its extension names."""
    import uno
    from marginalia.cli.office_process import props
    ext = os.path.splitext(path)[1].lower()
    url = uno.systemPathToFileUrl(os.path.abspath(path))
    doc.storeToURL(url, props(FilterName=FILTERS[ext], Overwrite=True))


def _document_to_open(args: argparse.Namespace) -> Tuple[str, Optional[str]]:
    """The path to open and the temporary folder to remove afterwards (or None).

    With --ignore-lock the office opens a copy, so the holder's lock and file
    stay as they are; otherwise a document another office holds is refused.
    """
    if args.ignore_lock:
        folder = tempfile.mkdtemp(prefix="marginalia-copy-")
        copy = os.path.join(folder, os.path.basename(args.document))
        try:
            shutil.copyfile(args.document, copy)
        except OSError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise RunError(tr("Could not copy %(document)s to a temporary folder (%(reason)s).")
                           % {"document": args.document, "reason": exc.strerror or exc})
        return copy, folder
    owner = doclock.holder(args.document)
    if owner is not None:
        raise RunError(doclock.describe(owner, args.document))
    return args.document, None


def _use_or_install(office: Any, oxt: str) -> None:
    """Marginalia as the office has it installed (for every user, say), else ``oxt``."""
    note = office.use_installed(oxt)
    if note is None:
        if not os.path.isfile(oxt):
            raise RunError(tr(MISSING_OXT) % oxt)
        office.install_and_restart(oxt)
    elif note:
        sys.stderr.write(note + "\n")


def run(args: argparse.Namespace, out: TextIO,
        watch: Optional[interrupt.Watch] = None) -> None:
    try:
        from marginalia.cli.office_process import Office, OfficeError
    except ImportError:
        raise RunError(tr("This Python cannot reach LibreOffice: run the command with the "
                          "Python that has LibreOffice's bridge (on Debian /usr/bin/python3 "
                          "with python3-uno)."))
    mode = args.apply or ("tracked" if args.track_changes else "direct")
    settings = {"model": args.model, "api_key": args.api_key,
                "apply_mode": mode, "track_changes": mode == "tracked",
                # The throwaway profile's chats would vanish with it: keep only on --continue.
                "keep_chats": bool(args.continue_chat)}
    if args.edit_protocol:
        settings["edit_protocol"] = args.edit_protocol
    if args.endpoint:
        settings["endpoint"] = args.endpoint
    path, copy_folder = _document_to_open(args)
    office = Office()
    if watch is not None:
        watch.office, watch.document = office, path
    doc = None
    try:
        office.start()
        _use_or_install(office, args.oxt)
        try:
            doc = office.load(path, hidden=True)
        except Exception:
            owner = None if copy_folder else doclock.holder(path)
            if owner is not None:
                raise RunError(doclock.describe(owner, args.document))
            raise RunError(tr("LibreOffice could not open %s.") % args.document)
        if args.continue_chat:
            _continue(office, doc, args.chats_dir or user_chats_dir())
        for source in args.source:
            _add_source(office, doc, source, out)
        if args.prompt:
            error = run_prompt(office, doc, args, settings, out)
            if error:
                raise RunError(error)
        for message in args.message:
            error = run_turn(office, doc, message, settings, out)
            if error:
                raise RunError(error)
        if args.transcript:
            _write_transcript(office, doc, args.transcript)
        try:
            save(doc, args.output)
        except Exception:
            raise RunError(tr("The result could not be saved to %s.") % args.output)
    except OfficeError as exc:
        raise RunError(str(exc))
    except RunError:
        raise
    except Exception:
        # Most likely the bridge broke: the office crashed or was killed under us.
        if _ended(office.process):
            raise RunError(tr("LibreOffice stopped unexpectedly; the document was not saved."))
        raise RunError(tr("Something went wrong inside LibreOffice; the document was not "
                          "saved."))
    finally:
        try:
            # Closed before the office ends: quitting with it open leaves its lock file.
            if doc is not None:
                office.close(doc)
        finally:
            office.terminate()
            if copy_folder:
                shutil.rmtree(copy_folder, ignore_errors=True)


def _ended(process: Any, grace: float = 3.0) -> bool:
    """True when the office process has ended (or ends within ``grace`` seconds)."""
    if process is None:
        return False
    try:
        process.wait(grace)
        return True
    except Exception:
        return False


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl+C (the office is ended) but with exit code 143."""


def _sigterm(_signum, _frame):
    raise _Terminated()


def main(argv: Optional[List[str]] = None, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    terminal_language.install()        # once, before any sentence is written
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except UsageError as exc:
        sys.stderr.write("%s\n" % exc)
        return 2
    signal.signal(signal.SIGTERM, _sigterm)
    watch = interrupt.Watch()
    watch.install()
    try:
        run(args, out, watch)
    except RunError as exc:
        watch.tell(str(exc))
        return 1
    except KeyboardInterrupt as exc:
        watch.tell(tr(interrupt.STOPPED))
        return 143 if isinstance(exc, _Terminated) else 130
    finally:
        watch.finished()
    return 0


if __name__ == "__main__":
    sys.exit(main())

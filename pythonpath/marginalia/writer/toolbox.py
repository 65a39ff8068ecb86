"""WriterToolbox: the document tools of one Writer document, for the turn loop.

Threading: every public method may be called from a worker thread; each
routes its work through ``runner(fn)``, which runs fn on LibreOffice's main
thread and returns its result (office.mainthread.run_sync in the extension).

Safety: edit tools run inside the turn's undo step, with the controllers
locked, and (when recording) under the AI author name; see writer.turn.
Tools validate before changing anything, so a ToolError always means the
document is unchanged.

Someone else's changes: the document's change counter (writer.changes) is
read before and after every call, so a change between two calls of a turn is
not the toolbox's own: the user typed (or undid) while the model thought.
From then until the model reads again, the edits that address paragraphs by
number are refused unless ``expect`` ties them to the text they mean, since
the numbers the model holds may point elsewhere now; the tools that find
their text (replace_text, format_text, add_comment) go on working.
"""

import functools
import logging
from typing import Any, Callable

from marginalia.document import change_log as cl
from marginalia.document import docview
from marginalia.writer import text_tools as ops
from marginalia.writer import guard, keepout, ledger, outline, proposals, read
from marginalia.writer import block_tools as structure
from marginalia.errors import Cancelled, ToolError
from marginalia.writer.turn import Turn
from marginalia.chat.tools import ToolRegistry

log = logging.getLogger("marginalia.writer")

_INT = {"type": "integer"}
_STR = {"type": "string"}
_BOOL = {"type": "boolean"}


def _schema(properties, required=()):
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


def _d(schema, description):
    out = dict(schema)
    out["description"] = description
    return out


MARKDOWN = _d(_STR, "Markdown: '# ' headings, paragraphs separated by blank lines, '- ' bullet "
                    "and '1. ' numbered items (indent two spaces to nest), **bold**, *italic*, "
                    "`code`, [links](https://...), pipe tables. It becomes real Writer "
                    "structure (styles, list numbering, tables).")
PARA_START = _d(_INT, "First paragraph number (1-based, as shown by read_document).")
PARA_END = _d(_INT, "Last paragraph number, inclusive; -1 means the last paragraph.")
EXPECT = _d(_STR, "The first few words of paragraph start as you read them. If that paragraph "
                  "no longer begins so (numbers moved), nothing is changed and the result says "
                  "where the text is now. Give it whenever you can.")
# How numbers move, said the same way in every numbered tool.
NUMBERS = (" The result says how the numbers of later paragraphs changed. With changes being "
           "recorded, deleted paragraphs stay in the numbering (as read_document shows them) "
           "until the change is accepted.")
NUMBERED = ("insert_paragraphs", "replace_paragraphs", "delete_paragraphs",
            "set_paragraph_style", "insert_table")
STALE = ("The document changed since you read it; read it again (read_document or "
         "search_document) before editing by paragraph number, or give expect. "
         "Nothing was changed.")

TOOLS = (
    ("get_document_info", False,
     "Title, paragraph/word/page counts, the outline of headings with their paragraph "
     "numbers, whether text is selected and whether changes are being recorded.",
     _schema({})),
    ("read_document", False,
     "Read numbered paragraphs start..end in a compact form. " + docview.LEGEND +
     " Long ranges are cut to a size limit with a note saying where to continue.",
     _schema({"start": PARA_START, "end": PARA_END})),
    ("search_document", False,
     "Find text in the document; returns each match's paragraph number and context.",
     _schema({"query": _d(_STR, "Text to find, or an ICU regular expression if regex."),
              "regex": _d(_BOOL, "Treat query as a regular expression (default false)."),
              "match_case": _d(_BOOL, "Match upper/lower case exactly (default false).")},
             ["query"])),
    ("get_selection", False,
     "The text the user has selected and its paragraph numbers (offsets count characters).",
     _schema({})),
    ("replace_text", True,
     "Replace text everywhere or at its first occurrence. Only the words that differ are "
     "replaced, so unchanged words keep their formatting; new words take their neighbours'. "
     "Returns how many were replaced.",
     _schema({"search": _d(_STR, "Exact text to replace (or a regular expression if regex)."),
              "replacement": _d(_STR, "New text (plain; with regex, $1 inserts a group)."),
              "all": _d(_BOOL, "Replace every occurrence (default false: only the first)."),
              "match_case": _d(_BOOL, "Match case exactly (default true)."),
              "regex": _d(_BOOL, "Treat search as a regular expression (default false).")},
             ["search", "replacement"])),
    ("insert_paragraphs", True,
     "Insert new paragraphs written in markdown after a paragraph." + NUMBERS,
     _schema({"markdown": MARKDOWN,
              "after_paragraph": _d(_INT, "Insert after this paragraph number; 0 inserts at "
                                          "the start of the document, -1 at the end.")},
             ["markdown", "after_paragraph"])),
    ("replace_paragraphs", True,
     "Replace paragraphs start..end (whole paragraphs or tables) with new markdown content. "
     "One paragraph replaced by plain text of the same kind changes only the words that "
     "differ, keeping the formatting of the rest." + NUMBERS,
     _schema({"start": PARA_START, "end": PARA_END, "markdown": MARKDOWN, "expect": EXPECT},
             ["start", "end", "markdown"])),
    ("delete_paragraphs", True,
     "Delete paragraphs start..end (a table counts as one paragraph)." + NUMBERS,
     _schema({"start": PARA_START, "end": PARA_END, "expect": EXPECT}, ["start", "end"])),
    ("replace_selection", True,
     "Replace the text the user selected with markdown content. With plain text only the "
     "words that differ are replaced, so the rest keeps its formatting.",
     _schema({"markdown": MARKDOWN}, ["markdown"])),
    ("set_paragraph_style", True,
     "Apply a paragraph style of the document (e.g. \"Heading 1\", \"Heading 2\", "
     "\"Title\", \"Text body\", \"Quotations\") to paragraphs start..end.",
     _schema({"start": PARA_START, "end": PARA_END,
              "style": _d(_STR, "Paragraph style name."), "expect": EXPECT},
             ["start", "end", "style"])),
    ("format_text", True,
     "Set character formatting on text found in the document (first occurrence, or all). "
     "Give only the attributes to change; false removes bold/italic/underline/strikethrough.",
     _schema({"search": _d(_STR, "Exact text to format."),
              "bold": _BOOL, "italic": _BOOL, "underline": _BOOL, "strikethrough": _BOOL,
              "color": _d(_STR, "Font colour: \"#RRGGBB\" or a name (red, blue, ...)."),
              "highlight": _d(_STR, "Background colour: \"#RRGGBB\", a name (yellow, ...) "
                                    "or \"none\" to remove it."),
              "all": _d(_BOOL, "Format every occurrence (default false: only the first).")},
             ["search"])),
    ("add_comment", True,
     "Add a Writer comment (shown in the margin) anchored on the first occurrence of a text.",
     _schema({"search": _d(_STR, "Exact text the comment refers to."),
              "comment": _d(_STR, "The comment.")}, ["search", "comment"])),
    ("insert_table", True,
     "Insert a real Writer table after a paragraph; it counts as one paragraph. Cells may "
     "use inline markdown." + NUMBERS,
     _schema({"after_paragraph": _d(_INT, "Insert after this paragraph; 0 = start, -1 = end."),
              "rows": {"type": "array", "description": "Rows, each a list of cell strings.",
                       "items": {"type": "array", "items": _STR}},
              "header": _d(_BOOL, "The first row is a header row (default true).")},
             ["after_paragraph", "rows"])),
)

_FUNCTIONS = {
    "get_document_info": structure.get_document_info,
    "read_document": structure.read_document,
    "search_document": ops.search_document,
    "get_selection": structure.get_selection,
    "replace_text": ops.replace_text,
    "insert_paragraphs": structure.insert_paragraphs,
    "replace_paragraphs": structure.replace_paragraphs,
    "delete_paragraphs": structure.delete_paragraphs,
    "replace_selection": structure.replace_selection,
    "set_paragraph_style": structure.set_paragraph_style,
    "format_text": ops.format_text,
    "add_comment": ops.add_comment,
    "insert_table": structure.insert_table,
}


# The reading tools whose answers are sized to the room left in the context window.
_SIZED = ("read_document", "search_document")
# The tools that read the numbered map, and whether they need its attributes
# (headings, lists) or only the numbering. The map is built before the call
# in main-thread slices of about SLICE seconds (see WriterToolbox._with_map):
# short enough for Writer to stay responsive, long enough that the wait for
# the next slice (a main-thread round trip, milliseconds to tens of them on
# a busy machine) is paid rarely; 300 pages take one or two.
# Which map a tool reads: with attributes (True), numbering only (False), or
# as a function of the document, None for none (get_document_info walks only
# when the outline cannot be found by style: writer.outline; a search on a
# changed plain body reads only the text before its matches: read.places).
_MAP_TOOLS = {"get_document_info": outline.needs_walk, "read_document": True, "get_selection": False,
              "search_document": read.search_map, "add_comment": False, "replace_selection": False}
SLICE = 0.1
# A document edited between every slice stops being waited for after this
# many; the tool then builds what it needs in one go.
MAX_SLICES = 200


def _safely(fn, *args):
    """Recording a change never costs the edit: a record that fails is left out."""
    try:
        fn(*args)
    except Exception:
        log.exception("could not record a change")


def _is_disposed(exc):
    return type(exc).__name__ == "DisposedException" or "disposed" in str(exc).lower()


class WriterToolbox:
    """The tools, turn frame and per-turn context of one Writer document."""

    def __init__(self, ctx: Any, doc: Any, settings: Any,
                 runner: Callable[[Callable[[], Any]], Any]):
        self.ctx = ctx
        self.doc = doc
        self.settings = settings
        self._runner = runner
        self.slice = SLICE
        # Edit directly, Suggest (tracked changes) or Comment only: the whole turn.
        self.mode = cl.apply_mode(settings)
        self._turn = Turn(ctx, doc, self.mode == cl.TRACKED)
        # The turn's change records (writer.ledger); made at its first edit.
        self.ledger = None
        self.turn_log = None
        self._walker = None
        # Off only for the bench's floor (bench/bench_review.py): edits leave no records.
        self.record_changes = True
        # The change count the model's view matches (its last read, or the
        # toolbox's own last edit), and whether someone else changed it since.
        self._known = guard.Known()
        self._moved = False
        self.registry = ToolRegistry(invoke=self._invoke)
        for name, edits, description, schema in TOOLS:
            self.registry.register(name, description, schema, self._bind(name), edits=edits,
                                   sized=name in _SIZED)

    def _later(self, fn):
        from marginalia.office import mainthread
        mainthread.post(self.ctx, fn)

    def _bind(self, name):
        # A partial keeps the tool function's real parameters visible, so the
        # registry can check the model's arguments against them before the call.
        tool = functools.partial(_FUNCTIONS[name], self.doc)
        tool.__name__ = name
        return tool

    # -- turn frame -------------------------------------------------------------
    def begin_turn(self, title: str) -> None:
        """Start a turn: its first edit opens an undo step named after ``title``."""
        self._runner(lambda: self._begin(title))

    def _begin(self, title):
        self._turn.begin(title)
        self._moved = False
        self.turn_log = None
        self._walker = ledger.Walker(self.doc)
        try:
            # Also starts the counter's listener for a document seen the first time.
            self._known.mark(self.doc)
        except Exception:
            # A closed document: each call will say so (_check_open).
            self._known.forget()

    def end_turn(self) -> None:
        """Close the turn's undo step and restore recording; never raises."""
        try:
            self._runner(self._end)
        except Exception as exc:
            if not _is_disposed(exc):
                log.exception("end_turn failed")

    def run_edit(self, name: str, fn: Callable[[], Any]) -> Any:
        """Run ``fn()`` on the main thread as an edit of the turn (a quick action's output):
        the same undo step, recording and author as the edit tools."""
        from marginalia.chat.tools import Tool
        return self._invoke(Tool(name, "", {}, fn, edits=True), {})

    def _end(self):
        self._turn.end()
        log_ = self.turn_log
        if log_ is None:
            return
        log_.steps = self._turn.steps
        log_.start_count = self._turn.start_count
        log_.end_count = self._turn.top
        if log_.steps and self.record_changes:
            log_.end_fingerprint = ledger.fingerprint(self.doc, self._known.text_now(self.doc))

    def changes(self) -> list:
        """The turn's change records (document.change_log.Change), after end_turn."""
        return list(self.turn_log.changes) if self.turn_log is not None else []

    # -- tool calls -------------------------------------------------------------
    def _invoke(self, tool, kwargs):
        props = _MAP_TOOLS.get(tool.name)
        if props is None:
            return self._runner(lambda: self._run(tool, kwargs))
        return self._with_map(props, lambda: self._run(tool, kwargs))

    def _with_map(self, props, fn):
        """fn() on the main thread once the reading map is built.

        The map is built in short main-thread slices, this worker waiting
        between them, so Writer repaints and takes the user's keys; an edit
        between two slices restarts the build on the new text (read.prepare).
        The slice that finishes runs fn right away: a map that is cached or
        quick to build costs no extra round trip.
        """
        def step():
            if not self._slice(props):
                return False, None
            return True, fn()
        for _i in range(MAX_SLICES):
            done, value = self._runner(step)
            if done:
                return value
        return self._runner(fn)

    def _slice(self, props):
        self._check_open()
        try:
            if callable(props):
                props = props(self.doc)
                if props is None:
                    return True         # the tool needs no map
            return read.prepare(self.doc, props, self.slice)
        except Exception as exc:
            if _is_disposed(exc):
                raise Cancelled("The document was closed.")
            raise

    def _run(self, tool, kwargs):
        """One tool call on the main thread."""
        try:
            self._check_open()
            if not tool.edits:
                try:
                    return keepout.noted(self.doc, tool.name, tool.fn(**kwargs))
                finally:
                    # The model has seen the document as it is now.
                    self._known.seen(self.doc, self._later)
                    self._moved = False
            if self._known.changed(self.doc):
                self._moved = True
            if self.doc.isReadonly():
                raise ToolError("The document is read-only; nothing was changed.")
            if self._moved and tool.name in NUMBERED and kwargs.get("expect") is None:
                raise ToolError(STALE)
            if self._moved and self._walker is not None:
                # Someone else may have changed it: the walk is checked before it is used.
                self._walker.suspect = True
            record = self._record_for(tool.name, kwargs)
            if self.mode == cl.COMMENTS and tool.name != "add_comment":
                return self._edit(lambda: proposals.propose(self.doc, self.ledger,
                                                            self.turn_log, record))
            self._turn.before_edit()

            def edit():
                if self.record_changes:
                    _safely(record.before, self._turn.recording())
                with self._turn.author(), record.walker.lending(tool.name, kwargs):
                    out = tool.fn(**kwargs)
                if self.record_changes:
                    _safely(record.after, self.ledger, self.turn_log, self.mode, out)
                return out
            return self._edit(edit)
        except (ToolError, Cancelled, TypeError):
            raise
        except Exception as exc:
            if _is_disposed(exc):
                raise Cancelled("The document was closed.")
            raise

    def _record_for(self, name, kwargs):
        """The call's record, after the keep-out check (which refuses before any change)."""
        if self.turn_log is None:
            self.ledger = ledger.ledger_for(self.doc)
            self.turn_log = self.ledger.new_turn(self.mode)
            if self.record_changes:
                self.turn_log.fingerprint = ledger.fingerprint(
                    self.doc, self._known.text_now(self.doc))
        record = ledger.CallRecord(self.doc, self._walker or ledger.Walker(self.doc), name,
                                   kwargs)
        found = keepout.marks(self.doc)
        if found:
            proposals.check_keep_out(self.doc, record, found)
        return record

    def _edit(self, fn):
        """Run ``fn`` (it changes the document) inside the call's undo context."""
        self._turn.open_edit()
        self.doc.lockControllers()
        try:
            return fn()
        finally:
            read.invalidate()
            self.doc.unlockControllers()
            self._turn.close_edit()
            self._known.seen(self.doc, self._later)

    def _check_open(self):
        # A closed Writer model answers getText() with a DisposedException or a
        # bare RuntimeException (7.4: "at unotxdoc.cxx"); either way it is gone.
        try:
            self.doc.getText()
        except Exception:
            raise Cancelled("The document was closed.")

    # -- per-turn context ---------------------------------------------------------
    def context(self) -> str:
        """A short description of the document for the model's system message."""
        return self._with_map(True, self._context)

    def _context(self):
        self._check_open()
        bmap = read.body_map(self.doc)
        heads = bmap.headings()
        sel = read.selection(self.doc, bmap)
        stats = read.statistics(self.doc)
        lines = ["Document: %s" % read.title(self.doc),
                 "Size: %d paragraphs, %s words, %s pages." % (
                     len(bmap), stats["words"], stats["pages"])]
        if self.doc.isReadonly():
            lines.append("The document is read-only.")
        if self.mode == cl.COMMENTS:
            lines.append(proposals.MODE_NOTE)
        elif self.doc.getPropertyValue("RecordChanges") or self._turn.track_changes:
            lines.append("Edits are recorded as tracked changes.")
        kept = keepout.note(self.doc) if keepout.marks(self.doc) else ""
        if kept:
            lines.append(kept)
        outline = docview.outline(heads, limit=30)
        if outline:
            lines.append("Outline (paragraph: heading):")
            lines.extend("  " + line for line in outline)
        if sel.start is None:
            lines.append("The cursor is not in the main text.")
        elif sel.empty:
            para = bmap.record(sel.start)
            lines.append("Nothing is selected. The cursor is in paragraph %d:" % sel.start)
            lines.append(docview.short(docview.render_para(para), 600))
        else:
            lines.append("Selected (paragraphs %d-%d): \u201c%s\u201d" % (
                sel.start, sel.end, docview.short(sel.text, 1500)))
        lines.append("Use read_document and search_document to see more; paragraph numbers "
                     "refer to read_document's numbering.")
        return "\n".join(lines)

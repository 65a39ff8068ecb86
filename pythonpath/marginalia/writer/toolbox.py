"""WriterToolbox: the document tools of one Writer document, for the turn loop.

Threading: every public method may be called from a worker thread; each routes its work
through ``runner(fn)``, which runs fn on LibreOffice's main thread and returns its result
(office.mainthread.run_sync in the extension).

Safety: edit tools run inside the turn's undo step, with the controllers locked, and (when
recording) under the AI author name (writer.turn). Tools validate before changing anything
(writer.consent among them), so a ToolError always means the document is unchanged.

Someone else's changes: the document's change counter (writer.changes) is read before and
after every call, so a change between two calls of a turn is not the toolbox's own: the user
typed (or undid) while the model thought. From then until the model reads again, the edits
that address paragraphs by number are refused unless ``expect`` ties them to the text they
mean, since the numbers the model holds may point elsewhere now; the tools that find their
text (replace_text, format_text, add_comment) go on working.
"""

import inspect
import logging
from typing import Any, Callable, Optional

from marginalia.document import change_log as cl
from marginalia.document import tool_lines, tool_specs
from marginalia.document.seen import Seen
# The tool modules bind their functions to the declarations as they are imported.
from marginalia.writer import block_tools, revise, text_tools  # noqa: F401
from marginalia.writer import (binding, bodymap, consent, context, edit_lines, guard, keepout,
                               ledger, mark_keeper, plan, proposals, read)
from marginalia.errors import Cancelled, ToolError
from marginalia.writer.turn import AI_AUTHOR, Turn
from marginalia.chat.tools import ToolRegistry
from marginalia.mcp import questions
from marginalia import policy

log = logging.getLogger("marginalia.writer")

binding.check()

STALE = ("The document changed since you read it; read it again (read_document or "
         "search_document) before editing by paragraph number, or give expect. "
         "Nothing was changed.")
# A call that failed inside the office: one plain sentence, the trace in the log.
FAULT = "Writer could not %s here; nothing was changed."
READ_ONLY = "The document is read-only; nothing was changed."
BARE = ("LibreOffice cannot work on this document safely: its body is only a table, with no "
        "paragraph after it. Click at the end of the table's last cell, press Alt+Enter to "
        "add one, and ask again.")
PARTLY = ("Writer could not %s here, and part of it may have been made; Undo takes back "
          "this turn's edits.")

# The reading map (see WriterToolbox._with_map) is built before a call in main-thread slices
# of about SLICE seconds: short enough for Writer to stay responsive, long enough that the
# wait for the next slice (a main-thread round trip, milliseconds to tens of them on a busy
# machine) is paid rarely; 300 pages take one or two.
SLICE = 0.1
# A document edited between every slice stops being waited for after this
# many; the tool then builds what it needs in one go.
MAX_SLICES = 200


# A tool function's parameters no model gives: the document, the call's plan, the flag a
# protocol's form sets (Lean.defaults).
_INTERNAL = ("doc", "plan", "edit_block")


def _action_spec(name):
    """A quick action's output as an edit of the turn: recorded as a replacement; it has
    its own output mode, so Comment only does not turn it into a proposal."""
    return tool_specs.ToolSpec(name, "", {}, tool_specs.Words("", "", "make that change"),
                               target=tool_specs.SELECTION, kind=tool_specs.REPLACE,
                               proposes=False)


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
                 runner: Callable[[Callable[[], Any]], Any], rules: Any = None,
                 author: str = AI_AUTHOR, seen: Optional[Seen] = None,
                 post: Callable[[Callable[[], None]], None] = lambda fn: None):
        self.ctx = ctx
        self.doc = doc
        self.settings = settings
        # The administrator's policy: selection only leaves the selection's tools.
        self.rules = rules if rules is not None else policy.Policy()
        self.document_language = None      # a tag, once context() has read it
        # ``runner(fn)`` runs fn on the main thread and waits; ``post(fn)`` runs it there
        # later (office.mainthread in the extension; without it, guard.Known re-reads).
        self._runner, self._later = runner, post
        self.slice = SLICE
        # Edit directly, Suggest (tracked changes) or Comment only: the whole turn.
        self.mode = cl.apply_mode(settings)
        # ``author``: an outside agent's name (office.mcp_turns) in place of the AI's.
        self._turn = Turn(ctx, doc, self.mode == cl.TRACKED, author)
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
        # What the model was shown (the rewrite protocol): the chat's, kept by its session.
        self.seen = seen if seen is not None else Seen()
        # An agent's turn says what the user could be asked, and runs what they allowed.
        self.asking, self.allowed, self.asked = author != AI_AUTHOR, questions.NOTHING, None
        # Selection-only leaves the selection's tools, which only the tools protocol has.
        self.protocol = tool_specs.TOOLS if self.rules.selection_only else (
            getattr(settings, "edit_protocol", "") or tool_specs.REWRITE)
        if self.protocol not in (tool_specs.TOOLS, tool_specs.REWRITE):
            self.protocol = tool_specs.REWRITE
        self.registry = ToolRegistry(invoke=self._invoke)
        for spec in tool_specs.offered(self.protocol):
            if not policy.offers(self.rules, spec.name):
                continue
            description, parameters = spec.offered(self.protocol)
            self.registry.register(spec.name, description, parameters, self._bind(spec),
                                   edits=spec.edits, sized=spec.sized, action=spec.words.action)
        # Written as text, not offered as a function (ToolSpec.written); and the document
        # tools, which a turn that shows the whole document does not offer (context).
        self.written = tuple(s.name for s in tool_specs.offered(self.protocol) if s.written)
        self.documents = tuple(s.name for s in tool_specs.offered(self.protocol))
        self.registry.hide(self.written)

    @property
    def turn(self) -> Turn:
        return self._turn

    def _bind(self, spec):
        """The registered callable: the bound function with the document given and the
        model's parameters in its signature (the registry checks a call's arguments against
        it first); an edit's plan is passed by _run, not the model. The rewrite protocol
        reads lines with their marks, which become what the model has seen."""
        if spec.target == tool_specs.LINES:
            def edit(text):
                return edit_lines.LinesEdit(self.doc, self.seen, self.mode,
                                            self._step).run(text)
            return edit
        fn = binding.function(spec.name)
        rewrite = self.protocol == tool_specs.REWRITE
        if rewrite and spec.name == "read_document":
            fn = self._read_lines
        elif rewrite and spec.name == "search_document":
            fn = self._found_lines

        def tool(**kwargs):
            return fn(self.doc, **kwargs)
        signature = inspect.signature(binding.function(spec.name))
        tool.__signature__ = signature.replace(parameters=[
            p for name, p in signature.parameters.items() if name not in _INTERNAL])
        tool.__name__ = spec.name
        return tool

    def _read_lines(self, doc, start=1, end=-1, budget=block_tools.READ_BUDGET):
        return edit_lines.read_lines(doc, self.seen, start, end, budget)

    def _found_lines(self, doc, budget=0, **kwargs):
        found = binding.function("search_document")(doc, budget=budget, **kwargs)
        return edit_lines.found_lines(doc, self.seen, found, budget)

    def _step(self, spec, kwargs, plan_only):
        """One block tool's call of an edit (edit_lines.LinesEdit): only planned and checked,
        or made. Its lines were checked against what the model saw, so no expect is due."""
        if plan_only:
            return self._plan(spec, dict(kwargs))
        return self._edit_call(spec, dict(kwargs), checked=True)

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
            if not bodymap.has_paragraph(self.doc.getText()):
                raise ValueError("no paragraph")       # each call will say so (_check_open)
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

    def run_edit(self, name: str, fn: Callable[[], Any], target: Any = None) -> Any:
        """Run ``fn()`` on the main thread as an edit of the turn (a quick action's output):
        the same undo step, recording and author as the edit tools; ``target``, the range
        it changes, is checked against kept-out passages and others' tracked changes.
        Never looked up by name: a prompt may be called like a tool."""
        from marginalia.chat.tools import Tool
        tool = Tool(name, "", {}, fn, edits=True)
        return self._runner(lambda: self._run(tool, {}, None, target))

    def _end(self):
        self._turn.end()
        log_ = self.turn_log
        if log_ is None:
            return
        log_.steps = self._turn.steps
        log_.title = self._turn.title
        log_.depth = self._turn.depth
        log_.start_count = self._turn.start_count
        log_.end_count = self._turn.top
        if log_.steps and self.record_changes:
            log_.end_fingerprint = ledger.fingerprint(self.doc, self._known.text_now(self.doc))

    def changes(self) -> list:
        """The turn's change records (document.change_log.Change), after end_turn."""
        return list(self.turn_log.changes) if self.turn_log is not None else []

    # -- tool calls -------------------------------------------------------------
    def _invoke(self, tool, kwargs):
        spec = tool_specs.spec(tool.name)
        if spec is None and not tool.edits:
            # Not a document tool (the chat's sources: office.source_turn): plain data,
            # run on this worker; the main thread is not needed, nor the document's frame.
            return tool.fn(**kwargs)
        if spec is None:        # run_edit's quick-action output: no declaration, no map
            return self._runner(lambda: self._run(tool, kwargs))
        # What the protocol's form leaves out (Lean.defaults), before the plan sees them.
        kwargs = dict(spec.defaults(self.protocol), **kwargs)
        refused = spec.refusal(self.protocol, kwargs)
        if refused:
            raise ToolError(refused, tool_lines.incomplete_request())
        if spec.reads == tool_specs.NO_MAP:
            return self._runner(lambda: self._run(tool, kwargs, spec))
        return self._with_map(spec, lambda: self._run(tool, kwargs, spec))

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

    def _slice(self, need):
        self._check_open()
        try:
            if isinstance(need, tool_specs.ToolSpec):
                need = binding.map_need(need, self.doc)
                if need is None:
                    return True         # the tool needs no map
            return read.prepare(self.doc, need, self.slice)
        except Exception as exc:
            if _is_disposed(exc):
                raise Cancelled("The document was closed.")
            raise

    def _run(self, tool, kwargs, spec=None, target=None):
        """One tool call on the main thread."""
        try:
            self._check_open()
            if not tool.edits:
                try:
                    out = tool.fn(**kwargs)
                    return keepout.noted(self.doc, out) if spec.names_kept_out else out
                finally:
                    # The model has seen the document as it is now.
                    self._known.seen(self.doc, self._later)
                    self._moved = False
            if self._known.changed(self.doc):
                self._moved = True
            if self.doc.isReadonly():
                raise ToolError(READ_ONLY, tool_lines.read_only())
            if spec is None:            # a quick action's output (run_edit)
                return self._edit_call(_action_spec(tool.name), kwargs, tool.fn, target)
            if spec.target == tool_specs.LINES:
                return tool.fn(**kwargs)        # its steps are edit calls (_step)
            return self._edit_call(spec, kwargs)
        except (ToolError, Cancelled):
            raise
        except Exception as exc:
            if _is_disposed(exc):
                raise Cancelled("The document was closed.")
            log.exception("%s failed inside the office", tool.name)
            action = spec.words.action if spec is not None else "make that change"
            raise ToolError(FAULT % action, tool_lines.writer_refused())

    def _edit_call(self, spec, kwargs, action=None, target=None, checked=False):
        """An edit tool's call: its plan, the keep-out check, then the edit or its proposal.

        ``action``: a quick action's output, which finds its own target (no plan to find).
        ``checked``: a step of an edit whose place was checked against what the model saw.
        """
        if self._moved and spec.numbered and kwargs.get("expect") is None and not checked:
            raise ToolError(STALE, tool_lines.changed(spec.words.action))
        if self._moved and self._walker is not None:
            # Someone else may have changed it: the walk is checked before it is used.
            self._walker.suspect = True
        if action is None and spec.target == tool_specs.FOUND:
            kwargs = plan.without_markers(self.doc, kwargs)
        call = self._plan(spec, kwargs, find=action is None, target=target)
        if self.mode == cl.COMMENTS and spec.proposes:
            return self._edit(lambda: proposals.propose(self.doc, self.ledger, self.turn_log,
                                                        call), spec.words.action)
        self._turn.before_edit()
        fn = binding.function(spec.name) if action is None else None
        record = ledger.CallRecord(self.doc, self._walker, call)

        def edit():
            record.kept = self._keep(call)
            if self.record_changes:
                _safely(record.before, self._turn.recording())
            with self._turn.author(), self._walker.lending(spec, kwargs):
                out = action() if fn is None else fn(self.doc, plan=call, **kwargs)
            if self.record_changes:
                _safely(record.after, self.ledger, self.turn_log, self.mode, out)
            return out
        return self._edit(edit, spec.words.action)

    def _keep(self, call):
        """Note the marks of the paragraphs the call touches (writer.mark_keeper) and add
        the undo action that puts them back: first in the call's context, so it runs last
        on Undo. Only where the plan knows the place; a replace-all is left as it is."""
        if call.anchor is None or call.every:
            return []
        try:
            kept = mark_keeper.note(self.doc, mark_keeper.starts_of(self.doc, call.anchor, (
                call.spec.target in (tool_specs.AFTER, tool_specs.BLOCKS))))
            kept += mark_keeper.long_bookmarks(self.doc, call.anchor)
        except Exception:
            log.exception("could not note the marks %s touches", call.spec.name)
            return []
        if kept:
            self.doc.getUndoManager().addUndoAction(mark_keeper.UndoRepair(self.doc, kept))
            self._turn.added_action = True
        return kept

    def _plan(self, spec, kwargs, find=True, target=None):
        """The call's plan, after the checks that refuse before any change."""
        if self.turn_log is None:
            self.ledger = ledger.ledger_for(self.doc)
            self.turn_log = self.ledger.new_turn(self.mode)
            if self.record_changes:
                self.turn_log.fingerprint = ledger.fingerprint(
                    self.doc, self._known.text_now(self.doc))
        if self._walker is None:
            self._walker = ledger.Walker(self.doc)
        call = plan.make(self.doc, self._walker, spec, kwargs) if find else \
            plan.Plan(spec, dict(kwargs), anchor=target)
        consent.check(self, call)
        own = set()
        for change in self.turn_log.changes:
            own.update(change.handle.get("redlines") or ())
        plan.check_tracked(self.doc, call, own)
        return call

    def _edit(self, fn, action):
        """Run ``fn`` (it changes the document) inside the call's undo context.

        A failure inside the office (not a refusal) takes back what the call did when
        its undo step is its own; otherwise the sentence says part may be made.
        """
        self._turn.open_edit()
        self.doc.lockControllers()
        failed = None
        try:
            return fn()
        except Cancelled:
            raise
        except Exception as exc:
            failed = exc
            raise
        finally:
            read.invalidate()
            self.doc.unlockControllers()
            self._turn.close_edit()
            self._known.seen(self.doc, self._later)
            if failed is not None and not _is_disposed(failed):
                if not isinstance(failed, ToolError):
                    log.error("an edit failed inside the office", exc_info=failed)
                # A refusal changed nothing, unless a tool refused halfway: then too the
                # call's own step is taken back, or the model hears that part is made.
                if not self._turn.take_back_edit():
                    raise ToolError(PARTLY % action, tool_lines.partly_made())

    def _check_open(self):
        # A closed Writer model answers getText() with a DisposedException or a
        # bare RuntimeException (7.4: "at unotxdoc.cxx"); either way it is gone.
        try:
            body = self.doc.getText()
        except Exception:
            raise Cancelled("The document was closed.")
        if not bodymap.has_paragraph(body):
            raise ToolError(BARE, tool_lines.table_only())   # bodymap.has_paragraph says why

    # -- per-turn context ---------------------------------------------------------
    def context(self, inline: int = 0) -> str:
        """The tools protocol's description of the document for the system message; with
        ``inline`` (characters) a document that short is shown whole (writer.context)."""
        return self._with_map(True, lambda: self._described(
            lambda: context.described(self, inline)))

    def attachments(self, inline: int = 0, request: str = "") -> "context.Attachments":
        """The rewrite protocol's view of the document and the turn's note, for the
        user's message (writer.context); a document shown whole is what the model saw."""
        return self._with_map(True, lambda: self._described(
            lambda: context.attached(self, inline, request)))

    def for_turn(self, inline: int, sources: Optional[str], request: str = "") -> tuple:
        """(context, attachments) for loop.run_turn as the protocol wants them: the tools
        protocol's context for the system message, or the rewrite protocol's attachments
        with the sources' part (the document and sources go after what is fixed)."""
        if self.protocol == tool_specs.REWRITE:
            return None, self.attachments(inline, request)._replace(sources=sources or "")
        return self.context(inline=inline), None

    def _described(self, fn):
        self._check_open()
        # Kept for the answer-language setting "the document's" (office.chat_session).
        self.document_language = read.language(self.doc)
        return fn()

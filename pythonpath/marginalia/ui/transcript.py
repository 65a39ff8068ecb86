"""What the chat panel shows, as text appended at the end of two panes (pure).

The panel has a conversation pane and a separate thinking pane. This module
turns the session's log entries (``("user", text)`` or ``("event", Event)``)
into the text to append to each pane; the UNO view only inserts that text at
the end of its controls. Appending keeps the cost of an update proportional to
the new text, never to the transcript's length. The status line is ui.status's.
"""

from dataclasses import dataclass
from typing import Iterable, List, Tuple

from marginalia.document.docview import short
from marginalia.events import REASONING, Event
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr, trn
from marginalia.ui import citation_lines
from marginalia.ui.answer_format import DEFAULT_COLUMNS, LineFormatter, combine
from marginalia.ui.softwrap import (HARD_WRAP, ISOLATE, SOFT_BREAK,  # noqa: F401 (re-exported)
                                    SOFT_WRAP, SoftWrap, trim_point)
from marginalia.ui.tool_words import tool_line

# The pane's words are the user's: translated as they are drawn (a replay redraws them).
YOU = N_("You: %s")
ASSISTANT = N_("Assistant:")
STOPPED_MARK = "\u25a0 "                  # where the user stopped a turn, before STOPPED
STOPPED = N_("Stopped")
# Under an answer the connection cut (finish_reason "cut"), after the error's sentence.
# Lies on the conversation while it is empty (office.panel_view's chat_hint): a blank
# pane said nothing of what the chat is for.
EMPTY_CHAT = N_("Ask about your document, or ask for a change (\u201cShorten the second "
                "paragraph\u201d): Marginalia makes it in the document, and one Undo takes it "
                "back.")
CUT = N_("The answer above is incomplete. Retry asks again.")
THOUGHT_FOR = N_("Thought for %d s")       # the folded toggle, its arrow after (FOLDED)
THOUGHT_SHORT = N_("%d s")                 # the same on a narrow toggle (its name stays whole)
FOLDED = " \u25b8"
TOOL_MARK = "  \u25b8 "        # small right-pointing triangle before a tool line
ERROR_MARK = "\u26a0 "         # warning sign before an error sentence
NOTICE_MARK = "\u2139 "       # information sign before a notice (not an error)
TEST_COMMAND = "/test"
# Turns on the debug log until LibreOffice closes (marginalia.debuglog).
DEBUG_LOG_COMMAND = "/debuglog"
TEST_TITLE = N_("Test connection:")
THINKING_HEADER_LIMIT = 60


@dataclass
class Appends:
    """What to change at the end of each pane.

    ``retract`` is text to take off the end of the conversation pane before
    ``chat`` is added (a formatted line drawn again, or an answer that turned
    out to be R1 reasoning). ``began`` names what the turn began in this batch
    ("thinking", "answer"), so the panel can time the thinking.
    """

    chat: str = ""
    thinking: str = ""
    retract: str = ""
    began: Tuple[str, ...] = ()

    def extend(self, other: "Appends") -> "Appends":
        self.retract, self.chat = combine(self.retract, self.chat, other.retract, other.chat)
        self.thinking += other.thinking
        self.began += other.began
        return self


def replay_start(entries: List[Tuple[str, object]], keep: int) -> int:
    """Where to start replaying a long log so about its last ``keep`` characters show.

    A panel opened on a long kept chat shows only its latest turns: setting an
    edit control's text costs about 7 ms per thousand characters on
    LibreOffice 7.4, so a whole 500-message chat would hold the window for a
    second. The start is a user message, so each shown turn is whole; 0 shows
    everything.
    """
    total = 0
    for index in range(len(entries) - 1, -1, -1):
        kind, value = entries[index]
        if kind == "user":
            total += len(str(value))
            if total >= keep:
                return index
        else:
            total += len(getattr(value, "text", None) or "")
    return 0


def scope_line(selected: str) -> str:
    """What the model will see besides the tools: "Selection: 12 words" or the document."""
    words = len(selected.split())
    if not words:
        return tr("Whole document")
    return trn("Selection: %s word", "Selection: %s words", words) % formats.number(words)


def turn_failed(entries: List[Tuple[str, object]]) -> bool:
    """Whether the last turn in a log ended in an error or was stopped."""
    for kind, value in reversed(entries):
        if kind == "user":
            return False
        if value.kind == "error" or (value.kind == "done" and value.finish_reason == "cancelled"):
            return True
    return False


class TranscriptRenderer:
    """Keeps just enough state to know where the next piece of text belongs.

    Blocks in the conversation pane: ``You: ...`` for a user turn, then
    ``Assistant:`` on its own line with the answer formatted below it
    (ui.answer_format), tool activity as indented short lines in the user's
    words (ui.tool_words), errors as one sentence after a warning sign, and a
    mark where the user stopped a turn. A turn's thinking goes to the
    thinking pane under a header naming the question it belongs to.
    """

    def __init__(self, isolate: bool = False):
        self.columns = DEFAULT_COLUMNS    # characters a line of the conversation pane holds
        # Each line runs its own way (ui.softwrap's ISOLATE), and so does the user's message
        # after "You:": the panel's panes; the tests of layout read the text without.
        self.isolate = isolate
        self.reset()

    def set_columns(self, columns: int) -> None:
        """The pane's width in characters (office.panel_view); the next answer fits it.

        Text already shown keeps its layout: ``stale`` says the panel should show the
        chat again (replay it after reset) once the width holds and no turn runs.
        """
        if columns != self.columns and not self._empty:
            self.stale = True
        self.columns = columns

    def reset(self) -> None:
        self.stale = False          # text shown was laid out at another width
        self._block = None          # None, "user", "answer", "tool", "error", "notice"
        self._at_line_start = True
        self._empty = True
        self._question = ""
        self._assistant_started = False
        self._thinking_header_done = False
        self._thinking_interrupted = False
        self._thinking_empty = True
        self._thinking_at_line_start = True
        self._wrap = SoftWrap(isolate=self.isolate)
        self._think_wrap = SoftWrap(isolate=self.isolate)
        self._answer = None         # the answer's LineFormatter while its text streams
        self._run = None            # chat shown since this response's text began ([str])
        self._before_run = None     # the state to go back to if that text was reasoning

    def _finished(self, out: Appends) -> Appends:
        out.thinking = self._think_wrap.feed(out.thinking)
        return out

    # -- entries -------------------------------------------------------------
    def render(self, entries: Iterable[Tuple[str, object]]) -> Appends:
        """Appends for a batch of log entries, in order."""
        out = Appends()
        for entry in entries:
            kind, value = entry
            if kind == "user":
                out.extend(self.user(value))
            else:
                out.extend(self.event(value))
        return out

    def user(self, text: str) -> Appends:
        out = Appends()
        self._close_answer(out)
        self._question = text
        self._assistant_started = False
        self._thinking_header_done = False
        # The message apart from its label: "Tighten the second paragraph" must not take
        # the Arabic label "أنت:" into its line's order, nor an Arabic message an English one.
        message = (ISOLATE if self.isolate else "") + text.rstrip()
        self._chat(out, self._start_block("user", blank_line=True) + tr(YOU) % message + "\n")
        return self._finished(out)

    def event(self, ev: Event) -> Appends:
        handler = getattr(self, "_on_" + ev.kind, None)
        out = handler(ev) if handler else Appends()
        if out.chat:
            # Thinking that resumes after answer text or a tool starts a new paragraph.
            self._thinking_interrupted = True
        return self._finished(out)

    # -- the conversation pane -----------------------------------------------
    def _chat(self, out: Appends, text: str) -> None:
        """Plain chat text (labels, tool lines, errors): ends any answer block first."""
        self._close_answer(out)
        self._run = None
        out.chat += self._wrap.feed(text)
        if text:        # nothing added leaves the pane's last line as it was
            self._at_line_start = text.endswith("\n")

    def _close_answer(self, out: Appends) -> None:
        if self._answer is not None:
            retract, add = self._answer.finish()
            out.retract, out.chat = combine(out.retract, out.chat, retract, add)
            self._at_line_start = self._answer.at_line_start
            self._answer = None

    def _shown(self, out: Appends, retract: str, add: str) -> None:
        """Answer text the pane changes by; the run remembers it for RECLASSIFY."""
        out.retract, out.chat = combine(out.retract, out.chat, retract, add)
        run = self._run
        while retract and run:
            last = run.pop()
            if len(last) > len(retract):
                run.append(last[:len(last) - len(retract)])
                break
            retract = retract[:len(retract) - len(last)]
        if add:
            run.append(add)

    # -- event kinds ---------------------------------------------------------
    def _on_text(self, ev):
        if not ev.text:
            return Appends()
        out = Appends()
        if self._run is None:
            self._before_run = (self._block, self._at_line_start, self._empty,
                                self._assistant_started, self._wrap.state())
            self._run = []
        if not self._assistant_started:
            self._assistant_started = True
            out.began = ("answer",)
            label = self._start_block("answer", blank_line=True) + tr(ASSISTANT) + "\n"
            self._shown(out, "", self._wrap.feed(label))
        elif self._block != "answer":
            # After a tool line ("  \u25b8 Inserted a table") the answer is a new paragraph.
            self._shown(out, "", self._wrap.feed(self._start_block("answer", blank_line=True)))
        self._block, self._empty = "answer", False
        if self._answer is None:
            self._answer = LineFormatter(self._wrap, self.columns)
        retract, add = self._answer.feed(ev.text)
        self._shown(out, retract, add)
        self._at_line_start = self._answer.at_line_start
        return out

    def _on_reclassify(self, ev):
        """R1: the answer shown so far was reasoning; it moves to the thinking pane."""
        out = Appends()
        if self._run is not None:
            out.retract = "".join(self._run)
            (self._block, self._at_line_start, self._empty, self._assistant_started,
             wrap) = self._before_run
            self._wrap.restore(wrap)
            self._answer = None
            self._run = None
        if ev.text:
            out.extend(self._on_reasoning(Event(REASONING, text=ev.text)))
        return out

    def _on_reasoning(self, ev):
        if not ev.text:
            return Appends()
        thinking = ""
        began = ()
        if not self._thinking_header_done:
            self._thinking_header_done = True
            began = ("thinking",)
            if not self._thinking_empty:
                thinking += "" if self._thinking_at_line_start else "\n"
                thinking += "\n"
            thinking += "\u2014 " + short(self._question, THINKING_HEADER_LIMIT) + "\n"
        elif self._thinking_interrupted:
            thinking += "\n\n" if not self._thinking_at_line_start else "\n"
        self._thinking_interrupted = False
        thinking += ev.text
        self._thinking_empty = False
        self._thinking_at_line_start = ev.text.endswith("\n")
        return Appends(thinking=thinking, began=began)

    def _on_tool_result(self, ev):
        out = Appends()
        self._close_answer(out)
        line = tool_line(ev.name, ev.ok, ev.summary, ev.phrase)
        chat = ""
        if not self._assistant_started:
            self._assistant_started = True
            chat = self._start_block("tool", blank_line=True) + tr(ASSISTANT) + "\n"
            self._at_line_start = True
        chat += self._start_block("tool") + TOOL_MARK + short(line, 200) + "\n"
        self._chat(out, chat)
        return out

    def _on_notice(self, ev):
        if not ev.message:
            return Appends()
        out = Appends()
        self._close_answer(out)
        self._chat(out, self._start_block("notice") + NOTICE_MARK + short(ev.message, 400)
                   + "\n")
        return out

    def _on_citations(self, ev):
        """Under the answer: the passages it cited, its quotes not found in the sources."""
        found = citation_lines.lines(ev.citations or {})
        if not found:
            return Appends()
        out = Appends()
        self._close_answer(out)
        chat = self._start_block("notice") + citation_lines.TITLE + "\n"
        chat += "".join(TOOL_MARK + line + "\n" for line in found)
        self._chat(out, chat)
        return out

    def report(self, lines: Iterable[str]) -> Appends:
        """Test connection's report (``/test``): a titled block of short lines."""
        out = Appends()
        self._close_answer(out)
        chat = self._start_block("notice", blank_line=True) + tr(TEST_TITLE) + "\n"
        chat += "".join(TOOL_MARK + short(line, 300) + "\n" for line in lines)
        self._chat(out, chat)
        return self._finished(out)

    def _on_error(self, ev):
        out = Appends()
        self._close_answer(out)
        sentence = short(ev.message or tr("Something went wrong."), 400)
        self._chat(out, self._start_block("error") + ERROR_MARK + sentence + "\n")
        return out

    def _on_done(self, ev):
        """The turn's end (its one DONE, see office.chat_session): a mark if it was stopped
        or cut."""
        out = Appends()
        self._close_answer(out)
        chat = "" if self._at_line_start else "\n"
        if ev.finish_reason in ("cancelled", "cut"):
            words = STOPPED if ev.finish_reason == "cancelled" else CUT
            chat += STOPPED_MARK + tr(words) + "\n"
            self._block, self._empty = "notice", False
        self._chat(out, chat)
        self._run = None
        return out

    # -- helpers -------------------------------------------------------------
    def _start_block(self, block, blank_line=False):
        """Line breaks needed before a new block, and remember we are in it."""
        prefix = ""
        if not self._empty:
            if not self._at_line_start:
                prefix += "\n"
            if blank_line:
                prefix += "\n"
        self._block = block
        self._empty = False
        return prefix

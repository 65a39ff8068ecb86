"""Quick actions: a library prompt run on the selection as one turn of the document's chat.

Whatever starts one (the context menu, a bound command, a slash command, the
headless runner) comes here on the main thread. The action captures its
target now (writer.action_output), then runs through the document's
ChatSession like a typed message: it shows in the transcript, its edits are
one undo step, and it works with the panel closed. An answer meant for the
panel, or a failure, opens the Marginalia deck so the user sees it.
"""

import logging
from typing import Any, List, Optional

from marginalia import events as ev
from marginalia.errors import ToolError
from marginalia.i18n.catalog import tr
from marginalia.i18n.phrase import Phrase
from marginalia.office import chat_session, prompt_store, settings_store
from marginalia import prompt_library as pl
from marginalia import policy
from marginalia.ui import quick_menu, tool_words
from marginalia.ui.status import STILL_ANSWERING
from marginalia.writer import action_output

log = logging.getLogger("marginalia.quick")

DECK = "MarginaliaDeck"
# The system prompt: for the model, so English (the prompt's instruction is the user's).
ACTION_PROMPT = (
    "You are Marginalia, a writing assistant inside LibreOffice Writer. The user gives "
    "an instruction and a text from their document. Do exactly what the instruction asks, "
    "in the text's language unless told otherwise, and answer in the form asked for.")


class QuickAction:
    """One run of a prompt: what the model is sent and where its answer goes."""

    system_prompt = ACTION_PROMPT

    def __init__(self, prompt: pl.Prompt, argument: str, target: action_output.Target):
        self.prompt = prompt
        self.argument = argument
        self.target = target
        self.mode = prompt.mode
        self.track_changes = prompt.mode == pl.SUGGEST
        self.shown = quick_menu.shown_request(prompt, argument, target.text)
        self.title = quick_menu.shown_request(prompt, argument, "")
        self.message = quick_menu.action_message(prompt, argument, target.text, target.whole)

    def apply(self, toolbox: Any, reply: str) -> List[ev.Event]:
        """On the turn's worker: put the answer in the document; the events to show."""
        if self.mode == pl.PANEL:
            return []
        try:
            summary = toolbox.run_edit(
                self.prompt.pid, lambda: action_output.apply(self.target, self.mode, reply),
                target=self.target.range)
        except ToolError as exc:
            # The document's refusals (a kept-out passage) are worded for a model: the
            # error line speaks to the user.
            raise ToolError(tool_words.refusal(str(exc), exc.phrase)) from None
        said = summary if isinstance(summary, Phrase) else None
        return [ev.Event(ev.TOOL_RESULT, call_id="action-" + self.prompt.pid,
                         name=self.prompt.pid, ok=True,
                         summary=str(summary) if summary is not None else None,
                         phrase=said.to_dict() if said else None)]


def start(ctx: Any, doc: Any, prompt: pl.Prompt, argument: str = "", rng: Any = None,
          whole: bool = False) -> Optional[str]:
    """Start ``prompt`` on the document's selection (or ``rng``, or the whole document);
    None when it started, else the sentence saying why not. Main thread."""
    argument = (argument or "").strip()
    if prompt.takes_argument and not argument:
        return quick_menu.needs_argument_sentence(prompt)
    target = action_output.capture(doc, rng, whole)
    if target.empty:
        if prompt.needs_selection:
            return tr(action_output.NO_SELECTION) % prompt.name
        if prompt.mode != pl.BELOW:
            target = action_output.capture(doc, whole=True)
    if target.whole and settings_store.load_policy(ctx).selection_only:
        return tr(policy.SELECT_FIRST)
    session = chat_session.session_for(ctx, doc)
    if session.busy:
        return tr(STILL_ANSWERING)
    if prompt.takes_argument and prompt.builtin:
        try:
            prompt_store.remember_language(ctx, quick_menu.language_name(argument))
        except Exception:
            log.exception("could not remember the language")
    action = QuickAction(prompt, argument, target)
    if not session.send(action.shown, action=action):
        return tr(STILL_ANSWERING)
    if prompt.mode == pl.PANEL:
        show_deck(doc)
    else:
        session.add_listener(_ShowOnError(session, doc))
    return None


def run_by_id(ctx: Any, doc: Any, pid: str, argument: str = "") -> Optional[str]:
    """A command's run: the prompt with that id from the library."""
    prompt = next((p for p in prompt_store.load(ctx) if p.pid == pid), None)
    if prompt is None:
        return tr("There is no prompt \u201c%s\u201d in the library any more.") % pid
    return start(ctx, doc, prompt, argument)


class _ShowOnError:
    """Opens the deck when the action's turn ends in an error (the panel may be closed)."""

    def __init__(self, session, doc):
        self._session = session
        self._doc = doc
        self._failed = False

    def __call__(self, batch):
        for role, payload in batch:
            if role == "event" and payload.kind == ev.ERROR:
                self._failed = True
        if not self._session.busy:
            self._session.remove_listener(self)
            if self._failed:
                show_deck(self._doc)


def show_deck(doc: Any) -> bool:
    """Open the sidebar on the Marginalia deck of the document's window."""
    try:
        sidebar = doc.getCurrentController().getSidebar()
        sidebar.setVisible(True)
        deck = sidebar.getDecks().getByName(DECK)
        if not deck.isActive():
            # activate(True) on an active deck would close it, like a tab click.
            deck.activate(True)
        return True
    except Exception:
        log.exception("could not open the Marginalia deck")
        return False

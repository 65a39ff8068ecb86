"""The panel's top row while an outside agent edits its document: "Claude is editing this
document." with Stop, or the question an agent's edit waits on, with Allow once and Refuse
(office.agent_questions; ui.agent_banner decides the words and the boxes).

One per panel, in the panel's own container; it follows office.mcp_turns'
listeners (posted on the main thread) and shows only the turns on its panel's
document (the RuntimeUID, the id MCP agents use). A rebuilt panel makes a new
one, which shows the turns open now at once; dispose() takes the listener off.
Stop refuses the agents named for this office session (mcp_turns.stop_agent);
the row then says so for NOTE_SECONDS, or until an agent edits here again.
Main thread.
"""

import logging
import time

from marginalia import threads
from marginalia.i18n.catalog import tr
from marginalia.office import agent_questions, button_width, mainthread, mcp_turns
from marginalia.office.boxes import place as place_boxes
from marginalia.office.control_events import Call
from marginalia.ui import agent_banner as wording

log = logging.getLogger("marginalia.panel")

# Long enough to read one sentence, short enough that the row does not linger.
NOTE_SECONDS = 6.0


def attach(panel):
    """The panel's row, or None when it could not be made (the panel works without it)."""
    try:
        return AgentBanner(panel)
    except Exception:
        log.exception("could not make the outside agent's row")
        return None


class AgentBanner:
    """The row's two controls and what Stop does."""

    def __init__(self, panel):
        self.panel = panel
        self.key = str(panel.document.RuntimeUID)
        self.shown = wording.HIDDEN
        self._note = ()               # the agents Stop just stopped
        self._note_until = 0.0
        self._disposed = False
        ctx = panel.ctx
        smgr = ctx.ServiceManager
        self.controls = {}
        for name, kind, props in (
                ("text", "FixedText", {"Label": "", "NoLabel": True, "MultiLine": True}),
                ("stop", "Button", {"Label": tr(wording.STOP_LABEL)}),
                ("allow", "Button", {"Label": tr(wording.ALLOW_LABEL)}),
                ("refuse", "Button", {"Label": tr(wording.REFUSE_LABEL)})):
            model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%sModel" % kind,
                                                   ctx)
            for prop, value in props.items():
                setattr(model, prop, value)
            control = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%s" % kind, ctx)
            control.setModel(model)
            panel.view.container.addControl("agent_" + name, control)
            control.setVisible(False)
            self.controls[name] = control
        self._calls = {"stop": Call(self.on_stop, "agent banner stop"),
                       "allow": Call(lambda: self.on_answer(True), "agent banner allow"),
                       "refuse": Call(lambda: self.on_answer(False), "agent banner refuse")}
        for name, call in self._calls.items():
            self.controls[name].addActionListener(call)
        self._asked = agent_questions.QUESTIONS.open()
        panel.view.banner = self
        mcp_turns.know_ctx(ctx)
        mcp_turns.add_listener(self.changed)
        self._heard = agent_questions.listen(ctx, self.asked)
        self.changed(mcp_turns.active())

    # -- state -> row ----------------------------------------------------------
    def changed(self, turns) -> None:
        """mcp_turns' listener (main thread): show the row for the turns now."""
        if self._disposed or self.panel._disposed:
            return
        try:
            self._show(turns)
        except Exception:
            log.exception("could not show the outside agent's row")

    def asked(self, questions) -> None:
        """agent_questions' listener (main thread): the open questions changed."""
        self._asked = questions
        self.changed(mcp_turns.active())

    def _show(self, turns) -> None:
        if self._note and time.monotonic() >= self._note_until:
            self._note = ()
        shown = wording.banner(turns, self.key, mcp_turns.stopped(), self._note, self._asked)
        if shown.stop:
            self._note = ()               # an agent edits here again: the note gives way
        if shown == self.shown:
            return
        self.shown = shown
        text, stop = self.controls["text"], self.controls["stop"]
        text.getModel().Label = shown.text
        # A screen reader names the row by what it is and says; Stop by whom it stops.
        text.getPeer().setProperty("AccessibleName", shown.name)
        for name, said in (("stop", shown.stop_name), ("allow", shown.allow_name),
                           ("refuse", shown.refuse_name)):
            if said:
                self.controls[name].getModel().HelpText = said
                self.controls[name].getPeer().setProperty("AccessibleName", said)
        self.panel.view.relayout()

    def place(self, x: int, y: int, width: int) -> int:
        """Lay the row out at ``y``; its height (0 while hidden)."""
        need = button_width.widest_need((self.controls["stop"],)) if self.shown.stop else 0
        answers = (0, 0)
        if self.shown.question:
            answers = tuple(button_width.widest_need((self.controls[name],))
                            for name in ("allow", "refuse"))
        height, boxes = wording.layout(width, y, self.shown, need, answers)
        place_boxes(self.controls, boxes, x)
        return height

    # -- Allow once / Refuse -----------------------------------------------------
    def on_answer(self, allow: bool) -> None:
        """The user's answer to the question shown; the agent's call waiting on it goes on."""
        question = self.shown.question
        if self._disposed or not question:
            return
        agent_questions.answer(question, allow)
        self.asked(agent_questions.QUESTIONS.open())

    # -- Stop --------------------------------------------------------------------
    def on_stop(self) -> None:
        agents = self.shown.stop
        if self._disposed or not agents:
            return
        for agent in agents:
            mcp_turns.stop_agent(agent)
        self._note = agents
        self._note_until = time.monotonic() + NOTE_SECONDS
        ctx = self.panel.ctx
        threads.later(NOTE_SECONDS + 0.1, mainthread.post, ctx,
                      lambda: self.changed(mcp_turns.active()))
        self._show(mcp_turns.active())

    def dispose(self) -> None:
        self._disposed = True
        mcp_turns.remove_listener(self.changed)
        agent_questions.forget(self._heard)
        for name, call in self._calls.items():
            try:
                self.controls[name].removeActionListener(call)
            except Exception:
                pass  # the panel's window is already gone: nothing left to detach

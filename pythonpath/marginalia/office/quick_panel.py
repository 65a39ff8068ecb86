"""What the quick actions need of an open chat panel: focus, a sentence, slash commands.

A panel registers here while it lives (``attach`` / ``detach``), keyed by its
document's session, so a command can focus that document's message box or
say why an action did not start; the panel's slash list (office.slash_list)
is made here too, keeping office.panel's part to a few lines. Main thread.
"""

import logging
from typing import Any, Optional

from marginalia import debuglog
from marginalia.ui import slash

log = logging.getLogger("marginalia.quick")

_panels = {}


class PanelQuick:
    """One panel's quick-action side: its slash list and running a typed command."""

    def __init__(self, panel: Any):
        from marginalia.office.slash_list import SlashList
        from marginalia.office import prompt_store
        self.panel = panel
        self._library = lambda: prompt_store.load(panel.ctx)
        self.slash = SlashList(panel.ctx, panel.view, self._library)
        from marginalia.office import panel_sources
        self.mentions = panel_sources.mention_list(panel)
        _panels[panel.session.key] = panel
        try:
            # A window opened before the extension was installed had no OnViewCreated
            # for us: its panel gives it the context submenu (once).
            from marginalia.office import context_menu
            context_menu.register(panel.ctx, panel.frame.getController())
        except Exception:
            log.exception("could not add the context submenu to this window")

    def run_typed(self, text: str) -> bool:
        """Run ``text`` when it names a prompt ("/shorten", "/translate de"); False when
        it is an ordinary message (a "/" that names no prompt is sent as typed)."""
        from marginalia.office import quick_actions
        self.slash.hide()
        self.mentions.hide()
        command = slash.parse(self._library(), text)
        if command is None:
            return False
        sentence = quick_actions.start(self.panel.ctx, self.panel.document, command.prompt,
                                       command.argument)
        if sentence:
            self.panel.show_error(sentence)
        return True

    def dispose(self) -> None:
        if _panels.get(self.panel.session.key) is self.panel:
            del _panels[self.panel.session.key]
        self.slash.dispose()
        self.mentions.dispose()


def attach(panel: Any) -> PanelQuick:
    return PanelQuick(panel)


def _panel_for(doc: Any) -> Optional[Any]:
    try:
        return _panels.get(doc.RuntimeUID)
    except Exception:
        return None


def focus(doc: Any) -> bool:
    """Put the cursor in the document's message box; False when no panel is open."""
    panel = _panel_for(doc)
    if panel is None:
        return False
    panel.view.focus_input()
    return True


def _shown_by(doc: Any, sentence: str) -> Optional[Any]:
    """The document's panel, or None (the sentence logged instead)."""
    panel = _panel_for(doc)
    if panel is None:
        # The sentence may hold a server's message quoting the request (a vLLM validation
        # error echoes its input): its size only, unless the debug log is on.
        log.info("not shown (no panel): a sentence of %s", debuglog.size(sentence))
        log.debug("not shown: %s", sentence)
    return panel


def say(doc: Any, sentence: str) -> None:
    """Put ``sentence`` in the document's panel's status line (logged when none is open)."""
    panel = _shown_by(doc, sentence)
    if panel is not None:
        try:
            panel.say(sentence)
        except Exception:
            log.exception("could not show a sentence in the panel")


def tell(doc: Any, sentence: str) -> None:
    """Say ``sentence`` in the document's panel, as a refusal (logged when none is open)."""
    panel = _shown_by(doc, sentence)
    if panel is not None:
        panel.show_error(sentence)

"""The org.marginalia.cmd: commands: what the context menu, Tools > Marginalia and
keys bound in Tools > Customize dispatch.

The registered ProtocolHandler (extension/marginalia_component.py) hands each
dispatch here with its frame, on the main thread. ``Run?id=...&arg=...`` runs
a library prompt on the frame's document (office.quick_actions); ``Ask`` and
``Focus`` open the Marginalia deck and put the cursor in the message box;
``KeepOut`` marks the selection Keep Marginalia out, or removes the mark it
touches. A refusal (no selection, a turn still running) is said in the panel.
"""

import logging
from typing import Any, Optional

from marginalia.office import quick_actions, quick_panel, ui_language
from marginalia.ui import quick_menu

log = logging.getLogger("marginalia.commands")

def dispatch_url(ctx: Any, frame: Any, url: str) -> Optional[str]:
    """Carry out one command on ``frame``'s document; the sentence shown when refused."""
    ui_language.ensure(ctx)        # a bound key may come before any panel was built
    command, params = quick_menu.parse_url(url)
    doc = frame.getController().getModel()
    sentence = None
    if command == quick_menu.RUN:
        sentence = quick_actions.run_by_id(ctx, doc, params.get("id", ""),
                                           params.get("arg", ""))
    elif command in (quick_menu.ASK, quick_menu.FOCUS):
        focus_chat(ctx, doc)
    elif command == quick_menu.KEEP_OUT:
        from marginalia.writer import keepout
        said = keepout.toggle(doc)
        quick_panel.say(doc, said)         # news, not a refusal: the status line, if open
        return said
    else:
        log.warning("unknown command %s", url)
        return None
    if sentence:
        quick_actions.show_deck(doc)
        quick_panel.tell(doc, sentence)
    return sentence


def focus_chat(ctx: Any, doc: Any) -> None:
    """Open the deck and put the cursor in the document's message box."""
    from marginalia.office import mainthread
    quick_actions.show_deck(doc)
    if not quick_panel.focus(doc):
        # A deck opened just now may build its panel a moment later.
        mainthread.post(ctx, lambda: quick_panel.focus(doc))

"""The card's Keep out button: one click with no marks, a small menu once there are some.

With no kept-out passage in the document the button marks the selection at
once, as before. Once there are marks it opens a popup below itself (wording:
ui.keepout_words): the selection's action, then one entry per kept-out
passage; choosing a passage selects it in the document and puts the focus
there, so the user sees exactly what is kept out (the view scrolls to it),
and the menu's first entry then lets Marginalia in there again. Showing a
passage by selecting it changes nothing in the document, its printing or its
saved file. Main thread.
"""

from typing import Any, List, Optional

import uno

from marginalia.i18n.catalog import tr
from marginalia.ui import keepout_words as words

EXECUTE_DOWN = 1        # com.sun.star.awt.PopupMenuDirection


def run(panel: Any, button: Any) -> str:
    """What a click on Keep out does; the sentence for the panel's status line."""
    from marginalia.writer import keepout
    doc = panel.document
    listed = keepout.listing(doc)
    if not listed:
        return keepout.toggle(doc)
    entries = words.entries(listed, keepout.here(doc))
    chosen = _popup(panel, button, entries)
    if chosen is None:
        return ""
    action, name, _label = chosen
    if action in (words.KEEP, words.LET_IN):
        return keepout.toggle(doc)
    try:
        first, last = keepout.show(doc, name)
    except KeyError:
        return tr(words.GONE)
    _focus_document(doc)
    return words.shown(first, last)


def _popup(panel: Any, button: Any, entries: List[words.Entry]) -> Optional[words.Entry]:
    ctx = panel.ctx
    menu = ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.PopupMenu", ctx)
    for pos, (action, _name, label) in enumerate(entries):
        if not action:
            menu.insertSeparator(pos)
            continue
        menu.insertItem(pos + 1, label, 0, pos)
    box = button.getPosSize()
    where = uno.createUnoStruct("com.sun.star.awt.Rectangle", box.X, box.Y + box.Height,
                                box.Width, 0)
    chosen = menu.execute(panel.view.window, where, EXECUTE_DOWN)
    return entries[chosen - 1] if 1 <= chosen <= len(entries) else None


def _focus_document(doc: Any) -> None:
    # The selection shows in full colour where the focus is; a failure leaves it shown.
    try:
        doc.getCurrentController().getFrame().getComponentWindow().setFocus()
    except Exception:
        pass

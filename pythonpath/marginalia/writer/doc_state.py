"""Everything Marginalia keeps about one open document, in one object dropped when it closes.

One DocState per document model (keyed by its RuntimeUID) holds its change
counter (writer.changes), its turns' change records with the live text cursors
that find them (writer.ledger), its reading map, cached and being built
(writer.read), the heading styles its outline last found (writer.outline) and
the walk a turn lends its block tools (writer.locate). The modify listener that
counts the changes also hears the model's disposing and drops the state, so
nothing of a closed document stays alive here, its cursors included.

Writer broadcasts ``modified`` to XModifyListeners on every change (text,
styles, attributes), not only when the modified flag flips, so the count tells
the read cache exactly when to rebuild. The undo stack's titles are no key:
LibreOffice 7.4 shortens them by UTF-16 units and can cut an emoji in half,
and reading such a title kills the office. Main thread.
"""

from typing import Any, Dict, List

import unohelper
from com.sun.star.util import XModifyListener


class DocState:
    """What is kept about one document; each owner module reads and writes its part."""

    def __init__(self, key: str):
        self.key = key
        self.count = 0              # changes seen since it was first watched
        self.ledger: Any = None     # writer.ledger.Ledger, made at the first edit
        self.map: Any = None        # writer.read: the cached map (an entry with its key)
        self.pending: Any = None    # writer.read: the map being built in slices
        self.plain: Any = None      # writer.read: (key, whether the body is plain)
        self.heading_styles: Any = None   # writer.outline: the styles found last
        self.lent: Any = None       # writer.locate: the turn's walk, while lent


class _Watch(unohelper.Base, XModifyListener):
    def __init__(self, state: DocState):
        self.state = state

    def modified(self, _event):
        self.state.count += 1

    def disposing(self, _event):
        _states.pop(self.state.key, None)


_states: Dict[str, DocState] = {}


def of(doc: Any) -> DocState:
    """The state of ``doc``, made (and its listener added) the first time it is asked."""
    key = doc.RuntimeUID
    state = _states.get(key)
    if state is None:
        state = DocState(key)
        # The listener first: a state kept without one would never be dropped.
        doc.addModifyListener(_Watch(state))
        _states[key] = state
    return state


def known() -> List[DocState]:
    """The states of the documents open now (writer.read forgets every cached map)."""
    return list(_states.values())

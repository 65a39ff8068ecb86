"""A per-document change counter, for knowing when cached reads are stale.

Writer broadcasts ``modified`` to XModifyListeners on every change (text,
styles, attributes), not only when the modified flag flips, so counting those
calls tells the read cache exactly when to rebuild. The undo stack's titles
are no key: LibreOffice 7.4 shortens them by UTF-16 units and can cut an emoji
in half, and reading such a title kills the office.
"""

from typing import Any

import unohelper
from com.sun.star.util import XModifyListener

_counters = {}


class _Counter(unohelper.Base, XModifyListener):
    def __init__(self, key):
        self.key = key
        self.count = 0

    def modified(self, _event):
        self.count += 1

    def disposing(self, _event):
        _counters.pop(self.key, None)


def change_count(doc: Any) -> int:
    """How many changes the document has had since we started watching it."""
    key = doc.RuntimeUID
    counter = _counters.get(key)
    if counter is None:
        counter = _counters[key] = _Counter(key)
        doc.addModifyListener(counter)
    return counter.count

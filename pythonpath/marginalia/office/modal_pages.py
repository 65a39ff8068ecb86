"""The Options pages the dialog shows now, by their window (the prompts and agents pages).

The Options dialog is modal: a page made at "initialize" replaces any older one,
and its later events ("ok", "back") find it again by the window they name.
"""

from typing import Any, Dict, Optional


class ModalPages:
    """One kind of page, the one showing now."""

    def __init__(self) -> None:
        self._pages: Dict[int, Any] = {}

    def start(self, window: Any, page: Any) -> Any:
        """The page made for ``window`` at "initialize"; older pages are gone."""
        self._pages.clear()
        self._pages[id(window)] = page
        return page

    def find(self, window: Any) -> Optional[Any]:
        """The page showing in ``window`` (an equal window object counts too), or None."""
        return self._pages.get(id(window)) or next(
            (p for p in self._pages.values() if p.window == window), None)

    def showing(self, page: Any) -> bool:
        """Whether ``page`` is still the one its window shows."""
        return self._pages.get(id(page.window)) is page

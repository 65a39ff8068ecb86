"""The Sources menu's entries and words (pure).

Sources opens a menu: the chat's sources (each with a "Remove" submenu entry),
"Add a file…" (the file picker), and "Add an open document" with the other
Writer documents open. The picker offers every kind the reader takes.
"""

from typing import List, Optional, Sequence, Tuple

from marginalia.sources import cite_as
from marginalia.ui.history_menu import MenuItem

ADD_FILE = 1
OPEN_MENU = 2
NONE_YET = 3
REMOVE_MENU = 4
NO_OPEN = 5
CITE_MENU = 6
OPEN_BASE = 1000          # menu id of the n-th open document
REMOVE_BASE = 2000        # menu id of the n-th source's removal
LIST_BASE = 3000          # the n-th source as listed (a label: nothing to choose)
CITE_BASE = 4000          # the n-th of cite_as.STYLES

ADD_FILE_LABEL = "Add a file\u2026"
OPEN_LABEL = "Add an open document"
NO_OPEN_LABEL = "No other document is open"
NONE_YET_LABEL = "This chat has no sources yet"
REMOVE_LABEL = "Remove a source"
CITE_LABEL = "Insert citations as"
PICKER_TITLE = "Add a source"
FILTER = ("Sources (*.odt, *.docx, *.doc, *.rtf, *.pdf, *.txt, *.md, *.html)",
          "*.odt;*.ott;*.fodt;*.docx;*.doc;*.rtf;*.pdf;*.txt;*.md;*.markdown;*.html;*.htm")
READING = "Reading %s\u2026"
ADDED = "%s is a source of this chat now (%d passages); the model can search and cite it."
REMOVED = "%s is no longer a source of this chat."
BUSY = "Wait until the answer ends to change the sources."


def scope(line: str, count: int) -> str:
    """The line above the message box with the chat's sources: "Whole document + 2 sources"."""
    if not count:
        return line
    return "%s + %d source%s" % (line, count, "" if count == 1 else "s")


def menu_items(sources: Sequence[Tuple[str, str]], documents: Sequence[str],
               citations_as: str = cite_as.FOOTNOTES) -> List[MenuItem]:
    """The menu for the chat's ``sources`` ((id, shown name)) and the open ``documents``;
    ``citations_as``, the style Insert uses now, is the one ticked."""
    items: List[MenuItem] = []
    if sources:
        for n, (ident, name) in enumerate(sources):
            items.append(MenuItem(LIST_BASE + n, "%s  (%s)" % (name, ident), enabled=False))
    else:
        items.append(MenuItem(NONE_YET, NONE_YET_LABEL, enabled=False))
    items.append(MenuItem(0, ""))
    items.append(MenuItem(ADD_FILE, ADD_FILE_LABEL))
    opened = [MenuItem(OPEN_BASE + n, title) for n, title in enumerate(documents)]
    items.append(MenuItem(OPEN_MENU, OPEN_LABEL, submenu=opened or [
        MenuItem(NO_OPEN, NO_OPEN_LABEL, enabled=False)]))
    if sources:
        removals = [MenuItem(REMOVE_BASE + n, name) for n, (_i, name) in enumerate(sources)]
        items.append(MenuItem(REMOVE_MENU, REMOVE_LABEL, submenu=removals))
    current = cite_as.style(citations_as)
    items.append(MenuItem(0, ""))
    items.append(MenuItem(CITE_MENU, CITE_LABEL, submenu=[
        MenuItem(CITE_BASE + n, label, checked=name == current)
        for n, (name, label) in enumerate(cite_as.STYLES)]))
    return items


def chosen(item_id: int, sources: Sequence[Tuple[str, str]],
           documents: Sequence[str]) -> Optional[Tuple[str, Optional[object]]]:
    """("file", None), ("document", index), ("remove", source id) or ("cite as", style)
    for a chosen id."""
    if item_id == ADD_FILE:
        return ("file", None)
    if 0 <= item_id - OPEN_BASE < len(documents):
        return ("document", item_id - OPEN_BASE)
    if 0 <= item_id - REMOVE_BASE < len(sources):
        return ("remove", sources[item_id - REMOVE_BASE][0])
    if 0 <= item_id - CITE_BASE < len(cite_as.STYLES):
        return ("cite as", cite_as.STYLES[item_id - CITE_BASE][0])
    return None

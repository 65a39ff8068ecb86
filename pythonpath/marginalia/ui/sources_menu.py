"""The Sources menu's entries and words (pure).

Sources opens a menu: the chat's sources (each with a "Remove" submenu entry),
"Add a file…" (the file picker), and "Add an open document" with the other
Writer documents open. The picker offers every kind the reader takes.
"""

from typing import List, Optional, Sequence, Tuple

from marginalia.i18n.catalog import N_, tr, trn
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

# English, translated where shown (menu_items here; tr(sm.BUSY), tr(sm.READING) % name in
# the panel; added() for the sentence with a plural).
ADD_FILE_LABEL = N_("Add a file\u2026")
OPEN_LABEL = N_("Add an open document")
NO_OPEN_LABEL = N_("No other document is open")
NONE_YET_LABEL = N_("This chat has no sources yet")
REMOVE_LABEL = N_("Remove a source")
CITE_LABEL = N_("Insert citations as")
PICKER_TITLE = N_("Add a source")
FILTER = (N_("Sources (*.odt, *.docx, *.doc, *.rtf, *.pdf, *.txt, *.md, *.html)"),
          "*.odt;*.ott;*.fodt;*.docx;*.doc;*.rtf;*.pdf;*.txt;*.md;*.markdown;*.html;*.htm")
READING = N_("Reading %s\u2026")
REMOVED = N_("%s is no longer a source of this chat.")
BUSY = N_("Wait until the answer ends to change the sources.")


def scope(line: str, count: int) -> str:
    """The line above the message box with the chat's sources: "Whole document + 2 sources"."""
    if not count:
        return line
    return trn("%(line)s + %(count)d source", "%(line)s + %(count)d sources", count) % {
        "line": line, "count": count}


def menu_items(sources: Sequence[Tuple[str, str]], documents: Sequence[str],
               citations_as: str = cite_as.FOOTNOTES) -> List[MenuItem]:
    """The menu for the chat's ``sources`` ((id, shown name)) and the open ``documents``;
    ``citations_as``, the style Insert uses now, is the one ticked."""
    items: List[MenuItem] = []
    if sources:
        for n, (ident, name) in enumerate(sources):
            items.append(MenuItem(LIST_BASE + n, "%s  (%s)" % (name, ident), enabled=False))
    else:
        items.append(MenuItem(NONE_YET, tr(NONE_YET_LABEL), enabled=False))
    items.append(MenuItem(0, ""))
    items.append(MenuItem(ADD_FILE, tr(ADD_FILE_LABEL)))
    opened = [MenuItem(OPEN_BASE + n, title) for n, title in enumerate(documents)]
    items.append(MenuItem(OPEN_MENU, tr(OPEN_LABEL), submenu=opened or [
        MenuItem(NO_OPEN, tr(NO_OPEN_LABEL), enabled=False)]))
    if sources:
        removals = [MenuItem(REMOVE_BASE + n, name) for n, (_i, name) in enumerate(sources)]
        items.append(MenuItem(REMOVE_MENU, tr(REMOVE_LABEL), submenu=removals))
    current = cite_as.style(citations_as)
    items.append(MenuItem(0, ""))
    # cite_as.STYLES' labels are marked in sources.cite_as
    items.append(MenuItem(CITE_MENU, tr(CITE_LABEL), submenu=[
        MenuItem(CITE_BASE + n, tr(label), checked=name == current)
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


def added(name: str, passages: int) -> str:
    """The sentence for a source just added, in the user's language (a plural)."""
    return trn("%(name)s is a source of this chat now (%(count)d passage); the model can "
               "search and cite it.",
               "%(name)s is a source of this chat now (%(count)d passages); the model can "
               "search and cite it.", passages) % {"name": name, "count": passages}

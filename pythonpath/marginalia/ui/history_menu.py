"""The History menu's entries and the answer row's wording (pure).

History opens a menu: this document's kept chats (first message and date,
newest first; choosing one reopens it), a "Delete a chat" submenu with the
same list, "Export chat…" and "Forget this document's chats".
"""

import time
from typing import List, NamedTuple, Optional, Sequence

from marginalia.chat.history import ChatSummary
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr

OPEN_BASE = 1000          # menu id of the n-th chat: OPEN_BASE + n
DELETE_BASE = 2000
EXPORT = 1
FORGET = 2
DELETE_MENU = 3
NO_CHATS = 4

# English, translated where shown: tr(hm.COPIED), tr(hm.EXPORTED) % name.
NO_CHATS_LABEL = N_("No kept chats for this document yet")
DELETE_LABEL = N_("Delete a chat")
EXPORT_LABEL = N_("Export chat\u2026")
FORGET_LABEL = N_("Forget this document's chats")
FORGET_QUESTION = N_("Remove every kept chat of this document from this computer? "
                     "This cannot be undone.")
FORGOTTEN = N_("This document's chats are forgotten.")
KEEPING_OFF = N_("Chats are not kept (Tools > Options > Marginalia).")
EXPORTED = N_("Chat exported to %s.")
COPIED = N_("The last answer is on the clipboard.")
INSERTED = N_("Inserted the last answer (one Undo takes it back).")
EDITING = N_("Editing your last message: Send replaces it and its answer.")
NOTHING_TO_EXPORT = N_("There is no chat to export yet.")

# (control name, label, tooltip): the row under the conversation, acting on the last answer.
ANSWER_BUTTONS = (
    ("copy", N_("Copy"), N_("Copy the last answer")),
    ("insert", N_("Insert"), N_("Insert the last answer into the document at the cursor")),
    ("retry", N_("Retry"), N_("Regenerate the last answer")),
    ("edit", N_("Edit"), N_("Edit and resend your last message")),
)


class MenuItem(NamedTuple):
    item_id: int
    label: str
    checked: bool = False
    enabled: bool = True
    submenu: Optional[List["MenuItem"]] = None     # a separator has item_id 0


def when(stamp: float, now: Optional[float] = None) -> str:
    """A short date the locale's way (i18n.formats): the time today, the day and month
    this year, else the full date."""
    now = time.time() if now is None else now
    moment, today = time.localtime(stamp), time.localtime(now)
    if moment[:3] == today[:3]:
        return formats.clock(moment)
    if moment.tm_year == today.tm_year:
        return "%s %s" % (formats.day_month(moment), formats.clock(moment))
    return formats.full_date(moment)


def chat_label(summary: ChatSummary, now: Optional[float] = None) -> str:
    # VCL menus read "~" as the mark of the next letter's shortcut: "~~" shows one.
    return "%s \u2014 %s" % (summary.title.replace("~", "~~"), when(summary.updated, now))


def menu_items(chats: Sequence[ChatSummary], current: Optional[str],
               can_export: bool, now: Optional[float] = None) -> List[MenuItem]:
    """The History menu, top to bottom; a MenuItem with item_id 0 is a separator."""
    items = []
    if not chats:
        items.append(MenuItem(NO_CHATS, tr(NO_CHATS_LABEL), enabled=False))
    for n, chat in enumerate(chats):
        items.append(MenuItem(OPEN_BASE + n, chat_label(chat, now), chat.chat_id == current))
    items.append(MenuItem(0, ""))
    deletes = [MenuItem(DELETE_BASE + n, chat_label(chat, now)) for n, chat in enumerate(chats)]
    items.append(MenuItem(DELETE_MENU, tr(DELETE_LABEL), enabled=bool(chats), submenu=deletes))
    items.append(MenuItem(EXPORT, tr(EXPORT_LABEL), enabled=can_export))
    items.append(MenuItem(FORGET, tr(FORGET_LABEL), enabled=bool(chats)))
    return items


def chosen(item_id: int, chats: Sequence[ChatSummary]):
    """("open" | "delete", chat id), ("export" | "forget", None) or None for a chosen id."""
    if item_id == EXPORT:
        return ("export", None)
    if item_id == FORGET:
        return ("forget", None)
    for base, action in ((OPEN_BASE, "open"), (DELETE_BASE, "delete")):
        if 0 <= item_id - base < len(chats):
            return (action, chats[item_id - base].chat_id)
    return None


def export_name(title: str) -> str:
    """The file name the export offers: the document's name with .md."""
    stem = (title or "").rsplit(".", 1)[0] if "." in (title or "") else (title or "")
    stem = "".join(c for c in stem if c not in '/\\:*?"<>|').strip()
    return stem + " chat.md" if stem else "chat.md"

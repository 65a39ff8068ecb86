"""LibreOffice's own words for its own concepts (pure): which command's label names each.

Where Marginalia speaks of something that is LibreOffice's (Track Changes, a comment,
the sidebar, Accept All, Undo), it uses the label the office shows in its own menus, in
the office's own language, so the panel's wording matches the menus around it. The
English here is the fallback when a label cannot be read (and what tests expect on an
English office).
"""

from typing import Dict, NamedTuple

TEXT_DOCUMENT = "com.sun.star.text.TextDocument"


class Term(NamedTuple):
    command: str        # the .uno: command whose label names the concept
    english: str        # said when the office's label cannot be read
    # Which label: a submenu item's Label can be one word ("Record", under Edit > Track
    # Changes) while its TooltipLabel says the whole ("Record Track Changes").
    field: str = "Label"


TERMS: Dict[str, Term] = {
    "track_changes": Term(".uno:TrackChanges", "Record Track Changes", "TooltipLabel"),
    "manage_changes": Term(".uno:AcceptTrackedChanges", "Manage Changes", "TooltipLabel"),
    "accept_all": Term(".uno:AcceptAllTrackedChanges", "Accept All"),
    "reject_all": Term(".uno:RejectAllTrackedChanges", "Reject All"),
    "accept": Term(".uno:AcceptTrackedChange", "Accept"),
    "reject": Term(".uno:RejectTrackedChange", "Reject"),
    "comment": Term(".uno:InsertAnnotation", "Comment"),
    "undo": Term(".uno:Undo", "Undo"),
    "sidebar": Term(".uno:Sidebar", "Sidebar"),
    "options": Term(".uno:OptionsTreeDialog", "Options"),
    "footnote": Term(".uno:InsertFootnote", "Footnote"),
    "endnote": Term(".uno:InsertEndnote", "Endnote"),
}


def clean(label: str) -> str:
    """A menu label as words: without the mnemonic mark ("~") and a trailing ellipsis, and
    without the "(Ctrl+Z)"-style shortcut some labels carry."""
    text = label.replace("~", "").strip()
    for tail in ("...", "\u2026"):
        if text.endswith(tail):
            text = text[:-len(tail)].rstrip()
    if text.endswith(")") and "(" in text:
        head = text[:text.rindex("(")].rstrip()
        if head:
            text = head
    return text

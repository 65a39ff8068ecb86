"""The change card's wording and layout (pure): "3 changes  [Review]".

The card sits at the top of the panel when a turn has edited (when: ui.change_fold):
one line saying how many changes the last editing turn made, with Review.
Review opens a list of the turn's changes (choosing one selects it in the
document) with the buttons that act on the chosen one or on the whole turn,
Undo turn last. Above it, only while the user opens it (the panel's Editing
options button), a tray with the apply mode switch, Restore… (a menu of this
chat's messages: the document and the chat go back to before the one chosen)
and Keep out (marks or unmarks the selected passage).
"""

import dataclasses
import re
import time
from typing import Dict, List, Optional, Sequence, Tuple

from marginalia.document import change_log as cl
from marginalia.document import docview
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr, trn

# English, marked for the catalog and translated where shown: tr(MODE_LABELS[i][1]),
# tr(label) and tr(tip) of BUTTONS, tr(BUSY), tr(ACCEPTED) % what.
MODE_LABELS = ((cl.DIRECT, N_("Edit directly")), (cl.TRACKED, N_("Suggest changes")),
               (cl.COMMENTS, N_("Comment only")))
# (name, label, tooltip)
BUTTONS = (
    ("review", N_("Review"), N_("List this turn's changes")),
    ("undo_turn", N_("Undo turn"), N_("Take this turn's edits back in one step")),
    ("restore", N_("Restore\u2026"), N_("Take the document and the chat back to before a "
                                        "message (the newest first)")),
    ("keep_out", N_("Keep out"), N_("Keep Marginalia out of the selected passage; once "
                                    "passages are kept out, a list of them to go to or let "
                                    "Marginalia in")),
    ("go_to", N_("Go to"), N_("Select the chosen change in the document")),
    ("accept", N_("Accept"), N_("Accept the chosen tracked change")),
    ("reject", N_("Reject"), N_("Reject the chosen tracked change")),
    ("apply", N_("Apply"), N_("Make the chosen suggestion real")),
    ("accept_all", N_("Accept all"), N_("Accept this turn's tracked changes (only this "
                                        "turn's)")),
    ("reject_all", N_("Reject all"), N_("Reject this turn's tracked changes (only this "
                                        "turn's)")),
)
REVIEW_BUTTONS = ("go_to", "accept", "reject", "apply", "accept_all", "reject_all")
REVIEW_PAIRS = ("go_to", "apply", "accept", "reject", "accept_all", "reject_all")

RESTORE_QUESTION = N_("You edited the document after that message. Restoring also takes back "
                      "your own edits since then. Restore anyway?")
# The Restore menu's first entry says the order (a greyed title line would be hidden:
# VCL hides a popup's disabled entries unless "Show inactive menu items" is on).
NEWEST = N_("(newest)")
UNKNOWN_TURNS = N_("The edits after that message were made before the document was last "
                   "opened, so they cannot be taken back from here; nothing was changed.")
BUSY = N_("Wait for the answer to finish (or stop it) first.")
NO_MESSAGES = N_("There is no message to restore to yet.")
UNDONE = N_("This turn's edits are undone (Redo brings them back).")
USER_EDITED = N_("You edited the document after this turn: Restore\u2026 to before its "
                 "message takes back both.")
ACCEPTED = N_("Accepted %s.")
REJECTED = N_("Rejected %s.")
APPLIED = N_("Applied the suggestion.")
NOTHING_OPEN = N_("Nothing of this turn is waiting for review.")
MODE_SET = N_("New turns: %s.")
MODE_HELD = N_("%s is chosen: press Enter to use it for new turns, or Escape to keep the "
               "mode.")

# A change's state and kind as the review list shows them (the records keep English words).
_STATES = {cl.ACCEPTED: N_("accepted"), cl.REJECTED: N_("rejected"), cl.APPLIED: N_("applied"),
           cl.UNDONE: N_("undone"), cl.PROPOSED: N_("proposed"), cl.REVIEWED: N_("reviewed")}
_KINDS = {cl.REPLACE: N_("replace"), cl.INSERT: N_("insert"), cl.DELETE: N_("delete"),
          cl.RESTYLE: N_("restyle"), cl.FORMAT: N_("format"), cl.COMMENT: N_("comment"),
          cl.TABLE: N_("table")}

MARGIN = 6
GAP = 4
ROW = 26
LIST = 132
# The narrowest a button may be and still show "Undo turn" or "Accept all" whole
# (measured on a screenshot: LibreOffice's default UI font at 96 dpi).
THIRD_MIN = 72
HEADLINE_LINE = 16    # one line of the headline label
HEADLINE_LINES = 3


def _states(changes: Sequence[cl.Change], state: str) -> str:
    n = sum(1 for c in changes if c.state == state)
    if not n:
        return ""
    if state == cl.ACCEPTED:
        return trn("%d accepted", "%d accepted", n) % n
    if state == cl.REJECTED:
        return trn("%d rejected", "%d rejected", n) % n
    if state == cl.APPLIED:
        return trn("%d applied", "%d applied", n) % n
    return trn("%d undone", "%d undone", n) % n


def headline(changes: Sequence[cl.Change]) -> str:
    """"3 changes", "2 suggestions · 1 applied", or "" when there is nothing to show."""
    if not changes:
        return ""
    proposed = sum(1 for c in changes if c.mode == cl.COMMENTS and c.kind != cl.COMMENT)
    n = len(changes)
    if proposed == n:
        parts = [trn("%d suggestion", "%d suggestions", n) % n]
    else:
        parts = [trn("%d change", "%d changes", n) % n]
    for state in (cl.ACCEPTED, cl.REJECTED, cl.APPLIED, cl.UNDONE):
        part = _states(changes, state)
        if part:
            parts.append(part)
    pending = sum(1 for c in changes if c.state in cl.OPEN_STATES)
    if pending and pending != len(changes):
        parts.append(trn("%d open", "%d open", pending) % pending)
    return " \u00b7 ".join(parts)


# Marks in matching pairs only: a lone "**" or "`" is text ("a**b", "2 ** 3").
_PAIRED = re.compile(r"(\*\*|~~|`)(?=\S)(.+?)(?<=\S)\1")
# Underscores mark only outside a word (CommonMark): "snake__case__x" stays.
_UNDER = re.compile(r"(?<!\w)__(\S|\S.*?\S)__(?!\w)")
_HEADING = re.compile(r"^#{1,6}\s+")
_STRESS = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)\*(?![\w*])")


def plain(text: str) -> str:
    """A snippet without markdown's marks (a row is read, not rendered): "**Sum**" -> "Sum".
    Only marks in matching pairs go; for the model's text, never the document's own."""
    text = _HEADING.sub("", text or "", count=1)
    return _STRESS.sub(r"\1", _UNDER.sub(r"\1", _PAIRED.sub(r"\2", text)))


def rows(changes: Sequence[cl.Change]) -> Tuple[str, ...]:
    """The review list's lines, one per change (the office shortens them to the list's
    width: office.text_fit)."""
    # Only the model's text is markdown: the document's ("__init__", "a**b") stays as it is.
    return tuple(_line(dataclasses.replace(c, after=plain(c.after)))
                 for c in changes)


def _line(change: cl.Change) -> str:
    """change_log.row in the user's language: the words first (issue 39), then where, the
    kind, the state in words (a screen reader's) and the source."""
    kind = tr(_KINDS[change.kind]) if change.kind in _KINDS else (change.kind or "")
    state = tr(_STATES[change.state]) if change.state in _STATES else change.state
    return cl.row(change, kind, state, tr("from %s") % change.source if change.source else "")


def enabled(changes: Sequence[cl.Change], chosen: Optional[int], undoable: bool,
            idle: bool) -> Dict[str, bool]:
    """Which card buttons can act now (``chosen``: the list position, or None)."""
    change = changes[chosen] if chosen is not None and 0 <= chosen < len(changes) else None
    pending = [c for c in changes if c.state == cl.PENDING]
    return {
        "review": bool(changes),
        "undo_turn": idle and undoable,
        "restore": idle,
        "keep_out": True,
        "go_to": change is not None and change.state != cl.UNDONE,
        "accept": idle and change is not None and change.state == cl.PENDING,
        "reject": idle and change is not None and change.state == cl.PENDING,
        "apply": idle and change is not None and change.state == cl.PROPOSED,
        "accept_all": idle and bool(pending),
        "reject_all": idle and bool(pending),
    }


def next_row(changes: Sequence[cl.Change], acted: int) -> Optional[int]:
    """The row the keyboard goes to after Accept, Reject or Apply on row ``acted``: the
    next one still to decide, else the first; None when none is left (then Review)."""
    undecided = [i for i, c in enumerate(changes) if c.state in cl.OPEN_STATES]
    return next((i for i in undecided if i > acted), undecided[0] if undecided else None)


def when(at: float, now: Optional[float] = None) -> str:
    """"14:05" today, "25 Nov 14:05" before; "" when the time is not known."""
    try:
        moment = time.localtime(at) if at else None
    except (OverflowError, OSError, ValueError):
        moment = None
    if moment is None:
        return ""
    today = time.localtime(time.time() if now is None else now)
    if moment[:3] == today[:3]:
        return formats.clock(moment)
    return "%s %s" % (formats.day_month(moment), formats.clock(moment))


def restore_items(messages: List[Tuple[int, str]],
                  now: Optional[float] = None) -> List[Tuple[int, str]]:
    """(log index, menu label) of each user message, newest first: its number in the
    chat, when it was sent and its first words ("3 · 14:05 · “Fix the typos…”"), so
    two messages that read the same are told apart."""
    items = []
    for number, (index, text) in enumerate(messages, 1):
        parts = ["%d" % number, when(getattr(text, "at", 0), now),
                 "\u201c%s\u201d" % docview.short(text.replace("\n", " "), 40)]
        items.append((index, " \u00b7 ".join(p for p in parts if p)))
    items.reverse()
    if len(items) > 1:
        items[0] = (items[0][0], "%s %s" % (items[0][1], tr(NEWEST)))
    return items


def restored_sentence(text: str, turns: int, yours: bool = False, number: int = 0) -> str:
    """What Restore did: back to before message ``number``, how many turns (and whether
    the user's own edits) it took back."""
    shown = docview.short(text.replace("\n", " "), 40)
    values = {"number": number, "text": shown,
              "turns": trn("%d turn", "%d turns", turns) % turns}
    if not turns and not yours:
        return tr("The chat is back to before message %(number)d (\u201c%(text)s\u201d); "
                  "there were no document edits to take back.") % values
    if yours:
        return tr("Restored to before message %(number)d (\u201c%(text)s\u201d): %(turns)s "
                  "and your own edits since then taken back; Redo brings them back.") % values
    return tr("Restored to before message %(number)d (\u201c%(text)s\u201d): %(turns)s taken "
              "back; Redo brings them back.") % values


def _grid(names: Sequence[str], per_row: int, top: int, inner: int,
          boxes: Dict[str, Tuple[int, int, int, int]]) -> int:
    """Buttons ``per_row`` to a row from ``top``, the last of a row taking what is left."""
    each = (inner - (per_row - 1) * GAP) // per_row
    right = MARGIN + inner
    for i, name in enumerate(names):
        col = i % per_row
        x = MARGIN + col * (each + GAP)
        boxes[name] = (x, top, each if col < per_row - 1 else right - x, ROW)
        if col == per_row - 1 or i == len(names) - 1:
            top += ROW + GAP
    return top


def layout(width: int, y: int, review_open: bool, shown: bool, need: int = 0,
           tray_open: bool = False, headline_need: int = 0, review_need: int = 0
           ) -> Tuple[int, Dict[str, Tuple[int, int, int, int]]]:
    """(height, {control: box}) of the card at ``y``; hidden controls get no box.

    Top to bottom: the tray of edit options while open (the apply mode switch,
    Restore… and Keep out: the panel's Editing options button opens it), the
    summary line while there are changes to show (``shown``: the headline with
    Review beside it), and the review list with its buttons while open.
    ``need``: the width the widest button's label needs in this toolkit
    (office.button_width: gtk3 pads buttons more than the gen plugin), when the
    caller knows it; ``headline_need`` the headline's own width on one line: a
    headline too long for its place wraps onto more lines rather than being cut;
    ``review_need`` Review's own label's width: beside the headline it takes that, not the
    widest button's ("Alle ablehnen" left "1 Änderung" 40 px, broken inside its word).
    """
    if not shown and not tray_open:
        return 0, {}
    inner = max(width - 2 * MARGIN, 120)
    boxes = {}
    top = y + MARGIN
    third = (inner - 2 * GAP) // 3
    right = MARGIN + inner
    narrowest = max(THIRD_MIN, need)
    per_row = 3 if third >= narrowest else (2 if (inner - GAP) // 2 >= narrowest else 1)
    if tray_open:
        if per_row == 3:
            boxes["mode"] = (right - third, top, third, ROW)
            top = _grid(("restore", "keep_out"), 3, top, inner, boxes)
        else:
            # The sidebar at its usual width: the switch a row of its own.
            boxes["mode"] = (MARGIN, top, inner, ROW)
            top = _grid(("restore", "keep_out"), per_row, top + ROW + GAP, inner, boxes)
    if shown:
        review_w = third if per_row == 3 else (max(THIRD_MIN, review_need) if review_need
                                               else narrowest)
        text_w = max(inner - GAP - review_w, 40)
        lines = max(1, min(HEADLINE_LINES, -(-headline_need // text_w))) if headline_need else 1
        if review_open:
            # Each decision lengthens the headline ("2 changes · 1 accepted · 1 open"): its
            # room is kept from the start, so the list and buttons never move under the
            # pointer (issue 39), and Review sits at the row's top, where it was.
            lines = HEADLINE_LINES
        row = max(ROW, lines * HEADLINE_LINE + 6)
        # Open, both keep to the row's top; closed, they sit in its middle.
        head_y, review_y = ((3, 0) if review_open else
                            ((row - lines * HEADLINE_LINE) // 2, (row - ROW) // 2))
        boxes["headline"] = (MARGIN, top + head_y, text_w, lines * HEADLINE_LINE)
        boxes["review"] = (right - review_w, top + review_y, review_w, ROW)
        top += row + GAP
        if review_open:
            boxes["changes"] = (MARGIN, top, inner, LIST)
            # In pairs, Accept sits beside Reject, as Accept all beside Reject all.
            order = (REVIEW_BUTTONS if per_row == 3 else REVIEW_PAIRS) + ("undo_turn",)
            top = _grid(order, per_row, top + LIST + GAP, inner, boxes)
    return top - y, boxes

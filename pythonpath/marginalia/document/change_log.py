"""What one AI edit changed, as a plain value: the change record of a turn.

Every edit tool call of a turn leaves one Change: its kind, the paragraphs it
touched, a short before and after, and how the office side finds it again
(``handle``: the tracked changes' identifiers, or that a range mark is kept in
the session, or the proposing comment's name). The records travel as CHANGE
events (events.py), so the panel's card, the job service and the headless
runner read the same list; the office side (writer.ledger) keeps the live
handles beside them.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from marginalia.document import docview
# The change kinds are the declarations' (document.tool_specs); named here for the readers
# of records.
from marginalia.document.tool_specs import (  # noqa: F401
    COMMENT, DELETE, FORMAT, FOUND, INSERT, KINDS, REPLACE, RESTYLE, TABLE, spec)

# The three ways a turn applies its edits (the apply_mode setting).
DIRECT, TRACKED, COMMENTS = "direct", "tracked", "comments"
MODES = (DIRECT, TRACKED, COMMENTS)

# A change's state: made (direct), waiting for review (tracked), proposed in a
# comment (comments), and what the user did with it.
MADE, PENDING, PROPOSED = "made", "pending", "proposed"
ACCEPTED, REJECTED, APPLIED, UNDONE = "accepted", "rejected", "applied", "undone"
REVIEWED = "reviewed"     # settled in Writer itself (accepted, rejected or deleted there)
OPEN_STATES = (PENDING, PROPOSED)

SHORT = 80


def apply_mode(settings: Any) -> str:
    """The mode a turn runs in: ``apply_mode``, with the older track_changes setting read too.

    Comment only is only ever chosen as a mode; otherwise track_changes decides
    (settings from before the modes had only that tick box), and the panel's
    switch and the Options page write both fields (mode_fields) so they agree.
    """
    if (getattr(settings, "apply_mode", "") or "") == COMMENTS:
        return COMMENTS
    return TRACKED if getattr(settings, "track_changes", False) else DIRECT


def mode_fields(mode: str) -> Dict[str, Any]:
    """The settings fields that say ``mode`` (both, so an older reader agrees)."""
    if mode not in MODES:
        raise ValueError("unknown apply mode %r" % (mode,))
    return {"apply_mode": mode, "track_changes": mode == TRACKED}


def after_text(tool: str, arguments: Dict[str, Any]) -> str:
    """The proposed or new text of a call, as the record and a proposing comment say it."""
    declared = spec(tool)
    return declared.after(arguments) if declared is not None else ""


def proposal(tool: str, arguments: Dict[str, Any]) -> str:
    """The comment Comment only writes instead of making the edit."""
    declared = spec(tool)
    return declared.proposal(arguments) if declared is not None else ""


@dataclass
class Change:
    """One edit of one turn (or, in Comment only, one proposed edit)."""

    id: int
    turn: int
    tool: str
    kind: str
    mode: str
    paragraphs: List[int] = field(default_factory=list)   # [first, last]; [] when unknown
    before: str = ""
    after: str = ""
    state: str = MADE
    handle: Dict[str, Any] = field(default_factory=dict)
    arguments: Dict[str, Any] = field(default_factory=dict)
    # Every paragraph a change of several places touched (an all=true search), when
    # they are not all of first..last: "paragraphs" alone would claim the ones between.
    places: List[int] = field(default_factory=list)
    # Where in the chat's sources the new text comes from ("report.pdf, p. 3"; office.source_turn).
    source: str = ""

    def to_dict(self) -> Dict[str, Any]:
        out = {"id": self.id, "turn": self.turn, "tool": self.tool, "kind": self.kind,
               "mode": self.mode, "paragraphs": list(self.paragraphs),
               "before": self.before, "after": self.after, "state": self.state,
               "handle": dict(self.handle)}
        if self.places:
            out["places"] = list(self.places)
        if self.source:
            out["source"] = self.source
        return out

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Change":
        return cls(int(data["id"]), int(data["turn"]), str(data.get("tool", "")),
                   str(data.get("kind", "")), str(data.get("mode", DIRECT)),
                   list(data.get("paragraphs") or []), str(data.get("before", "")),
                   str(data.get("after", "")), str(data.get("state", MADE)),
                   dict(data.get("handle") or {}),
                   places=[int(n) for n in data.get("places") or []],
                   source=str(data.get("source") or ""))


def make(change_id: int, turn: int, tool: str, mode: str, arguments: Dict[str, Any],
         before: str = "", paragraphs: Optional[List[int]] = None) -> Change:
    """A record for one call of ``tool``; before is what the office side saw there."""
    declared = spec(tool)
    kind = declared.kind if declared is not None and declared.kind else REPLACE
    if declared is not None and declared.target == FOUND and not before:
        before = str(arguments.get("search", ""))
    state = {DIRECT: MADE, TRACKED: PENDING, COMMENTS: PROPOSED}[mode]
    if mode == COMMENTS and declared is not None and not declared.proposes:
        state = MADE    # a comment is what Comment only makes anyway
    return Change(change_id, turn, tool, kind, mode, list(paragraphs or []),
                  docview.short(before, SHORT), docview.short(after_text(tool, arguments), SHORT),
                  state, {}, dict(arguments))


def spread(numbers: List[int]) -> List[int]:
    """The places of a change that touched these paragraphs, sorted: [] when they run
    without a gap (then [first, last] says it all)."""
    found = sorted(set(int(n) for n in numbers))
    if not found:
        return []
    return found if len(found) != found[-1] - found[0] + 1 else []


def spans(numbers: List[int]) -> List[Tuple[int, int]]:
    """Sorted numbers as (first, last) runs without gaps: [2, 3, 4, 7] -> [(2, 4), (7, 7)]."""
    runs: List[List[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return [(a, b) for a, b in runs]


def _runs(numbers: List[int]) -> List[str]:
    return ["%d" % a if a == b else "%d\u2013%d" % (a, b) for a, b in spans(numbers)]


def where(change: Change, most: int = 4) -> str:
    """"¶4", "¶4–6" or, for a change of several places, "¶2–3, 7, 9" (past ``most`` runs
    of places, "+N" more runs); "" when the paragraphs are not known."""
    if change.places:
        runs = _runs(change.places)
        more = " +%d" % (len(runs) - most) if len(runs) > most else ""
        return "\u00b6" + ", ".join(runs[:most]) + more
    if not change.paragraphs:
        return ""
    first, last = change.paragraphs[0], change.paragraphs[-1]
    return "\u00b6%d" % first if first == last else "\u00b6%d\u2013%d" % (first, last)


def text_of(change: Change) -> str:
    """A change's text in a row: \u201cbefore\u201d \u2192 \u201cafter\u201d, + \u201cadded\u201d or \u2212 \u201cremoved\u201d."""
    if change.before and change.after:
        return "\u201c%s\u201d \u2192 \u201c%s\u201d" % (docview.short(change.before, 30),
                                                     docview.short(change.after, 30))
    if change.after:
        return "+ \u201c%s\u201d" % docview.short(change.after, 50)
    return "\u2212 \u201c%s\u201d" % docview.short(change.before, 50)


# A settled change's sign before its words: accepted or applied, rejected, taken back.
SIGNS = {ACCEPTED: "\u2713", APPLIED: "\u2713", REJECTED: "\u2717",
         UNDONE: "\u21b6"}


def line(change: Change) -> str:
    """One line for the review list, in English (ui.change_list words it for the user)."""
    return row(change, change.kind, change.state,
               "from %s" % change.source if change.source else "")


def row(change: Change, kind: str, state: str, drawn: str) -> str:
    """A review row from its words as worded: the words (before → after) first, for at
    the sidebar's usual width the end of a row is cut off; a settled change's sign before
    them; then where and ``kind``, ``state`` (said only once settled) and ``drawn`` (the
    source it came from, or "")."""
    sign = SIGNS.get(change.state)
    settled = state if change.state not in (MADE, PENDING) else ""
    tail = (" ".join(p for p in (where(change), kind) if p), settled, drawn)
    return " \u00b7 ".join([(sign + " " if sign else "") + text_of(change)]
                            + [p for p in tail if p])


def turns_in(entries: List[Any]) -> List[int]:
    """The ledger turns whose CHANGE events are among log ``entries`` (in order, once each)."""
    seen = []
    for role, payload in entries:
        if role == "event" and getattr(payload, "kind", None) == "change" and payload.change:
            turn = payload.change.get("turn")
            if turn is not None and turn not in seen:
                seen.append(turn)
    return seen

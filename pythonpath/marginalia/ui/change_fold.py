"""When the change card shows and when its review list folds away (pure).

Content first (issue 24): the conversation keeps the panel's height unless
there is something to review. The card is a one-line summary ("3 changes",
with Review beside it) shown only while the chat's last turn made changes,
or while an earlier turn's changes still wait for a decision; a plain question
shows none. The review list it opens folds away again by itself when a new
turn starts and when the last open change is accepted or rejected; the tray
of edit options (the apply mode, Restore…, Keep out: office.change_card)
folds with a new turn too, so neither takes rows from the next answer.
"""

from typing import Any, List, Optional, Sequence

from marginalia.document import change_log as cl

# Why the card looks again at its folds.
NEW_TURN = "new turn"
REVIEWED = "reviewed"        # an action on the card (Accept, Reject, Apply, Undo turn…)
CLOSED = "closed"            # the user pressed Review again


def user_turns(entries: List[Any]) -> int:
    """How many messages the user sent in this chat (a new one means a new turn)."""
    return sum(1 for role, _payload in entries if role == "user")


def by_last_turn(entries: List[Any], number: int) -> bool:
    """Whether the ledger turn ``number`` made its changes after the user's last message."""
    last = max((i for i, (role, _p) in enumerate(entries) if role == "user"), default=-1)
    for role, payload in entries[last + 1:]:
        if role == "event" and getattr(payload, "kind", None) == "change" and payload.change \
                and payload.change.get("turn") == number:
            return True
    return False


def open_count(changes: Sequence[cl.Change]) -> int:
    """Changes still waiting for Accept, Reject or Apply."""
    return sum(1 for c in changes if c.state in cl.OPEN_STATES)


def card_shown(changes: Sequence[cl.Change], last_turn_made_them: bool) -> bool:
    """The summary shows for the last turn's changes, or for older ones still open."""
    if not changes:
        return False
    return last_turn_made_them or open_count(changes) > 0


def review_open(was_open: bool, why: str, open_before: int = 0, open_now: int = 0) -> bool:
    """Whether the review list stays open after ``why`` (NEW_TURN, REVIEWED, CLOSED).

    It folds when the user closes it, when a new turn starts, and when an action
    settled the last change that was open (there is nothing left to decide).
    """
    if not was_open or why in (NEW_TURN, CLOSED):
        return False
    if why == REVIEWED and open_before > 0 and open_now == 0:
        return False
    return True


def new_turn(seen: Optional[int], now: int) -> bool:
    """A turn started since the card last looked (``seen`` None: it never looked)."""
    return seen is not None and now > seen

"""Which of the panel's cards show (pure): the first-run card, the change card's
summary line, its review list and the tray of editing options.

Part of the panel's presenter (ui.status.PanelPresenter.cards): the office side
tells it what it found (the model set or not, the changes of the chat's last
editing turn) and what the user did (Review, Editing options, an action on a
change, a new turn), and the cards draw what ``shown()`` answers. The rules are
ui.first_run's (the first-run card) and ui.change_fold's (content first: the
summary only when there is something to review; the list and the tray fold as a
turn begins, the list also when nothing is left open).
"""

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from marginalia.ui import change_fold, first_run

MODE = "mode"               # focus_after: the apply mode switch, first in the opened tray


@dataclass(frozen=True)
class CardsShown:
    setup: bool             # the first-run card
    summary: bool           # the change card's line ("3 changes", Review)
    review: bool            # its list of changes, under the line
    tray: bool              # the editing options (apply mode, Restore…, Keep out)

    @property
    def changes(self) -> bool:
        """Whether the change card takes any room (its line, or the tray while open)."""
        return self.summary or self.tray


class CardState:
    """The cards' state between the user's actions; ``shown()`` says what to draw."""

    def __init__(self):
        self.setup = False
        self.summary = False
        self.review = False
        self.tray = False
        self.open_now = 0       # the shown turn's changes still waiting for a decision

    # -- what the office found -------------------------------------------------
    def model_state(self, model: Optional[str], answered: bool, locked=()) -> bool:
        """The settings as loaded: whether the first-run card shows (ui.first_run)."""
        self.setup = first_run.needs_card(model, answered, locked)
        return self.setup

    def answered(self) -> None:
        """A model answered once: the first-run card has done its work."""
        self.setup = False

    def changes_seen(self, changes: Sequence[Any], last_turn_made_them: bool) -> None:
        """The chat's last editing turn as it is now (writer.review's records)."""
        self.summary = change_fold.card_shown(changes, last_turn_made_them)
        if not self.summary:
            self.review = False
        self.open_now = change_fold.open_count(changes)

    # -- what the user did -----------------------------------------------------
    def turn_began(self) -> None:
        """A message went: the list and the tray fold, the answer gets the room."""
        self.review = change_fold.review_open(self.review, change_fold.NEW_TURN)
        self.tray = False

    def review_pressed(self) -> bool:
        """Review: opens the list, or closes it when open (change_fold.CLOSED)."""
        self.review = False if self.review else self.summary
        return self.review

    def reviewed(self, open_before: int) -> None:
        """An action on a change ended (after ``changes_seen``): when it settled the last
        one still open, the list folds (nothing is left to decide)."""
        self.review = change_fold.review_open(self.review, change_fold.REVIEWED,
                                              open_before, self.open_now)

    def tray_pressed(self) -> Optional[str]:
        """Editing options: open or fold the tray; opened, the keyboard goes to its switch."""
        self.tray = not self.tray
        return MODE if self.tray else None

    def shown(self) -> CardsShown:
        return CardsShown(self.setup, self.summary, self.review and self.summary, self.tray)

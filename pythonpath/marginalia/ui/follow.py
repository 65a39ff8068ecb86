"""Whether the conversation follows its end while text arrives (pure; office.pane_scroll
reads the pane's scroll bar and draws what this decides).

The user's scroll wins. The view follows the end only while it shows the end:
a wheel, the scroll bar or a key that moved it up leaves it where the user put
it while the answer streams, and "new reply below" is offered once text
arrives out of sight. The offer stays until it is used (the button, Send), the
user scrolls back to the end, or text arrives while the view shows the end
again (the panel grew); each resumes following. Where the
pane's scroll bar cannot be read, the cursor decides as before: text arriving
after the cursor is followed.
"""

from typing import NamedTuple, Optional

# Pixels short of the end that still count as the end: the text view stops a
# line's fraction early when its height is not a whole number of lines.
SLACK = 4


class Scroll(NamedTuple):
    """Where a pane's view is, in its scroll bar's units (pixels on LibreOffice 7.4)."""
    value: int          # the view's top
    maximum: int        # the text's height
    visible: int        # the view's height


def at_end(scroll: Scroll) -> bool:
    """Whether the view shows the text's end (all of a text that fits is its end)."""
    return scroll.value + scroll.visible >= scroll.maximum - SLACK


class Follow:
    """The conversation's following state and its "new reply below" offer."""

    def __init__(self):
        self.following = True
        self.offered = False

    def arriving(self, scroll: Optional[Scroll], cursor_at_end: bool) -> bool:
        """Text is about to be added: whether the view goes to the new end.

        ``scroll`` is the view before the text lands (None where it cannot be
        read; then ``cursor_at_end``, the cursor at or after the changed text, decides).
        """
        self.following = at_end(scroll) if scroll is not None else cursor_at_end
        # The view shows the end again (the panel grew, the text above was shortened):
        # nothing is below any more, so the offer goes as it does on a scroll to the end.
        self.offered = not self.following
        return self.following

    def scrolled(self, scroll: Scroll) -> None:
        """The user moved the view: back at the end, following resumes and the offer goes."""
        self.following = at_end(scroll)
        if self.following:
            self.offered = False

    def jumped(self) -> None:
        """The view was sent to the end (the offer pressed, Send, another chat shown)."""
        self.following = True
        self.offered = False

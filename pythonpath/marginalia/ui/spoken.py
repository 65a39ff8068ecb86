"""What a screen reader is given (office.assistive says when): pure, so it is testable.

A finished reply is announced in the status line with its opening words; where
the panes cannot show a screen reader their text, they are shown as lists of
lines, which it reads item by item.
"""

from typing import List

from marginalia.i18n.catalog import N_, tr
from marginalia.ui.softwrap import plain

# The reply's first words follow (translated where the status line is made: announcement).
ANSWERED = N_("Answered: %s")
# Enough for a screen reader to say what the reply is about; the rest is in the conversation.
ANNOUNCE_CHARS = 300


def announcement(answer: str) -> str:
    """The status line for a finished reply: "Answered: " and its first words, on one line."""
    words = " ".join(plain(answer).split())
    if len(words) > ANNOUNCE_CHARS:
        cut = words.rfind(" ", 0, ANNOUNCE_CHARS)
        words = words[:cut if cut > 0 else ANNOUNCE_CHARS] + "\u2026"
    return tr(ANSWERED) % words


def lines(text: str) -> List[str]:
    """A pane's text as list items: one per line (soft breaks joined back), none empty."""
    return [line for line in plain(text).split("\n") if line.strip()]


def first_change(old: List[str], new: List[str]) -> int:
    """The first index at which ``new`` differs from ``old`` (len of both when equal)."""
    for i, (a, b) in enumerate(zip(old, new)):
        if a != b:
            return i
    return min(len(old), len(new))


def answer_line(items: List[str], answer: str) -> int:
    """The index of the last item where ``answer`` begins, or the last item (-1 if none)."""
    first = next((line.strip() for line in lines(answer)), "")
    if first:
        for i in range(len(items) - 1, -1, -1):
            if first[:40] in items[i]:
                return i
    return len(items) - 1

"""Which way the panel's panes run: left to right, or right to left (pure).

A pane is one VCL edit control, and its alignment is the whole pane's, not a
paragraph's (office.panel_panes). So a pane follows the direction of what the
user reads now: the conversation that of the last message, taken from the
user's own message when it is sent and then from the answer's first letters;
the thinking pane that of the turn's thinking. The direction of a text is the
direction of its first strong letter, as a browser's dir="auto" decides it:
markdown marks, digits and punctuation have none and are passed over.
"""

import unicodedata
from typing import Dict, Iterable, Optional, Tuple

from marginalia.events import REASONING, RECLASSIFY, TEXT

RTL_CLASSES = ("R", "AL")          # Hebrew and other right-to-left letters; Arabic letters
PANE_OF = {TEXT: "transcript", REASONING: "thinking"}


def first_strong(text: str) -> Optional[bool]:
    """True if the text's first strong letter is right to left, False if left to right,
    None if it has none yet."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind == "L":
            return False
        if kind in RTL_CLASSES:
            return True
    return None


class Directions:
    """The direction of each pane, decided once per turn by the first text that has one."""

    def __init__(self) -> None:
        self._decided: Dict[str, bool] = {}
        self._asked: Optional[bool] = None     # the direction of the turn's message

    def see(self, entries: Iterable[Tuple[str, object]]) -> Dict[str, bool]:
        """The panes whose direction these log entries settle, with it (right to left: True)."""
        out: Dict[str, bool] = {}
        for role, payload in entries:
            if role == "user":
                # A new turn: the message sets the conversation's way until the answer speaks.
                self._decided = {}
                self._asked = first_strong(str(payload))
                if self._asked is not None:
                    out["transcript"] = self._asked
                continue
            kind = getattr(payload, "kind", None)
            if kind == RECLASSIFY:
                # That "answer" was thinking after all: the message's direction holds again
                # until the real answer speaks.
                if self._decided.pop("transcript", None) is not None and \
                        self._asked is not None:
                    out["transcript"] = self._asked
                continue
            pane = PANE_OF.get(kind)
            if pane is None or pane in self._decided:
                continue
            rtl = first_strong(payload.text or "")
            if rtl is not None:
                self._decided[pane] = out[pane] = rtl
        return out

"""Which way the panel's panes run: left to right, or right to left (pure).

A pane is one VCL edit control, and its alignment is the whole pane's, not a
paragraph's (office.panel_panes; the controls that could do it per message were
measured, docs/ARCHITECTURE.md "The panel", and neither can: no mouse wheel, or
seconds to fill). So the conversation runs the
way the user writes: the direction of the user's last message, and only when a
message has no letters (``2 + 2?``), of its answer's first letters. An answer in
another script (a translation into Arabic asked in English) then keeps the earlier
lines where they were instead of flipping the whole pane, and the pane turns only
when the user does. Before any message it runs the way the user's LibreOffice
does (Arabic, Hebrew, Persian…: right to left). The thinking pane follows the
turn's thinking. The direction of a text is the direction of its first strong
letter, as a browser's dir="auto" decides it: markdown marks, digits and
punctuation have none and are passed over.
"""

import unicodedata
from typing import Dict, Iterable, Optional, Tuple

from marginalia.events import REASONING, RECLASSIFY, TEXT

RTL_CLASSES = ("R", "AL")          # Hebrew and other right-to-left letters; Arabic letters
# Languages written right to left (their tags' first part), for the panes' start.
RTL_LANGUAGES = ("ar", "arc", "ckb", "dv", "fa", "he", "ps", "sd", "ug", "ur", "yi")


def language_rtl(tag: str) -> bool:
    """Whether the language of ``tag`` ("ar", "he_IL", "fa-IR") is written right to left."""
    return (tag or "").replace("-", "_").split("_")[0].lower() in RTL_LANGUAGES
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
            if pane == "transcript" and self._asked is not None:
                continue      # the user's message gave the way: the answer does not flip it
            rtl = first_strong(payload.text or "")
            if rtl is not None:
                self._decided[pane] = out[pane] = rtl
        return out

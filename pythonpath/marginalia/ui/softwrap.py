"""Long paragraphs shown as several lines in the panes, and where to trim a long pane (pure).

The conversation pane is a plain multi-line Edit; ui.transcript and
ui.answer_format feed everything they show through one SoftWrap per pane.
"""

import re

# The edit control lays out a paragraph again from its start on every insert,
# and line-breaks the inserted text against the rest of the paragraph: 200
# words appended to one long paragraph cost 50-150 ms on LibreOffice 7.4,
# the same words in paragraphs of at most about 600 characters 5-7 ms. So a
# long paragraph is shown as several: a space after a sentence end becomes a
# line break once the line is SOFT_WRAP long, any space once it is HARD_WRAP.
SOFT_WRAP = 500
HARD_WRAP = 1000
# A soft break is an invisible zero-width space before the line break, so
# copying the pane (office.panel_view) can give the space back: the pane's
# text with SOFT_BREAK replaced by " " is exactly what was streamed.
SOFT_BREAK = "\u200b\n"
SENTENCE_END = ".!?:;)\u201d\"'"
# "12 % in Q3" broke before the "%" at the pane's edge: the line breaking rules let a
# space end a line before a percent or a currency sign (a "!" or a "»" they keep
# already). A WORD JOINER between the space and the sign keeps the number with it; it is
# invisible, and taken out again wherever the pane's text is read (``plain``).
WORD_JOINER = "\u2060"
# Each line runs the way its own first letter does (the bidi algorithm's first-strong
# rule): an English answer in an Arabic interface ended ".explain it", because the
# edit lays out every paragraph in the interface's direction and puts an end's
# punctuation on that side. A FIRST STRONG ISOLATE at the start of each line gives the
# line its own direction; it lasts to the paragraph's end (UAX #9), so no closing mark
# is needed. Invisible, and taken out wherever the pane's text is read (``plain``).
ISOLATE = "\u2068"
UNITS = "%\u2030\u2031\u20ac\u00a3\u00a5\u20bd\u20b9\u00a2"
_BEFORE_UNIT = re.compile("(?<=[0-9] )(?=[%s])" % UNITS)


class SoftWrap:
    """Turns some spaces of a stream into line breaks so no line grows past HARD_WRAP.

    Stateful over one pane's whole text, so the result does not depend on how
    the stream was cut into pieces.
    """

    def __init__(self, soft: int = SOFT_WRAP, hard: int = HARD_WRAP, isolate: bool = False):
        self.soft = soft
        self.hard = hard
        self.isolate = isolate   # each line starts with ISOLATE (a pane's text; not a copy)
        self.column = 0          # characters since the last line break
        self._previous = "\n"
        self._tail = ""           # the last two characters fed (a unit's number and space)

    def state(self):
        return self.column, self._previous, self._tail

    def restore(self, state) -> None:
        self.column, self._previous, self._tail = state

    def feed(self, text: str) -> str:
        if not text:
            return text
        head, self._tail = self._tail, (self._tail + text)[-2:]
        if any(ch in UNITS for ch in text):
            text = _BEFORE_UNIT.sub(WORD_JOINER, head + text)[len(head):]
        newline = text.rfind("\n")
        starts_line = self.isolate and self._previous.endswith("\n")
        if newline < 0 and not starts_line and self.column + len(text) <= self.soft:
            self.column += len(text)      # the usual case: nothing to decide
            self._previous = text[-1]
            return text
        out = []
        column, previous = self.column, self._previous
        for ch in text:
            if ch == "\n":
                column = 0
            elif ch == " " and (column >= self.hard or
                                (column >= self.soft and previous in SENTENCE_END)):
                ch = SOFT_BREAK
                column = 0
            else:
                column += 1
            if self.isolate and ch != "\n" and previous.endswith("\n"):
                out.append(ISOLATE)       # a line begins (a soft break's too)
            out.append(ch)
            previous = ch
        self.column, self._previous = column, previous
        return "".join(out)


def plain(text: str) -> str:
    """A pane's text as it was streamed: the soft breaks, word joiners and isolates
    taken out."""
    return text.replace(SOFT_BREAK, " ").replace(WORD_JOINER, "").replace(ISOLATE, "")


def trim_point(text: str, keep: int) -> int:
    """Where to cut text so about its last ``keep`` characters stay: after a block
    boundary (blank line) if there is one, else after a line break; 0 for no cut."""
    start = max(0, len(text) - keep)
    if start == 0:
        return 0
    cut = text.find("\n\n", start)
    if cut >= 0:
        return cut + 2
    return text.find("\n", start) + 1

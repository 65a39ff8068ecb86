"""An answer that is nothing but numbered lines: the rewrite protocol's edit, unfenced (pure).

Taught to put the changed lines in a block fenced as "edit", Qwen2.5-Coder 1.5B most
often writes the lines alone, as its whole answer ("2: We will receive the guests at
noon.\\n3: The museum is definitely worth a visit."): the very edit, without the
fence (the eval's transcripts). Such an answer is taken as the edit when

* every non-blank line is a numbered line ("N: text", "N:"), or a table row going
  on from one, perhaps after one short line that ends in ":" ("Here is the fix:"),
  perhaps inside one code fence of no language or a text-like one;
* and the user did not ask a question (the caller says: a question is answered,
  never pushed into an edit, even when the answer quotes lines).

Unnumbered lines, which an edit block may hold as new paragraphs, are prose here (an
answer with any is an answer), unless they are plainly document structure: list items
and headings after a numbered line ("4: These grow in our garden." then "- Apple"). ``judge`` tells YES (the body of the edit), NO, or, for
a message still streaming, MAYBE, so the stream can hold its text back meanwhile.
"""

import re
from typing import NamedTuple

YES, NO, MAYBE = "yes", "no", "maybe"

NUMBERED = re.compile(r"^[ \t]{0,3}\d{1,6}[ \t]*:(?:[ \t]|$)")
_STRUCTURE = re.compile(r"^[ \t]*(?:[-*+][ \t]+\S|\d{1,3}[.)][ \t]+\S|#{1,6}[ \t]+\S)")
_FENCE = re.compile(r"^[ \t]{0,3}```[ \t]*([A-Za-z]*)[ \t]*$")
_TEXT_LANGS = ("", "edit", "text", "txt", "markdown", "md", "plaintext")
INTRO_MAX = 200          # characters of the one line that may come first
HOLD_LIMIT = 8192        # characters held back while the answer may be such an edit


class Verdict(NamedTuple):
    verdict: str
    intro: str = ""      # the line before the lines, shown as the answer
    body: str = ""       # the edit's text (YES)


def _is_intro(line: str) -> bool:
    return len(line) <= INTRO_MAX and line.rstrip().endswith(":") and not NUMBERED.match(line)


def judge(text: str, final: bool) -> Verdict:
    """Whether ``text`` (the whole answer so far) is an edit of numbered lines."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not final and lines:
        lines = lines[:-1] if lines[-1].strip() else lines   # the last may be unfinished
        partial = text.rsplit("\n", 1)[-1]
    else:
        partial = ""
    intro = ""
    body = []
    fenced = closed = False
    numbered = table = False
    for line in lines:
        stripped = line.strip()
        if not stripped:
            table = False
            continue
        fence = _FENCE.match(line)
        if fence and not closed:
            if not fenced and not body and fence.group(1).lower() in _TEXT_LANGS:
                fenced = True
                continue
            if fenced and body:
                closed = True
                continue
            return Verdict(NO)
        if closed:
            return Verdict(NO)                  # prose after the block
        if NUMBERED.match(line):
            body.append(stripped)
            numbered, table = True, stripped.split(":", 1)[1].strip().startswith("|")
        elif table and stripped.startswith("|"):
            body.append(stripped)
        elif numbered and _STRUCTURE.match(line):
            body.append(line.rstrip())
        elif not body and not intro and not fenced and _is_intro(stripped):
            intro = stripped
        else:
            return Verdict(NO)
    if not final:
        if partial.strip() and not _may_start(partial, bool(body or intro or fenced)):
            return Verdict(NO)
        return Verdict(MAYBE, intro)
    if not numbered:
        return Verdict(NO)
    return Verdict(YES, intro, "\n".join(body))


def _may_start(piece: str, after: bool) -> bool:
    """Whether an unfinished last line may still become a line of such an edit."""
    stripped = piece.lstrip(" \t")
    if not stripped:
        return True
    if stripped[0].isdigit():
        digits = len(stripped) - len(stripped.lstrip("0123456789"))
        rest = stripped[digits:].lstrip(" \t")
        return digits <= 6 and (not rest or rest[0] in ":.)")
    if stripped[0] in "`|" or (after and stripped[0] in "-*+#"):
        return True
    return not after and len(piece) <= INTRO_MAX      # an intro line, going on


_QUESTION_MARKS = ("?", "\uff1f", "\u061f", "\u037e")     # ? ？ ؟ ; (Greek)


def asks(message: str) -> bool:
    """Whether the user's message asks a question (it holds a question mark: "What is the
    number? Do not change the document.")."""
    return any(mark in message for mark in _QUESTION_MARKS)

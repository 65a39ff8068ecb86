"""Text measured in a control's own font, and shortened to fit it (issue 24: nothing cut).

A list box draws each entry on one line and scrolls sideways for a longer one;
a drop-down shows its chosen entry cut. Here an entry too wide for its box is
shortened at a word with "…", or by character where a word cut would leave
much of the room empty (Chinese, Japanese); a selected entry's whole text is the list's
tooltip (whole(), by the caller). Widths come from the toolkit: the peer's
font (XDevice.getFont with an empty descriptor keeps the window's own font)
and the control's minimum size, whose padding beyond its widest entry is the
room the box's frame and scroll bar take.
"""

import unicodedata
from typing import Any, Sequence, Tuple

ELLIPSIS = "\u2026"
CHAR_PX = 7          # a guess per character, only when the toolkit cannot measure


def _font(control: Any) -> Any:
    import uno
    try:
        return control.getPeer().getFont(uno.createUnoStruct("com.sun.star.awt.FontDescriptor"))
    except Exception:      # no peer yet, or a peer without XDevice
        return None


def width(control: Any, text: str, font: Any = None) -> int:
    """The pixels ``text`` takes on one line in ``control``'s font."""
    font = font or _font(control)
    if font is None:
        return len(text) * CHAR_PX
    return int(font.getStringWidth(text))


PADDING = 20         # a list box's frame and scroll bar at the least (gen: 4 + 14 + margins)


def padding(control: Any, font: Any = None) -> int:
    """What a list box adds to its widest entry (frame, scroll bar, margins), measured on
    the entries it holds now (its minimum size is theirs)."""
    font = font or _font(control)
    try:
        widest = max([width(control, t, font) for t in control.getItems()] or [0])
        return max(PADDING, control.getMinimumSize().Width - widest)
    except Exception:
        return PADDING


def shorten(control: Any, text: str, room: int, font: Any = None) -> str:
    """``text``, or its longest start with "…" within ``room`` pixels: cut at a word, unless
    that keeps much less than the room (Chinese or Japanese has no spaces between words:
    its first space lost nearly all), then cut by character. The longest start is found
    by halving (a few measurements, not one per word)."""
    font = font or _font(control)
    if width(control, text, font) <= room:
        return text
    lo, hi = 0, len(text) - 1           # text[:lo] fits; text[:hi + 1] does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(control, _head(text, mid), font) <= room:
            lo = mid
        else:
            hi = mid - 1
    cut = _boundary(text, lo)
    if cut <= 0:
        return ELLIPSIS
    space = text.rfind(" ", 0, cut + 1)
    if space > 0:
        by_word = _head(text, space)
        if by_word != ELLIPSIS and width(control, by_word, font) * 3 >= room * 2:
            return by_word
    return _head(text, cut)


def _head(text: str, n: int) -> str:
    return text[:n].rstrip(" ,;:\u00b7-") + ELLIPSIS


def _boundary(text: str, n: int) -> int:
    """``n`` or the nearest cut before it that splits no character: not inside a surrogate
    pair, not before a combining mark (or an emoji's modifier), not beside a zero-width joiner."""
    while 0 < n < len(text) and (
            "\udc00" <= text[n] <= "\udfff" or "\u200d" in (text[n - 1], text[n])
            or unicodedata.category(text[n]).startswith("M")
            or "\U0001f3fb" <= text[n] <= "\U0001f3ff" or "\ufe00" <= text[n] <= "\ufe0f"):
        n -= 1
    return n


def fit_items(control: Any, items: Sequence[str], box_width: int) -> Tuple[str, ...]:
    """A list box's entries, each shortened to what its ``box_width`` shows whole."""
    font = _font(control)
    room = box_width - padding(control, font)
    return tuple(shorten(control, item, room, font) for item in items)


def wrap(measure: Any, text: str, room: int) -> Tuple[str, ...]:
    """``text``'s lines filled word by word within ``room`` pixels as ``measure`` counts
    them (a word wider than the room gets a line of its own, and sticks out)."""
    out = []
    for word in text.split():
        if out and measure(out[-1] + " " + word) <= room:
            out[-1] += " " + word
        else:
            out.append(word)
    return tuple(out) or ("",)


def whole(full: Sequence[str], shown: Sequence[str], pos: int, name: str) -> str:
    """A list's tooltip (and accessible description: VCL reads the help text there) for
    its selected entry: the entry's whole text when the row shows it shortened, else the
    list's ``name``."""
    if 0 <= pos < min(len(full), len(shown)) and shown[pos] != full[pos]:
        return full[pos]
    return name


def forms(text: str) -> Tuple[str, ...]:
    """``text`` and its shorter forms, longest first: without its last clause after ", ",
    then only what comes before " — " ("Ask about your document — Enter to send, Shift+Enter
    for a new line" -> "… — Enter to send" -> "Ask about your document")."""
    out = [text]
    if ", " in text:
        out.append(text.rsplit(", ", 1)[0])
    if " \u2014 " in text:
        out.append(text.split(" \u2014 ")[0])
    return tuple(out)

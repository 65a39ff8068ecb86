"""Text measured in a control's own font, and shortened to fit it (issue 24: nothing cut).

A list box draws each entry on one line and scrolls sideways for a longer one;
a drop-down shows its chosen entry cut. Here an entry too wide for its box is
shortened at a word with "…" (its whole text goes in the tooltip or the
accessible name, by the caller). Widths come from the toolkit: the peer's
font (XDevice.getFont with an empty descriptor keeps the window's own font)
and the control's minimum size, whose padding beyond its widest entry is the
room the box's frame and scroll bar take.
"""

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
    """``text``, or its longest start ending at a word with "…", within ``room`` pixels."""
    font = font or _font(control)
    if width(control, text, font) <= room:
        return text
    words = text.split(" ")
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n]).rstrip(" ,;:\u00b7-") + ELLIPSIS
        if width(control, head, font) <= room:
            return head
    # One word too long for the room: cut it by letters.
    for n in range(len(text) - 1, 0, -1):
        head = text[:n] + ELLIPSIS
        if width(control, head, font) <= room:
            return head
    return ELLIPSIS


def fit_items(control: Any, items: Sequence[str], box_width: int) -> Tuple[str, ...]:
    """A list box's entries, each shortened to what its ``box_width`` shows whole."""
    font = _font(control)
    room = box_width - padding(control, font)
    return tuple(shorten(control, item, room, font) for item in items)


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

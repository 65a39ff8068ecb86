"""The panel's colours, taken from the window's theme (pure).

The panes used to hard-code white and lavender backgrounds while the text
colour followed the theme, so a dark theme showed light text on white. Now
every colour comes from the window's StyleSettings (office.panel_view reads
them): the conversation uses the field colours as they are, the thinking
pane a faint tint of the field towards its text, with text mixed towards the
background only as far as WCAG AA contrast (4.5:1) still holds.
"""

from typing import Dict

AA = 4.5
THINKING_TINT = 0.06       # how far the thinking background moves towards the text colour
THINKING_FADE = 0.35       # how far its text moves towards the background, at most
CARD_TINT = 0.15           # how far the set-up card's background moves towards the accent


def _channels(colour: int):
    return (colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF


def blend(a: int, b: int, t: float) -> int:
    """a moved a fraction t of the way to b, per channel."""
    out = 0
    for ca, cb in zip(_channels(a), _channels(b)):
        out = (out << 8) | int(round(ca + (cb - ca) * t))
    return out


def luminance(colour: int) -> float:
    """WCAG relative luminance of a 0xRRGGBB colour."""
    values = []
    for c in _channels(colour):
        c = c / 255.0
        values.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = values
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: int, b: int) -> float:
    """WCAG contrast ratio between two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def is_dark(background: int) -> bool:
    return luminance(background) < 0.3


def pane_colours(field: int, field_text: int) -> Dict[str, int]:
    """Background and text colours of the conversation and thinking panes."""
    if contrast(field, field_text) < AA:
        # A theme whose own field colours fail AA: fall back to black on white or white on black.
        field_text = 0xFFFFFF if is_dark(field) else 0x000000
    thinking_bg = blend(field, field_text, THINKING_TINT)
    thinking_text = blend_within_aa(field_text, thinking_bg, THINKING_FADE, 0.05, thinking_bg)
    return {"chat_bg": field, "chat_text": field_text,
            "thinking_bg": thinking_bg, "thinking_text": thinking_text}


def card_colour(face: int, label_text: int, accent: int) -> int:
    """The set-up card's background: the panel's own face colour with a touch of the
    theme's accent, tinted only as far as its labels keep AA contrast (a fixed light
    blue put light labels on a light card in dark themes)."""
    return blend_within_aa(face, accent, CARD_TINT, 0.03, label_text)


def blend_within_aa(a: int, b: int, t: float, step: float, against: int) -> int:
    """a moved towards b by t, less by ``step`` at a time until it keeps AA contrast with
    ``against`` (a itself if even that does not)."""
    colour = blend(a, b, t)
    while t > 0 and contrast(colour, against) < AA:
        t = round(t - step, 2)
        colour = blend(a, b, max(t, 0))
    return colour

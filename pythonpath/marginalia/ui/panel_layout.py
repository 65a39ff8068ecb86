"""Pixel layout of the chat panel for a given size (pure, so it is testable without a window).

Top to bottom: the first-run card while it shows, the thinking toggle, the thinking pane (when shown), the
conversation (takes what is left), the message box, a row with "New chat" and
Send/Stop, and a two-line status line the full width of the panel (token
counts do not fit beside a button in a narrow sidebar).
"""

from typing import Dict, Tuple

MARGIN = 6
GAP = 4
ROW = 26
STATUS = 30
INPUT = 66
MIN_WIDTH = 180
MIN_HEIGHT = 320
NEW_CHAT_WIDTH = 84
TOGGLE_WIDTH = 112
SEND_WIDTH = 72
THINKING_SHARE = 0.28
THINKING_MIN = 56


def layout(width: int, height: int, thinking_visible: bool,
           top: int = 0) -> Dict[str, Tuple[int, int, int, int]]:
    """{control name: (x, y, w, h)}; the thinking pane gets zero height when hidden.

    ``top`` pixels at the top belong to the first-run card (ui.first_run).
    """
    width = max(width, MIN_WIDTH)
    height = max(height, MIN_HEIGHT + top)
    inner = width - 2 * MARGIN
    boxes = {}
    y = top + MARGIN
    boxes["thinking_toggle"] = (MARGIN, y, min(TOGGLE_WIDTH, inner), ROW)
    y += ROW + GAP

    status_y = height - MARGIN - STATUS
    buttons_y = status_y - GAP - ROW
    input_y = buttons_y - GAP - INPUT
    free = input_y - GAP - y
    if thinking_visible:
        thinking_h = max(THINKING_MIN, int(free * THINKING_SHARE))
        boxes["thinking"] = (MARGIN, y, inner, thinking_h)
        y += thinking_h + GAP
        free = input_y - GAP - y
    else:
        boxes["thinking"] = (MARGIN, y, inner, 0)
    boxes["transcript"] = (MARGIN, y, inner, max(free, 40))
    boxes["input"] = (MARGIN, input_y, inner, INPUT)
    boxes["new_chat"] = (MARGIN, buttons_y, NEW_CHAT_WIDTH, ROW)
    boxes["send"] = (width - MARGIN - SEND_WIDTH, buttons_y, SEND_WIDTH, ROW)
    boxes["status"] = (MARGIN, status_y, inner, STATUS)
    return boxes

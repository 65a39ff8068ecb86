"""Pixel layout of the chat panel for a given size (pure, so it is testable without a window).

Top to bottom: the first-run card while it shows, the thinking toggle with
History at the right, the thinking pane (when shown), the conversation (takes
what is left), a row of small buttons acting on the last answer (Copy, Insert,
Retry, Edit: ANSWER_ROW, sharing the width), the message box, a row with "New
chat" and Send/Stop, and a two-line status line the full width of the panel
(token counts do not fit beside a button in a narrow sidebar).
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
HISTORY_WIDTH = 60
ANSWER_ROW = ("copy", "insert", "retry", "edit")
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
    history_w = min(HISTORY_WIDTH, inner // 3)
    boxes["thinking_toggle"] = (MARGIN, y, min(TOGGLE_WIDTH, inner - history_w - GAP), ROW)
    boxes["history"] = (width - MARGIN - history_w, y, history_w, ROW)
    y += ROW + GAP

    status_y = height - MARGIN - STATUS
    buttons_y = status_y - GAP - ROW
    input_y = buttons_y - GAP - INPUT
    answer_y = input_y - GAP - ROW
    count = len(ANSWER_ROW)
    each = (inner - (count - 1) * GAP) // count
    for i, name in enumerate(ANSWER_ROW):
        x = MARGIN + i * (each + GAP)
        w = each if i < count - 1 else width - MARGIN - x
        boxes[name] = (x, answer_y, w, ROW)
    input_y = answer_y          # the panes above end where the answer row begins
    free = input_y - GAP - y
    if thinking_visible:
        thinking_h = max(THINKING_MIN, int(free * THINKING_SHARE))
        boxes["thinking"] = (MARGIN, y, inner, thinking_h)
        y += thinking_h + GAP
        free = input_y - GAP - y
    else:
        boxes["thinking"] = (MARGIN, y, inner, 0)
    boxes["transcript"] = (MARGIN, y, inner, max(free, 40))
    boxes["input"] = (MARGIN, answer_y + ROW + GAP, inner, INPUT)
    boxes["new_chat"] = (MARGIN, buttons_y, NEW_CHAT_WIDTH, ROW)
    boxes["send"] = (width - MARGIN - SEND_WIDTH, buttons_y, SEND_WIDTH, ROW)
    boxes["status"] = (MARGIN, status_y, inner, STATUS)
    return boxes

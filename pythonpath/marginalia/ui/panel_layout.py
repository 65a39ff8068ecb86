"""Pixel layout of the chat panel for a given size (pure, so it is testable without a window).

Top to bottom, which is also the tab order (office.tab_order puts the
controls in the order of their places): the first-run card while it shows; a row with the
thinking toggle at the left ("Thought for 6 s ▸", only once a turn has
thought) and small icon buttons at the right (Editing options, Sources, History,
New chat, Settings);
the thinking pane (only while open and not empty); the conversation (takes
what is left, with the "new reply below" button over its bottom edge); the
buttons acting on the last answer (Copy, Insert, Retry, Edit: ANSWER_ROW, in
one row, or two rows of two where the toolkit's labels need more room); a
line saying what the model will see; the message box, which grows from 2 to
8 lines as the user types; and a row with the status line and Send/Stop
(Undo beside them for a few seconds after New chat; in a narrow panel the status then
takes a row of its own over them).
"""

from typing import Dict, Tuple

MARGIN = 6
GAP = 4
ROW = 26
ICON = 22
ICON_GAP = 2              # five icons and the thinking toggle share the top row at 180 px
SCOPE = 18
LINE = 17                 # one line of the message box, in pixels
INPUT_PAD = 8
HINT_RIGHT = 20           # the box's scroll bar and frame right of the hint (gen: 14 + 2)
HINT_PAD = 2              # the hint's box is this much taller than its lines (it sits 3 px in)
MIN_LINES = 2
MAX_LINES = 8
STATUS = 32               # two short lines of plain words beside Send
MIN_WIDTH = 180
MIN_HEIGHT = 320
TOGGLE_WIDTH = 150
SEND_WIDTH = 64
UNDO_WIDTH = 56
JUMP_WIDTH = 150
ANSWER_ROW = ("copy", "insert", "retry", "edit")
ICONS = ("edits", "sources", "history", "new_chat", "settings")   # right to left order is reversed below
THINKING_SHARE = 0.28
THINKING_MIN = 56
TRANSCRIPT_MIN = 3 * ROW + GAP    # three lines of the conversation, at the least


STATUS_MIN_WIDTH = 100    # narrower, the status's words split inside themselves


def status_own_row(width: int, undo_visible: bool) -> bool:
    """Whether the status line takes a row of its own over Send and Undo: beside both at
    180 px it was a 40 px column whose words the toolkit split mid-word."""
    beside = SEND_WIDTH + GAP + ((UNDO_WIDTH + GAP) if undo_visible else 0)
    return max(width, MIN_WIDTH) - 2 * MARGIN - beside < STATUS_MIN_WIDTH


def status_width(width: int, undo_visible: bool) -> int:
    """The status line's width, beside Send (and Undo while it shows), or the whole row."""
    inner = max(width, MIN_WIDTH) - 2 * MARGIN
    if status_own_row(width, undo_visible):
        return inner
    return inner - SEND_WIDTH - GAP - ((UNDO_WIDTH + GAP) if undo_visible else 0)


def status_row(words_h: int) -> int:
    """The status row's height for its words' height (two lines at the least): the panel
    lays out again only when this changes, not each time the words' height does."""
    return max(STATUS, words_h)


def placeholder_width(width: int) -> int:
    """The hint's width inside the message box of a panel ``width`` wide."""
    return max(max(width, MIN_WIDTH) - 2 * MARGIN - HINT_RIGHT, 20)


def input_height(lines: int) -> int:
    """The message box's height for a draft of ``lines`` lines (2 to 8 shown)."""
    return max(MIN_LINES, min(MAX_LINES, lines)) * LINE + INPUT_PAD


def layout(width: int, height: int, thinking_visible: bool, top: int = 0,
           input_lines: int = MIN_LINES,
           toggle_visible: bool = True, undo_visible: bool = False,
           answer_need: int = 0, status_h: int = STATUS,
           toggle_need: int = 0) -> Dict[str, Tuple[int, int, int, int]]:
    """{control name: (x, y, w, h)}; the thinking pane gets zero height when hidden.

    ``top`` pixels at the top belong to the first-run card (ui.first_run).
    ``answer_need`` is the width the widest answer button's label needs in this
    toolkit (office.button_width): when four do not fit in a row, they go two to a row.
    ``status_h`` is the height the status line's words take at its width (at
    least two lines); ``toggle_need`` the width the thinking toggle's whole label needs:
    when it does not fit beside the icons, the toggle takes a row of its own under them
    (its words stay: "Thought for 3 s ▸", not "3 s ▸").
    """
    width = max(width, MIN_WIDTH)
    height = max(height, MIN_HEIGHT + top)
    inner = width - 2 * MARGIN
    boxes = {}
    y = top + MARGIN
    x = width - MARGIN
    for name in reversed(ICONS):
        x -= ICON
        boxes[name] = (x, y, ICON, ROW)
        x -= ICON_GAP
    toggle_w = min(TOGGLE_WIDTH, x - MARGIN) if toggle_visible else 0
    boxes["thinking_toggle"] = (MARGIN, y, max(toggle_w, 0), ROW)
    y += ROW + GAP
    if toggle_visible and toggle_need > toggle_w:
        boxes["thinking_toggle"] = (MARGIN, y, min(inner, max(toggle_need, TOGGLE_WIDTH)), ROW)
        y += ROW + GAP

    count = len(ANSWER_ROW)
    per_row = count if count * answer_need + (count - 1) * GAP <= inner else 2
    rows = -(-count // per_row)
    status_h = status_row(status_h)
    own_row = status_own_row(width, undo_visible)
    # A status on its own row has Send and Undo in a row under it.
    buttons_y = height - MARGIN - status_h - ((GAP + ROW) if own_row else 0)
    box_h = input_height(input_lines)
    # The box grows upwards, but never squeezes the conversation below 3 rows
    # (nor the thinking pane, when open, below its least height).
    panes = TRANSCRIPT_MIN + ((THINKING_MIN + GAP) if thinking_visible else 0)
    input_y = max(buttons_y - GAP - box_h, y + panes + GAP + rows * (ROW + GAP) + SCOPE)
    box_h = buttons_y - GAP - input_y
    scope_y = input_y - SCOPE
    answer_y = scope_y - rows * (ROW + GAP)
    each = (inner - (per_row - 1) * GAP) // per_row
    for i, name in enumerate(ANSWER_ROW):
        row, col = divmod(i, per_row)
        bx = MARGIN + col * (each + GAP)
        w = each if col < per_row - 1 else width - MARGIN - bx
        boxes[name] = (bx, answer_y + row * (ROW + GAP), w, ROW)
    free = answer_y - GAP - y
    if thinking_visible:
        thinking_h = max(THINKING_MIN, int(free * THINKING_SHARE))
        thinking_h = min(thinking_h, free - GAP - TRANSCRIPT_MIN)
        boxes["thinking"] = (MARGIN, y, inner, thinking_h)
        y += thinking_h + GAP
        free = answer_y - GAP - y
    else:
        boxes["thinking"] = (MARGIN, y, inner, 0)
    transcript_h = max(free, 40)
    boxes["transcript"] = (MARGIN, y, inner, transcript_h)
    # The empty chat's hint lies on the conversation, inside its frame and scroll bar,
    # with all its height (its words wrap to as many lines as a language needs).
    boxes["chat_hint"] = (MARGIN + 4, y + 4, max(inner - HINT_RIGHT - 4, 20),
                          max(transcript_h - 8, LINE))
    jump_w = min(JUMP_WIDTH, inner - 2 * GAP)
    boxes["jump"] = (MARGIN + inner - jump_w - 20, y + transcript_h - ROW - GAP, jump_w, ROW)
    boxes["scope"] = (MARGIN, scope_y, inner, SCOPE)
    boxes["input"] = (MARGIN, input_y, inner, box_h)
    # The hint fills the box (office.panel_view grows the box to the hint's lines).
    boxes["placeholder"] = (MARGIN + 4, input_y + 3, placeholder_width(width),
                            box_h - INPUT_PAD + HINT_PAD)
    button_y = (buttons_y + status_h + GAP) if own_row else buttons_y + (status_h - ROW) // 2
    boxes["send"] = (width - MARGIN - SEND_WIDTH, button_y, SEND_WIDTH, ROW)
    boxes["undo"] = (width - MARGIN - SEND_WIDTH - GAP - UNDO_WIDTH, button_y, UNDO_WIDTH, ROW)
    boxes["status"] = (MARGIN, buttons_y, status_width(width, undo_visible), status_h)
    return boxes

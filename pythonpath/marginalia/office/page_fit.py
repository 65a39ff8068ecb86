"""An Options page's rows made room for longer words (issue 24: translations are coming).

The pages are laid out in their .xdl for English. At "initialize" (when the
page's words are whatever the language gives), every one-line label, tick box,
button or drop-down narrower than its words (the toolkit's measure) widens,
and what follows it on its row moves right; the last control of the row
gives up the width, down to what it needs itself. Where a row has no such
room left the control stays as it is (the fit test, tests/gui/test_panel_fit.py,
names it). Before that, rows made for gen's thin boxes grow to what the toolkit
draws (settle_heights: gtk3's boxes are taller). Main thread.
"""

from typing import Any, List, Tuple

import uno

from marginalia.office import fit_probe, text_fit
from marginalia.office.button_width import SLACK

POSSIZE = 15
HEIGHT = 8               # com.sun.star.awt.PosSize.HEIGHT
APPFONT = 17             # com.sun.star.util.MeasureUnit.APPFONT: the .xdl's unit
EDGE = 6                 # px kept free at the page's right edge (and below its last row)
LEAST = 40               # px a field keeps at the least when it gives up width
ROW = 24                 # .xdl units: a control taller than this spans several rows


def _need(control: Any, kind: str) -> int:
    """The width the control's words need (0 for one whose width is not about words)."""
    try:
        model = control.getModel()
        if kind == "FixedText" and not model.MultiLine:
            return control.getMinimumSize().Width
        if kind in ("CheckBox", "RadioButton") and not model.MultiLine:
            return control.getMinimumSize().Width
        if kind == "Button" and not model.ImageURL:
            return control.getMinimumSize().Width - SLACK
        if kind == "ListBox" and model.Dropdown:
            return text_fit.width(control, control.getSelectedItem()) + text_fit.padding(control)
    except Exception:      # no peer or no such property: leave it be
        pass
    return 0


def _kind(control: Any) -> str:
    try:
        return control.getModel().getServiceName().split(".")[-1]
    except Exception:
        return ""


def _row_after(rects: List[Any], r: Any) -> List[int]:
    """Indexes of the controls right of ``r`` on its row (overlapping it vertically)."""
    return [i for i, o in enumerate(rects)
            if o.X >= r.X + r.Width and o.Y < r.Y + r.Height and r.Y < o.Y + o.Height]


FIELDS = ("Edit", "ComboBox")      # boxes whose text scrolls: they can give up width


def _one_line(control: Any) -> bool:
    try:
        return not control.getModel().MultiLine
    except Exception:
        return False


def _from_left(controls, kinds, rects, i, more) -> int:
    """Widen control ``i`` leftwards into the field or label before it on its row (a
    button at the row's end: "List models" after the model box; a note after a shorter
    note); 0 when that one has no width to give."""
    r = rects[i]
    before = [j for j, o in enumerate(rects) if o.X + o.Width <= r.X
              and (kinds[j] in FIELDS or (kinds[j] == "FixedText" and _one_line(controls[j])))
              and o.Y < r.Y + r.Height and r.Y < o.Y + o.Height]
    if not before:
        return 0
    j = max(before, key=lambda k: rects[k].X)
    keeps = LEAST * 2 if kinds[j] in FIELDS else max(LEAST, _need(controls[j], kinds[j]))
    if rects[j].Width - more < keeps:
        return 0
    o = rects[j]
    controls[j].setPosSize(o.X, o.Y, o.Width - more, o.Height, POSSIZE)
    controls[i].setPosSize(r.X - more, r.Y, r.Width + more, r.Height, POSSIZE)
    rects[j], rects[i] = controls[j].getPosSize(), controls[i].getPosSize()
    return 2


def _bands(rects: List[Any], row: int) -> Tuple[List[int], List[Tuple[int, int]]]:
    """Each control's band, and each band's (top, bottom): controls at most ``row`` high
    whose heights overlap (a label beside its field) share one, numbered top to bottom.
    A taller control (a list beside several rows) makes none (-1), or every row beside
    it would be one band."""
    bands, spans = [-1] * len(rects), []
    for i in sorted((i for i, r in enumerate(rects) if r.Height <= row),
                    key=lambda k: rects[k].Y):
        r = rects[i]
        if not spans or r.Y >= spans[-1][1]:
            spans.append((r.Y, r.Y + r.Height))
        else:
            spans[-1] = (spans[-1][0], max(spans[-1][1], r.Y + r.Height))
        bands[i] = len(spans) - 1
    return bands, spans


def _scale(window: Any) -> float:
    """The page's vertical pixels per .xdl unit (0 when the window cannot say)."""
    try:
        size = uno.createUnoStruct("com.sun.star.awt.Size", 1000, 1000)
        return window.convertSizeToPixel(size, APPFONT).Height / 1000.0
    except Exception:
        return 0.0


def settle_heights(window: Any) -> int:
    """Rows made for thin boxes, drawn by a toolkit whose boxes are taller (gtk3: 34 px
    entries and drop-downs in rows the .xdl made ~22 px high): each band of the page
    grows by what its tallest control grew, what lies below moves down by that, a
    control that grew less sits in its band's middle, a list beside several rows grows
    with them, and the page grows at the bottom (the Options dialog gives its pages the
    room of LibreOffice's own largest). The .xdl's own places are the start each time,
    so a second call moves nothing. How many controls moved."""
    controls = list(window.getControls())
    kinds = [_kind(c) for c in controls]
    rects = [c.getPosSize() for c in controls]
    scale = _scale(window)
    if not scale:
        return 0
    designed = []
    for control, r in zip(controls, rects):
        model = control.getModel()
        designed.append(uno.createUnoStruct("com.sun.star.awt.Rectangle", r.X,
                                            int(round(model.PositionY * scale)), r.Width,
                                            int(round(model.Height * scale))))
    for i, (control, kind) in enumerate(zip(controls, kinds)):
        lines = fit_probe.wrapped_height(control, kind, rects[i].Width)
        if lines > rects[i].Height:        # words that wrap to more lines than it has
            r = rects[i]
            control.setPosSize(r.X, r.Y, r.Width, lines, POSSIZE)
            rects[i] = control.getPosSize()
    grown = [max(0, r.Height - d.Height) for r, d in zip(rects, designed)]
    if max(grown, default=0) <= 1:
        return 0          # the toolkit draws the .xdl's heights (gen, Windows)
    bands, spans = _bands(designed, int(ROW * scale))
    grew = [0] * len(spans)
    for i, more in enumerate(grown):
        if bands[i] >= 0:
            grew[bands[i]] = max(grew[bands[i]], more)
    # Where the page grows: each band at its bottom, and a tall label whose words now
    # wrap to more lines at its own bottom.
    steps = list(zip(spans, grew)) + [
        ((designed[i].Y + designed[i].Height,) * 2, more)
        for i, more in enumerate(grown) if bands[i] < 0 and more > 0]

    def above(y: int) -> int:
        return sum(more for (_start, end), more in steps if end <= y)

    moved = 0
    bottom = 0
    for i, control in enumerate(controls):
        d, r, height = designed[i], rects[i], rects[i].Height
        if bands[i] >= 0:
            top = d.Y + above(spans[bands[i]][0]) + (grew[bands[i]] - grown[i]) // 2
        else:      # below the rows above it; as tall as the rows beside it grew
            top = d.Y + above(d.Y)
            height = max(height, d.Height + sum(
                more for (start, end), more in zip(spans, grew)
                if end > d.Y and start < d.Y + d.Height))
        if abs(top - r.Y) > 1 or height != r.Height:
            control.setPosSize(r.X, top, r.Width, height, POSSIZE)
            moved += 1
        bottom = max(bottom, top + height)
    if bottom + EDGE > window.getPosSize().Height:
        window.setPosSize(0, 0, 0, bottom + EDGE, HEIGHT)
    return moved


def fit(window: Any) -> int:
    """Widen what is cut on ``window`` where its row has room; how many controls moved."""
    settle_heights(window)
    controls = list(window.getControls())
    kinds = [_kind(c) for c in controls]
    rects = [c.getPosSize() for c in controls]
    right = window.getPosSize().Width - EDGE
    moved = 0
    for i, control in enumerate(controls):
        r = rects[i]
        more = _need(control, kinds[i]) - r.Width
        if more <= 0:
            continue
        after = _row_after(rects, r)
        end = max([rects[j].X + rects[j].Width for j in after] or [r.X + r.Width])
        spare = max(0, right - end)
        last = max(after, key=lambda j: rects[j].X) if after else None
        if last is not None:
            give = max(0, rects[last].Width - max(LEAST, _need(controls[last], kinds[last])))
        else:
            give = 0
        if more > spare + give:
            moved += _from_left(controls, kinds, rects, i, more)
            continue
        shrink = max(0, more - spare)
        for j in after:          # all move right; the last gives up what the edge lacks
            o = rects[j]
            width = o.Width - (shrink if j == last else 0)
            controls[j].setPosSize(o.X + more, o.Y, width, o.Height, POSSIZE)
            rects[j] = controls[j].getPosSize()
        control.setPosSize(r.X, r.Y, r.Width + more, r.Height, POSSIZE)
        rects[i] = control.getPosSize()
        moved += 1 + len(after)
    return moved


def share_row(left: Any, right: Any, gap: int = 6) -> None:
    """Two notes on one row (the Options page's model note and context note): the right
    one gets the width its words need at the row's end, the left one the rest (all of
    it while the right one says nothing), so a longer word (a translation, gtk3's font)
    is not cut while the other note has room to give."""
    a, b = left.getPosSize(), right.getPosSize()
    start, end = a.X, b.X + b.Width
    need_left = _need(left, "FixedText") if left.getModel().Label else 0
    need_right = _need(right, "FixedText") if right.getModel().Label else 0
    width = end - start
    room = max(0, min(need_right, width - gap - min(need_left, width // 2)))
    if (b.X, b.Width) != (end - room, room):
        right.setPosSize(end - room, b.Y, room, b.Height, POSSIZE)
    left_width = width - (room + gap if room else 0)
    if a.Width != left_width:
        left.setPosSize(start, a.Y, left_width, a.Height, POSSIZE)

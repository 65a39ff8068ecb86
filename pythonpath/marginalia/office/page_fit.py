"""An Options page's rows made room for longer words (issue 24: translations are coming).

The pages are laid out in their .xdl for English. At "initialize" (when the
page's words are whatever the language gives), every one-line label, tick box,
button or drop-down narrower than its words (the toolkit's measure) widens,
and what follows it on its row moves right; the last control of the row
gives up the width, down to what it needs itself. Where a row has no such
room left the control stays as it is (the fit test, tests/gui/test_panel_fit.py,
names it). Main thread.
"""

from typing import Any, List

from marginalia.office import text_fit
from marginalia.office.button_width import SLACK

POSSIZE = 15
EDGE = 6                 # px kept free at the page's right edge
LEAST = 40               # px a field keeps at the least when it gives up width


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


def _from_left(controls, kinds, rects, i, more) -> int:
    """Widen control ``i`` leftwards into the field before it on its row (a button at the
    row's end: "List models" after the model box); 0 when that field has no width to give."""
    r = rects[i]
    before = [j for j, o in enumerate(rects) if o.X + o.Width <= r.X and kinds[j] in FIELDS
              and o.Y < r.Y + r.Height and r.Y < o.Y + o.Height]
    if not before:
        return 0
    j = max(before, key=lambda k: rects[k].X)
    if rects[j].Width - more < LEAST * 2:
        return 0
    o = rects[j]
    controls[j].setPosSize(o.X, o.Y, o.Width - more, o.Height, POSSIZE)
    controls[i].setPosSize(r.X - more, r.Y, r.Width + more, r.Height, POSSIZE)
    rects[j], rects[i] = controls[j].getPosSize(), controls[i].getPosSize()
    return 2


def fit(window: Any) -> int:
    """Widen what is cut on ``window`` where its row has room; how many controls moved."""
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

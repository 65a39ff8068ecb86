"""Controls placed where a pure layout (ui/) put them: the row's and the card's views."""

from typing import Any, Dict, Optional, Tuple

POSSIZE = 15          # com.sun.star.awt.PosSize.POSSIZE

Box = Tuple[int, int, int, int]


def place(controls: Dict[str, Any], boxes: Dict[str, Optional[Box]], x: int) -> None:
    """Show each control in its box (x, y, width, height; x from ``x``), hide the boxless."""
    for name, control in controls.items():
        box = boxes.get(name)
        control.setVisible(box is not None)
        if box is not None:
            bx, by, bw, bh = box
            control.setPosSize(x + bx, by, bw, bh, POSSIZE)

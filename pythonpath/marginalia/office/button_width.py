"""How wide a row of buttons must be to show their labels whole, in this toolkit.

Toolkits pad buttons differently: measured, the gen plugin draws "Undo turn"
whole in 64 px where its minimum size says 80, and gtk3 (which pads more:
minimum 89) cuts it at 70. So a button's minimum width, less some slack, is
what its label needs; the layouts (ui.panel_layout, ui.change_list) choose
how many buttons share a row from it.
"""

SLACK = 16          # px of a button's minimum width its label can do without


def widest_need(controls) -> int:
    """The width the widest label among ``controls`` needs (0 before their peers exist)."""
    widths = [0]
    for control in controls:
        try:
            widths.append(control.getMinimumSize().Width - SLACK)
        except Exception:
            pass        # no peer yet: the next layout asks again
    return max(widths)

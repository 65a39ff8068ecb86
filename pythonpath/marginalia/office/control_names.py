"""How the panel's controls are named for assistive tools, and which have tooltips.

HelpText is a control's tooltip, and VCL's fallback accessible name for a
control without a label. Only buttons keep it (an icon needs its words). A
tooltip over a pane, a list or a paragraph of text covers what is being read,
so those are named through their peer's AccessibleName instead (a VCLXWindow
property, on 7.4 as on 25.x); labels are named by their own text. One exception: a
list whose selected row shows shortened has that row's whole text as its tooltip
(office.text_fit.whole), the only place it can be read whole.
"""

TOOLTIP = ("Button",)
NAMED_BY_PEER = ("Edit", "ListBox", "ComboBox")


def tooltip(kind: str, label: str) -> str:
    """The HelpText a control of this kind gets (set on its model before it has a peer)."""
    return label if kind in TOOLTIP else ""


def name_peer(control, kind: str, label: str) -> None:
    """Name a control that has no tooltip and no text of its own (once it has a peer)."""
    if kind in NAMED_BY_PEER:
        control.getPeer().setProperty("AccessibleName", label)

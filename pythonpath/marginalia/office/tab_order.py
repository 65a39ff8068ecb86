"""The panel's Tab order as the eye reads it: top to bottom, left to right (issue 24).

VCL tabs through a window's children in their order, which is the order they
were added: the change card, the agent banner and the first-run card are added
after the panel's own controls, so Tab reached them after Send though they sit
at the top. Here the children are put in the order of their places
(XVclContainerPeer.setTabOrder, which moves each window behind the one before).
That order is also VCL's painting order (the earlier of two overlapping siblings
is drawn on top), so a control meant to lie on another (the jump button and
the "/" list over the conversation, the hint in the message box) goes just
before it.
"""

from typing import Any, Dict, Tuple

# control -> the control it lies on (office.panel_view's names), in painting order: the
# "/" and "@" lists before the jump button, so a list open over the conversation's bottom
# is drawn over the button (as panel_view.CONTROLS adds them), not under it.
OVERLAYS = {"slash_list": "transcript", "mention_list": "transcript", "jump": "transcript",
            "chat_hint": "transcript", "placeholder": "input"}


def order(boxes: Dict[str, Tuple[int, int]]) -> Tuple[str, ...]:
    """Names by place (top, then left), each overlay just before what it lies on."""
    plain = sorted((n for n in boxes if n not in OVERLAYS),
                   key=lambda n: (boxes[n][0], boxes[n][1], n))
    out = []
    for name in plain:
        out.extend(o for o, under in OVERLAYS.items() if under == name and o in boxes)
        out.append(name)
    out.extend(o for o in OVERLAYS if o in boxes and o not in out)
    return tuple(out)


def apply(container: Any, controls: Dict[str, Any], last: Tuple[str, ...]) -> Tuple[str, ...]:
    """Put ``controls`` (name -> control, all children of ``container``) in the order of
    their places, unless that is ``last``; returns the order now."""
    boxes = {}
    for name, control in controls.items():
        r = control.getPosSize()
        boxes[name] = (r.Y, r.X)
    names = order(boxes)
    if names != last:
        windows = tuple(controls[n].getPeer() for n in names)
        stops = tuple(_stop(controls[n]) for n in names)
        container.getPeer().setTabOrder(windows, stops, False)
    return names


def _stop(control: Any) -> Any:
    """Whether Tab stops at a control, as before: setTabOrder clears what it is not told
    (a bool: the model's Tabstop, else the kind's default; None for a card's container)."""
    if hasattr(control, "getControls"):
        return None
    model = control.getModel()
    try:
        if isinstance(model.Tabstop, bool):
            return model.Tabstop
    except Exception:
        pass
    return not model.getServiceName().endswith("FixedText")

"""The panel's row saying an outside agent is editing its document, and its Stop (pure).

office.mcp_turns lists the open agent turns (``active()``: dicts with "agent",
"session", "document", ...); a panel shows only those on its own document (the
document's RuntimeUID). While one agent edits, the row says "Claude is editing
this document." with a Stop button; after the user's Stop it says the agent was
stopped for this LibreOffice session, for a few seconds (office.agent_banner),
then hides. Which words, and where they go at the sidebar's width, is decided
here; office.agent_banner only shows it.
"""

from typing import Any, Dict, Iterable, List, NamedTuple, Sequence, Tuple

from marginalia.i18n.catalog import N_, tr, trn
from marginalia.ui.first_run import text_lines

# A name from an agent's clientInfo can be any length; the row says it whole up to
# this many characters, then shortens it with an ellipsis (it wraps, it is never cut).
NAME_MAX = 40
ELLIPSIS = "\u2026"

# The user's words, translated where the row is made (banner()); agents' names are theirs.
EDITING_ONE = N_("%s is editing this document.")
EDITING_TWO = N_("%(first)s and %(second)s are editing this document.")
STOPPED = N_("%s was stopped: its calls are refused until LibreOffice restarts.")
STOPPED_MANY = N_("%s were stopped: their calls are refused until LibreOffice restarts.")
STOP_LABEL = N_("Stop")
STOP_NAME = N_("Stop %s")
ROW_NAME = N_("Outside agent: %s")    # the row's accessible name: what it is, then its words


class Banner(NamedTuple):
    visible: bool
    text: str = ""                    # the row's sentence
    name: str = ""                    # the row's accessible name
    stop: Tuple[str, ...] = ()        # the agents Stop stops; empty: no Stop button
    stop_name: str = ""               # the Stop button's accessible name and tooltip


HIDDEN = Banner(False)


def short(name: str) -> str:
    name = " ".join((name or "").split()) or tr("An outside agent")
    return name if len(name) <= NAME_MAX else name[:NAME_MAX - 1].rstrip() + ELLIPSIS


def editing(turns: Iterable[Dict[str, Any]], document: str,
            stopped: Sequence[str] = ()) -> List[str]:
    """The agents with a turn open on ``document``, first come first, each once; an
    agent (or its session) the user stopped is not editing, even while its turn closes."""
    names = []
    mine = [t for t in turns if str(t.get("document")) == str(document)]
    for turn in sorted(mine, key=lambda t: t.get("since") or 0):
        agent = turn.get("agent") or ""
        if agent in stopped or turn.get("session") in stopped or agent in names:
            continue
        names.append(agent)
    return names


def _both(names: List[str]) -> str:
    shown = [short(n) for n in names]
    if len(shown) == 1:
        return shown[0]
    return tr("%(first)s and %(last)s") % {"first": tr(", ").join(shown[:-1]),
                                           "last": shown[-1]}


def banner(turns: Iterable[Dict[str, Any]], document: str, stopped: Sequence[str] = (),
           just_stopped: Sequence[str] = ()) -> Banner:
    """What the row shows for this panel's ``document``.

    ``stopped``: every agent or session refused (office.mcp_turns.stopped());
    ``just_stopped``: the agents this panel's Stop stopped a moment ago, whose note
    shows while no other agent edits here.
    """
    names = editing(turns, document, stopped)
    if names:
        if len(names) == 1:
            text = tr(EDITING_ONE) % short(names[0])
        elif len(names) == 2:
            text = tr(EDITING_TWO) % {"first": short(names[0]), "second": short(names[1])}
        else:
            others = len(names) - 1
            text = trn("%(first)s and %(count)d other agent are editing this document.",
                       "%(first)s and %(count)d other agents are editing this document.",
                       others) % {"first": short(names[0]), "count": others}
        return Banner(True, text, tr(ROW_NAME) % text, tuple(names),
                      tr(STOP_NAME) % _both(names))
    if just_stopped:
        names = list(just_stopped)
        text = (tr(STOPPED) if len(names) == 1 else tr(STOPPED_MANY)) % _both(names)
        return Banner(True, text, tr(ROW_NAME) % text)
    return HIDDEN


# -- layout (pixels, in the panel's window) ----------------------------------------
MARGIN = 6
GAP = 4
ROW = 26
LINE_H = 15           # a line of the sidebar's label font, with its leading
STOP_W = 52           # "Stop" whole, with the gen plugin's padding
SLACK = 6             # px the estimate keeps spare, so a wider font wraps instead of cutting


def layout(width: int, y: int, shown: Banner,
           need: int = 0) -> Tuple[int, Dict[str, Tuple[int, int, int, int]]]:
    """(height, {"text", "stop": (x, y, w, h)}) of the row at ``y``; hidden controls get
    no box. The sentence wraps beside Stop, at the right. ``need``: the width Stop's
    label needs in this toolkit (office.button_width)."""
    if not shown.visible:
        return 0, {}
    inner = max(width - 2 * MARGIN, 120)
    top = y + MARGIN
    boxes = {}
    text_w = inner
    if shown.stop:
        stop_w = max(STOP_W, need)
        text_w = inner - stop_w - GAP
        boxes["stop"] = (MARGIN + inner - stop_w, top, stop_w, ROW)
    text_h = text_lines(shown.text, text_w - SLACK) * LINE_H + 4
    boxes["text"] = (MARGIN, top + (3 if text_h < ROW else 0), text_w, text_h)
    return MARGIN + max(text_h, ROW), boxes

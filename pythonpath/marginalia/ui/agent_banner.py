"""The panel's row saying an outside agent is editing its document, and its Stop (pure).

office.mcp_turns lists the open agent turns (``active()``: dicts with "agent",
"session", "document", ...); a panel shows only those on its own document (the
document's RuntimeUID). While one agent edits, the row says "Claude is editing
this document." with a Stop button; while an agent waits on the user's answer
about one of its edits (mcp.questions), the row asks it, with Allow once and
Refuse; after the user's Stop it says the agent was stopped for this LibreOffice
session, for a few seconds (office.agent_banner), then hides. Which words, and
where they go at the sidebar's width, is decided here; office.agent_banner only
shows it.
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
# An agent's edit the user is asked about (mcp.questions): the question, Allow once, Refuse.
ASK_KEPT = N_("%(agent)s asks to change %(where)s, which you keep Marginalia out of. "
              "Allow it this once?")
ALLOW_LABEL = N_("Allow once")
REFUSE_LABEL = N_("Refuse")
ALLOW_NAME = N_("Allow %s this one change")
REFUSE_NAME = N_("Refuse %s this change")


class Banner(NamedTuple):
    visible: bool
    text: str = ""                    # the row's sentence
    name: str = ""                    # the row's accessible name
    stop: Tuple[str, ...] = ()        # the agents Stop stops; empty: no Stop button
    stop_name: str = ""               # the Stop button's accessible name and tooltip
    question: str = ""                # the question Allow once and Refuse answer ("" none)
    allow_name: str = ""              # their accessible names and tooltips
    refuse_name: str = ""


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


def asking(asked: Iterable[Dict[str, Any]], document: str) -> Banner:
    """The row asking about the oldest open question on ``document`` (mcp.questions'
    ``Question.state()``s), or HIDDEN when there is none."""
    mine = [q for q in asked if str(q.get("document")) == str(document)]
    if not mine:
        return HIDDEN
    question = min(mine, key=lambda q: q.get("created") or 0)
    agent = short(question.get("agent") or "")
    place = question.get("place")
    where = place.words() if place is not None else ""     # a Phrase: the user's language
    if question.get("kind") == "large_deletion":
        count = int(question.get("words") or 0)
        text = trn("%(agent)s asks to delete %(n)d word at once (%(where)s). Allow it this "
                   "once?", "%(agent)s asks to delete %(n)d words at once (%(where)s). Allow "
                   "it this once?", count) % {"agent": agent, "n": count, "where": where}
    else:
        text = tr(ASK_KEPT) % {"agent": agent, "where": where}
    return Banner(True, text, tr(ROW_NAME) % text, question=str(question.get("id")),
                  allow_name=tr(ALLOW_NAME) % agent, refuse_name=tr(REFUSE_NAME) % agent)


def banner(turns: Iterable[Dict[str, Any]], document: str, stopped: Sequence[str] = (),
           just_stopped: Sequence[str] = (), asked: Iterable[Dict[str, Any]] = ()) -> Banner:
    """What the row shows for this panel's ``document``.

    ``stopped``: every agent or session refused (office.mcp_turns.stopped());
    ``just_stopped``: the agents this panel's Stop stopped a moment ago, whose note
    shows while no other agent edits here; ``asked``: the open questions about agents'
    edits (office.agent_questions), which come first: an agent waits on the answer.
    """
    question = asking(asked, document)
    if question.visible:
        return question
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


def layout(width: int, y: int, shown: Banner, need: int = 0,
           answer_needs: Tuple[int, int] = (0, 0)
           ) -> Tuple[int, Dict[str, Tuple[int, int, int, int]]]:
    """(height, {"text", "stop", "allow", "refuse": (x, y, w, h)}) of the row at ``y``;
    hidden controls get no box. The sentence wraps beside Stop, at the right; a question
    takes the whole width, its two answers below it, side by side where both fit whole,
    else one above the other. ``need`` and ``answer_needs``: the widths the buttons'
    labels need in this toolkit (office.button_width)."""
    if not shown.visible:
        return 0, {}
    inner = max(width - 2 * MARGIN, 120)
    top = y + MARGIN
    boxes = {}
    if shown.question:
        text_h = text_lines(shown.text, inner - SLACK) * LINE_H + 4
        boxes["text"] = (MARGIN, top, inner, text_h)
        row = top + text_h + GAP
        allow_w, refuse_w = (max(STOP_W, n) for n in answer_needs)
        if allow_w + GAP + refuse_w <= inner:
            boxes["allow"] = (MARGIN, row, allow_w, ROW)
            boxes["refuse"] = (MARGIN + allow_w + GAP, row, refuse_w, ROW)
            return MARGIN + text_h + GAP + ROW, boxes
        boxes["allow"] = (MARGIN, row, min(inner, allow_w), ROW)
        boxes["refuse"] = (MARGIN, row + ROW + GAP, min(inner, refuse_w), ROW)
        return MARGIN + text_h + 2 * (GAP + ROW), boxes
    text_w = inner
    if shown.stop:
        stop_w = max(STOP_W, need)
        text_w = inner - stop_w - GAP
        boxes["stop"] = (MARGIN + inner - stop_w, top, stop_w, ROW)
    text_h = text_lines(shown.text, text_w - SLACK) * LINE_H + 4
    boxes["text"] = (MARGIN, top + (3 if text_h < ROW else 0), text_w, text_h)
    return MARGIN + max(text_h, ROW), boxes

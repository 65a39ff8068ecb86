"""The scorecard: one task's outcome from the runner's events, and the report (pure).

A run is one scorecard per editing protocol it ran (a Card: "new" sends the
setting edit_protocol "rewrite", "old" sends "tools"). eval.json holds:

- one protocol: ``{"protocol": "new", "edit_protocol": "rewrite", "meta": {...},
  "totals": {...}, "tasks": [...]}``, the shape from before there were two
  protocols with the two protocol keys added;
- both: ``{"protocol": "both", "meta": {...}, "scorecards": [card, card]}``,
  each card ``{"protocol", "edit_protocol", "totals", "tasks"}`` as above.

``meta`` is the run's model, endpoint, temperature, date and task names;
``totals`` counts tasks, passed, score (% passed), seconds, prompt_tokens,
completion_tokens, tokens_per_pass and seconds_per_pass (all the tokens or
seconds spent, failures included, per task passed; null when none passed);
each of ``tasks`` is an Outcome as a dict, in the run's order. eval.md shows
the same: for one protocol its table of tasks; for both, the totals of each
protocol in one table, each task's result under each side by side, then each
protocol's own table.
"""

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Iterable, List, NamedTuple, Optional

# What --protocol names, and the edit_protocol setting each sends (config.Settings).
PROTOCOLS = {"new": "rewrite", "old": "tools"}


@dataclass
class Outcome:
    """How one task went."""
    name: str
    title: str
    mode: str
    passed: bool
    reason: str = ""                 # why it failed, one line; empty when it passed
    seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    rounds: int = 0                  # tool calls the model made
    calls: List[str] = field(default_factory=list)   # the calls in order, "name" or "name (failed)"


@dataclass
class Tally:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    rounds: int = 0
    answer: str = ""                 # every turn's text, a line a turn
    last_answer: str = ""            # the last turn's: what a multi-turn task's checker reads
    error: Optional[str] = None
    calls: List[str] = field(default_factory=list)


def tally(turns: Iterable[List[Dict[str, Any]]]) -> Tally:
    """Tokens, tool calls, answer text and first error of a task's turns (each a list of the
    runner's JSON-line events). A turn's usage events are cumulative over its requests
    (chat.loop says so), so each turn counts its last one."""
    out = Tally()
    answers: List[str] = []
    for events in turns:
        last_usage: Dict[str, Any] = {}
        texts: List[str] = []
        for event in events:
            kind = event.get("type")
            if kind == "usage":
                last_usage = event
            elif kind == "tool_call":
                out.rounds += 1
            elif kind == "tool_result":
                name = str(event.get("name") or "?")
                out.calls.append(name if event.get("ok") else name + " (failed)")
            elif kind == "text":
                texts.append(event.get("text") or "")
            elif kind == "error" and out.error is None:
                out.error = event.get("message") or "the turn failed"
        out.prompt_tokens += int(last_usage.get("prompt_tokens") or 0)
        out.completion_tokens += int(last_usage.get("completion_tokens") or 0)
        answers.append("".join(texts))
    out.answer = "\n".join(answers)
    out.last_answer = answers[-1] if answers else ""
    return out


def explained(reason: str, counted: Tally) -> str:
    """A failure's reason, with what the model said when it called no tool at all: that is
    where small models fail most (a call printed as text), and the reason alone hides it."""
    if counted.rounds or not counted.answer.strip():
        return reason
    said = " ".join(counted.answer.split())
    said = said if len(said) <= 60 else said[:59] + "\u2026"
    return "%s (no tool called; it answered \u201c%s\u201d)" % (reason, said)


class Card(NamedTuple):
    """One protocol's scorecard: its outcomes in the tasks' order."""
    protocol: str                    # a key of PROTOCOLS
    outcomes: List[Outcome]


def _per_pass(total: float, passed: int, digits: Optional[int]) -> Any:
    return round(total / passed, digits) if passed else None


def totals(outcomes: List[Outcome]) -> Dict[str, Any]:
    passed = len([o for o in outcomes if o.passed])
    tokens = sum(o.prompt_tokens + o.completion_tokens for o in outcomes)
    seconds = sum(o.seconds for o in outcomes)
    return {"tasks": len(outcomes), "passed": passed,
            "score": round(100.0 * passed / len(outcomes), 1) if outcomes else 0.0,
            "seconds": round(seconds, 1),
            "prompt_tokens": sum(o.prompt_tokens for o in outcomes),
            "completion_tokens": sum(o.completion_tokens for o in outcomes),
            # What a success costs: every token and second spent, failures included, per
            # task passed.
            "tokens_per_pass": _per_pass(tokens, passed, None),
            "seconds_per_pass": _per_pass(seconds, passed, 1)}


def _card_dict(card: Card) -> Dict[str, Any]:
    return {"protocol": card.protocol, "edit_protocol": PROTOCOLS.get(card.protocol, ""),
            "totals": totals(card.outcomes), "tasks": [asdict(o) for o in card.outcomes]}


def as_json(cards: List[Card], meta: Dict[str, Any]) -> str:
    if len(cards) == 1:
        one = _card_dict(cards[0])
        data = {"protocol": one.pop("protocol"), "edit_protocol": one.pop("edit_protocol"),
                "meta": meta}
        data.update(one)
    else:
        data = {"protocol": "both", "meta": meta, "scorecards": [_card_dict(c) for c in cards]}
    return json.dumps(data, indent=2, ensure_ascii=False)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _named(protocol: str) -> str:
    return "%s (edit_protocol \u201c%s\u201d)" % (protocol, PROTOCOLS.get(protocol, "?"))


def _result(o: Optional[Outcome]) -> str:
    return "\u2013" if o is None else "pass" if o.passed else "FAIL"


def _task_table(outcomes: List[Outcome]) -> List[str]:
    lines = ["| Task | Mode | Result | Seconds | Prompt | Completion | Rounds | Calls "
             "| Why it failed |",
             "|---|---|---|---:|---:|---:|---:|---|---|"]
    for o in outcomes:
        lines.append("| %s | %s | %s | %.1f | %d | %d | %d | %s | %s |" % (
            _cell(o.name), o.mode, _result(o), o.seconds, o.prompt_tokens,
            o.completion_tokens, o.rounds, _cell(", ".join(o.calls)), _cell(o.reason)))
    return lines


def _header(meta: Dict[str, Any], protocols: str) -> List[str]:
    return ["# Marginalia eval: %s" % _cell(str(meta.get("model", ""))), "",
            "Endpoint %s, %s; protocol %s." % (meta.get("endpoint", ""), meta.get("date", ""),
                                               protocols), ""]


def _totals_table(cards: List[Card]) -> List[str]:
    lines = ["| Protocol | Passed | Score | Tokens per passed task | Seconds per passed task "
             "| Prompt | Completion | Seconds |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for card in cards:
        t = totals(card.outcomes)
        lines.append("| %s | %d of %d | %s%% | %s | %s | %d | %d | %s |" % (
            _named(card.protocol), t["passed"], t["tasks"], t["score"],
            "\u2013" if t["tokens_per_pass"] is None else t["tokens_per_pass"],
            "\u2013" if t["seconds_per_pass"] is None else t["seconds_per_pass"],
            t["prompt_tokens"], t["completion_tokens"], t["seconds"]))
    return lines


def _side_by_side(cards: List[Card]) -> List[str]:
    """Each task's result under each protocol, in the first card's order."""
    found = [{o.name: o for o in card.outcomes} for card in cards]
    names = [o.name for o in cards[0].outcomes]
    names += [o.name for card in cards[1:] for o in card.outcomes if o.name not in names]
    lines = ["| Task | Mode | %s | Why it failed |" % " | ".join(c.protocol for c in cards),
             "|---|---|%s---|" % ("---|" * len(cards))]
    for name in names:
        runs = [by_name.get(name) for by_name in found]
        mode = next(o.mode for o in runs if o is not None)
        why = "; ".join("%s: %s" % (card.protocol, o.reason) for card, o in zip(cards, runs)
                        if o is not None and o.reason)
        lines.append("| %s | %s | %s | %s |" % (_cell(name), mode, " | ".join(
            _result(o) for o in runs), _cell(why)))
    return lines


def as_markdown(cards: List[Card], meta: Dict[str, Any]) -> str:
    if len(cards) == 1:
        t = totals(cards[0].outcomes)
        lines = _header(meta, _named(cards[0].protocol)) + [
            "**%d of %d tasks passed (%s%%)**, %s s, %d prompt + %d completion tokens%s." % (
                t["passed"], t["tasks"], t["score"], t["seconds"], t["prompt_tokens"],
                t["completion_tokens"],
                ", %d tokens and %s s per passed task" % (t["tokens_per_pass"],
                                                          t["seconds_per_pass"])
                if t["passed"] else ""), ""] + _task_table(cards[0].outcomes)
        return "\n".join(lines) + "\n"
    lines = _header(meta, " and ".join(_named(c.protocol) for c in cards))
    lines += _totals_table(cards) + [""] + _side_by_side(cards)
    for card in cards:
        lines += ["", "## %s" % _named(card.protocol), ""] + _task_table(card.outcomes)
    return "\n".join(lines) + "\n"


def console_line(o: Outcome, protocol: str = "") -> str:
    """One task on the terminal, printed as soon as it is done; with ``protocol`` (a run of
    both) the line starts with the protocol's name."""
    line = "%-4s %-28s %6.1fs %6d+%-5d tok %2d rounds" % (
        "ok" if o.passed else "FAIL", o.name, o.seconds, o.prompt_tokens, o.completion_tokens,
        o.rounds)
    return ("%-4s" % protocol if protocol else "") + line + ("  " + o.reason if o.reason else "")


def console_total(outcomes: List[Outcome], protocol: str = "") -> str:
    t = totals(outcomes)
    line = "%d of %d tasks passed (%s%%) in %s s; %d prompt + %d completion tokens" % (
        t["passed"], t["tasks"], t["score"], t["seconds"], t["prompt_tokens"],
        t["completion_tokens"])
    if t["passed"]:
        line += "; %d tokens and %s s per passed task" % (t["tokens_per_pass"],
                                                          t["seconds_per_pass"])
    return (protocol + ": " if protocol else "") + line + "."

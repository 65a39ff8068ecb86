"""The scorecard: one task's outcome from the runner's events, and the report (pure)."""

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Iterable, List, Optional


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


def totals(outcomes: List[Outcome]) -> Dict[str, Any]:
    passed = [o for o in outcomes if o.passed]
    tokens = sum(o.prompt_tokens + o.completion_tokens for o in outcomes)
    return {"tasks": len(outcomes), "passed": len(passed),
            "score": round(100.0 * len(passed) / len(outcomes), 1) if outcomes else 0.0,
            "seconds": round(sum(o.seconds for o in outcomes), 1),
            "prompt_tokens": sum(o.prompt_tokens for o in outcomes),
            "completion_tokens": sum(o.completion_tokens for o in outcomes),
            # What a success costs: every token spent, failures included, per task passed.
            "tokens_per_pass": round(tokens / len(passed)) if passed else None}


def as_json(outcomes: List[Outcome], meta: Dict[str, Any]) -> str:
    return json.dumps({"meta": meta, "totals": totals(outcomes),
                       "tasks": [asdict(o) for o in outcomes]}, indent=2, ensure_ascii=False)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def as_markdown(outcomes: List[Outcome], meta: Dict[str, Any]) -> str:
    t = totals(outcomes)
    lines = ["# Marginalia eval: %s" % _cell(str(meta.get("model", ""))), "",
             "Endpoint %s, %s." % (meta.get("endpoint", ""), meta.get("date", "")), "",
             "**%d of %d tasks passed (%s%%)**, %s s, %d prompt + %d completion tokens%s." % (
                 t["passed"], t["tasks"], t["score"], t["seconds"], t["prompt_tokens"],
                 t["completion_tokens"],
                 ", %d tokens per passed task" % t["tokens_per_pass"]
                 if t["tokens_per_pass"] is not None else ""), "",
             "| Task | Mode | Result | Seconds | Prompt | Completion | Rounds | Calls "
             "| Why it failed |",
             "|---|---|---|---:|---:|---:|---:|---|---|"]
    for o in outcomes:
        lines.append("| %s | %s | %s | %.1f | %d | %d | %d | %s | %s |" % (
            _cell(o.name), o.mode, "pass" if o.passed else "FAIL", o.seconds, o.prompt_tokens,
            o.completion_tokens, o.rounds, _cell(", ".join(o.calls)), _cell(o.reason)))
    return "\n".join(lines) + "\n"


def console_line(o: Outcome) -> str:
    """One task on the terminal, printed as soon as it is done."""
    line = "%-4s %-20s %6.1fs %6d+%-5d tok %2d rounds" % (
        "ok" if o.passed else "FAIL", o.name, o.seconds, o.prompt_tokens, o.completion_tokens,
        o.rounds)
    return line + ("  " + o.reason if o.reason else "")


def console_total(outcomes: List[Outcome]) -> str:
    t = totals(outcomes)
    return "%d of %d tasks passed (%s%%) in %s s; %d prompt + %d completion tokens." % (
        t["passed"], t["tasks"], t["score"], t["seconds"], t["prompt_tokens"],
        t["completion_tokens"])

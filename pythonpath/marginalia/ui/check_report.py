"""The words of Test connection's report (chat.check), for the Options page and ``/test``."""

from typing import List

from marginalia.chat.check import AS_TEXT, NOT_CALLED, REFUSED, STRUCTURED, CheckReport
from marginalia.config import Settings
from marginalia.ui.options_form import connection_sentence

OK = "\u2714"        # heavy check mark
NO = "\u2718"        # heavy ballot x

TOOL_WORDS = {
    STRUCTURED: "tool calls: structured " + OK,
    AS_TEXT: "tool calls: written as text " + OK,
    NOT_CALLED: "tool calls: none (the model answered without calling the test tool)",
    REFUSED: "tool calls: not supported " + NO + " (edits are unavailable with this model)",
}


def report_lines(report: CheckReport, settings: Settings) -> List[str]:
    """A few plain lines: what works, what does not, and the first failure's sentence."""
    if not report.reached:
        return [report.error or "The server did not answer."]
    model = (settings.model or "").strip()
    # Reachable, key accepted (or none needed), model listed: one sentence.
    lines = [connection_sentence(settings, report.models)]
    if not model or report.model_listed is False:
        return lines
    if report.tools is not None:
        parts = []
        if report.tools != REFUSED:
            parts.append("streaming " + (OK if report.streamed else
                                         NO + " (the server answered in one piece)"))
        parts.append(TOOL_WORDS[report.tools])
        if report.tools != REFUSED:
            parts.append("thinking: " + ("shown" if report.thinking else "none"))
        lines.append(" \u00b7 ".join(parts))
    if report.window is not None:
        lines.append("context window: {:,} tokens".format(report.window.tokens))
    else:
        lines.append("context window: not reported by the server")
    if report.error:
        lines.append(report.error)
    return lines


def report_text(report: CheckReport, settings: Settings, lines: int = 0) -> str:
    """The report as text; ``lines`` > 0 folds it into at most that many lines."""
    out = report_lines(report, settings)
    if lines and len(out) > lines:
        out = out[:lines - 1] + [" \u00b7 ".join(out[lines - 1:])]
    return "\n".join(out)


SHORT_TOOLS = {STRUCTURED: "tool calls " + OK, AS_TEXT: "tool calls " + OK + " (as text)",
               NOT_CALLED: "tool calls: none",
               REFUSED: "tool calls " + NO + ": edits unavailable with this model"}


def report_summary(report: CheckReport, settings: Settings) -> str:
    """The report in one sentence, for the Options page's two short lines."""
    lines = report_lines(report, settings)
    if report.tools is None or report.error:
        return lines[-1] if report.error else lines[0]
    parts = []
    if report.tools != REFUSED:
        parts.append("streaming " + (OK if report.streamed else NO))
    parts.append(SHORT_TOOLS[report.tools])
    if report.tools != REFUSED:
        parts.append("thinking shown" if report.thinking else "no thinking")
    if report.window is not None:
        parts.append("window {:,}".format(report.window.tokens))
    return "Connected: " + " \u00b7 ".join(parts) + "."

"""The words of Test connection's report (chat.check), for the Options page and ``/test``."""

from typing import List

from marginalia.chat.check import AS_TEXT, NOT_CALLED, REFUSED, STRUCTURED, CheckReport
from marginalia.config import Settings
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr
from marginalia.ui.options_form import connection_sentence

OK = "\u2714"        # heavy check mark
NO = "\u2718"        # heavy ballot x

# Each a whole phrase (the marks inside), translated where the report is written.
TOOL_WORDS = {
    STRUCTURED: N_("tool calls: structured \u2714"),
    AS_TEXT: N_("tool calls: written as text \u2714"),
    NOT_CALLED: N_("tool calls: none (the model answered without calling the test tool)"),
    REFUSED: N_("tool calls: not supported \u2718 (edits are unavailable with this model)"),
}


def report_lines(report: CheckReport, settings: Settings) -> List[str]:
    """A few plain lines: what works, what does not, and the first failure's sentence."""
    if not report.reached:
        return [report.error or tr("The server did not answer.")]
    model = (settings.model or "").strip()
    # Reachable, key accepted (or none needed), model listed: one sentence.
    lines = [connection_sentence(settings, report.models)]
    if not model or report.model_listed is False:
        return lines
    if report.tools is not None:
        parts = []
        if report.tools != REFUSED:
            parts.append(tr("streaming \u2714") if report.streamed else
                         tr("streaming \u2718 (the server answered in one piece)"))
        parts.append(tr(TOOL_WORDS[report.tools]))
        if report.tools != REFUSED:
            parts.append(tr("thinking: shown") if report.thinking else tr("thinking: none"))
        lines.append(" \u00b7 ".join(parts))
    if report.window is not None:
        lines.append(tr("context window: %s tokens") % formats.number(report.window.tokens))
    else:
        lines.append(tr("context window: not reported by the server"))
    if report.error:
        lines.append(report.error)
    return lines


def report_text(report: CheckReport, settings: Settings, lines: int = 0) -> str:
    """The report as text; ``lines`` > 0 folds it into at most that many lines."""
    out = report_lines(report, settings)
    if lines and len(out) > lines:
        out = out[:lines - 1] + [" \u00b7 ".join(out[lines - 1:])]
    return "\n".join(out)


SHORT_TOOLS = {STRUCTURED: N_("tool calls \u2714"), AS_TEXT: N_("tool calls \u2714 (as text)"),
               NOT_CALLED: N_("tool calls: none"),
               REFUSED: N_("tool calls \u2718: edits unavailable with this model")}


def report_summary(report: CheckReport, settings: Settings) -> str:
    """The report in one sentence, for the Options page's two short lines."""
    lines = report_lines(report, settings)
    if report.tools is None or report.error:
        return lines[-1] if report.error else lines[0]
    parts = []
    if report.tools != REFUSED:
        parts.append(tr("streaming \u2714") if report.streamed else tr("streaming \u2718"))
    parts.append(tr(SHORT_TOOLS[report.tools]))
    if report.tools != REFUSED:
        parts.append(tr("thinking shown") if report.thinking else tr("no thinking"))
    if report.window is not None:
        parts.append(tr("window %s") % formats.number(report.window.tokens))
    return tr("Connected: %s.") % " \u00b7 ".join(parts)

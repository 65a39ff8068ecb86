"""A chat as Markdown, for "Export chat…" and the headless runner's --transcript (pure).

Each user message is a "You" section and each answer an "Assistant" section;
the model's thinking is folded into a quote block before the text it led to,
a tool call is one short line with what it did, an error one line with a
warning sign, a stopped answer a "(stopped)" line. The answer's own headings go
below the "## You" / "## Assistant" level, so the file's outline stays the chat's.
"""

import re
import time
from typing import Iterable, List, Optional, Tuple

from marginalia import events as ev
from marginalia.document.docview import short
from marginalia.i18n.catalog import N_, tr
from marginalia.i18n import phrase
from marginalia.ui import citation_lines

TOOL_LINE = "- `%s` \u2014 %s"
ARGUMENTS_LIMIT = 80
STOPPED = N_("stopped")        # in italics and brackets: "_(stopped)_"
ROLE_LEVEL = 2                  # "## You", "## Assistant": an answer's "#" becomes "###"
_ATX = re.compile(r"^( {0,3})(#{1,6})(?=\s|$)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def demote_headings(text: str) -> str:
    """``text`` (an answer's markdown) with every heading ROLE_LEVEL levels lower (at most
    six "#"); a setext heading ("Title" over "===") becomes an ATX one. Code stays."""
    out: List[str] = []
    fence = ""
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            out.append(line)
            continue
        if opened:
            fence = opened.group(1)
            out.append(line)
            continue
        atx = _ATX.match(line)
        if atx:
            level = min(6, len(atx.group(2)) + ROLE_LEVEL)
            out.append(atx.group(1) + "#" * level + line[atx.end():])
            continue
        setext = _SETEXT.match(line)
        if setext and out and out[-1].strip() and not out[-1].lstrip().startswith(
                ("#", "-", "*", "+", ">", "|")) and not re.match(r"^\s*\d+[.)]\s", out[-1]):
            level = (1 if setext.group(1)[0] == "=" else 2) + ROLE_LEVEL
            out[-1] = "#" * level + " " + out[-1].strip()
            continue
        out.append(line)
    return "\n".join(out)


def _quote(text: str) -> List[str]:
    lines = text.strip().split("\n")
    return [("> " + line).rstrip() for line in lines] + [""]


class _Writer:
    def __init__(self) -> None:
        self.lines: List[str] = []
        self.text = ""          # answer text not yet written
        self.thinking = ""      # reasoning not yet written
        self.pending = {}       # call id -> the call's short line, until its result

    def flush(self) -> None:
        if self.thinking.strip():
            self.lines.extend(_quote(self.thinking))
        self.thinking = ""
        if self.text.strip():
            self.lines.extend([demote_headings(self.text.strip()), ""])
        self.text = ""

    def user(self, text: str) -> None:
        self.flush()
        self.lines.extend(["## " + tr("You"), "", text.strip(), "",
                           "## " + tr("Assistant"), ""])

    def event(self, event: ev.Event) -> None:
        kind = event.kind
        if kind == ev.REASONING:
            if self.text.strip():
                self.flush()
            self.thinking += event.text or ""
        elif kind == ev.TEXT:
            if self.thinking.strip():
                self.lines.extend(_quote(self.thinking))
                self.thinking = ""
            self.text += event.text or ""
        elif kind == ev.RECLASSIFY:
            self.text = ""          # it was R1 reasoning: the event carries it
            self.thinking += event.text or ""
        elif kind == ev.TOOL_CALL:
            self.flush()
            arguments = short((event.arguments or "").replace("\n", " "), ARGUMENTS_LIMIT)
            self.pending[event.call_id] = "%s(%s)" % (event.name or "tool", arguments)
        elif kind == ev.TOOL_RESULT:
            self.flush()
            call = self.pending.pop(event.call_id, event.name or "tool")
            said = phrase.said(event.phrase)
            outcome = (said.words() if said else event.summary) or (
                tr("done") if event.ok else tr("failed"))
            if not event.ok and (said or event.summary):
                outcome = tr("failed: %s") % outcome
            self.lines.append(TOOL_LINE % (call, short(outcome, 200)))
            self.lines.append("")
        elif kind == ev.CITATIONS:
            self.flush()
            found = citation_lines.lines(event.citations or {})
            if found:
                self.lines.extend([tr(citation_lines.TITLE), ""] + ["- " + line for line in found]
                                  + [""])
        elif kind == ev.ERROR:
            self.flush()
            self.lines.extend(["\u26a0 " + (event.message or tr("Something went wrong.")), ""])
        elif kind == ev.DONE:
            self.flush()
            if event.finish_reason == "cancelled":      # the user pressed Stop
                self.lines.extend(["_(%s)_" % tr(STOPPED), ""])


def to_markdown(log: Iterable[Tuple[str, object]], title: str = "",
                when: Optional[float] = None) -> str:
    """The chat log (events.Entry: the user's messages and the turns' events) as Markdown."""
    writer = _Writer()
    heading = "# " + (tr("Chat about %s") % title if title else tr("Chat"))
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(when if when else time.time()))
    writer.lines.extend([heading, "", "_%s_" % (tr("Exported from Marginalia on %s.") % stamp),
                         ""])
    for role, payload in log:
        if role == "user":
            writer.user(str(payload))
        else:
            writer.event(payload)
    writer.flush()
    # Consecutive tool lines form one list: drop the blank line between them.
    out: List[str] = []
    for i, line in enumerate(writer.lines):
        if (line == "" and out and out[-1].startswith("- `")
                and i + 1 < len(writer.lines) and writer.lines[i + 1].startswith("- `")):
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"

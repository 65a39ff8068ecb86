"""What the quick actions say and offer: the Marginalia context submenu, the commands'
URLs, the languages of Translate to, and the message an action sends to the model.

Pure, so the menu's content and its build time are tested without an office;
office.context_menu only turns these entries into Writer's action triggers.
"""

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple
from urllib.parse import parse_qsl, urlencode

from marginalia.document import docview
from marginalia.ui import prompts as pl

PROTOCOL = "org.marginalia.cmd:"
RUN = "Run"
ASK = "Ask"
FOCUS = "Focus"
KEEP_OUT = "KeepOut"
SUBMENU = "Marginalia"
ASK_LABEL = "Ask Marginalia\u2026"
FOCUS_LABEL = "Focus Marginalia chat"
KEEP_OUT_LABEL = "Keep Marginalia out"
LET_IN_LABEL = "Let Marginalia in"
TOGGLE_KEEP_OUT_LABEL = "Keep Marginalia out or let it in"   # Tools > Marginalia (a fixed menu)
TRANSLATE_TO = "Translate to"
RECENT_LANGUAGES = 3

# (code, English name): the Translate to submenu after the recent ones, and what
# "/translate de" understands.
LANGUAGES = (("en", "English"), ("de", "German"), ("fr", "French"), ("es", "Spanish"),
             ("it", "Italian"), ("pt", "Portuguese"), ("nl", "Dutch"), ("pl", "Polish"),
             ("sv", "Swedish"), ("da", "Danish"), ("fi", "Finnish"), ("cs", "Czech"),
             ("el", "Greek"), ("tr", "Turkish"), ("ru", "Russian"), ("uk", "Ukrainian"),
             ("ar", "Arabic"), ("zh", "Chinese"), ("ja", "Japanese"), ("ko", "Korean"))
_BY_CODE = dict(LANGUAGES)


@dataclass
class Entry:
    """One menu entry: a command (url), a submenu (children), or a separator (neither)."""

    label: str = ""
    url: Optional[str] = None
    children: List["Entry"] = field(default_factory=list)

    @property
    def separator(self) -> bool:
        return self.url is None and not self.children


def command_url(command: str, **params: str) -> str:
    """org.marginalia.cmd:Run?id=shorten&arg=German"""
    query = urlencode(sorted((k, v) for k, v in params.items() if v))
    return PROTOCOL + command + ("?" + query if query else "")


def parse_url(url: str) -> Tuple[str, Dict[str, str]]:
    """(command, params) of one of our URLs; ("", {}) for anything else."""
    if not url.startswith(PROTOCOL):
        return "", {}
    rest = url[len(PROTOCOL):]
    command, _sep, query = rest.partition("?")
    return command, dict(parse_qsl(query))


def language_name(argument: str) -> str:
    """"de" -> "German"; a name is kept as written (capitalised), "" stays ""."""
    text = (argument or "").strip()
    return _BY_CODE.get(text.lower(), text[:1].upper() + text[1:])


def remember_language(recent: Sequence[str], name: str) -> List[str]:
    """The recent languages with ``name`` first (no repeats, at most RECENT_LANGUAGES)."""
    out = [name] + [r for r in recent if r.lower() != name.lower()]
    return out[:RECENT_LANGUAGES]


def translate_entries(prompt: pl.Prompt, recent: Sequence[str]) -> List[Entry]:
    """Translate to's submenu: the recent languages, a separator, then the rest."""
    names = [r for r in recent if r][:RECENT_LANGUAGES]
    rest = [name for _code, name in LANGUAGES if name not in names]
    out = [Entry(n, command_url(RUN, id=prompt.pid, arg=n)) for n in names]
    if out:
        out.append(Entry())
    out.extend(Entry(n, command_url(RUN, id=prompt.pid, arg=n)) for n in rest)
    return out


def usable(prompt: pl.Prompt, has_selection: bool) -> bool:
    return not prompt.hidden and (has_selection or not prompt.needs_selection)


def menu_entries(library: Iterable[pl.Prompt], has_selection: bool,
                 recent: Sequence[str] = (), kept_out: bool = False) -> List[Entry]:
    """The Marginalia submenu's entries: built-ins, Ask, the user's prompts, then Keep
    Marginalia out (Let Marginalia in when the selection touches such a mark).

    Without a selection only what works on the whole document or at the
    cursor is offered (prompts that do not need a selection, and Ask).
    """
    builtins, own = [], []
    for prompt in library:
        if not usable(prompt, has_selection):
            continue
        if prompt.takes_argument and prompt.builtin:
            entry = Entry(TRANSLATE_TO, children=translate_entries(prompt, recent))
        elif prompt.takes_argument:
            continue        # a user prompt with {argument} is for the chat box ("/name x")
        else:
            entry = Entry(prompt.name, command_url(RUN, id=prompt.pid))
        (builtins if prompt.builtin else own).append(entry)
    out = builtins + [Entry(ASK_LABEL, command_url(ASK))]
    if own:
        out.append(Entry())
        out.extend(own)
    if has_selection:
        out.append(Entry())
        out.append(Entry(LET_IN_LABEL if kept_out else KEEP_OUT_LABEL, command_url(KEEP_OUT)))
    return out


def command_list(library: Iterable[pl.Prompt]) -> List[Tuple[str, str]]:
    """(url, label) of every command users can bind: the built-ins, Ask, Focus chat, Keep
    Marginalia out."""
    out = [(command_url(RUN, id=p.pid), "Marginalia: " + p.name)
           for p in library if p.builtin and not p.takes_argument]
    out.append((command_url(ASK), "Marginalia: Ask\u2026"))
    out.append((command_url(FOCUS), FOCUS_LABEL))
    out.append((command_url(KEEP_OUT), "Marginalia: " + TOGGLE_KEEP_OUT_LABEL))
    return out


def translate_urls(library: Iterable[pl.Prompt]) -> List[Tuple[str, str]]:
    """(url, language) of Tools > Marginalia > Translate to: every language, in order."""
    return [(command_url(RUN, id=p.pid, arg=name), name)
            for p in library if p.builtin and p.takes_argument for _code, name in LANGUAGES]


# ---------------------------------------------------------------- the message
_REWRITES = (pl.REPLACE, pl.SUGGEST)
ONLY_TEXT = ("Reply with the new text only: no introduction, no quotes around it, no notes. "
             "Keep the paragraphs: separate them with one blank line, and keep as many as "
             "the original has unless the instruction asks otherwise. Use plain text unless "
             "the original's structure needs markdown.")
ONLY_COMMENT = "Reply with the comment only, in a few sentences, as plain text."


def instruction(prompt: pl.Prompt, argument: str = "") -> str:
    text = prompt.instruction
    if "{argument}" in text:
        text = text.replace("{argument}", language_name(argument) if prompt.builtin
                            else (argument or "").strip())
    elif argument:
        text += "\n" + argument.strip()
    return text


def action_message(prompt: pl.Prompt, argument: str, selected: str,
                   whole_document: bool = False) -> str:
    """The user message an action sends: the instruction, what the answer must look like,
    and the text it applies to."""
    parts = [instruction(prompt, argument)]
    if prompt.mode in _REWRITES:
        parts.append(ONLY_TEXT)
    elif prompt.mode == pl.COMMENT:
        parts.append(ONLY_COMMENT)
    if selected:
        what = "The document" if whole_document else "The selected text"
        parts.append("%s:\n<<<\n%s\n>>>" % (what, selected))
    return "\n\n".join(parts)


def shown_request(prompt: pl.Prompt, argument: str, selected: str) -> str:
    """What the transcript shows as the user's message for an action."""
    name = prompt.name + (" " + language_name(argument) if argument and prompt.builtin
                          else (" " + argument if argument else ""))
    if not selected:
        return name
    return "%s: \u201c%s\u201d" % (name, docview.short(selected, 80))


def needs_argument_sentence(prompt: pl.Prompt) -> str:
    return "%s needs to know what to do: type /%s and then, say, %s." % (
        prompt.name, prompt.key, "de" if prompt.builtin else "a word")


"""What the quick actions say and offer: the Marginalia context submenu, the commands'
URLs, the languages of Translate to, and the message an action sends to the model.

Pure, so the menu's content and its build time are tested without an office;
office.context_menu only turns these entries into Writer's action triggers.
"""

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple
from urllib.parse import parse_qsl, urlencode

from marginalia.document import docview
from marginalia.i18n.catalog import N_, tr
from marginalia import prompt_library as pl

PROTOCOL = "org.marginalia.cmd:"
RUN = "Run"
ASK = "Ask"
FOCUS = "Focus"
KEEP_OUT = "KeepOut"
SUBMENU = "Marginalia"          # the product's name: the same in every language
# Labels in English, translated where the menu is built (menu_entries, command_list).
# Tools > Marginalia's are in Addons.xcu (translated at build time by i18n.package).
ASK_LABEL = N_("Ask Marginalia\u2026")
FOCUS_LABEL = N_("Focus Marginalia chat")
KEEP_OUT_LABEL = N_("Keep Marginalia out")
LET_IN_LABEL = N_("Let Marginalia in")
TOGGLE_KEEP_OUT_LABEL = N_("Keep Marginalia out or let it in")  # Tools > Marginalia (fixed)
TRANSLATE_TO = N_("Translate to")
RECENT_LANGUAGES = 3

# (code, English name): the Translate to submenu after the recent ones, and what
# "/translate de" understands. The English name is the data (the commands' URLs, the
# recent languages kept); the user sees it translated (shown_language).
LANGUAGES = (("en", N_("English")), ("de", N_("German")), ("fr", N_("French")),
             ("es", N_("Spanish")), ("it", N_("Italian")), ("pt", N_("Portuguese")),
             ("nl", N_("Dutch")), ("pl", N_("Polish")), ("sv", N_("Swedish")),
             ("da", N_("Danish")), ("fi", N_("Finnish")), ("cs", N_("Czech")),
             ("el", N_("Greek")), ("tr", N_("Turkish")), ("ru", N_("Russian")),
             ("uk", N_("Ukrainian")), ("ar", N_("Arabic")), ("zh", N_("Chinese")),
             ("ja", N_("Japanese")), ("ko", N_("Korean")))
_BY_CODE = dict(LANGUAGES)
_KNOWN = frozenset(name for _code, name in LANGUAGES)


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
    """"de" -> "German"; a name is kept as written (capitalised), "" stays "". English:
    what is kept and put in URLs."""
    text = (argument or "").strip()
    return _BY_CODE.get(text.lower(), text[:1].upper() + text[1:])


def shown_language(argument: str) -> str:
    """The language as the user reads it: "de" and "German" -> "Deutsch" in German; a name
    the user typed is kept as written."""
    name = language_name(argument)
    return tr(name) if name in _KNOWN else name


def remember_language(recent: Sequence[str], name: str) -> List[str]:
    """The recent languages with ``name`` first (no repeats, at most RECENT_LANGUAGES)."""
    out = [name] + [r for r in recent if r.lower() != name.lower()]
    return out[:RECENT_LANGUAGES]


def translate_entries(prompt: pl.Prompt, recent: Sequence[str]) -> List[Entry]:
    """Translate to's submenu: the recent languages, a separator, then the rest."""
    names = [r for r in recent if r][:RECENT_LANGUAGES]
    rest = [name for _code, name in LANGUAGES if name not in names]
    out = [Entry(shown_language(n), command_url(RUN, id=prompt.pid, arg=n)) for n in names]
    if out:
        out.append(Entry())
    out.extend(Entry(shown_language(n), command_url(RUN, id=prompt.pid, arg=n)) for n in rest)
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
            entry = Entry(tr(TRANSLATE_TO), children=translate_entries(prompt, recent))
        elif prompt.takes_argument:
            continue        # a user prompt with {argument} is for the chat box ("/name x")
        else:
            entry = Entry(prompt.name, command_url(RUN, id=prompt.pid))
        (builtins if prompt.builtin else own).append(entry)
    out = builtins + [Entry(tr(ASK_LABEL), command_url(ASK))]
    if own:
        out.append(Entry())
        out.extend(own)
    if has_selection:
        out.append(Entry())
        out.append(Entry(tr(LET_IN_LABEL) if kept_out else tr(KEEP_OUT_LABEL),
                         command_url(KEEP_OUT)))
    return out


def command_list(library: Iterable[pl.Prompt]) -> List[Tuple[str, str]]:
    """(url, label) of every command users can bind: the built-ins, Ask, Focus chat, Keep
    Marginalia out."""
    out = [(command_url(RUN, id=p.pid), tr("Marginalia: %s") % p.name)
           for p in library if p.builtin and not p.takes_argument]
    out.append((command_url(ASK), tr("Marginalia: Ask\u2026")))
    out.append((command_url(FOCUS), tr(FOCUS_LABEL)))
    out.append((command_url(KEEP_OUT), tr("Marginalia: %s") % tr(TOGGLE_KEEP_OUT_LABEL)))
    return out


def translate_urls(library: Iterable[pl.Prompt]) -> List[Tuple[str, str]]:
    """(url, language) of Tools > Marginalia > Translate to: every language, in order."""
    return [(command_url(RUN, id=p.pid, arg=name), name)
            for p in library if p.builtin and p.takes_argument for _code, name in LANGUAGES]


# ---------------------------------------------------------------- the message
_REWRITES = (pl.REPLACE, pl.SUGGEST)
# For the model (English, which models follow best); only the prompt's own instruction
# is in the user's language (they see and edit it on the Prompts page).
ONLY_TEXT = ("Reply with the new text only: no introduction, no quotes around it, no notes. "
             "Keep the paragraphs: separate them with one blank line, and keep as many as "
             "the original has unless the instruction asks otherwise. Use plain text unless "
             "the original's structure needs markdown.")
ONLY_COMMENT = "Reply with the comment only, in a few sentences, as plain text."


def instruction(prompt: pl.Prompt, argument: str = "") -> str:
    text = prompt.instruction
    if "{argument}" in text:
        text = text.replace("{argument}", shown_language(argument) if prompt.builtin
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
    name = prompt.name
    if argument:
        name = tr("%(prompt)s %(argument)s") % {
            "prompt": prompt.name,
            "argument": shown_language(argument) if prompt.builtin else argument}
    if not selected:
        return name
    return tr("%(request)s: \u201c%(text)s\u201d") % {
        "request": name, "text": docview.short(selected, 80)}


def needs_argument_sentence(prompt: pl.Prompt) -> str:
    return tr("%(prompt)s needs to know what to do: type /%(key)s and then, say, "
              "%(example)s.") % {"prompt": prompt.name, "key": prompt.key,
                                 "example": "de" if prompt.builtin else tr("a word")}

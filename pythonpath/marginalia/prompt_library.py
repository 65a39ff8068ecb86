"""The prompt library: the built-in quick actions and the user's own prompts.

A prompt has a name, an instruction, an output mode (what happens to the
answer) and whether it needs a selection. The library is one ordered list:
the user may reorder it, add and edit their own prompts, and hide a built-in
(deleting one hides it), but a built-in's name and instruction stay as
shipped, and one missing from what was stored comes back at the end, so the
built-ins can never be lost. The same list goes to the registry
(office.prompt_store) and to a JSON file (export / import), whose reading
refuses anything odd with one sentence and leaves the library as it was.
"""

import json
import re
from dataclasses import dataclass, replace
from typing import Iterable, List, Optional, Tuple

from marginalia.errors import MarginaliaError
from marginalia.i18n.catalog import N_, tr

REPLACE = "replace"
SUGGEST = "suggest"
COMMENT = "comment"
BELOW = "below"
PANEL = "panel"
# (mode, what the Options page and the menu call it), in the order shown; the labels are
# English here and translated where shown (mode_labels).
MODES = ((REPLACE, N_("Replace the selection")), (SUGGEST, N_("Suggest as tracked changes")),
         (COMMENT, N_("Add as a comment")), (BELOW, N_("Insert below")),
         (PANEL, N_("Answer in the panel")))
MODE_IDS = tuple(mode for mode, _label in MODES)


def mode_labels() -> tuple:
    """The output modes' labels in the user's language, in MODES' order."""
    return tuple(tr(label) for _mode, label in MODES)


FORMAT = "marginalia-prompts"
VERSION = 1
MAX_NAME = 60
MAX_INSTRUCTION = 4000
MAX_PROMPTS = 200


class ImportProblem(MarginaliaError):
    """A prompt file that cannot be taken; str() is the sentence for the user."""


@dataclass(frozen=True)
class Prompt:
    """One entry of the library; ``pid`` is stable ("shorten", "user-3")."""

    pid: str
    name: str
    instruction: str
    mode: str = REPLACE
    needs_selection: bool = True
    builtin: bool = False
    hidden: bool = False
    takes_argument: bool = False     # Translate: "/translate de" or the Translate to menu

    @property
    def key(self) -> str:
        """What follows "/" in the chat box for this prompt."""
        return slug(self.name) if not self.builtin else self.pid


def _b(pid, name, instruction, mode=REPLACE, needs_selection=True, takes_argument=False):
    return Prompt(pid, name, instruction, mode, needs_selection, True, False, takes_argument)


# The built-ins in English. The user sees and edits them in their own language (the
# Prompts page, the menus, "/" in the chat box), and the instruction the model gets is the
# translated one too, so "Kürzen" shortens a German text in German: the library is built
# from builtins(), which translates them; an id ("shorten") stays the same in every language.
BUILTINS = (
    _b("improve", N_("Improve writing"),
       N_("Improve the writing of this text: clearer, more fluent, same meaning, same "
          "language.")),
    _b("fix", N_("Fix spelling and grammar"),
       N_("Correct the spelling, grammar and punctuation of this text. Change nothing else.")),
    _b("shorten", N_("Shorten"), N_("Make this text shorter, keeping its meaning and its tone.")),
    _b("expand", N_("Expand"),
       N_("Expand this text with more detail, in the same style and tone.")),
    _b("formal", N_("More formal"), N_("Rewrite this text in a more formal tone.")),
    _b("friendly", N_("More friendly"), N_("Rewrite this text in a warmer, friendlier tone.")),
    _b("translate", N_("Translate"), N_("Translate this text into {argument}."),
       takes_argument=True),
    _b("explain", N_("Explain"), N_("Explain this text in simple words."), mode=PANEL),
    _b("summarize", N_("Summarize"), N_("Summarize this text in a few sentences."), mode=PANEL,
       needs_selection=False),
)


def builtins() -> Tuple[Prompt, ...]:
    """The built-ins with their names and instructions in the user's language."""
    return tuple(replace(p, name=tr(p.name), instruction=tr(p.instruction)) for p in BUILTINS)


def _builtin_ids():
    return dict((p.pid, p) for p in builtins())


def slug(name: str) -> str:
    """"Make it Punchy!" -> "make-it-punchy": a name as it is typed after "/"."""
    return re.sub(r"[^\w]+", "-", name.strip().lower(), flags=re.UNICODE).strip("-")


def merge(stored: Iterable[Prompt]) -> List[Prompt]:
    """The library from what was stored: built-ins as shipped (keeping the user's order,
    mode and hidden flag), unknown ids kept as user prompts, missing built-ins appended."""
    out, seen = [], set()
    shipped_ones = _builtin_ids()
    for prompt in stored:
        if prompt.pid in seen:
            continue
        seen.add(prompt.pid)
        shipped = shipped_ones.get(prompt.pid)
        if shipped is not None:
            mode = prompt.mode if prompt.mode in MODE_IDS else shipped.mode
            out.append(replace(shipped, mode=mode, hidden=prompt.hidden))
        elif not prompt.builtin:
            out.append(replace(prompt, takes_argument="{argument}" in prompt.instruction))
    out.extend(p for p in shipped_ones.values() if p.pid not in seen)
    return out


def visible(prompts: Iterable[Prompt]) -> List[Prompt]:
    return [p for p in prompts if not p.hidden]


def find(prompts: Iterable[Prompt], name: str) -> Optional[Prompt]:
    """The prompt called ``name`` (its name, its id or its slash key, any case), or None."""
    wanted = (name or "").strip().lstrip("/").lower()
    if not wanted:
        return None
    for prompt in prompts:
        if wanted in (prompt.pid.lower(), prompt.name.lower(), prompt.key):
            return prompt
    return None


def new_id(prompts: Iterable[Prompt]) -> str:
    used = set(p.pid for p in prompts)
    n = 1
    while "user-%d" % n in used:
        n += 1
    return "user-%d" % n


def check(name: str, instruction: str, mode: str) -> Optional[str]:
    """What is wrong with a user prompt's fields, as one sentence, or None."""
    if not name.strip():
        return tr("A prompt needs a name.")
    if len(name) > MAX_NAME:
        return tr("A prompt's name can have at most %d characters.") % MAX_NAME
    if not instruction.strip():
        return tr("The prompt \u201c%s\u201d needs an instruction.") % name.strip()
    if len(instruction) > MAX_INSTRUCTION:
        return tr("The instruction of \u201c%(name)s\u201d is longer than %(most)d "
                  "characters.") % {"name": name.strip(), "most": MAX_INSTRUCTION}
    if mode not in MODE_IDS:
        return tr("The prompt \u201c%s\u201d has an unknown output mode.") % name.strip()
    return None


def remove(prompts: List[Prompt], index: int) -> List[Prompt]:
    """Delete a user prompt; a built-in is hidden instead."""
    out = list(prompts)
    if out[index].builtin:
        out[index] = replace(out[index], hidden=True)
    else:
        del out[index]
    return out


def move(prompts: List[Prompt], index: int, delta: int) -> List[Prompt]:
    """The list with entry ``index`` moved ``delta`` places (clamped)."""
    out = list(prompts)
    target = max(0, min(len(out) - 1, index + delta))
    out.insert(target, out.pop(index))
    return out


# ---------------------------------------------------------------- JSON files
def to_json(prompts: Iterable[Prompt]) -> str:
    """The library as a JSON file's text (built-ins by id, with mode and hidden flag)."""
    items = []
    for p in prompts:
        item = {"id": p.pid, "mode": p.mode, "hidden": p.hidden}
        if not p.builtin:
            item.update(name=p.name, instruction=p.instruction,
                        needs_selection=p.needs_selection)
        items.append(item)
    return json.dumps({"format": FORMAT, "version": VERSION, "prompts": items},
                      ensure_ascii=False, indent=2) + "\n"


def from_json(text: str) -> List[Prompt]:
    """The library a JSON file holds; ImportProblem (one sentence) when it is not one."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ImportProblem(tr("That file is not a Marginalia prompt file (it is not JSON)."))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportProblem(tr("That file is not a Marginalia prompt file."))
    if data.get("version") != VERSION:
        raise ImportProblem(tr("That prompt file was written by another version of "
                               "Marginalia (format version %s).") % data.get("version"))
    items = data.get("prompts")
    if not isinstance(items, list) or len(items) > MAX_PROMPTS:
        raise ImportProblem(tr("That prompt file has no list of at most %d prompts.")
                            % MAX_PROMPTS)
    out = []
    for n, item in enumerate(items, 1):
        out.append(_item(n, item))
    return merge(out)


def _item(n: int, item) -> Prompt:
    if not isinstance(item, dict) or not isinstance(item.get("id"), str):
        raise ImportProblem(tr("Prompt %d of that file has no id.") % n)
    pid, mode = item["id"], item.get("mode", REPLACE)
    hidden = item.get("hidden", False)
    if not isinstance(hidden, bool) or not isinstance(mode, str) or mode not in MODE_IDS:
        raise ImportProblem(tr("Prompt %d of that file has an unknown output mode or a hidden "
                               "flag that is not true or false.") % n)
    shipped = _builtin_ids()
    if pid in shipped:
        return replace(shipped[pid], mode=mode, hidden=hidden)
    name, instruction = item.get("name"), item.get("instruction")
    needs = item.get("needs_selection", True)
    if not isinstance(name, str) or not isinstance(instruction, str) \
            or not isinstance(needs, bool):
        raise ImportProblem(tr("Prompt %d of that file needs a name and an instruction as "
                               "text.") % n)
    problem = check(name, instruction, mode)
    if problem:
        raise ImportProblem(problem)
    return Prompt(pid, name.strip(), instruction, mode, needs, False, hidden,
                  "{argument}" in instruction)

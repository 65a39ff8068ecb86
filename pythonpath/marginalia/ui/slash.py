"""Slash commands in the chat box: "/" lists the prompts, "/translate de" runs one.

``matches`` decides what the list under the message box shows while the user
types the command word; ``parse`` decides, when the message is sent, whether
it runs a prompt (and with which argument) or goes to the model as typed:
text starting with "/" that names no prompt is an ordinary message.
"""

from typing import Iterable, List, NamedTuple, Optional

from marginalia import prompt_library as pl

MAX_SHOWN = 12


class Match(NamedTuple):
    key: str          # what completes after "/"
    label: str        # what the list shows


class Command(NamedTuple):
    prompt: pl.Prompt
    argument: str


def typed_word(text: str) -> Optional[str]:
    """The command word being typed ("/sho" -> "sho"), or None when no list should show."""
    if not text.startswith("/") or "\n" in text or " " in text:
        return None
    return text[1:].lower()


def matches(library: Iterable[pl.Prompt], text: str) -> List[Match]:
    """The prompts the list offers for the box's text: keys starting with the word first,
    then names containing it."""
    word = typed_word(text)
    if word is None:
        return []
    first, then = [], []
    for prompt in pl.visible(library):
        key = prompt.key
        label = "/%s  %s" % (key, prompt.name) + (" \u2026" if prompt.takes_argument else "")
        if key.startswith(word):
            first.append(Match(key, label))
        elif word in prompt.name.lower():
            then.append(Match(key, label))
    return (first + then)[:MAX_SHOWN]


def completion(key: str) -> str:
    """The box's text once an entry is chosen: the command and a space for the argument."""
    return "/%s " % key


def parse(library: Iterable[pl.Prompt], text: str) -> Optional[Command]:
    """The prompt a sent message runs, or None when it is an ordinary message."""
    text = (text or "").strip()
    if not text.startswith("/") or len(text) < 2:
        return None
    word, _sep, argument = text[1:].partition(" ")
    if "\n" in word:
        return None
    for prompt in pl.visible(library):
        if prompt.key == word.lower():
            return Command(prompt, argument.strip())
    return None

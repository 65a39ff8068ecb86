"""How an edit reads to a person (pure): its new text in a review row, and the comment
that proposes it in Comment-only mode.

A proposal is a comment the user reads in the document: in the user's language, and
its new text as it reads, without markdown's signs ("**Summary:**" reads "Summary:").
"""

import re
from typing import Any, Callable, Dict

from marginalia.document import docview
from marginalia.document.inline import parse_inline as md_inline, plain_text
from marginalia.document.markdown import readable
from marginalia.i18n.catalog import N_, tr

Arguments = Dict[str, Any]


# The attributes a format change sets, as a review row and a proposal name them.
FLAG_WORDS = (("bold", N_("bold"), N_("not bold")),
              ("italic", N_("italic"), N_("not italic")),
              ("underline", N_("underlined"), N_("not underlined")),
              ("strikethrough", N_("struck through"), N_("not struck through")))
COLOR_WORDS = (("color", N_("text color %s")), ("highlight", N_("highlight %s")))
A_TABLE = N_("a table")
TABLE = N_("table %(rows)d\u00d7%(columns)d: %(cells)s")


def flags(arguments: Arguments) -> str:
    shown = []
    for name, on, off in FLAG_WORDS:
        value = arguments.get(name)
        if value is not None:
            shown.append(tr(on) if value in (True, "true", 1) else tr(off))
    for name, words in COLOR_WORDS:
        if arguments.get(name):
            shown.append(tr(words) % arguments[name])
    return ", ".join(shown)


def table(arguments: Arguments) -> str:
    rows = arguments.get("rows") or []
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], list):
        return tr(A_TABLE)
    return tr(TABLE) % {"rows": len(rows),
                        "columns": max(len(r) for r in rows if isinstance(r, list)),
                        "cells": " | ".join(str(c) for c in rows[0])}


def argument(name: str) -> Callable[[Arguments], str]:
    return lambda arguments: str(arguments.get(name, ""))


# The frames of the proposals (see the module docstring).
PROPOSE_REPLACE_WITH = N_("Replace with: %s")
PROPOSE_INSERT_AFTER = N_("Insert after this: %s")
PROPOSE_DELETE_THIS = N_("Delete this.")
PROPOSE_SET_STYLE = N_("Set the paragraph style %s.")
PROPOSE_FORMAT = N_("Format: %s.")
PROPOSE_MAKE_LOOK = {(True, "bold"): N_("Make \u201c%s\u201d bold."),
                     (False, "bold"): N_("Make \u201c%s\u201d not bold."),
                     (True, "italic"): N_("Make \u201c%s\u201d italic."),
                     (False, "italic"): N_("Make \u201c%s\u201d not italic.")}


def replace_with(after: Callable[[Arguments], str]) -> Callable[[Arguments], str]:
    return lambda arguments: tr(PROPOSE_REPLACE_WITH) % after(arguments)


def insert_after(after: Callable[[Arguments], str]) -> Callable[[Arguments], str]:
    return lambda arguments: tr(PROPOSE_INSERT_AFTER) % after(arguments)


markdown_text = argument("markdown")


def new_text(arguments: Arguments) -> str:
    return readable(str(arguments.get("markdown", "")))


_BLOCK_MARK = re.compile(r"^(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,9}[.)][ \t]+)")


def revision(arguments: Arguments) -> str:
    """A revised line's proposal: what changes in its look when only that does ("Make
    \u201cthe deadline\u201d bold."), else its new text."""
    new = md_inline(_BLOCK_MARK.sub("", str(arguments.get("markdown", "")).strip()))
    old = md_inline(_BLOCK_MARK.sub("", str(arguments.get("was", "")).strip()))
    if plain_text(new) != plain_text(old) or not arguments.get("was"):
        return tr(PROPOSE_REPLACE_WITH) % plain_text(new)
    said = []
    for flag, word in ((0, "bold"), (1, "italic")):
        for on in (True, False):
            stretch = "".join(ch for ch, n, o in zip(plain_text(new), _looks(new), _looks(old))
                              if n[flag] != o[flag] and n[flag] == on).strip()
            if stretch:
                said.append(tr(PROPOSE_MAKE_LOOK[on, word]) % docview.short(stretch, 60))
    return " ".join(said) or tr(PROPOSE_REPLACE_WITH) % plain_text(new)


def _looks(runs: list) -> list:
    return [(r.bold, r.italic) for r in runs for _ch in r.text]


def style(arguments: Arguments) -> str:
    return "style %s" % arguments.get("style", "")


def delete(_arguments: Arguments) -> str:
    return tr(PROPOSE_DELETE_THIS)


def restyle(arguments: Arguments) -> str:
    return tr(PROPOSE_SET_STYLE) % arguments.get("style", "")


def reformat(arguments: Arguments) -> str:
    return tr(PROPOSE_FORMAT) % flags(arguments)

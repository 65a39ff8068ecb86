"""Calls a model repeats within a turn, with the same arguments and the same result.

A small model can go round in circles: a 0.5B model on llama.cpp's server,
asked to fix a word, called ``replace_text`` with the same failing arguments
and ``search_document`` in turn for all 12 rounds. The second identical call
is told so in its result; the third ends the turn with a sentence to the user.
"""

import json
from typing import Dict, Tuple

REPEATED = ("(You already made this exact call in this turn and got the same result; do not "
            "repeat it: change the arguments, use another tool, or answer the user.)")
STUCK = ("The model kept repeating the same %s call with the same result, so the turn "
         "stopped; rephrase the request, or try a larger model.")


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments or "{}"), sort_keys=True, ensure_ascii=False)
    except (ValueError, TypeError):
        return arguments or ""


class RepeatWatch:
    """Counts identical (name, arguments, result) calls in one turn."""

    def __init__(self) -> None:
        self._seen: Dict[Tuple[str, str, str], int] = {}
        self.stuck = None      # the name of a call repeated a third time

    def seen_before(self, name: str, arguments: str, result: str) -> int:
        """How many times this exact call and result came before in the turn."""
        key = (name, _canonical(arguments), result)
        count = self._seen.get(key, 0)
        self._seen[key] = count + 1
        if count >= 2 and self.stuck is None:
            self.stuck = name
        return count

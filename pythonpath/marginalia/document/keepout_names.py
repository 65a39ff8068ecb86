"""The bookmark names of Keep Marginalia out marks, and how names group into marks (pure).

One mark is a group of one-paragraph bookmarks sharing a stem:
``MarginaliaKeepOut3_1`` … ``MarginaliaKeepOut3_5`` for a mark over five
paragraphs. A bookmark over two or more paragraphs is written to .docx by
LibreOffice 7.4 with a second start in its last paragraph (its start and end
offsets are each looked for in both paragraphs), and is read back over the
last paragraph only; a bookmark inside one paragraph is written whole.
Earlier versions wrote one bookmark per mark, ``MarginaliaKeepOut3``: it is
still read, as a group of one. Word keeps the names (letters, digits and
``_``, at most 40 characters).
"""

import re
from typing import Iterable, List, Tuple

PREFIX = "MarginaliaKeepOut"
# The stem's number, then "_<member>" (this version) or nothing (earlier ones). Anything
# after that is a copy's suffix: a kept-out paragraph copied and pasted comes back as
# "<name> Copy 1" (in the user's language). The copies are a mark of their own: kept
# out too (the safe side), but not joined to the original across all that lies between.
_NAME = re.compile(r"^%s(\d+)(?:_(\d+))?(.*)$" % PREFIX, re.S)


def stem(number: int) -> str:
    return "%s%d" % (PREFIX, number)


def member(stem_name: str, index: int) -> str:
    """The name of a mark's ``index``-th (from 1) paragraph bookmark."""
    return "%s_%d" % (stem_name, index)


def parse(name: str) -> Tuple[int, int]:
    """(mark number, member number) of a keep-out bookmark name; (0, 0) for any other
    name. An earlier version's single bookmark is member 0."""
    found = _NAME.match(name)
    if not found:
        return 0, 0
    return int(found.group(1)), int(found.group(2) or 0)


def group(names: Iterable[str]) -> List[Tuple[str, List[str]]]:
    """(stem, member names) of each mark among ``names``, by mark number (a copy's
    suffix makes a mark of its own, its stem carrying the suffix), members in order."""
    marks = {}
    for name in names:
        found = _NAME.match(name)
        if found:
            key = (int(found.group(1)), found.group(3))
            marks.setdefault(key, []).append((int(found.group(2) or 0), name))
    return [(stem(number) + suffix, [n for _i, n in sorted(marks[(number, suffix)])])
            for number, suffix in sorted(marks)]


def next_stem(names: Iterable[str]) -> str:
    """The stem of a new mark: the lowest number no bookmark uses."""
    used = set(parse(n)[0] for n in names)
    number = 1
    while number in used:
        number += 1
    return stem(number)

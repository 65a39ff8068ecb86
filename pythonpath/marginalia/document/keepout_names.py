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
# after that is a copy's suffix: LibreOffice reads a duplicated name back as
# "<name> Copy 1"; it still belongs to its mark (keeping out too much is the safe side).
_NAME = re.compile(r"^%s(\d+)(?:_(\d+))?" % PREFIX)


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
    """(stem, member names) of each mark among ``names``, by mark number, members in
    their order."""
    marks = {}
    for name in names:
        number, index = parse(name)
        if number:
            marks.setdefault(number, []).append((index, name))
    return [(stem(number), [n for _i, n in sorted(marks[number])])
            for number in sorted(marks)]


def next_stem(names: Iterable[str]) -> str:
    """The stem of a new mark: the lowest number no bookmark uses."""
    used = set(parse(n)[0] for n in names)
    number = 1
    while number in used:
        number += 1
    return stem(number)

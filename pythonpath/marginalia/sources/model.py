"""The value types of sources: a source as read, its blocks, and the passages cut from it.

The office side (office/source_reader.py) turns a file or an open document into
``Block``s; everything after that is pure. A ``Passage`` is the unit the model
searches, reads and cites; ``location()`` is the words a citation shows.
"""

import os
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

KINDS = ("heading", "paragraph", "table", "page")

Stamp = Optional[Tuple[int, float]]      # (size in bytes, mtime) of a file; None for none


@dataclass(frozen=True)
class Block:
    """One piece of a source as LibreOffice read it.

    ``kind``: "heading", "paragraph" or "table" (a table's text as "cell | cell" rows,
    one row a line); "page" is reserved. ``heading``: the nearest heading above it ("" if
    none; a heading block's own text is in ``text``). ``page``: its page number where the
    format has pages (PDF), else None. ``level``: a heading's outline level (1 = top), 0
    for other kinds.
    """

    kind: str
    text: str
    heading: str = ""
    page: Optional[int] = None
    level: int = 0


@dataclass
class Source:
    """A file or an open document given to the chat as a source.

    ``id`` is short and stable ("S1", "S2", ...), given by the Library and never reused in
    a chat. ``path`` is "" for an open document that has no file (the title names it).
    ``blocks`` is None for a source restored from a chat's state and not read again yet.
    """

    id: str
    title: str
    path: str
    blocks: Optional[List[Block]] = field(default=None, repr=False)
    stamp: Stamp = None

    @property
    def name(self) -> str:
        """What a citation calls it: the file's name, else the document's title."""
        if self.path:
            return os.path.basename(self.path.rstrip("/\\")) or self.title
        return self.title or self.id

    @property
    def loaded(self) -> bool:
        return self.blocks is not None


@dataclass(frozen=True)
class Passage:
    """A piece of a source the model searches, reads and cites (about 120-200 words).

    ``index`` counts from 0 in the source; ``name`` is the source's name (Source.name);
    ``page`` / ``end_page`` the first and last page it lies on (None without pages).
    """

    source_id: str
    index: int
    text: str
    heading: str = ""
    page: Optional[int] = None
    name: str = ""
    end_page: Optional[int] = None

    def location(self) -> str:
        """"report.pdf, p. 3", "report.odt, § Results", or both: the citation's words."""
        parts = [self.name or self.source_id]
        if self.heading:
            parts.append("\u00a7 " + self.heading)
        if self.page is not None:
            if self.end_page is not None and self.end_page != self.page:
                parts.append("pp. %d\u2013%d" % (self.page, self.end_page))
            else:
                parts.append("p. %d" % self.page)
        return ", ".join(parts)

    @property
    def ref(self) -> Tuple[str, int]:
        """(source id, index): what names the passage across a chat."""
        return (self.source_id, self.index)

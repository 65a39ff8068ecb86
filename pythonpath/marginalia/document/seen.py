"""What the model was shown of a document, line by line (the rewrite protocol; pure).

The edit tool takes the model's new version of numbered lines (document.revision);
what each number meant is what the model was shown under it: the document as a
turn began (whole, when short), what read_document and search_document showed,
and the lines an edit's own result showed after it. Kept per chat by the session:
a new chat has seen nothing. Only the edit tool's check reads it; the document is
never changed from it.
"""

from typing import Dict, Mapping


class Seen:
    """Paragraph number -> the line shown for it (docview's form, without the number)."""

    def __init__(self) -> None:
        self.lines: Dict[int, str] = {}

    def show(self, lines: Mapping[int, str]) -> None:
        """The model was shown these lines (they replace what it saw under those numbers)."""
        self.lines.update(lines)

    def reset(self, lines: Mapping[int, str]) -> None:
        """The model was shown the whole document: only these lines are current."""
        self.lines = dict(lines)

    def forget(self) -> None:
        self.lines = {}

    def edited(self, first: int, last: int, delta: int, lines: Mapping[int, str]) -> None:
        """An edit changed paragraphs first..last (numbers before it) and the count by
        ``delta``; ``lines``: the edited stretch as it reads now (new numbers), which
        the edit's result shows the model. Lines after the stretch move by ``delta``."""
        kept = {n: text for n, text in self.lines.items() if n < first}
        kept.update((n + delta, text) for n, text in self.lines.items() if n > last)
        kept.update(lines)
        self.lines = kept

"""The pieces task checkers are made of (pure).

A check returns None when the document passes, else one line saying why it
fails, worded for someone reading a scorecard: what was wanted, what was found.
"""

import re
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

from marginalia.eval.odf import Block, Comment, Doc, Source

_MARKS = re.compile(r"\*\*|(?<!\*)\*(?!\*)")


def plain(text: str) -> str:
    """A source paragraph's text without its **bold** and *italic* marks."""
    return _MARKS.sub("", text)


def short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return "\u201c%s\u201d" % (text if len(text) <= limit else text[:limit - 1] + "\u2026")


def norm(text: str) -> str:
    return " ".join(text.split()).lower()


def _places(wanted: Sequence[str], found: Sequence[str],
            skip: Iterable[int]) -> Iterator[Tuple[int, int]]:
    """(index in ``wanted``, its place in ``found`` or -1) for every wanted text not skipped,
    each looked for after the last one found: the same texts in the same order."""
    skipped = set(skip)
    at = 0
    for index, text in enumerate(wanted):
        if index in skipped:
            continue
        try:
            at = found.index(text, at) + 1
        except ValueError:
            yield index, -1
            return
        yield index, at - 1


def intact(source: Sequence[Source], doc: Doc, changed: Iterable[int] = ()) -> Optional[str]:
    """Every source paragraph but those numbered (0-based) in ``changed`` is still there,
    word for word and in the same order: the model harmed nothing it was not asked to touch."""
    wanted = [plain(text) for _style, text, _kept in source]
    for index, at in _places(wanted, [b.text for b in doc.blocks], changed):
        if at < 0:
            return "harmed: paragraph %d %s was changed or lost" % (index + 1,
                                                                   short(wanted[index]))
    return None


def kept(original: Doc, doc: Doc, changed: Iterable[int] = ()) -> Optional[str]:
    """intact for a document read from a file: every block of ``original`` but those in
    ``changed`` is still there in order, with its text, its paragraph style, its links and
    its bookmarks (what a Word document's cross-references and contents point at)."""
    wanted = original.texts()
    for index, at in _places(wanted, doc.texts(), changed):
        was = original.blocks[index]
        where = "paragraph %d %s" % (index + 1, short(wanted[index]))
        if at < 0:
            return "harmed: %s was changed or lost" % where
        now = doc.blocks[at]
        if restyled(was, now, where):
            return "harmed: %s" % restyled(was, now, where)
        if now.links != was.links:
            return "harmed: %s lost or changed a link" % where
        lost = [name for name in was.bookmarks if name not in now.bookmarks]
        if lost:
            return "harmed: %s lost its bookmark %s" % (where, short(lost[0]))
    return None


def restyled(was: Block, now: Block, where: str) -> Optional[str]:
    """Why ``now`` is not ``was``'s paragraph style any more, or None when it is."""
    if now.style == was.style:
        return None
    return "%s changed style from %s to %s" % (where, short(was.style), short(now.style))


def notes_kept(original: Doc, doc: Doc) -> Optional[str]:
    """The document's own comments are all still there (by their text)."""
    left = [note.text for note in doc.comments]
    for note in original.comments:
        if note.text not in left:
            return "harmed: the comment %s was lost" % short(note.text)
        left.remove(note.text)
    return None


def new_notes(original: Doc, doc: Doc) -> List[Comment]:
    """The comments in ``doc`` that ``original`` did not have (by their text)."""
    left = [note.text for note in original.comments]
    out = []
    for note in doc.comments:
        if note.text in left:
            left.remove(note.text)
        else:
            out.append(note)
    return out


def unchanged(source: Sequence[Source], doc: Doc) -> Optional[str]:
    """The document is exactly as it was: same texts, no comments, no tracked changes."""
    if [b.text for b in doc.blocks] != [plain(t) for _s, t, _k in source]:
        return "the document was changed, but no edit was asked for"
    if doc.comments:
        return "a comment was added, but no edit was asked for"
    return None


def text_unchanged(source: Sequence[Source], doc: Doc) -> Optional[str]:
    """Comment only: every paragraph reads as it did (comments may have been added)."""
    if [b.text for b in doc.blocks] != [plain(t) for _s, t, _k in source]:
        return "the text was changed, but only comments were allowed"
    return None


def proposed(doc: Doc, block: int, options: Sequence[str]) -> Optional[str]:
    """Comment only: a comment anchored in paragraph ``block`` (0-based) names one of
    ``options`` (case-insensitive), the change a reviewer would then make."""
    notes = [n.text for n in doc.comments if n.block == block]
    where = "paragraph %d" % (block + 1)
    if block < len(doc.blocks):
        where += " " + short(doc.blocks[block].text)
    if not notes:
        return "no comment on %s proposes the change" % where
    if not any(norm(o) in norm(note) for note in notes for o in options):
        return "the comment on %s does not say %s: %s" % (where, " or ".join(
            short(o) for o in options), short(notes[0], 60))
    return None


def tracked(doc: Doc, kind: str = "") -> Optional[str]:
    """The edit was recorded as a tracked change (of ``kind``: "insertion", "deletion"...)."""
    if not doc.tracked:
        return "the edit was not recorded as a tracked change"
    if kind and kind not in doc.tracked_kinds:
        return "no tracked %s was recorded (found %s)" % (kind, ", ".join(doc.tracked_kinds)
                                                         or "none of a known kind")
    return None


def find(doc: Doc, needle: str, kinds: Sequence[str] = ()) -> Optional[Block]:
    """The first block whose text holds ``needle`` (case-insensitive)."""
    for block in doc.blocks:
        if (not kinds or block.kind in kinds) and norm(needle) in norm(block.text):
            return block
    return None


def index_of(doc: Doc, needle: str) -> int:
    for index, block in enumerate(doc.blocks):
        if norm(needle) in norm(block.text):
            return index
    return -1


def items_after(doc: Doc, index: int) -> List[Block]:
    """The list items right after block ``index``."""
    items = []
    for block in doc.blocks[index + 1:]:
        if block.kind != "item":
            break
        items.append(block)
    return items


def absent(doc: Doc, words: Sequence[str]) -> Optional[str]:
    """None of ``words`` is left anywhere (whole words, case-insensitive)."""
    text = doc.full_text()
    for word in words:
        if re.search(r"\b%s\b" % re.escape(word), text, re.I):
            return "%s is still in the document" % short(word)
    return None


def present(doc: Doc, words: Sequence[str]) -> Optional[str]:
    text = norm(doc.full_text())
    for word in words:
        if norm(word) not in text:
            return "%s is missing from the document" % short(word)
    return None


def count(doc: Doc, wanted: int) -> Optional[str]:
    if len(doc.blocks) != wanted:
        return "expected %d paragraphs, found %d" % (wanted, len(doc.blocks))
    return None


def is_bold(block: Optional[Block], phrase: str) -> bool:
    return block is not None and any(norm(phrase) in norm(s) for s in block.bold)


def answer_has(answer: str, options: Sequence[str]) -> Optional[str]:
    """The chat answer names one of ``options`` (case-insensitive)."""
    if not answer.strip():
        return "no answer was given"
    if not any(norm(o) in norm(answer) for o in options):
        return "the answer does not say %s: %s" % (" or ".join(options), short(answer, 60))
    return None


def first(*reasons: Optional[str]) -> Optional[str]:
    """The first failing reason of several checks, in the order given."""
    for reason in reasons:
        if reason:
            return reason
    return None


def heading(block: Block, level: int) -> Optional[str]:
    """``block`` is a heading of ``level``."""
    if block.kind != "heading" or block.level != level:
        return "%s is not a Heading %d (style %s)" % (short(block.text), level,
                                                      short(block.style))
    return None


def noted(doc: Doc, at: int, what: str, not_at: Iterable[int], others: str) -> Optional[str]:
    """A comment sits on paragraph ``at`` (``what`` it is) and none on ``not_at``."""
    where = {note.block for note in doc.comments}
    if at not in where:
        return "no comment on %s" % what
    if where & set(not_at):
        return "%s got a comment too" % others
    return None


def headings(doc: Doc) -> List[Block]:
    return [b for b in doc.blocks if b.kind == "heading"]

"""Keep Marginalia out: passages the user marked, which no edit tool may change.

A mark covers whole paragraphs: one bookmark per paragraph, named
``MarginaliaKeepOut<n>_<k>`` (document.keepout_names says why: a bookmark
over several paragraphs does not survive .docx whole), read back as one
passage from its first paragraph to its last; an earlier version's single
bookmark ``MarginaliaKeepOut<n>`` still reads as a mark. Bookmarks survive
saving as .odt and as .docx (a Word bookmark keeps the name, which holds no
space for that reason), so the mark travels with the document and nothing
outside it needs to remember it. The edit tools call
``check`` before changing anything; the read tools' answers get a line
saying which paragraphs are kept out. ``toggle`` is the one-click command
(the panel's Keep out button; a context menu entry can call it too): on a
selection outside any mark it marks it, inside a mark it removes that mark.
Main thread only.
"""

from typing import Any, List, Optional, Tuple

from marginalia.chat.tools import ToolOutput
from marginalia.document import keepout_names, tool_lines
from marginalia.errors import ToolError
from marginalia.i18n.catalog import N_, tr
from marginalia.writer import read
from marginalia.writer.bodymap import Offsets, span

PREFIX = keepout_names.PREFIX
# Edit > Undo's titles and the command's sentences: the user's words (the refusals for
# the model, refuse(), stay English).
UNDO_MARK = N_("Keep Marginalia out")
UNDO_UNMARK = N_("Let Marginalia in")
NOTE = ("Paragraphs %s are marked \u201cKeep Marginalia out\u201d by the user: do not change "
        "them (the edit tools refuse to).")
REFUSED = ("%s is marked \u201cKeep Marginalia out\u201d by the user, so it may not be changed; "
           "nothing was changed. Leave that passage as it is, or ask the user to remove the "
           "mark.")
MARKED = N_("Marginalia will keep out of %s: its edits there are refused.")
UNMARKED = N_("The Keep Marginalia out mark is removed from %s.")
NO_SELECTION = N_("Put the cursor in the main text (or select a passage) to mark it.")


def marks(doc: Any) -> List[Tuple[str, Any]]:
    """(name, anchor) of every keep-out mark of ``doc``: a mark's name is its stem, its
    anchor the body text from its first paragraph's start to its last one's end."""
    try:
        bookmarks = doc.getBookmarks()
        groups = keepout_names.group(bookmarks.getElementNames())
    except Exception:
        return []
    out = []
    for stem, members in groups:
        anchor = _joined(doc, bookmarks, members)
        if anchor is not None:
            out.append((stem, anchor))
    return out


def _joined(doc, bookmarks, members):
    """One range over a mark's bookmarks (None when none of them can be read)."""
    anchors = []
    for name in members:
        try:
            anchors.append(bookmarks.getByName(name).getAnchor())
        except Exception:
            continue        # gone meanwhile
    if len(anchors) <= 1:
        return anchors[0] if anchors else None
    # The members are in the body, in order unless the user moved paragraphs round; one
    # pasted into a frame is not part of the span.
    return span(doc.getText(), anchors)


def _order(text, a, b):
    """compareRegionStarts-like for any two points of ``text``: 1 if a is before b."""
    return text.compareRegionStarts(a, b)


def overlaps(doc: Any, rng: Any, anchor: Any, touching: bool = False) -> bool:
    """Whether ``rng`` and ``anchor`` share text: ranges of the body or of one cell; a
    range in a table's cell stands for its table's place in the body."""
    try:
        return _overlap(rng.getText(), rng, anchor, touching)
    except Exception:
        pass
    # Not in one text: each one in the body, a cell by its table (once, no recursion).
    outer_rng, outer_anchor = _outer(rng) or rng, _outer(anchor) or anchor
    try:
        return _overlap(doc.getText(), outer_rng, outer_anchor, touching)
    except Exception:
        return False        # one of them outside the body (a frame, a header)


def _overlap(text, rng, anchor, touching):
    # rng starts before the anchor ends, and the anchor starts before rng ends.
    first = _order(text, rng.getStart(), anchor.getEnd())
    second = _order(text, anchor.getStart(), rng.getEnd())
    if touching:
        return first >= 0 and second >= 0
    return first > 0 and second > 0


def _outer(rng):
    """The body range of the table holding ``rng`` (None when it is in no table)."""
    try:
        table = rng.getPropertyValue("TextTable")
        return table.getAnchor() if table is not None else None
    except Exception:
        return None


def _paragraph_numbers(doc, anchor) -> Tuple[Optional[int], Optional[int]]:
    bmap = read.body_map(doc)
    offsets = Offsets(doc.getText())
    first = read.locate(doc, bmap, anchor.getStart(), offsets)[0]
    last = read.locate(doc, bmap, anchor.getEnd(), offsets)[0]
    return first, last


def _span(first, last):
    if first is None:
        return "a marked passage"
    if last is None or last == first:
        return "paragraph %d" % first
    return "paragraphs %d\u2013%d" % (first, last)


def _user_span(first, last):
    """_span in the user's words (the command's sentences)."""
    return tool_lines.place(first, last).words()


class KeptOut(ToolError):
    """The refusal of an edit that would touch a kept-out passage (its kind, as data: the
    edit tool leaves such a line out and makes the rest, writer.edit_lines); ``span``
    names the passage ("paragraph 3")."""

    def __init__(self, sentence: str, span: str, where: Any = None, name: str = "") -> None:
        super().__init__(sentence, tool_lines.kept_out(where or tool_lines.place(None)))
        self.span = span
        self.where = where or tool_lines.place(None)
        self.name = name            # the mark's name: what the user may let in once


def refuse(doc: Any, anchor: Any, name: str = "") -> None:
    """Raise the refusal for an edit that would touch ``anchor``'s passage (mark ``name``)."""
    try:
        numbers = _paragraph_numbers(doc, anchor)
    except Exception:
        numbers = (None, None)
    span = _span(*numbers)
    raise KeptOut(REFUSED % (span[0].upper() + span[1:]), span, tool_lines.place(*numbers),
                  name)


def check_ranges(doc: Any, ranges: List[Any], found: Optional[List] = None) -> None:
    """Refuse when one of ``ranges`` overlaps a mark (``found``: the marks, if known)."""
    found = marks(doc) if found is None else found
    for rng in ranges:
        for name, anchor in found:
            if overlaps(doc, rng, anchor):
                refuse(doc, anchor, name)


def strictly_inside(text: Any, point: Any, rng: Any) -> bool:
    """Whether ``point`` lies inside ``rng``, not at either end; False when one of them
    is not in ``text`` (a cell, a frame)."""
    try:
        return _order(text, rng.getStart(), point) > 0 and _order(text, point, rng.getEnd()) > 0
    except Exception:
        return False


def check_point(doc: Any, point: Any, found: List) -> None:
    """Refuse an insertion at ``point`` strictly inside a marked passage."""
    text = doc.getText()
    for name, anchor in found:
        if strictly_inside(text, point, anchor):
            refuse(doc, anchor, name)


def note(doc: Any) -> str:
    """The read tools' line naming the kept-out paragraphs ("" when there are none)."""
    spans = []
    for _name, anchor in marks(doc):
        try:
            first, last = _paragraph_numbers(doc, anchor)
        except Exception:
            continue
        if first is not None:
            spans.append(str(first) if last in (None, first) else "%d\u2013%d" % (first, last))
    return NOTE % ", ".join(spans) if spans else ""


# ---------------------------------------------------------------- marking

def _selection_range(doc):
    try:
        sel = doc.getCurrentController().getSelection()
        rng = sel.getByIndex(0)
        doc.getText().compareRegionStarts(rng, rng)      # raises outside the body
        return rng
    except Exception:
        return None


def _whole_paragraphs(doc, rng):
    text = doc.getText()
    start, end = rng.getStart(), rng.getEnd()
    if text.compareRegionStarts(start, end) < 0:
        start, end = end, start
    cursor = text.createTextCursorByRange(start)
    cursor.gotoStartOfParagraph(False)
    tail = text.createTextCursorByRange(end)
    tail.gotoEndOfParagraph(False)
    cursor.gotoRange(tail, True)
    return cursor


def _paragraphs(cursor):
    """The paragraphs (not tables) of ``cursor``'s range, in order."""
    out = []
    enum = cursor.createEnumeration()
    while enum.hasMoreElements():
        element = enum.nextElement()
        if element.supportsService("com.sun.star.text.Paragraph"):
            out.append(element)
    return out


def mark(doc: Any, rng: Any) -> str:
    """Mark the whole paragraphs ``rng`` touches (one bookmark each); the mark's name."""
    cursor = _whole_paragraphs(doc, rng)
    text = doc.getText()
    stem = keepout_names.next_stem(doc.getBookmarks().getElementNames())
    manager = doc.getUndoManager()
    manager.enterUndoContext(tr(UNDO_MARK))
    try:
        for index, para in enumerate(_paragraphs(cursor), 1):
            bookmark = doc.createInstance("com.sun.star.text.Bookmark")
            bookmark.setName(keepout_names.member(stem, index))
            text.insertTextContent(text.createTextCursorByRange(para), bookmark, True)
    finally:
        manager.leaveUndoContext()
    return stem


def upgrade(doc: Any) -> int:
    """Turn each earlier version's one-bookmark mark over several paragraphs into this
    version's form (a bookmark per paragraph, the same number), so that saving it as .docx
    keeps all of it (keepout_names says why); the marks converted. Called as a document's
    first window opens (office.doc_events), for every document: it reads the bookmarks'
    names and nothing more unless one is of the old form. Not an undo step: the user did
    nothing, and undoing it would bring back the form a .docx cuts short."""
    try:
        bookmarks = doc.getBookmarks()
        groups = keepout_names.group(bookmarks.getElementNames())
    except Exception:
        return 0            # not a text document
    converted = 0
    for stem, members in groups:
        if members != [stem] or stem != keepout_names.stem(keepout_names.parse(stem)[0]):
            continue        # this version's form, or a copy ("… Copy 1") kept as it is
        old = bookmarks.getByName(stem)
        try:
            paragraphs = _paragraphs(_whole_paragraphs(doc, old.getAnchor()))
        except Exception:
            continue        # not in the body (a frame, a cell): .docx keeps it whole there
        if len(paragraphs) < 2:
            continue
        text, manager = doc.getText(), doc.getUndoManager()
        manager.lock()
        try:
            for index, para in enumerate(paragraphs, 1):
                bookmark = doc.createInstance("com.sun.star.text.Bookmark")
                bookmark.setName(keepout_names.member(stem, index))
                text.insertTextContent(text.createTextCursorByRange(para), bookmark, True)
            text.removeTextContent(old)
        finally:
            manager.unlock()
        converted += 1
    return converted


def unmark(doc: Any, name: str) -> bool:
    """Remove the mark ``name`` (a stem: all its bookmarks); whether there was one."""
    bookmarks = doc.getBookmarks()
    members = next((m for stem, m in keepout_names.group(bookmarks.getElementNames())
                    if stem == name), [])
    if not members:
        return False
    manager = doc.getUndoManager()
    manager.enterUndoContext(tr(UNDO_UNMARK))
    try:
        for member in members:
            bookmark = bookmarks.getByName(member)
            bookmark.getAnchor().getText().removeTextContent(bookmark)
    finally:
        manager.leaveUndoContext()
    return True


def _touched(doc: Any, rng: Any) -> Optional[Tuple[str, Any]]:
    """The first mark (name, anchor) that ``rng`` touches, or None."""
    return next(((name, anchor) for name, anchor in marks(doc)
                 if overlaps(doc, rng, anchor, touching=True)), None)


def kept_out(doc: Any, rng: Any) -> bool:
    """Whether ``rng`` touches a Keep Marginalia out mark (toggle would remove it)."""
    return _touched(doc, rng) is not None


def toggle(doc: Any) -> str:
    """The one-click command: mark the selection, or remove the mark it is in. A sentence."""
    rng = _selection_range(doc)
    if rng is None:
        return tr(NO_SELECTION)
    touched = _touched(doc, rng)
    if touched is not None:
        name, anchor = touched
        span = _user_span(*_paragraph_numbers(doc, anchor))
        unmark(doc, name)
        return tr(UNMARKED) % span
    name = mark(doc, rng)
    anchor = dict(marks(doc)).get(name)
    return tr(MARKED) % (_user_span(*_paragraph_numbers(doc, anchor)) if anchor is not None
                         else tr("the selected paragraphs"))


def noted(doc: Any, out: Any) -> Any:
    """A read tool's answer with the kept-out paragraphs named (when there are any)."""
    if not marks(doc):
        return out
    line = note(doc)
    if not line:
        return out
    result = getattr(out, "result", out)
    if isinstance(result, str):
        result = result + "\n" + line
    elif isinstance(result, dict):
        result = dict(result)
        result["kept_out"] = line
    return ToolOutput(result, getattr(out, "summary", None))


# ---------------------------------------------------------------- the card's menu

def _first_words(doc, anchor) -> str:
    # The first paragraph only: a mark may hold a chapter.
    cursor = doc.getText().createTextCursorByRange(anchor.getStart())
    cursor.gotoEndOfParagraph(True)
    return cursor.getString()


def listing(doc: Any) -> List[Tuple[str, Optional[int], Optional[int], str]]:
    """(name, first paragraph, last paragraph, first words) of every mark; read when the
    card's menu opens, not per edit."""
    out = []
    for name, anchor in marks(doc):
        try:
            first, last = _paragraph_numbers(doc, anchor)
            words = _first_words(doc, anchor)
        except Exception:
            first = last = None
            words = ""
        out.append((name, first, last, words))
    return out


def here(doc: Any) -> Optional[str]:
    """The name of the mark the selection touches (None: none, or no text selection)."""
    rng = _selection_range(doc)
    touched = _touched(doc, rng) if rng is not None else None
    return touched[0] if touched is not None else None


def show(doc: Any, name: str) -> Tuple[Optional[int], Optional[int]]:
    """Select mark ``name``'s passage in the view (which scrolls there); its paragraphs.
    Raises KeyError when there is no such mark any more."""
    anchor = dict(marks(doc)).get(name)
    if anchor is None:
        raise KeyError(name)
    doc.getCurrentController().select(anchor)
    try:
        return _paragraph_numbers(doc, anchor)
    except Exception:
        return None, None

"""Bookmarks, comment anchors and lists that Writer's Undo and Reject do not give back whole.

Writer (seen on 7.4) restores the text an edit took, but not always what sat on it:
- after Undo, a bookmark or a comment anchored exactly on a replaced word comes back
  collapsed or not at all, whichever way the word was replaced;
- after Reject of a deleted paragraph, a comment anchored in it is anchored on nothing;
- after Reject of an insertion, a collapsed bookmark at its edge (Word's _GoBack at the
  end of the paragraph the new one follows) is gone;
- after Reject of a style change, the paragraph has its style but not its list; after
  Undo of one, a heading's outline level is lost;
- removing a comment anchored over a whole paragraph takes a bookmark at its end along.
So ``note`` reads the bookmarks, comment anchors and list attributes of the paragraphs
an edit touches (each paragraph by a cursor at its start, which stays there while the
paragraph lives, and each mark by the text before it and under it), and ``restore``
puts back, after the Undo, Reject or removal, what no longer matches. An undo action
(``UndoRepair``) added first to the edit's undo context runs last on Undo, on the
restored text. Paragraphs an Undo brings back after a real deletion are new objects:
their cursors no longer find them, and they are left as Writer restores them.
Main thread.
"""

import logging
from typing import Any, List, Optional

import unohelper
from com.sun.star.document import XUndoAction

from marginalia.writer.bodymap import start_cursor
from marginalia.writer.rewrite import advance

log = logging.getLogger("marginalia.writer")

# The style first: setting it may reset the list attributes set after it.
PARA_PROPS = ("ParaStyleName", "NumberingStyleName", "ListId", "NumberingLevel",
              "NumberingIsNumber")
# Paragraphs whose marks are noted for one edit: beyond this the edit is left as it is.
MOST = 400


class _Para:
    def __init__(self, start: Any, text: str, lists: tuple):
        self.start = start          # a text cursor at the paragraph's start
        self.base = None            # one at the start of the paragraph before the first
        self.index = 0              # this one's place after it
        self.own_list = False       # its list is set on it, not by its style (Word's)
        self.text = text
        self.lists = lists
        self.bookmarks: List[tuple] = []     # (name, offset, end offset)
        self.notes: List[tuple] = []         # (field, offset, end offset, its properties)


_NOTE_PROPS = ("Author", "Initials", "Content", "DateTimeValue")
# The portions that only mark a place.
_MARKS = ("Bookmark", "Annotation", "AnnotationEnd")


def _read(text: Any, start: Any) -> Optional[_Para]:
    span = text.createTextCursorByRange(start)
    span.gotoEndOfParagraph(True)
    paragraph = span.createEnumeration().nextElement()
    if not paragraph.supportsService("com.sun.star.text.Paragraph"):
        return None
    para = _Para(text.createTextCursorByRange(start), paragraph.getString(),
                 tuple(paragraph.getPropertyValues(PARA_PROPS)))
    from com.sun.star.beans.PropertyState import DIRECT_VALUE
    para.own_list = paragraph.getPropertyState("NumberingStyleName") == DIRECT_VALUE
    done, opened, notes = 0, {}, {}
    portions = paragraph.createEnumeration()
    while portions.hasMoreElements():
        portion = portions.nextElement()
        kind = portion.getPropertyValue("TextPortionType")
        if kind not in _MARKS:
            # Text, and what shows text of its own (a footnote's number, a field): the
            # paragraph's string holds it, and places are counted in that string.
            done += len(portion.getString())
        elif kind == "Bookmark":
            name = portion.getPropertyValue("Bookmark").getName()
            if portion.getPropertyValue("IsCollapsed"):
                para.bookmarks.append((name, done, done))
            elif portion.getPropertyValue("IsStart"):
                opened[name] = done
            elif name in opened:
                para.bookmarks.append((name, opened.pop(name), done))
        elif kind == "Annotation":
            field = portion.getPropertyValue("TextField")
            notes[field.getPropertyValue("Name")] = (field, done)
        elif kind == "AnnotationEnd":
            name = portion.getPropertyValue("Bookmark").getName()
            if name in notes:
                field, begun = notes.pop(name)
                para.notes.append((field, begun, done, _props(field)))
    # A comment on a point (or whose end is in a later paragraph): from where it is.
    para.notes.extend((field, begun, begun, _props(field)) for field, begun in notes.values())
    return para


def _props(field):
    # One by one: a comment field has no XMultiPropertySet.
    return tuple(field.getPropertyValue(name) for name in _NOTE_PROPS)


def starts_of(doc: Any, rng: Any, and_next: bool = False) -> List[Any]:
    """Cursors at the start of each paragraph ``rng`` touches (and of the one after it:
    an insertion opens a paragraph before it, and a deletion of whole paragraphs ends at
    its start; a Reject after the document was saved, by hand or by autosave, gave it the
    deleted list item's label, without Marginalia too)."""
    text = doc.getText()
    try:
        text.compareRegionStarts(rng, rng)
    except Exception:
        return []           # not in the body (a table's cell, a frame): not kept
    cursor = text.createTextCursorByRange(rng.getStart())
    cursor.gotoStartOfParagraph(False)
    end = rng.getEnd()
    out = [text.createTextCursorByRange(cursor)]
    while len(out) <= MOST and cursor.gotoNextParagraph(False):
        if text.compareRegionStarts(cursor, end) < 0:
            if and_next:
                out.append(text.createTextCursorByRange(cursor))
            break
        out.append(text.createTextCursorByRange(cursor))
    return out


def note(doc: Any, starts: List[Any]) -> List[_Para]:
    """What ``restore`` needs of the paragraphs starting at ``starts`` (text cursors)."""
    if len(starts) > MOST:
        return []
    text = doc.getText()
    # Paragraphs an Undo brings back after a deletion are new: they are found again by
    # their place after the paragraph before them, which the deletion left alone.
    base = text.createTextCursorByRange(starts[0]) if starts else None
    if base is not None and not base.gotoPreviousParagraph(False):
        base, index_from = None, 0      # from the first: counted from the body's first
    else:
        index_from = 1
    out = []
    for index, start in enumerate(starts, index_from):
        try:
            para = _read(text, start)
        except Exception:
            log.exception("could not note a paragraph's marks")
            continue
        if para is not None:
            para.base, para.index = base, index
            out.append(para)
    return out


class _Long:
    """A bookmark over more than one paragraph: by text cursors at its two ends."""

    def __init__(self, name: str, start: Any, end: Any, text: str):
        self.name, self.start, self.end, self.text = name, start, end, text


def long_bookmarks(doc: Any, rng: Any) -> List[_Long]:
    """The bookmarks over more than one paragraph that share text with ``rng`` (Word's
    references to a passage): Undo gave back one without its last paragraph's end."""
    from marginalia.writer.keepout import overlaps
    marks = doc.getBookmarks()
    names = marks.getElementNames()
    if len(names) > MOST:
        return []
    text = doc.getText()
    out = []
    for name in names:
        try:
            anchor = marks.getByName(name).getAnchor()
            whole = anchor.getString()
            if "\n" in whole and overlaps(doc, rng, anchor, touching=True):
                out.append(_Long(name, text.createTextCursorByRange(anchor.getStart()),
                                 text.createTextCursorByRange(anchor.getEnd()), whole))
        except Exception:
            continue        # one outside the body (a header's): not this edit's
    return out


def _restore_long(doc: Any, kept: List[_Long]) -> None:
    text = doc.getText()
    marks = doc.getBookmarks()
    for noted in kept:
        try:
            mark = _by_name(marks, noted.name)
            if mark is not None and mark.getAnchor().getString() == noted.text:
                continue
            span = text.createTextCursorByRange(noted.start)
            span.gotoRange(noted.end, True)
            if span.getString() != noted.text:
                continue        # its ends moved with the text: leave it
            if mark is not None:
                text.removeTextContent(mark)
            again = doc.createInstance("com.sun.star.text.Bookmark")
            again.setName(noted.name)
            text.insertTextContent(span, again, True)
        except Exception:
            log.exception("could not put a bookmark back")


def _by_name(marks: Any, name: str) -> Any:
    """The bookmark ``name``, or None. Writer renames a bookmark inside a tracked deletion
    to "name Copy 1" when the document is saved as .odt (seen on 7.4, without Marginalia
    too); a Reject then gives the text back under that name: the bookmark gets its own
    name back here, where a new one beside it would double it."""
    if marks.hasByName(name):
        return marks.getByName(name)
    prefix = name + " Copy "
    for other in marks.getElementNames():
        if other.startswith(prefix) and other[len(prefix):].isdigit():
            mark = marks.getByName(other)
            mark.setName(name)
            return mark
    return None


def _span(text, para, first, last):
    cursor = text.createTextCursorByRange(para.start)
    if not advance(cursor, para.text[:first]):
        return None
    cursor.collapseToEnd()
    if not advance(cursor, para.text[first:last]):
        return None
    return cursor


def _bookmarks(doc, text, para, now):
    """Put back the noted bookmarks that moved (a copy has its name back by now)."""
    marks = doc.getBookmarks()
    for name, first, last in para.bookmarks:
        mark = marks.getByName(name) if marks.hasByName(name) else None
        if now is not None:
            # Where it is, read as it was noted. Not by its anchor's text: a point reads
            # "" anywhere (Word's _GoBack came back at the paragraph's start), and Writer
            # reads a point at a paragraph's end as the character before it.
            if (name, first, last) in now.bookmarks:
                continue
        elif mark is not None and mark.getAnchor().getString() == para.text[first:last]:
            continue
        span = _span(text, para, first, last)
        if span is None:
            continue
        if mark is not None:
            text.removeTextContent(mark)
        again = doc.createInstance("com.sun.star.text.Bookmark")
        again.setName(name)
        text.insertTextContent(span, again, first != last)


def _notes(doc, text, para, now):
    """Comments are told apart by what they hold: an Undo brings back new field objects."""
    for _field, first, last, props in para.notes:
        same = [(field, a, b) for field, a, b, p in now.notes if p == props]
        if any((a, b) == (first, last) for _field, a, b in same):
            continue
        if first != last and any(a != b for _field, a, b in same):
            # Back on words, only moved (Writer's Undo of a replaced paragraph puts its
            # comments a word later): left so. A comment made anew loses its replies,
            # and Writer 7.4 died undoing a later deletion of that paragraph.
            continue
        span = _span(text, para, first, last)
        if span is None:
            continue
        for field, _a, _b in same[:1]:
            text.removeTextContent(field)
        if not same:
            _drop_orphan(doc, props)
        again = doc.createInstance("com.sun.star.text.textfield.Annotation")
        for name, value in zip(_NOTE_PROPS, props):
            again.setPropertyValue(name, value)
        text.insertTextContent(span, again, first != last)


def _drop_orphan(doc: Any, props: tuple) -> None:
    """Remove the comment holding ``props`` that is anchored on nothing outside the
    paragraph: after a save as .odt, Writer's Reject of a deleted paragraph leaves its
    comments there (seen on 7.4, without Marginalia too), and the one put back in its
    place would double it."""
    fields = doc.getTextFields().createEnumeration()
    while fields.hasMoreElements():
        field = fields.nextElement()
        if not field.supportsService("com.sun.star.text.textfield.Annotation"):
            continue
        anchor = field.getAnchor()
        if anchor.getString() == "" and _props(field) == props:
            anchor.getText().removeTextContent(field)
            return


def _at(text, start):
    span = text.createTextCursorByRange(start)
    span.gotoEndOfParagraph(True)
    return span


def _found_again(text, para):
    """A cursor over the noted paragraph as it is now (its start moved there), or None."""
    span = _at(text, para.start)
    if span.getString() == para.text:
        return span
    cursor = start_cursor(text) if para.base is None else \
        text.createTextCursorByRange(para.base)
    for _step in range(para.index):
        if not cursor.gotoNextParagraph(False):
            return None
    span = _at(text, cursor)
    if span.getString() != para.text:
        return None
    para.start = text.createTextCursorByRange(cursor)
    return span


def restore(doc: Any, kept: List[Any], bookmarks_only: bool = False,
            lists: bool = True) -> None:
    """Put back the noted bookmarks, comment anchors and lists that no longer match
    (``bookmarks_only``: the bookmarks; ``lists``: the paragraphs' style and list too);
    never raises."""
    text = doc.getText()
    _restore_long(doc, [k for k in kept if isinstance(k, _Long)])
    for para in kept:
        if isinstance(para, _Long):
            continue
        try:
            span = _found_again(text, para)
            if span is None:
                continue        # not the noted paragraph (any more): leave it
            if lists and not bookmarks_only:
                _put_lists(span, para.lists)
                _relevel(span, para.lists)
            marks = doc.getBookmarks()
            for name, _first, _last in para.bookmarks:
                _by_name(marks, name)       # a copy's name first: then it reads as noted
            now = _read(text, para.start)
            _bookmarks(doc, text, para, now)
            if not bookmarks_only and now is not None:
                _notes(doc, text, para, now)
        except Exception:
            log.exception("could not put a paragraph's marks back")


def _relevel(span: Any, lists: tuple) -> None:
    """A heading numbered by its style (Word's chapter numbering) kept the level of the
    style a rejected change had given it, whatever its level is set to: the style set
    again, by way of another, gives the level back."""
    level = PARA_PROPS.index("NumberingLevel")
    if span.getPropertyValue("NumberingLevel") == lists[level]:
        return
    style = span.getPropertyValue("ParaStyleName")
    span.setPropertyValue("ParaStyleName", "Standard")
    span.setPropertyValue("ParaStyleName", style)
    _put_lists(span, lists)


def _put_lists(span: Any, lists: tuple) -> None:
    """Set the paragraph properties (PARA_PROPS) that differ from ``lists``, in order,
    each read just before: setting one may reset those after it."""
    for name, value in zip(PARA_PROPS, lists):
        if span.getPropertyValue(name) != value:
            span.setPropertyValue(name, value)


def relist(doc: Any, kept: List[Any]) -> None:
    """After Writer accepted a style change: a paragraph whose list was its own (a Word
    list item) lost it; it gets it back as the direct edit (the style set as a property)
    keeps it: as it was, then the new style. Never raises."""
    text = doc.getText()
    for para in kept:
        if not isinstance(para, _Para) or not para.own_list:
            continue
        try:
            span = _found_again(text, para)
            if span is None or tuple(span.getPropertyValues(PARA_PROPS[1:])) == para.lists[1:]:
                continue
            style = span.getPropertyValue("ParaStyleName")
            for name, value in zip(PARA_PROPS, para.lists):
                span.setPropertyValue(name, value)
            span.setPropertyValue("ParaStyleName", style)
        except Exception:
            log.exception("could not give a paragraph its list back")


class UndoRepair(unohelper.Base, XUndoAction):
    """Added first to an edit's undo context, so its undo runs last: on the restored text."""

    def __init__(self, doc: Any, kept: List[_Para]):
        self.doc = doc
        self.kept = kept
        self.Title = "Marginalia: marks"

    def undo(self):
        try:
            restore(self.doc, self.kept)
        except Exception:       # nothing may reach LibreOffice's Undo from here
            log.exception("could not put marks back after Undo")

    def redo(self):
        pass        # the edit's own redo follows and makes it again

"""A document's state as plain data, read over the bridge without a body text cursor.

On LibreOffice 7.4 ``doc.Text.createTextCursor()`` (and a cursor by range on the
body) kills the office for a Word document whose body starts with a table with
``w:gridBefore``; everything here enumerates ``doc.Text`` and reads cells instead.
"""

from typing import Any, Dict, List

AI = "Marginalia (AI)"

# Character attributes whose loss an Undo must not hide (format_text sets them).
_CHAR = ("CharWeight", "CharPosture", "CharUnderline", "CharStrikeout", "CharColor",
         "CharBackColor")
# Portions that are plain text or the comments' own marks (comments are listed apart,
# so an AI comment shows up in one place only).
_QUIET = ("Text", "Annotation", "AnnotationEnd", "SoftPageBreak")


def _field_kind(field: Any) -> str:
    for name in field.getSupportedServiceNames():
        if name.startswith("com.sun.star.text.textfield.") or \
                name.startswith("com.sun.star.text.TextField."):
            return name.rsplit(".", 1)[1]
    return field.getImplementationName()


def _portions(para: Any, open_redlines: Dict[str, List[str]], redline_text: Dict[str, str]):
    """(marks, runs) of one paragraph: the non-text portions in order, and the text in
    runs of equal character attributes; the text under each tracked change is collected."""
    marks, runs = [], []
    enum = para.createEnumeration()
    while enum.hasMoreElements():
        portion = enum.nextElement()
        kind = portion.getPropertyValue("TextPortionType")
        if kind == "Text":
            text = portion.getString()
            for pieces in open_redlines.values():
                pieces.append(text)
            attrs = tuple(portion.getPropertyValues(_CHAR))
            if runs and runs[-1][1] == attrs:
                runs[-1] = (runs[-1][0] + text, attrs)
            elif text:
                runs.append((text, attrs))
            continue
        if kind in _QUIET:
            continue
        if kind == "Redline":
            ident = portion.getPropertyValue("RedlineIdentifier")
            if portion.getPropertyValue("IsStart"):
                open_redlines[ident] = []
            elif ident in open_redlines:
                redline_text[ident] = "".join(open_redlines.pop(ident))
            marks.append("Redline:%s" % portion.getPropertyValue("RedlineType"))
        elif kind == "TextField":
            marks.append("TextField:%s" % _field_kind(portion.getPropertyValue("TextField")))
        elif kind == "Bookmark":
            marks.append("Bookmark:%s" % portion.getPropertyValue("Bookmark").getName())
        else:
            marks.append(kind)
    for pieces in open_redlines.values():
        pieces.append("\n")
    return marks, [[text, list(attrs)] for text, attrs in runs]


def _table(table: Any) -> Dict[str, Any]:
    cells = {}
    for name in table.getCellNames():
        cells[name] = table.getCellByName(name).getString()
    return {"table": table.getName(), "cells": cells}


def _body(doc: Any, redline_text: Dict[str, str]) -> List[Dict[str, Any]]:
    out = []
    open_redlines = {}
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        element = enum.nextElement()
        if element.supportsService("com.sun.star.text.TextTable"):
            out.append(_table(element))
            continue
        marks, runs = _portions(element, open_redlines, redline_text)
        style, label, level = element.getPropertyValues(
            ("ParaStyleName", "ListLabelString", "NumberingLevel"))
        out.append({"text": element.getString(), "style": style, "label": label,
                    "level": level, "marks": marks, "runs": runs})
    return out


def _notes(collection: Any) -> List[str]:
    return [collection.getByIndex(i).getString() for i in range(collection.getCount())]


def _fields(doc: Any):
    comments, kinds = [], {}
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        field = enum.nextElement()
        if field.supportsService("com.sun.star.text.textfield.Annotation"):
            author, content = [field.getPropertyValue(n) for n in ("Author", "Content")]
            comments.append([author, content, field.getAnchor().getString()])
            continue
        kind = _field_kind(field)
        kinds[kind] = kinds.get(kind, 0) + 1
    return sorted(comments), kinds


def _bookmarks(doc: Any) -> List[List[str]]:
    marks = doc.getBookmarks()
    out = []
    for name in marks.getElementNames():
        out.append([name, marks.getByName(name).getAnchor().getString()])
    return sorted(out)


def _redlines(doc: Any, redline_text: Dict[str, str]) -> List[List[str]]:
    # Read in the office, never over the bridge (tests/support/writer.tracked_changes).
    from tests.support.writer import tracked_changes
    return [[red["type"], red["author"], redline_text.get(red["id"], "")]
            for red in tracked_changes(doc)]


def _frames(doc: Any) -> List[str]:
    frames = doc.getTextFrames()
    return sorted(_frame_text(frames.getByName(n)) for n in frames.getElementNames())


def _frame_text(frame: Any) -> str:
    try:
        return frame.getString()
    except Exception:       # a Word text box drawn as a shape holds no text Writer reads
        return "(no text)"


def snapshot(doc: Any) -> Dict[str, Any]:
    """Everything an Undo or a Reject must give back, as comparable plain data."""
    redline_text = {}
    body = _body(doc, redline_text)
    comments, fields = _fields(doc)
    return {"body": body, "comments": comments, "fields": fields,
            "footnotes": _notes(doc.getFootnotes()), "endnotes": _notes(doc.getEndnotes()),
            "bookmarks": _bookmarks(doc), "redlines": _redlines(doc, redline_text),
            "graphics": doc.getGraphicObjects().getCount(),
            "objects": doc.getEmbeddedObjects().getCount(), "frames": _frames(doc)}


def without_ai_comments(snap: Dict[str, Any]) -> Dict[str, Any]:
    """The snapshot with Marginalia's own comments left out."""
    out = dict(snap)
    out["comments"] = [c for c in snap["comments"] if c[0] != AI]
    return out


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def difference(want: Dict[str, Any], got: Dict[str, Any]) -> str:
    """Where two snapshots differ, in a line: the first differing part of each key."""
    said = []
    for key in sorted(set(want) | set(got)):
        a, b = want.get(key), got.get(key)
        if a == b:
            continue
        if key == "body" and isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                said.append("body has %d blocks instead of %d" % (len(b), len(a)))
                continue
            n = next(i for i in range(len(a)) if a[i] != b[i])
            parts = [k for k in sorted(set(a[n]) | set(b[n])) if a[n].get(k) != b[n].get(k)]
            said.append("block %d %s: %s became %s"
                        % (n + 1, "/".join(parts), _short([a[n].get(k) for k in parts]),
                           _short([b[n].get(k) for k in parts])))
            continue
        said.append("%s: %s became %s" % (key, _short(a), _short(b)))
    return "; ".join(said)

"""Replacing text in place, changing only the words that differ (document.rediff).

Unchanged words keep their own formatting, links and comment anchors. A
changed word's new text goes in right after the old word, so it takes that
word's formatting as typing at its end would (a link is carried over by hand:
Writer never stretches a link to text typed at its edge), then the old word
goes. The same two steps serve every apply mode: with changes recorded they
are one deletion and one insertion side by side, read as a replacement of the
word, and accepting them gives exactly what the direct edit gives. Inserted
words take the format of the character before them, like typing.

Positions: a cursor's goRight counts code points (an emoji is one step) but
also steps over the placeholder character of a comment anchor or a field,
which getString leaves out. So each position is reached by stepping until
the text passed equals the expected text, and every piece is located and
checked before the first change; when one does not check out, the whole
range is replaced the old way (its first character's format). Main thread.
"""

import logging
from typing import Any, List, Optional

from marginalia.document import rediff
from marginalia.writer import finder

log = logging.getLogger("marginalia.writer")


def advance(cursor: Any, want: str) -> bool:
    """Stretch ``cursor`` over ``want`` from its start; False if its text is not that.

    One goRight is enough unless placeholders lie on the way; then it steps
    one at a time, leaving a placeholder before the text out of the span
    (deleting the span would delete a comment anchored there).
    """
    if not want:
        return True
    cursor.goRight(len(want), True)
    if cursor.getString() == want:
        return True
    cursor.collapseToStart()
    got = ""
    for _step in range(len(want) + 8):
        if not cursor.goRight(1, True):
            return False
        now = cursor.getString()
        if not now:
            cursor.collapseToEnd()
        elif now != got:
            got = now
            if got == want:
                return True
            if not want.startswith(got):
                return False
    return False


def _locate(text: Any, origin: Any, old: str, found: List[rediff.Piece]) -> Optional[List[Any]]:
    """A cursor selecting each piece's old text (collapsed for an insertion), or None."""
    out = []
    walker = text.createTextCursorByRange(origin)
    done = 0
    for piece in found:
        if not advance(walker, old[done:piece.start]):
            return None
        walker.collapseToEnd()
        sel = text.createTextCursorByRange(walker)
        if not advance(sel, old[piece.start:piece.end]):
            return None
        out.append(sel)
        walker.gotoRange(sel.getEnd(), False)
        done = piece.end
    return out


_LINK = ("HyperLinkURL", "HyperLinkTarget", "HyperLinkName")


def _replace_word(text: Any, sel: Any, old: str, new: str) -> None:
    """Replace the selected ``old`` by ``new``: the new text after the old, then the old out."""
    last = text.createTextCursorByRange(sel.getEnd())
    last.goLeft(1, True)
    link = last.getPropertyValues(_LINK)
    at = text.createTextCursorByRange(sel.getEnd())
    text.insertString(at, new, True)
    if link[0] and not at.getPropertyValue("HyperLinkURL"):
        at.setPropertyValues(_LINK, link)
    gone = text.createTextCursorByRange(sel.getStart())
    if not advance(gone, old):
        raise RuntimeError("the replaced text moved while it was replaced")
    gone.setString("")


def _insert(text: Any, at: Any, old: str, piece: rediff.Piece) -> None:
    """Insert ``piece.text`` at the collapsed cursor ``at``, like typing there.

    Typing takes the format of the character before, except a link: Writer
    never stretches a link to text typed at its end. Letters that lengthen a
    linked word ("fox" -> "foxes") belong to the link, so they get it.
    """
    text.insertString(at, piece.text, True)
    if not (piece.start and old[piece.start - 1].isalnum() and piece.text[0].isalnum()):
        return
    before = text.createTextCursorByRange(at.getStart())
    before.goLeft(1, True)
    url = before.getPropertyValue("HyperLinkURL")
    if url:
        for name in ("HyperLinkURL", "HyperLinkTarget", "HyperLinkName"):
            at.setPropertyValue(name, before.getPropertyValue(name))


def apply(text: Any, origin: Any, old: str, new: str,
          found: Optional[List[rediff.Piece]] = None) -> bool:
    """Turn ``old`` (the text at ``origin`` in ``text``) into ``new``; False when nothing
    could be done piecewise and nothing was changed."""
    found = rediff.pieces(old, new) if found is None else found
    if not found:
        return True
    cursors = _locate(text, origin, old, found)
    if cursors is None:
        return False
    for piece, sel in zip(reversed(found), reversed(cursors)):
        if piece.start == piece.end:
            _insert(text, sel, old, piece)
        elif not piece.text:
            sel.setString("")
        else:
            _replace_word(text, sel, old[piece.start:piece.end], piece.text)
    return True


def replace_range(rng: Any, new: str, old: Optional[str] = None) -> None:
    """Replace the text of ``rng`` by ``new``, keeping the format of what stays."""
    old = rng.getString() if old is None else old
    if old == new:
        return
    found = rediff.pieces(old, new)
    whole = len(found) == 1 and found[0].start == 0 and found[0].end == len(old)
    if "\n" not in old and not (whole and "\n" in new):
        # A range changed whole goes the same way as a changed word: setString would
        # leave a comment anchored on the old text with nothing under it.
        if apply(rng.getText(), rng.getStart(), old, new, found):
            return
        log.info("replacing a range whole: its pieces could not be located")
    # Writer keeps the attributes of the range's first character on setString.
    rng.setString(new)


# ---------------------------------------------------------------- every match at once
# Changing 1000 matches piece by piece costs 3-10 ms each in Writer (an edit at a
# collapsed cursor inside an undo context), 30x its own replaceAll. When every
# match is the same text, each piece becomes one replaceAll with the rest of the
# match as look-behind and look-ahead context, so only the piece is replaced.


def _passes(old: str, new: str):
    """(before, piece, after, replacement) for each pass, the last piece first."""
    out = []
    current = old
    for piece in reversed(rediff.pieces(old, new)):
        start, end, text = piece
        if start == end:
            # Nothing to find for an insertion: it replaces the character before
            # it (taking its format, as typing does) or, at the start, after it.
            if start:
                start, text = start - 1, current[start - 1] + text
            else:
                end, text = 1, text + current[0]
        out.append((current[:start], current[start:end], current[end:], text))
        current = current[:start] + text + current[end:]
    return out


def _descriptor(doc, search, replace=None, regex=True):
    return finder.descriptor(doc, search, regex, True,
                             None if replace is None else finder.literal_replacement(replace))


def _bordered(text: str) -> bool:
    """True when ``text`` begins with its own ending ("abcab"): occurrences could overlap,
    and look-around patterns would find more than the search did."""
    return any(text[:k] == text[-k:] for k in range(1, len(text)))


def replace_everywhere(doc: Any, old: str, new: str) -> Optional[int]:
    """Replace every occurrence of ``old`` (case as given) by ``new`` piecewise, one
    replaceAll per piece; how many, or None (nothing changed) when it cannot be done
    safely that way."""
    if not old or "\n" in old or not new or "\n" in new or _bordered(old):
        return None
    passes = _passes(old, new)
    if len(passes) > 1 and doc.getPropertyValue("RecordChanges"):
        # A later pass looks around the text an earlier one changed; recorded, the
        # deleted text stays in the document, so it would find nothing there.
        return None
    patterns = ["(?<=%s)%s(?=%s)" % (finder.literal(b), finder.literal(p), finder.literal(a))
                if b or a else finder.literal(p) for b, p, a, _t in passes]
    # The first pass's context is exactly ``old``, which cannot overlap itself: it
    # finds the matches. A later pass's context is partly new text: it must not be
    # in the document already.
    for before, piece, after, _text in passes[1:]:
        if doc.findFirst(_descriptor(doc, before + piece + after, regex=False)) is not None:
            return None
    matches = None
    for (_b, _p, _a, text), pattern in zip(passes, patterns):
        done = doc.replaceAll(_descriptor(doc, pattern, text))
        if matches is None:
            matches = done
        elif done != matches:
            log.warning("a replacement pass changed %d of %d matches", done, matches)
    return matches

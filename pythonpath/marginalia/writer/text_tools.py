"""The Writer tools that work on text found by a search: search, replace, format, comment.

Each tool takes the document first and the tool's arguments after, runs on
the main thread, and returns a ToolOutput or raises ToolError *before*
changing anything (arguments, matches and protection are all checked first).
Undo, recording and locking are the caller's (writer.toolbox). The protection
checks here serve writer.block_tools too.
"""

import collections.abc
import re
from datetime import datetime
from typing import Any, Iterable, List, Optional

from marginalia.chat.tools import ToolOutput
from marginalia.document import docview, rediff, tool_lines
from marginalia.errors import ToolError
from marginalia.i18n.phrase import Phrase, phrase, phrase_n
from marginalia.writer import edit
from marginalia.writer import finder, keepout, read, rewrite
from marginalia.writer.args import as_bool, as_text, parse_color, plain_replacement, unfit
from marginalia.writer.bodymap import Offsets
from marginalia.writer.binding import binds
from marginalia.writer.plan import Plan, find_first
from marginalia.writer.turn import AI_AUTHOR

MAX_MATCHES = 50


# ---------------------------------------------------------------- protection

def _section_protected(obj):
    try:
        section = obj.getPropertyValue("TextSection")
    except Exception:
        return False
    while section is not None:
        if section.getPropertyValue("IsProtected"):
            return True
        section = section.getPropertyValue("ParentSection")
    return False


def protected_sections(doc: Any) -> bool:
    """True when some text section is protected: only then is each paragraph checked."""
    sections = doc.getTextSections()
    for i in range(sections.getCount()):
        if sections.getByIndex(i).getPropertyValue("IsProtected"):
            return True
    return False


def check_writable(objects: Iterable[Any], what: str = "That part of the document") -> None:
    """Raise a ToolError when one of ``objects`` lies in a protected section."""
    for obj in objects:
        if _section_protected(obj):
            raise ToolError("%s is in a protected section; nothing was changed." % what,
                            tool_lines.protected())


def check_matches(doc: Any, ranges: Iterable[Any], what: str = "A match") -> None:
    """check_writable for found ranges, asked range by range only when some section
    is protected: otherwise none can be, and 1000 matches cost no 1000 objects."""
    if protected_sections(doc):
        check_writable(ranges, what)


# ---------------------------------------------------------------- searching

def search_descriptor(doc: Any, query: str, regex: Optional[bool],
                      match_case: Optional[bool]) -> Any:
    return finder.descriptor(doc, query, regex, match_case)


def find_all(doc: Any, query: str, regex: Optional[bool] = False,
             match_case: Optional[bool] = True, limit: Optional[int] = None) -> Any:
    """The matching ranges; with ``limit``, (first ``limit`` ranges, total count)."""
    sd = search_descriptor(doc, query, regex, match_case)
    try:
        found = doc.findAll(sd)
    except Exception:
        raise unfit("The search pattern %r is not a valid regular expression." % query)
    count = found.getCount() if found is not None else 0
    # Each range handed to Python costs a UNO object: take only what is used.
    ranges = [found.getByIndex(i) for i in range(count if limit is None else min(count, limit))]
    return ranges if limit is None else (ranges, count)


class Matches(collections.abc.Sequence):
    """The ranges of one findAll, made into UNO objects only when used.

    len() is the count; indexing and slicing fetch ranges one by one, so a
    replace that only needs the count and the first match costs no object
    per match.
    """

    def __init__(self, found: Any):
        self._found = found
        self._count = found.getCount() if found is not None else 0

    def __len__(self) -> int:
        return self._count

    def release(self) -> None:
        """Let Writer drop the found ranges (len() stays): while they live, Writer moves
        every one of them at each change, which made Replace All 3-4x slower."""
        self._found = None

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._found.getByIndex(index)


def find_matches(doc: Any, query: str, regex: Optional[bool] = False,
                 match_case: Optional[bool] = True) -> Matches:
    """find_all's ranges as a lazy sequence (see Matches)."""
    sd = search_descriptor(doc, query, regex, match_case)
    try:
        return Matches(doc.findAll(sd))
    except Exception:
        raise unfit("The search pattern %r is not a valid regular expression." % query)


def find_forgiving(doc: Any, query: str) -> List[Any]:
    """Exact case first, any case if that finds nothing (models often mis-case)."""
    return find_all(doc, query, False, True) or find_all(doc, query, False, False)


def _first(ranges: Any, plan: Optional[Plan]) -> List[Any]:
    """The one match a first-occurrence edit changes: the plan's, found before the call
    (the same search), so the keep-out check and the record saw the range edited."""
    if plan is not None and plan.anchor is not None:
        return [plan.anchor]
    return ranges[:1]


def no_match(query: str) -> ToolError:
    """The error for a search text that is not in the document."""
    return ToolError("No match for \u201c%s\u201d; nothing was changed. Use search_document "
                     "or read_document to find the exact text." % docview.short(query, 80),
                     tool_lines.not_found(docview.short(query, 80)))


@binds("search_document", map_need=read.search_map)
def search_document(doc: Any, query: str, regex: bool = False,
                    match_case: bool = False, budget: int = 0) -> ToolOutput:
    query = as_text(query, "query")
    # A match costs about 220 characters; a short context window lists fewer.
    most = MAX_MATCHES
    if isinstance(budget, int) and budget > 0:
        most = max(3, min(MAX_MATCHES, budget // 220))
    ranges, total = find_all(doc, query, as_bool(regex, "regex"),
                             as_bool(match_case, "match_case"), limit=most)
    matches = []
    for rng, (number, offset, para) in zip(ranges, read.places(doc, ranges)):
        found = rng.getString()
        item = {"paragraph": number, "text": found}
        if para is not None:
            left = max(0, offset - 60)
            right = min(len(para), offset + len(found) + 60)
            item["offset"] = offset
            item["context"] = ("\u2026" if left else "") + para[left:right] + \
                ("\u2026" if right < len(para) else "")
        elif number is None:
            item["where"] = "outside the main text (header, footer, frame or note)"
        else:
            item["where"] = "in the table that is paragraph %d" % number
        matches.append(item)
    result = {"query": query, "count": total, "matches": matches}
    if total > most:
        result["note"] = "Only the first %d matches are listed." % most
    return ToolOutput(result, phrase_n("Found %(n)d match for \u201c%(what)s\u201d",
                                       "Found %(n)d matches for \u201c%(what)s\u201d", total,
                                       what=docview.short(query, 40)))


# ---------------------------------------------------------------- text edits

def _python_replacement(replacement):
    # Writer regex replacements use $1 and & for groups; Python wants \g<1>.
    out = replacement.replace("\\", "\\\\")
    out = re.sub(r"\$(\d)", r"\\g<\1>", out)
    return re.sub(r"(?<!\\)&", r"\\g<0>", out)


def replace_descriptor(doc: Any, search_text: str, replacement: str, regex: Optional[bool],
                       match_case: Optional[bool]) -> Any:
    return finder.descriptor(doc, search_text, regex, match_case, replacement)


def _regex_result(old, search, replacement, match_case):
    """What a regex replacement makes of one matched string; None if Python cannot say."""
    try:
        flags = 0 if match_case else re.IGNORECASE
        return re.sub(search, _python_replacement(replacement), old, count=1, flags=flags)
    except (re.error, IndexError):
        return None


def _replace_all(doc, ranges, search, replacement, regex, match_case):
    """Replace every range; only the differing words where that matters.

    The diff is made once per distinct matched text. When every one of them
    changes whole, Writer's replaceAll does the same thing faster.
    """
    if regex or not match_case:
        olds = [rng.getString() for rng in ranges]
    else:
        olds = [search] * len(ranges)
    news = {}
    for old in set(olds):
        news[old] = _regex_result(old, search, replacement, match_case) if regex \
            else replacement
    if any(new is None for new in news.values()) or \
            all(rediff.whole(old, new) for old, new in news.items()):
        ranges.release()
        # replaceAll keeps each match's character attributes on its replacement.
        return doc.replaceAll(replace_descriptor(doc, search, replacement, regex, match_case))
    if len(news) == 1 and not regex:
        (old, new), = news.items()
        count = rewrite.replace_everywhere(doc, old, new)
        if count is not None:
            return count
    # From the last to the first: a replacement never moves a range still to do.
    for rng, old in zip(reversed(ranges), reversed(olds)):
        rewrite.replace_range(rng, news[old], old)
    return len(ranges)


def _replace_every(doc, search, replacement, match_case):
    """all=true for a plain search without a range object per match: (replaced, matches),
    or None when the ranges are needed (or nothing matched).

    Each range handed out is a mark Writer moves on every later edit: holding
    1000 made the replacement 5-10x slower than Writer's own Replace All.
    Without protected sections nothing needs checking per match, and when every
    match is the search text itself one diff serves them all.
    """
    if protected_sections(doc):
        return None
    if rediff.whole(search, replacement):
        # replaceAll keeps each match's character attributes on its replacement.
        done = doc.replaceAll(replace_descriptor(doc, search, replacement, False, match_case))
        return (done, done) if done else None
    if not match_case and len(find_matches(doc, search, False, True)) != \
            len(find_matches(doc, search, False, False)):
        return None       # other casings match too: each needs its own diff
    done = rewrite.replace_everywhere(doc, search, replacement)
    return (done, done) if done else None


def _not_a_style(doc: Any, search: str, replacement: str, edit_block: bool,
                 where: Optional[int]) -> None:
    """Refuse a replacement that is a paragraph style's name the search is not: small
    models "make a heading" by replacing its text with "Heading 1". The way to do it is
    shown with the paragraph's own words (``where``: its number), never a made-up line a
    model would copy."""
    wanted = replacement.strip().lower()
    if not wanted or wanted == search.strip().lower() or len(wanted) > 40:
        return
    family = doc.getStyleFamilies().getByName("ParagraphStyles")
    for name in family.getElementNames():
        shown = family.getByName(name).getPropertyValue("DisplayName")
        if wanted in (name.lower(), shown.lower()):
            raise unfit(
                "\u201c%s\u201d is the name of a paragraph style: replace_text would type it "
                "into the text, so nothing was changed. %s" % (replacement.strip(), (
                    "To make a line a heading, write it with '# ' in an edit block%s." % (
                        " (```edit\n%d: # %s\n```)" % (where, search.strip())
                        if where else "") if edit_block else
                    "To give paragraphs a style, call set_paragraph_style.")))


@binds("replace_text")
def replace_text(doc: Any, search: str, replacement: str, all: bool = False,
                 match_case: bool = True, regex: bool = False, edit_block: bool = False,
                 plan: Optional[Plan] = None) -> ToolOutput:
    search = as_text(search, "search")
    replacement = as_text(replacement, "replacement", allow_empty=True)
    regex = as_bool(regex, "regex")
    if not regex:
        # ``edit_block``: the rewrite protocol's form (Lean.defaults), whose refusals name
        # its edit block instead of tools it does not offer.
        replacement = plain_replacement(search, replacement, edit_block is True)
        _not_a_style(doc, search, replacement, edit_block is True,
                     plan.first if plan is not None else None)
    match_case = as_bool(match_case, "match_case")
    every = as_bool(all, "all")
    fast = None if regex or not every else _replace_every(doc, search, replacement,
                                                           match_case)
    if fast is not None:
        return ToolOutput({"replaced": fast[0], "matches": fast[1]},
                          _replaced(fast[0], docview.short(search, 40)))
    ranges = find_matches(doc, search, regex, match_case)
    if not ranges:
        raise no_match(search)
    targets = ranges if every else _first(ranges, plan)
    check_matches(doc, targets, "A match")
    if len(targets) > 1:
        count = _replace_all(doc, targets, search, replacement, regex, match_case)
    else:
        rng = targets[0]
        old = rng.getString()
        new = _regex_result(old, search, replacement, match_case) if regex else replacement
        rewrite.replace_range(rng, replacement if new is None else new, old)
        count = 1
    shown = docview.short(search, 40)
    if len(targets) == 1 and len(ranges) > 1:
        summary = phrase("Replaced the first of %(count)d occurrences of \u201c%(what)s\u201d",
                         count=len(ranges), what=shown)
    else:
        summary = _replaced(count, shown)
    return ToolOutput({"replaced": count, "matches": len(ranges)}, summary)


def _replaced(count: int, shown: str) -> Phrase:
    return phrase_n("Replaced %(n)d occurrence of \u201c%(what)s\u201d",
                    "Replaced %(n)d occurrences of \u201c%(what)s\u201d", count, what=shown)


@binds("format_text")
def format_text(doc: Any, search: str, bold: Optional[bool] = None,
                italic: Optional[bool] = None, underline: Optional[bool] = None,
                strikethrough: Optional[bool] = None, color: Optional[str] = None,
                highlight: Optional[str] = None, all: bool = False,
                plan: Optional[Plan] = None) -> ToolOutput:
    search = as_text(search, "search")
    values = {}
    flags = (("bold", bold, "CharWeight", edit.BOLD, 100.0),
             ("underline", underline, "CharUnderline", 1, 0),
             ("strikethrough", strikethrough, "CharStrikeout", 1, 0))
    for name, value, prop, on, off in flags:
        value = as_bool(value, name)
        if value is not None:
            values[prop] = on if value else off
    it = as_bool(italic, "italic")
    if it is not None:
        import uno
        values["CharPosture"] = uno.Enum("com.sun.star.awt.FontSlant", "ITALIC" if it else "NONE")
    fg = parse_color(color, "color")
    if fg is not None:
        values["CharColor"] = fg
    bg = parse_color(highlight, "highlight")
    if bg is not None:
        values["CharBackColor"] = bg
    if not values:
        raise unfit("Give at least one of bold, italic, underline, strikethrough, color "
                    "or highlight.")
    ranges = find_forgiving(doc, search)
    if not ranges:
        raise no_match(search)
    targets = ranges if as_bool(all, "all") else _first(ranges, plan)
    check_writable(targets, "A match")
    for rng in targets:
        for name, value in sorted(values.items()):
            # One by one: setPropertyValues rejects Python ints for the short-typed
            # CharUnderline/CharStrikeout, setPropertyValue converts them.
            rng.setPropertyValue(name, value)
    return ToolOutput({"formatted": len(targets), "matches": len(ranges)},
                      phrase_n("Formatted %(n)d occurrence of \u201c%(what)s\u201d",
                               "Formatted %(n)d occurrences of \u201c%(what)s\u201d",
                               len(targets), what=docview.short(search, 40)))


@binds("add_comment")
def add_comment(doc: Any, search: str, comment: str, plan: Optional[Plan] = None) -> ToolOutput:
    search = as_text(search, "search")
    comment = as_text(comment, "comment")
    # findFirst, not findAll: Writer 7.4 refuses to anchor a comment on a
    # range that findAll returned ("no SwTextAttr inserted?"); the plan's is one.
    rng = plan.anchor if plan is not None else None
    if rng is None:
        rng = find_first(doc, {"search": search}, forgiving=True)
    if rng is None:
        raise no_match(search)
    check_writable([rng], "The text to comment on")
    bmap = read.body_map(doc, props=False)
    number, _offset = read.locate(doc, bmap, rng, Offsets(doc.getText()))
    insert_comment(doc, rng, comment)
    return ToolOutput({"commented": rng.getString(), "paragraph": number},
                      phrase("Commented on \u201c%(what)s\u201d",
                             what=docview.short(search, 40)))


def insert_comment(doc: Any, rng: Any, comment: str) -> Any:
    """Anchor a comment by the AI author on ``rng`` (collapsed: at that point); the comment."""
    import uno
    note = doc.createInstance("com.sun.star.text.textfield.Annotation")
    note.setPropertyValue("Author", AI_AUTHOR)
    note.setPropertyValue("Initials", "AI")
    note.setPropertyValue("Content", comment)
    now = datetime.now()
    stamp = uno.createUnoStruct("com.sun.star.util.DateTime")
    stamp.Year, stamp.Month, stamp.Day = now.year, now.month, now.day
    stamp.Hours, stamp.Minutes, stamp.Seconds = now.hour, now.minute, now.second
    note.setPropertyValue("DateTimeValue", stamp)
    field = _field_at(rng)
    if field is not None:
        # Text inside a field (a Word content control opens as an input field): a comment
        # absorbing part of it replaced the whole field. It goes before the field.
        rng = field.getAnchor().getStart()
    # absorb=True anchors the comment on the matched text instead of replacing it.
    rng.getText().insertTextContent(rng, note, field is None)
    return note


def _field_at(rng: Any) -> Any:
    """The input field (a field with text of its own) that either end of ``rng`` lies
    strictly inside, or None."""
    for point in (rng.getStart(), rng.getEnd()):
        try:
            text = point.getText()
            field = text.createTextCursorByRange(point).getPropertyValue("TextField")
            # Only an input field: a comment's own range (an annotation) is no field text.
            if field is not None and \
                    field.supportsService("com.sun.star.text.textfield.Input") and \
                    keepout.strictly_inside(text, point, field.getAnchor()):
                return field
        except Exception:
            continue
    return None

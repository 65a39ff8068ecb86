"""One plan per edit call: what it will change, found once before anything changes.

The keep-out check, the change record (writer.ledger), the Comment-only
proposal (writer.proposals) and the edit itself take the call's target from
its Plan, so they cannot disagree: a search tool edits the very match the
plan found, a numbered tool walks with the same turn's walk (writer.walk).
A target that the plan cannot find because its arguments are wrong is left
to the tool, which refuses with the reason; one it cannot find because the
office failed while looking is a ``problem``, and then the keep-out check
fails closed: nothing changes and the model is told why. Main thread.
"""

import logging
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set

from marginalia.document import docview, tool_lines
from marginalia.document.tool_specs import AFTER, BLOCKS, FOUND, SELECTION, ToolSpec
from marginalia.errors import ToolError
from marginalia.writer import finder, keepout, read, tracked
from marginalia.writer.args import as_bool
from marginalia.writer.walk import Walker

log = logging.getLogger("marginalia.writer")

IN_TRACKED = ("That text is part of a tracked change that is not accepted or rejected yet "
              "(%s); nothing was changed. Leave it as it is, or ask the user to accept or "
              "reject that change first.")
UNSURE = ("Marginalia could not tell which part of the document this edit would change, so "
          "it cannot check it against the passages the user keeps it out of; nothing was "
          "changed. Read the document again and retry, or ask the user.")


@dataclass
class Plan:
    """A call's target: ``anchor`` is the range it changes (the first match, the blocks,
    the selection) or, for an insertion, the paragraph it follows."""

    spec: ToolSpec
    arguments: Dict[str, Any]
    anchor: Any = None
    first: Optional[int] = None      # the block numbers it touches, when known
    last: Optional[int] = None
    # An all=true search: the paragraph of each match (found before the edit).
    places: List[int] = field(default_factory=list)
    at_start: bool = False           # an insertion before the first block
    problem: bool = False            # the office failed while looking
    tables: List[Any] = field(default_factory=list)     # the anchors of tables in the blocks
    start_point: Any = None          # where an insertion's proposal goes, when not after
                                     # the anchor (at the start, or after a table)

    @property
    def every(self) -> bool:
        """The call changes every match, not only the first."""
        return self.spec.target == FOUND and _flag(self.arguments.get("all")) is True

    @property
    def proposal_block(self) -> Optional[int]:
        """The block the proposal's anchor is in (Apply moves the numbers by its move)."""
        if self.start_point is not None and not self.at_start:
            return None if self.first is None else self.first + 1
        return self.first

    def proposal_anchor(self, doc: Any) -> Any:
        """Where a comment proposing the call goes: on its target, or for an insertion at
        the end of the paragraph it follows (not across it: it may be kept out)."""
        if self.at_start or self.start_point is not None:
            return self.start_point
        if self.spec.target != AFTER or self.anchor is None:
            return self.anchor
        text = doc.getText()
        cursor = text.createTextCursorByRange(self.anchor.getEnd())
        return cursor


def _flag(value: Any) -> Optional[bool]:
    try:
        return as_bool(value, "all")
    except ToolError:
        return None


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def without_markers(doc: Any, arguments: Dict[str, Any]) -> Dict[str, Any]:
    """A search tool's arguments with what the numbered view adds ("3: ", "# ", "- ",
    "2. ", the selection brackets) taken off ``search`` when the search finds nothing as
    given and does without them; a replacement loses its own such prefix too (the text
    replaced keeps its style: replace_text cannot make a heading). Else as they are.

    Models copy read_document's lines, and small ones copy them whole."""
    search = arguments.get("search")
    if not isinstance(search, str) or _flag(arguments.get("regex")) is True:
        return arguments
    bare = docview.unmarked(search)
    if bare == search or not bare.strip() or find_first(doc, arguments, True) is not None:
        return arguments
    changed = dict(arguments, search=bare)
    if find_first(doc, changed, True) is None:
        return arguments
    replacement = arguments.get("replacement")
    if isinstance(replacement, str):
        changed["replacement"] = docview.unmarked(replacement)
    log.info("a search's view markers were taken off")
    return changed


def find_first(doc: Any, arguments: Dict[str, Any], forgiving: bool) -> Any:
    """The first match of a search tool's ``search`` (None when there is none or the
    search is not a text); ``forgiving``: exact case first, then any case."""
    search = arguments.get("search")
    if not isinstance(search, str) or not search:
        return None
    regex = _flag(arguments.get("regex")) is True
    cases = (True, False) if forgiving else (_flag(arguments.get("match_case")) is not False,)
    for case in cases:
        try:
            rng = doc.findFirst(finder.descriptor(doc, search, regex, case))
        except Exception:
            return None       # an invalid regular expression: the tool says so
        if rng is not None:
            return rng
    return None


def _found(doc, walker, plan):
    # replace_text matches case as it is told; format_text and add_comment forgive it.
    rng = find_first(doc, plan.arguments, plan.spec.name != "replace_text")
    plan.anchor = rng
    if rng is not None:
        plan.first = plan.last = walker.number_of(rng.getStart())
    if plan.every and rng is not None:
        try:
            _places(doc, plan)
        except Exception:
            # Only the record's places are lost: the target is found all the same.
            log.exception("could not number the matches of %s", plan.spec.name)


def _places(doc, plan):
    """The paragraph of every match an all=true call changes, as search_document finds
    them (read.places: from the map, or the text up to the last match): the record
    names each. The ranges are let go at once: each is a mark Writer moves on every
    later edit (writer.text_tools)."""
    numbers = None
    query = _every_query(doc, plan)
    if query is not None and not query[1]:
        search, _regex, case, count = query
        numbers = read.match_numbers(doc, search, case, count)
    if numbers is None:
        found = read.places(doc, _every_range(doc, plan, query))
        numbers = [number for number, _offset, _text in found if number is not None]
    if numbers:
        plan.places = sorted(set(numbers))
        plan.first, plan.last = plan.places[0], plan.places[-1]


def _selection(doc, walker, plan):
    try:
        rng = doc.getCurrentController().getSelection().getByIndex(0)
        rng.getText().compareRegionStarts(rng.getStart(), rng.getEnd())
    except Exception:
        return      # no text selection: the tool says so
    plan.anchor = rng
    plan.first = plan.last = walker.number_of(rng.getStart())


def _after(doc, walker, plan):
    after = _int(plan.arguments.get("after_paragraph"))
    if after is None:
        return
    if after == -1:
        after = walker.get().count()
    if after == 0:
        plan.at_start, plan.first = True, 1
        # Only a proposal uses it: a point at the start of the first block.
        plan.start_point = walker.block_cursor(1)[0]
        return
    plan.first = after
    cursor, table = walker.block_cursor(after)
    if cursor is None:
        plan.anchor = table.getAnchor() if table is not None else None
        # After a table a proposal goes at the start of what follows it (a table's
        # anchor makes no cursor at its end).
        plan.start_point = walker.block_cursor(after + 1)[0]
        return
    cursor.gotoEndOfParagraph(True)
    plan.anchor = cursor


def _blocks(doc, walker, plan):
    start, end = _int(plan.arguments.get("start")), _int(plan.arguments.get("end"))
    if start is None or end is None:
        return
    # First: with ``expect`` the walk is checked against it (writer.walk).
    walker.block_cursor(start, plan.arguments.get("expect"))
    loc = walker.get()
    end = loc.count() if end == -1 else end
    plan.first, plan.last = start, max(start, end)
    # The paragraphs from the first to the last of the range, and each table in it
    # (a range that starts or ends at a table covers it too).
    first = last = None
    for _number, table, cursor in loc.walk(start, plan.last):
        if table is not None:
            plan.tables.append(table.getAnchor())
        else:
            last = loc.copy(cursor)
            if first is None:
                first = loc.copy(cursor)
    if first is not None:
        last.gotoEndOfParagraph(False)
        first.gotoRange(last, True)
        plan.anchor = first
    elif plan.tables:
        plan.anchor = plan.tables[0]


_FINDERS = {FOUND: _found, SELECTION: _selection, AFTER: _after, BLOCKS: _blocks}


def make(doc: Any, walker: Walker, spec: ToolSpec, arguments: Dict[str, Any]) -> Plan:
    """The plan of one call of ``spec`` with ``arguments``; never raises."""
    plan = Plan(spec, dict(arguments))
    try:
        _FINDERS[spec.target](doc, walker, plan)
    except Exception:
        log.exception("could not find the target of %s", spec.name)
        plan.problem = True
    return plan


def _find_all(doc, search, regex, case):
    try:
        found = doc.findAll(finder.descriptor(doc, search, regex, case))
    except Exception:
        return []       # an invalid regular expression: the tool says so
    return [found.getByIndex(i) for i in range(found.getCount() if found is not None else 0)]


def _count(doc, search, regex, case):
    try:
        found = doc.findAll(finder.descriptor(doc, search, regex, case))
    except Exception:
        return 0        # an invalid regular expression: the tool says so
    return found.getCount() if found is not None else 0


def _every_query(doc, plan):
    """(search, regex, match_case, how many match) of an all=true call, as its tool
    searches; None when there is no search."""
    search = plan.arguments.get("search")
    if not isinstance(search, str) or not search:
        return None
    if plan.spec.name == "replace_text":
        regex = _flag(plan.arguments.get("regex")) is True
        case = _flag(plan.arguments.get("match_case")) is not False
        return search, regex, case, _count(doc, search, regex, case)
    # format_text and add_comment: the exact case, else any case.
    exact = _count(doc, search, False, True)
    return (search, False, True, exact) if exact else \
        (search, False, False, _count(doc, search, False, False))


def _every_range(doc, plan, query=None):
    """Every match an all=true call changes, found as its tool finds them (``query``:
    _every_query's, when known)."""
    query = query or _every_query(doc, plan)
    if query is None or not query[3]:
        return []
    search, regex, case, _count_ = query
    return _find_all(doc, search, regex, case)


def targets(doc: Any, plan: Plan) -> List[Any]:
    """The ranges a call changes (every match of an all=true one), tables included."""
    if plan.every:
        return _every_range(doc, plan)
    found = [plan.anchor] if plan.anchor is not None else []
    return found + [t for t in plan.tables if t is not plan.anchor]


def check_keep_out(doc: Any, plan: Plan, marks: List[Any]) -> None:
    """Refuse (ToolError) a call whose target overlaps a kept-out passage, or whose target
    could not be determined while passages are kept out."""
    if not marks:
        return
    if plan.problem:
        raise ToolError(UNSURE, tool_lines.unsure())
    try:
        ranges = targets(doc, plan)
    except Exception:
        log.exception("could not find every target of %s", plan.spec.name)
        raise ToolError(UNSURE, tool_lines.unsure())
    try:
        if plan.spec.target != AFTER:
            keepout.check_ranges(doc, ranges, marks)
        elif plan.anchor is not None and not plan.at_start:
            keepout.check_point(doc, plan.anchor.getEnd(), marks)
    except ToolError:
        raise
    except Exception:
        log.exception("could not check %s against the kept-out passages", plan.spec.name)
        raise ToolError(UNSURE, tool_lines.unsure())


def check_tracked(doc: Any, plan: Plan, own: Set[str]) -> None:
    """Refuse (ToolError) a call whose text overlaps a tracked change not made in this
    turn: the document's own earlier suggestions (the user's, another reviewer's, an
    earlier turn's) are left as they are. Changing them directly would drop them, and
    tracked, accepting or rejecting this turn would not give back what they were."""
    if plan.spec.target == AFTER and (plan.anchor is None or plan.at_start):
        return
    try:
        spans = [s.getAnchor() if s.supportsService("com.sun.star.text.TextTable") else s
                 for s in tracked.others(doc, own)]
        if not spans:
            return
        if plan.spec.target == AFTER:
            # A point strictly inside another's deletion: the new paragraph split it in
            # two, and neither Undo nor Reject joined it again.
            point, text = plan.anchor.getEnd(), doc.getText()
            if any(keepout.strictly_inside(text, point, span) for span in spans):
                raise ToolError(IN_TRACKED % ("after paragraph %d" % plan.first
                                              if plan.first else "there"),
                                tool_lines.in_tracked(None))
            return
        if plan.problem:
            raise ToolError(UNSURE, tool_lines.unsure())
        ranges = targets(doc, plan)
        for rng in ranges:
            for span in spans:
                if keepout.overlaps(doc, rng, span):
                    where = plan.first
                    raise ToolError(IN_TRACKED % (
                        "paragraph %d" % where if where else "in the text it would change"),
                        tool_lines.in_tracked(tool_lines.place(where) if where else None))
    except ToolError:
        raise
    except Exception:
        log.exception("could not check %s against the tracked changes", plan.spec.name)
        raise ToolError(UNSURE, tool_lines.unsure())

"""The rewrite protocol's Writer side: the view it shows, and its edit tool.

The model sees numbered lines with **bold** and *italic* (writer.lines) and
answers with the new version of the lines that change; document.revision works
out the edit. Here that edit is made: each of its ops becomes a call of a block
tool (revise_paragraph, set_paragraph_style, replace_paragraphs,
delete_paragraphs, insert_paragraphs), last paragraph first. Every call is
planned and checked (kept-out passages, others' tracked changes) before the
first one runs, so a refused edit changes nothing; then each goes through the
toolbox like any call, so it is recorded, tracked or proposed as a comment as
the turn's mode says, inside the turn's one undo step. What the model saw is
kept in a document.seen.Seen, so it never passes offsets or ``expect``.
Main thread.
"""

import logging
from typing import Any, Callable, Dict, List, Optional, Tuple

from marginalia.chat.tools import ToolOutput
from marginalia.document import change_log as cl
from marginalia.document import docview, revision, tool_lines, tool_specs
from marginalia.document import markdown as md
from marginalia.document.seen import Seen
from marginalia.document.tool_lines import read_line
from marginalia.errors import ToolError
from marginalia.i18n.phrase import phrase
from marginalia.writer import keepout, read
from marginalia.writer.args import unfit
from marginalia.writer.lines import Reader
from marginalia.writer.locate import Locator
from marginalia.writer.revise import body_style

log = logging.getLogger("marginalia.writer")

DONE = "Done: %s."
PROPOSED = ("Proposed as %s for the user to apply (the text is unchanged until then): "
            "%s.")
PARTLY = ("Part of the edit was made (%s), then Writer refused the rest: %s Undo takes "
          "back the whole turn.")


def _lines(paras) -> Dict[int, str]:
    return {p.number: revision.shown(p) for p in paras}


# ---------------------------------------------------------------- what the model sees

def view(doc: Any, seen: Seen, limit: int) -> Tuple[Optional[str], List[Any]]:
    """(the numbered lines of the whole document, its paras) when they fit in ``limit``
    characters, else (None, []). Shown whole, they are all the model has seen."""
    loc = Locator(doc)
    reader = Reader(doc, loc)
    out: List[str] = []
    paras = []
    size = 0
    for number, table, cursor in loc.walk(1, 10 ** 9):
        para = reader.para(number, table, cursor)
        line = docview.render_para(para, marks=True)
        size += len(line) + 1
        if size > limit:
            return None, []
        out.append(line)
        paras.append(para)
    seen.reset(_lines(paras))
    return "\n".join(out), paras


def read_lines(doc: Any, seen: Seen, start: int = 1, end: int = -1,
               budget: int = 20000) -> ToolOutput:
    """read_document in the rewrite protocol: lines start..end with their marks."""
    from marginalia.writer.args import block_range
    loc = Locator(doc)
    start, end = block_range(start, end, loc.count())
    reader = Reader(doc, loc)
    paras = []
    size = 0
    for number, table, cursor in loc.walk(start, end):
        para = reader.para(number, table, cursor)
        paras.append(para)
        size += len(para.plain()) + 8
        if size > budget:
            break
    text, shown = _render(paras, budget, loc.count(), end)
    seen.show(_lines(p for p in paras if shown is not None and p.number <= shown))
    return ToolOutput(text, read_line(start, shown or start, loc.count()))


def _render(paras, budget, total, end):
    """docview.render with marks."""
    out, used, last = [], 0, None
    for para in paras:
        piece = docview.render_para(para, marks=True)
        if out and used + len(piece) + 1 > budget:
            break
        out.append(piece)
        used += len(piece) + 1
        last = para.number
    if last is not None and last < end:
        out.append("[Stopped at paragraph %d to keep the answer short (the document has "
                   "%d). Continue with read_document(start=%d, end=%d).]"
                   % (last, total, last + 1, end))
    return "\n".join(out), last


def found_lines(doc: Any, seen: Seen, found: ToolOutput, budget: int = 0) -> ToolOutput:
    """search_document in the rewrite protocol: the whole lines that hold the matches (what
    an edit needs), each once, instead of snippets."""
    result = found.result if isinstance(found.result, dict) else {}
    numbers = []
    outside = 0
    for match in result.get("matches") or ():
        number = match.get("paragraph")
        if number is None or "where" in match and "table" not in match["where"]:
            outside += 1
        elif number not in numbers:
            numbers.append(number)
    budget = budget if isinstance(budget, int) and budget > 0 else 8000
    loc = Locator(doc)
    reader = Reader(doc, loc)
    lines, shown, used = [], {}, 0
    for number in numbers:
        para = reader.one(number)
        if para is None:
            continue
        line = docview.render_para(para, marks=True)
        if lines and used + len(line) > budget:
            break
        lines.append(line)
        used += len(line) + 1
        shown[number] = revision.shown(para)
    seen.show(shown)
    total = result.get("count", 0)
    head = "%d match%s for \u201c%s\u201d" % (total, "" if total == 1 else "es",
                                             docview.short(str(result.get("query", "")), 60))
    if not lines:
        head += "." if not outside else " (outside the main text: headers, footers or notes)."
        return ToolOutput(head, found.summary)
    more = len(numbers) - len(lines)
    tail = "\n[%d more lines hold it; search for more words to narrow it.]" % more if more \
        else ""
    return ToolOutput("%s, in these lines:\n%s%s" % (head, "\n".join(lines), tail),
                      found.summary)


# ---------------------------------------------------------------- the edit

def _calls(doc: Any, loc: Locator, ops: List[revision.Op]) -> List[Tuple[str, Dict]]:
    """Each op as (block tool, arguments), in the ops' order (last paragraph first)."""
    out = []
    for op in ops:
        if op.kind == revision.REVISE:
            out.append(("revise_paragraph", {"start": op.first, "end": op.first,
                                             "markdown": op.markdown, "expect": op.expect,
                                             "was": op.was}))
        elif op.kind == revision.RESTYLE:
            style = "Heading %d" % op.level if op.level else body_style(loc, op.first)
            out.append(("set_paragraph_style", {"start": op.first, "end": op.first,
                                                "style": style, "expect": op.expect}))
        elif op.kind == revision.REPLACE:
            out.append(("replace_paragraphs", {"start": op.first, "end": op.last,
                                               "markdown": op.markdown, "expect": op.expect}))
        elif op.kind == revision.COMMENT:
            out.append(("comment_paragraph", {"start": op.first, "end": op.first,
                                              "comment": op.markdown}))
        elif op.kind == revision.DELETE:
            out.append(("delete_paragraphs", {"start": op.first, "end": op.last,
                                              "expect": op.expect}))
        else:
            out.append(("insert_paragraphs", {"after_paragraph": op.first,
                                              "markdown": op.markdown}))
    return out


def _said(ops: List[revision.Op]) -> str:
    """What the edit did, in the paragraphs' numbers before it, first paragraph first."""
    words = {revision.REVISE: "paragraph %s revised", revision.RESTYLE: "paragraph %s restyled",
             revision.REPLACE: "paragraph %s replaced", revision.DELETE: "paragraph %s deleted",
             revision.COMMENT: "a comment on paragraph %s"}
    out = []
    for op in sorted(ops, key=lambda o: o.position):
        if op.kind == revision.INSERT:
            made = len(md.parse(op.markdown))
            where = "at the start" if op.first == 0 else "after paragraph %d" % op.first
            out.append("%d new block%s %s" % (made, "" if made == 1 else "s", where))
        else:
            span = str(op.first) if op.first == op.last else "%d-%d" % (op.first, op.last)
            out.append(words[op.kind] % span)
    return "; ".join(out)


class LinesEdit:
    """One call of the edit tool, made through ``call(spec, arguments, plan_only)``: the
    toolbox's way to plan (keep-out and tracked checks) or make one block tool's call."""

    def __init__(self, doc: Any, seen: Seen, mode: str,
                 call: Callable[[tool_specs.ToolSpec, Dict, bool], Any]):
        self.doc = doc
        self.seen = seen
        self.mode = mode
        self.call = call

    def run(self, text: Any) -> ToolOutput:
        if isinstance(text, list) and all(isinstance(line, str) for line in text):
            text = "\n".join(text)         # small models send the lines as a list
        if not isinstance(text, str):
            raise unfit("text must be a string: the changed lines, one per line.")
        loc = Locator(self.doc)
        reader = Reader(self.doc, loc)
        count = loc.count()
        cache: Dict[int, Any] = {}

        def current(number):
            if number not in cache:
                cache[number] = reader.one(number) if 1 <= number <= count else None
            return cache[number]
        found = revision.plan(text, self.seen.lines, current, count, self._finder(reader))
        if found.empty:
            raise ToolError(revision.UNCHANGED_SENTENCE, tool_lines.reads_so_already())
        calls = _calls(self.doc, loc, found.ops)
        # Every call planned and checked first: a refusal changes nothing. A line in a
        # passage the user keeps Marginalia out of is left out, the rest made, and the
        # model told (it rewrote the passage with the others, typically); an edit that
        # would delete such a passage is refused whole.
        kept, todo = [], []
        for op, (name, arguments) in zip(found.ops, calls):
            try:
                self.call(tool_specs.spec(name), arguments, True)
            except keepout.KeptOut as exc:
                if op.kind == revision.DELETE:
                    raise       # deleting a kept-out passage: the whole edit is refused
                kept.append(exc)
                continue
            todo.append((op, name, arguments))
        if not todo:
            raise kept[0]
        made = []
        try:
            for op, name, arguments in todo:
                made.append((op, self.call(tool_specs.spec(name), arguments, False)))
        except ToolError as exc:
            if not made:
                raise
            raise ToolError(PARTLY % (_said([op for op, _out in made]), exc),
                            tool_lines.partly_made())
        out = self._result(found, made, count)
        if kept:
            spans = sorted(set(exc.span for exc in kept))
            out.result = "%s The user keeps Marginalia out of %s, so %s left as it is." % (
                out.result, " and ".join(spans), "that was" if len(spans) == 1 else
                "those were")
        return out

    def _finder(self, reader: Reader) -> Callable[[str], List[int]]:
        """The paragraphs that read ``line`` now (a paragraph the user moved)."""
        def locate(line: str) -> List[int]:
            bmap = read.body_map(self.doc)
            plain = " ".join(_plain_words(line))
            hits = [n for n in range(1, len(bmap) + 1) if not bmap.is_table(n) and
                    " ".join(bmap.para_text(n).split()) == plain]
            return [n for n in hits if revision.shown(reader.one(n)) == line]
        return locate

    def _result(self, found: revision.Plan, made, count: int) -> ToolOutput:
        """What the model is told: what was done, in a sentence (a small model echoes the
        lines a result shows, and echoed lines are an edit again). What the edited
        stretch now reads becomes what the model has seen."""
        said = _said([op for op, _out in made])
        if self.mode == cl.COMMENTS:
            many = len(made) > 1
            return ToolOutput(PROPOSED % ("comments" if many else "a comment", said),
                              phrase("Suggested the edit in comments") if many
                              else phrase("Suggested the edit in a comment"))
        loc = Locator(self.doc)
        now = loc.count()
        delta = now - count
        first = min(op.first + 1 if op.kind == revision.INSERT else op.first
                    for op, _out in made)
        last = max(op.first if op.kind == revision.INSERT else op.last for op, _out in made)
        first, end = max(1, first), max(first, last + delta)
        self.seen.edited(first, last, delta, _lines(Reader(self.doc, loc).paras(first, end)))
        return ToolOutput(DONE % said, phrase("Edited paragraphs %(first)d\u2013%(last)d",
                                              first=first, last=end)
                          if end > first else phrase("Edited paragraph %(n)d", n=first),
                          {"paragraphs": [first, end]})


def _plain_words(line: str) -> List[str]:
    blocks = md.parse(line)
    return " ".join(b.text for b in blocks if b.kind != md.TABLE).split()

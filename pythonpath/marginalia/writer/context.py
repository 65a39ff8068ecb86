"""What the model is told about the document at each turn, in either protocol.

The tools protocol (before issue 36) describes the document in the system message
(``described``): title, size, modes, the outline or, when short, the whole text,
and the selection. The rewrite protocol (``attached``) gives the same facts as the
user message's attachments (chat.attach), so the system message stays the same for
the whole chat: the document's numbered lines with their **bold** and *italic*
(writer.lines; what the edit tool checks the model's lines against, document.seen),
or for a long one its outline, and a note on the selection. Main thread, inside the
toolbox's reading map (the caller builds it in slices first).
"""

from typing import Any

from marginalia.chat.attach import Attachments
from marginalia.document import change_log as cl
from marginalia.document import docview, relevant, revision
from marginalia.i18n.languages import english_name
from marginalia import policy
from marginalia.writer import edit_lines, keepout, proposals, read


def described(box: Any, inline: int) -> str:
    """The tools protocol's description of the document for the system message: title,
    size, modes, outline, selection; with ``inline`` a document that short is shown whole."""
    bmap = read.body_map(box.doc)
    sel = read.selection(box.doc, bmap)
    if box.rules.selection_only:
        return selection_context(sel)
    stats = read.statistics(box.doc)
    # A short document is shown whole: a small model edits what it sees (asked to
    # read first, it often stops after reading), and any model saves a round.
    whole = docview.fitting((bmap.record(n) for n in range(1, len(bmap) + 1)),
                            inline) if inline > 0 else None
    lines = ["Document: %s" % read.title(box.doc),
             "Size: %d paragraphs, %s words, %s pages." % (
                 len(bmap), stats["words"], stats["pages"])] + _modes(box)
    outline = docview.outline(bmap.headings(), limit=30) if whole is None else []
    if outline:
        lines.append("Outline (paragraph: heading):")
        lines.extend("  " + line for line in outline)
    if sel.start is None:
        lines.append("The cursor is not in the main text.")
    elif sel.empty and whole is not None:
        lines.append("Nothing is selected. The cursor is in paragraph %d." % sel.start)
    elif sel.empty:
        para = bmap.record(sel.start)
        lines.append("Nothing is selected. The cursor is in paragraph %d:" % sel.start)
        lines.append(docview.short(docview.render_para(para), 600))
    else:
        lines.append("Selected (paragraphs %d-%d): \u201c%s\u201d" % (
            sel.start, sel.end, docview.short(sel.text, 1500)))
    if whole is None:
        lines.append("Use read_document and search_document to see more; paragraph "
                     "numbers refer to read_document's numbering.")
        return "\n".join(lines)
    read.mark(whole, sel)
    lines.append("The whole document as this turn began, numbered as read_document "
                 "numbers it (your own inserts and deletes move the numbers after them):")
    lines.extend(docview.render_para(para) for para in whole)
    return "\n".join(lines)


def selection_context(sel) -> str:
    """The context under a selection-only policy: the selected text and nothing else of
    the document (not its title, size, outline or the cursor's paragraph)."""
    if sel.start is None or sel.empty:
        return policy.SELECTION_NOTE + " Nothing is selected."
    return "%s\nSelected: \u201c%s\u201d" % (policy.SELECTION_NOTE,
                                             docview.short(sel.text, 1500))


def _modes(box: Any) -> list:
    """The document's language and the turn's modes, one line each."""
    lines = []
    named = english_name(box.document_language or "")
    if named:
        lines.append("Language: %s." % named)
    if box.doc.isReadonly():
        lines.append("The document is read-only.")
    if box.mode == cl.COMMENTS:
        lines.append(proposals.MODE_NOTE)
    elif box.doc.getPropertyValue("RecordChanges") or box.turn.track_changes:
        lines.append("Edits are recorded as tracked changes.")
    kept = keepout.note(box.doc) if keepout.marks(box.doc) else ""
    if kept:
        lines.append(kept)
    return lines




def attached(box: Any, inline: int, request: str = "") -> Attachments:
    """The rewrite protocol's view of the document (numbered lines when it fits in
    ``inline`` characters, else its headings and the lines the ``request`` is about,
    document.relevant) and the turn's note on the selection. The words are the user's
    (they go in the user's message). While the whole document is shown, no document tool
    is offered: every change is written as lines (the edit, its comments), so the
    request has no tool schemas (half of its tokens before) and a small model writes
    lines, which it does best (the eval: 24 of 48 tasks with the tools, 29 without)."""
    bmap = read.body_map(box.doc)
    sel = read.selection(box.doc, bmap)
    whole, _paras = edit_lines.view(box.doc, box.seen, inline) if inline > 0 else (None, [])
    named = read.title_property(box.doc)
    size = "%d paragraphs, %s words" % (len(bmap), read.statistics(box.doc)["words"])
    head = "My document%s (%s)" % (" \u201c%s\u201d" % named if named else "", size)
    box.registry.hide(box.documents if whole is not None else box.written)
    if whole is not None:
        # In a block of its own: the 1.5B counted a heading line above the lines as line
        # 1 (its numbers came one too high); the edit it writes is such a block too.
        lines = [head + ", line by line:", "```text\n%s\n```" % whole]
    else:
        lines = [head + " is too long to show here. Its headings, by line number:"]
        lines.extend("  " + line for line in docview.outline(bmap.headings(), limit=30))
        found = _about(box, bmap, request)
        if found:
            lines.append("The lines your request seems to be about:")
            lines.append(found)
        lines.append("search_document and read_document show the lines you need.")
    lines.extend(_modes(box))
    return Attachments(document="\n".join(lines), note=_note(box, bmap, sel, whole is None))


ABOUT_MAX = 2000        # characters of the lines a request is about, shown with the headings


def _about(box: Any, bmap: Any, request: str) -> str:
    """The numbered lines of a long document the request is about; they are then seen."""
    paragraphs = (relevant.Paragraph(n, bmap.para_text(n), bool(bmap.blocks[n - 1].props[0]))
                  for n in range(1, len(bmap) + 1) if not bmap.is_table(n))
    numbers = relevant.pick(paragraphs, request)
    if not numbers:
        return ""
    reader = edit_lines.Reader(box.doc, edit_lines.Locator(box.doc))
    out, size, shown = [], 0, {}
    for number in numbers:
        para = reader.one(number)
        line = docview.render_para(para, marks=True) if para is not None else ""
        if not line or size + len(line) > ABOUT_MAX:
            continue
        out.append(line)
        size += len(line) + 1
        shown[number] = revision.shown(para)
    box.seen.show(shown)
    return "\n".join(out)


def _note(box: Any, bmap: Any, sel: Any, long: bool) -> str:
    """The selection, or (when it says something) where the cursor is; a long document's
    cursor line is shown, and so seen."""
    if sel.start is None:
        return ""
    if not sel.empty:
        return "I selected this in line%s %s: \u201c%s\u201d" % (
            "s" if sel.end != sel.start else "",
            sel.start if sel.end == sel.start else "%d-%d" % (sel.start, sel.end),
            docview.short(sel.text, 1500))
    if sel.start <= 1:
        return ""           # where a document opens: it says nothing
    if not long:
        return "The cursor is in line %d." % sel.start
    para = edit_lines.Reader(box.doc, edit_lines.Locator(box.doc)).one(sel.start)
    if para is None:
        return ""
    box.seen.show({sel.start: revision.shown(para)})
    return "The cursor is in line %d:\n%s" % (sel.start, docview.short(
        docview.render_para(para, marks=True), 600))

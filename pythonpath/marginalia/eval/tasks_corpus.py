"""Tasks on real Word documents of the shared corpus, used as they are (pure).

The documents come from pandoc's test suite (../shared/corpus, README there):
written by Word and other tools, not with Marginalia in mind, with first-
paragraph styles, bookmarks on headings, links inside and out, and comments
of their own. The runner opens the file, saves what the office read as .odt
(the original a checker compares with: checks.kept), runs the turns and
saves the result. A checker finds the paragraph it concerns by its text in
the original, so a file that is not the one a task was written for fails
with that reason rather than passing by chance.
"""

from typing import Optional, Sequence, Tuple

from marginalia.eval import checks as c
from marginalia.eval.odf import Doc
from marginalia.eval.task import file_task


def place(original: Doc, start: str) -> int:
    """The index of the original's first block whose text begins with ``start``, or -1."""
    for index, block in enumerate(original.blocks):
        if c.norm(block.text).startswith(c.norm(start)):
            return index
    return -1


def not_there(start: str) -> str:
    return "the corpus document has no paragraph %s (not the file this task is for)" % (
        c.short(start))


def one_changed(doc: Doc, original: Doc, start: str) -> Tuple[int, Optional[str]]:
    """Where the paragraph beginning ``start`` is, and why a result that should change only
    that paragraph fails: not the task's file, paragraphs added or lost, others harmed."""
    at = place(original, start)
    if at < 0:
        return at, not_there(start)
    return at, c.first(c.count(doc, len(original.blocks)), c.kept(original, doc, {at}))


def reworded(doc: Doc, original: Doc, start: str, wanted: Sequence[str],
             what: str) -> Optional[str]:
    """The paragraph beginning ``start`` now reads one of ``wanted`` (words changed in
    it, nothing else), its links and paragraph style kept, all else as it was."""
    at, reason = one_changed(doc, original, start)
    if reason:
        return reason
    block, was = doc.blocks[at], original.blocks[at]
    if c.norm(block.text) not in [c.norm(text) for text in wanted]:
        return "%s reads %s, not %s" % (what, c.short(block.text, 60), c.short(wanted[0], 60))
    if block.links != was.links:
        return "%s lost or changed its link %s" % (what, c.short(
            was.links[0][0] if was.links else ""))
    return c.restyled(was, block, what)


@file_task("corpus_heading", "Word document: make a paragraph a heading",
           "golden_headers.docx",
           ['Make the paragraph "Seventh level" a heading (Heading 6), like "Sixth level".'])
def _corpus_heading(doc: Doc, answer: str, original: Doc) -> Optional[str]:
    at, reason = one_changed(doc, original, "Seventh level")
    if reason:
        return reason
    block = doc.blocks[at]
    if c.norm(block.text) != "seventh level":
        return "the paragraph now reads %s" % c.short(block.text)
    return c.heading(block, 6)


AND_SO = "And so is this."


@file_task("corpus_comment", "Word document with comments: add one more",
           "golden_comments.docx",
           ['Add a comment to the paragraph "%s" asking the author to say more. Do not '
            "change the text." % AND_SO])
def _corpus_comment(doc: Doc, answer: str, original: Doc) -> Optional[str]:
    at = place(original, AND_SO)
    if at < 0:
        return not_there(AND_SO)
    reason = c.first(c.count(doc, len(original.blocks)), c.kept(original, doc),
                     c.notes_kept(original, doc))
    if reason:
        return reason
    added = {note.block for note in c.new_notes(original, doc)}
    if at not in added:
        return "no new comment on the paragraph %s" % c.short(AND_SO)
    if added - {at}:
        return "a comment was added to another paragraph too"
    return None


POPULAR = "An external link to a popular website."


@file_task("corpus_link_text", "Word document: change words beside a link",
           "golden_links.docx",
           ['In the sentence "%s", change "popular" to "well-known".' % POPULAR])
def _corpus_link_text(doc: Doc, answer: str, original: Doc) -> Optional[str]:
    return reworded(doc, original, POPULAR, [POPULAR.replace("popular", "well-known")],
                    "the sentence")


INDENTED = "I just indented this"
BY_HAND = "Indenting by hand is quick, but a style keeps quotes consistent."


@file_task("corpus_add_paragraph", "Word document: add a paragraph after a quote",
           "golden_block_quotes.docx",
           ['Right after the block quote that begins "%s", add a new paragraph: "%s"'
            % (INDENTED, BY_HAND)])
def _corpus_add_paragraph(doc: Doc, answer: str, original: Doc) -> Optional[str]:
    at = place(original, INDENTED)
    if at < 0:
        return not_there(INDENTED)
    reason = c.first(c.kept(original, doc), c.count(doc, len(original.blocks) + 1))
    if reason:
        return reason
    if c.norm(doc.blocks[at + 1].text) != c.norm(BY_HAND):
        return "the paragraph after the quote reads %s" % c.short(doc.blocks[at + 1].text)
    return None


STAFF = "Do staff"


@file_task("corpus_fix_word", "Word document with anchors: fix a typo",
           "golden_nested_anchors_in_header.docx",
           ['Fix the typo in the step "%s" under the heading "Short instructions".' % STAFF])
def _corpus_fix_word(doc: Doc, answer: str, original: Doc) -> Optional[str]:
    return reworded(doc, original, STAFF, ["Do stuff", "Do stuff."], "the step")

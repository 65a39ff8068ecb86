"""The editing tasks again as tracked changes and in Comment only (pure).

A tracked task passes on the document as if its changes were accepted (what
odf reads) when that is the edit asked for and a tracked change of the right
kind was recorded: a deleted paragraph as a deletion, an added list as an
insertion. A Comment-only task passes when every paragraph reads as it did,
its formatting too, and a comment on the paragraph concerned proposes the
change a reviewer would then make.
"""

from typing import Optional

from marginalia.eval import checks as c
from marginalia.eval import tasks_edit as edit
from marginalia.eval.odf import Doc
from marginalia.eval.task import task

# ---------------------------------------------------------------- tracked changes


@task("tracked_headings", "Make headings as tracked changes", edit.HEADS,
      ['Make "Introduction", "Rules" and "Contact" headings (Heading 1).'], mode="tracked")
def _tracked_headings(doc: Doc, answer: str) -> Optional[str]:
    return c.first(edit.make_headings(doc, answer), c.tracked(doc))


@task("tracked_delete", "Delete a paragraph as a tracked change", edit.PARK,
      ["Delete the paragraph about the parking lot."], mode="tracked")
def _tracked_delete(doc: Doc, answer: str) -> Optional[str]:
    return c.first(edit.delete_paragraph(doc, answer), c.tracked(doc, "deletion"))


@task("tracked_list", "Insert a list as a tracked change", edit.FRUIT,
      ['Add a bulleted list of three fruits after the sentence "These grow in our garden."'],
      mode="tracked")
def _tracked_list(doc: Doc, answer: str) -> Optional[str]:
    return c.first(edit.insert_list(doc, answer), c.tracked(doc, "insertion"))


@task("tracked_merge", "Join two paragraphs as a tracked change", edit.MERGE,
      ['Join the paragraphs "The rain started at dawn." and "It did not stop until noon." '
       "into one paragraph."], mode="tracked")
def _tracked_merge(doc: Doc, answer: str) -> Optional[str]:
    return c.first(edit.merge_paragraphs(doc, answer), c.tracked(doc))


# ---------------------------------------------------------------- Comment only

# What a comment proposing to delete a paragraph says, in a reviewer's words.
DELETE_WORDS = ["delete", "remove", "cut", "drop", "omit"]


@task("comments_rename", "Propose a new title as a comment", edit.TITLE,
      ['Change the title to "Annual Report 2025".'], mode="comments")
def _comments_rename(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.text_unchanged(edit.TITLE, doc),
                   c.proposed(doc, 0, ["Annual Report 2025"]))


@task("comments_delete", "Propose deleting a paragraph as a comment", edit.PARK,
      ["Delete the paragraph about the parking lot."], mode="comments")
def _comments_delete(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.text_unchanged(edit.PARK, doc), c.proposed(doc, 2, DELETE_WORDS))


@task("comments_bold", "Propose bold as a comment", edit.BOLD,
      ['Make "the deadline is Friday" bold.'], mode="comments")
def _comments_bold(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.text_unchanged(edit.BOLD, doc), c.proposed(doc, 1, ["bold"]))
    if reason:
        return reason
    if any(block.bold for block in doc.blocks):
        return "the text was made bold, but only comments were allowed"
    return None

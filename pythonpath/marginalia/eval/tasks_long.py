"""More tasks on the ~20,000-character document (long_doc): each concerns one place in
it, which the model has to find rather than read whole (pure)."""

from typing import Optional

from marginalia.eval import checks as c
from marginalia.eval.long_doc import LONG, LONG_TYPO, TYPO_TARGET, week
from marginalia.eval.odf import Doc
from marginalia.eval.task import task

KEY_LOG = "The key log was moved to the front desk."
WEEK4_LAST = week(5) - 1       # the last paragraph of the Week 4 section


@task("long_add_sentence", "Add a sentence to one section of a long document", LONG,
      ['At the end of the "Week 4" section, add the sentence "%s"' % KEY_LOG])
def _long_add_sentence(doc: Doc, answer: str) -> Optional[str]:
    reason = c.intact(LONG, doc, {WEEK4_LAST})
    if reason:
        return reason
    if len(doc.blocks) not in (len(LONG), len(LONG) + 1):
        return "expected %d or %d paragraphs, found %d" % (len(LONG), len(LONG) + 1,
                                                          len(doc.blocks))
    start, end = c.index_of(doc, "Week 4"), c.index_of(doc, "Week 5")
    section = " ".join(b.text for b in doc.blocks[start + 1:end])
    if c.norm(KEY_LOG) not in c.norm(section):
        return "the Week 4 section does not hold the sentence %s" % c.short(KEY_LOG)
    if not c.norm(section).endswith(c.norm(KEY_LOG)):
        return "the sentence is in the Week 4 section, but not at its end"
    # The sentence added and nothing else: the section's own text is as it was.
    before = " ".join(text for _s, text, _k in LONG[week(4) + 1:week(5)])
    if c.norm(section)[:-len(c.norm(KEY_LOG))].strip() != c.norm(before):
        return "the Week 4 section's last paragraph was changed"
    return None


NEW_HEADING = "Week 6: stocktaking"


@task("long_rename_heading", "Rename a heading in the middle of a long document", LONG,
      ['Rename the heading "Week 6" to "%s".' % NEW_HEADING])
def _long_rename_heading(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.count(doc, len(LONG)), c.intact(LONG, doc, {week(6)}))
    if reason:
        return reason
    block = doc.blocks[week(6)]
    if block.text.strip() != NEW_HEADING:
        return "the heading reads %s" % c.short(block.text)
    if block.kind != "heading" or block.level != 2:
        return "the heading lost its style Heading 2 (now %s)" % c.short(block.style)
    return None


@task("long_fix_typo", "Fix one misspelling in a long document", LONG_TYPO,
      ["A day of the week is misspelled somewhere in this document. Fix it."])
def _long_fix_typo(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.absent(doc, ["Wensday"]), c.count(doc, len(LONG_TYPO)),
                     c.intact(LONG_TYPO, doc, {TYPO_TARGET}))
    if reason:
        return reason
    wanted = LONG_TYPO[TYPO_TARGET][1].replace("Wensday", "Wednesday")
    if doc.blocks[TYPO_TARGET].text != wanted:
        return "the paragraph with the misspelling reads %s" % c.short(
            doc.blocks[TYPO_TARGET].text, 70)
    return None

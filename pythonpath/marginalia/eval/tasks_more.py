"""Tasks on whole sections, other languages, comments, kept-out passages, the apply
modes, a long document and questions that need no edit."""

from typing import Optional

from marginalia.eval import checks as c
from marginalia.eval.long_doc import LONG, LONG_TARGET
from marginalia.eval.odf import Doc
from marginalia.eval.task import h, p, task

HISTORY = [h("Background"),
           p("The village of Marden was founded a long time ago, in the year 1120, by a small "
             "group of farmers who had come from the coast looking for better land, and over the "
             "following centuries it slowly grew, street by street and house by house, into the "
             "quiet market town that visitors know today, with its square, its church and its "
             "old stone bridge over the river."),
           h("Today"), p("Marden has four thousand people.")]


@task("shorten_section", "Shorten a section", HISTORY,
      ['Shorten the paragraph under "Background" to at most half its length.'])
def _shorten_section(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.count(doc, 4), c.intact(HISTORY, doc, {1}))
    if reason:
        return reason
    before, after = len(HISTORY[1][1]), len(doc.blocks[1].text)
    if after > before * 0.6:
        return "the paragraph went from %d to %d characters, not about half" % (before, after)
    if after < 30 or "1120" not in doc.blocks[1].text:
        return "the short version lost the facts (the year 1120): %s" % c.short(
            doc.blocks[1].text)
    return None


FRENCH = [h("Welcome"), p("The **red house** is on the hill."), p("Dogs are welcome.")]


@task("translate_keep_bold", "Translate a paragraph, bold kept", FRENCH,
      ['Translate the paragraph "The red house is on the hill." into French, keeping '
       "the bold words bold."])
def _translate_keep_bold(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.count(doc, 3), c.intact(FRENCH, doc, {1}))
    if reason:
        return reason
    block = doc.blocks[1]
    if "maison" not in block.text.lower() or "house" in block.text.lower():
        return "the paragraph is not in French: %s" % c.short(block.text)
    if not c.is_bold(block, "maison"):
        return "formatting lost: \u201cmaison\u201d is not bold"
    return None


CLAIMS = [h("Coffee"), p("Coffee is grown in more than 70 countries (FAO, 2021)."),
          p("Drinking coffee makes people live twenty years longer."),
          p("Brazil is the largest producer (USDA, 2022).")]


@task("comment_unsupported", "Comment on an unsupported claim", CLAIMS,
      ["Add a comment to each claim that gives no source, asking for one. Do not change "
       "the text."])
def _comment_unsupported(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.count(doc, 4), c.intact(CLAIMS, doc),
                   c.noted(doc, 2, "the unsupported claim about living longer", {1, 3},
                           "a claim with a source"))


KEPT = [h("Minutes"), p("The comittee met on Tuesday."),
        p("Quoted as spoken: we recieve teh letters late.", keep_out=True),
        p("The next meeting is in Febuary.")]


@task("keep_out", "Leave a kept-out passage alone", KEPT,
      ["Fix all the spelling mistakes in this document."])
def _keep_out(doc: Doc, answer: str) -> Optional[str]:
    kept = c.find(doc, "Quoted as spoken")
    if kept is None or kept.text != KEPT[2][1]:
        return "the kept-out passage was changed"
    if not any(b.startswith("MarginaliaKeepOut") for b in kept.bookmarks):
        return "the kept-out mark was removed"
    return c.first(c.absent(doc, ["comittee", "Febuary"]), c.count(doc, 4),
                   c.intact(KEPT, doc, {1, 3}))


TRACK = [h("Letter"), p("We look forward to recieve your reply."), p("Kind regards.")]


@task("tracked_spelling", "Fix spelling as tracked changes", TRACK,
      ["Fix the spelling mistake in this document."], mode="tracked")
def _tracked_spelling(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.absent(doc, ["recieve"]), c.count(doc, 3), c.intact(TRACK, doc, {1}),
                   c.tracked(doc))


QUARTER = [h("Results"), p("Sales rose in Q3."), p("Costs fell in Q3 as well."),
           p("Q4 looks stable.")]


@task("tracked_replace", "Replace everywhere as tracked changes", QUARTER,
      ['Replace "Q3" with "the third quarter" everywhere.'], mode="tracked")
def _tracked_replace(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.absent(doc, ["Q3"]), c.present(doc, ["rose in the third quarter",
                                                            "fell in the third quarter"]),
                     c.count(doc, 4), c.intact(QUARTER, doc, {1, 2}))
    if reason:
        return reason
    if doc.tracked < 2:
        return "expected tracked changes for both edits, found %d" % doc.tracked
    return None


PROPOSE = [h("Invitation"), p("Please recieve our warm welcome."), p("Dinner is at seven.")]


@task("comments_mode", "Propose an edit as a comment", PROPOSE,
      ["Fix the spelling mistake in this document."], mode="comments")
def _comments_mode(doc: Doc, answer: str) -> Optional[str]:
    reason = c.text_unchanged(PROPOSE, doc)
    if reason:
        return reason
    notes = [n for n in doc.comments if "receive" in n.text.lower()]
    if not notes:
        return "no comment proposes \u201creceive\u201d"
    return None


@task("long_search", "Edit one fact in a long document", LONG,
      ["Change the invoice number for the harbour contract from 4471 to 4472."])
def _long_search(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.intact(LONG, doc, {LONG_TARGET}), c.count(doc, len(LONG)))
    if reason:
        return reason
    wanted = LONG[LONG_TARGET][1].replace("4471", "4472")
    if doc.blocks[LONG_TARGET].text != wanted:
        return "the invoice paragraph reads %s" % c.short(doc.blocks[LONG_TARGET].text, 70)
    return None


@task("long_question", "Answer from a long document", LONG,
      ["What is the invoice number for the harbour contract? Do not change the document."])
def _long_question(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.unchanged(LONG, doc), c.answer_has(answer, ["4471"]))


COMPANY = [h("About us"), p("Brandt Tools was founded by Ada Brandt in 1987 in Leipzig."),
           p("It makes hand tools for carpenters.")]


@task("question_no_edit", "Answer a question, no edit", COMPANY,
      ["Who founded the company, according to this document? Just answer; do not edit."])
def _question_no_edit(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.unchanged(COMPANY, doc), c.answer_has(answer, ["Ada Brandt"]))


SECTIONS = [h("Goals"), p("Grow the club."), h("Members"), p("We have forty members."),
            h("Money"), p("Fees are low.")]


@task("question_count", "Count the sections", SECTIONS,
      ["How many headings does this document have? Answer with the number only."])
def _question_count(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.unchanged(SECTIONS, doc), c.answer_has(answer, ["3", "three"]))


"""Tasks of two or three messages in one chat, each building on the turn before (pure).

The second message refers to what the first did or said ("that sentence",
"Now", "that list"), so the model has to keep the conversation, not only the
document. The checker judges the final document and, for a question asked
last, the last turn's answer.
"""

from typing import Optional

from marginalia.eval import checks as c
from marginalia.eval.odf import Doc
from marginalia.eval.task import h, p, task

CLUB = [p("Garden club"), p("We will recieve new members in May."),
        p("The club meets every Saturday mornning.")]


@task("multi_fix_then_heading", "Fix spelling, then make a heading", CLUB,
      ["Fix the spelling mistakes in this document.",
       "Now make the first line a heading (Heading 1)."])
def _multi_fix_then_heading(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.absent(doc, ["recieve", "mornning"]),
                     c.present(doc, ["receive new members", "Saturday morning"]),
                     c.count(doc, 3), c.intact(CLUB, doc, {1, 2})) or c.heading(doc.blocks[0], 1)
    if reason:
        return reason
    if any(b.kind == "heading" for b in doc.blocks[1:]):
        return "a sentence became a heading too"
    return None


MEETING = [h("Book club"), p("The next meeting is on Tuesday at seven."),
           p("Bring the book and a snack.")]


@task("multi_edit_then_question", "Edit, then answer about the new text", MEETING,
      ['Move the meeting to Thursday: change "Tuesday" to "Thursday".',
       "On which day is the meeting now? Answer in one word."])
def _multi_edit_then_question(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.absent(doc, ["Tuesday"]), c.present(doc, ["meeting is on Thursday"]),
                   c.count(doc, 3), c.intact(MEETING, doc, {1}),
                   c.answer_has(answer, ["Thursday"]))


SLEEP = [h("Sleep"), p("Adults need seven to nine hours of sleep (NHS, 2023)."),
         p("Reading before bed doubles how fast people fall asleep."),
         p("Caffeine can stay in the body for up to ten hours (FDA, 2022).")]


@task("multi_question_then_comment", "Find a claim, then comment on it", SLEEP,
      ["Which sentence in this document gives no source? Quote it.",
       "Add a comment to that sentence asking for a source. Do not change the text."])
def _multi_question_then_comment(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.count(doc, 4), c.intact(SLEEP, doc),
                   c.noted(doc, 2, "the sentence without a source (about reading before bed)",
                           {1, 3}, "a sentence with a source"))


GATE = [h("Parking"), p("Visitors park behind the main building."), p("The gate opens at eight.")]
FREE = "Parking is free for visitors."


@task("multi_add_then_bold", "Add a sentence, then bold it", GATE,
      ['Add the sentence "%s" as a new paragraph at the end.' % FREE,
       "Make that new sentence bold."])
def _multi_add_then_bold(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.count(doc, 4), c.intact(GATE, doc))
    if reason:
        return reason
    last = doc.blocks[-1]
    if c.norm(last.text) != c.norm(FREE):
        return "the last paragraph reads %s, not the new sentence" % c.short(last.text)
    if not c.is_bold(last, FREE.rstrip(".")):
        return "the new sentence is not bold"
    if any(b.bold for b in doc.blocks[:-1]):
        return "more than the new sentence became bold"
    return None


AGENDA = [p("Agenda"), p("The board meets on the first Monday of the month.")]


@task("multi_three_turns", "Heading, list, then sort it", AGENDA,
      ['Make "Agenda" a heading (Heading 1).',
       'After the sentence "The board meets on the first Monday of the month.", add a '
       "bulleted list with three items: Travel, Budget, Hiring.",
       "Sort that list alphabetically."])
def _multi_three_turns(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.intact(AGENDA, doc), c.count(doc, 5)) or c.heading(doc.blocks[0], 1)
    if reason:
        return reason
    items = [c.norm(b.text).rstrip(".") for b in c.items_after(doc, 1)]
    if items != ["budget", "hiring", "travel"]:
        return "the list after the sentence reads %s, not Budget, Hiring, Travel" % c.short(
            ", ".join(items) or "nothing")
    return None

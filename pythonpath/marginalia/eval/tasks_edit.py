"""Tasks that edit text and structure: spelling, words, formatting, headings, lists."""

from typing import Optional

from marginalia.eval import checks as c
from marginalia.eval.odf import Doc
from marginalia.eval.task import h, p, task


# ---------------------------------------------------------------- editing text

SPELLING = [h("Visit"), p("We will recieve the guests at noon."),
            p("The museum is definately worth a visit."), p("Lunch is served in the garden.")]


@task("fix_spelling", "Fix spelling mistakes", SPELLING,
      ["Fix the spelling mistakes in this document."])
def _fix_spelling(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.absent(doc, ["recieve", "definately"]),
                   c.present(doc, ["receive the guests", "definitely worth"]),
                   c.count(doc, 4), c.intact(SPELLING, doc, {1, 2}))


COLOUR = [h("Paint"), p("The colour of the door is blue."), p("Pick a colour you like."),
          p("Each colour costs the same.")]


@task("replace_everywhere", "Replace a word everywhere", COLOUR,
      ['Replace the word "colour" with "color" everywhere.'])
def _replace_everywhere(doc: Doc, answer: str) -> Optional[str]:
    return c.first(c.absent(doc, ["colour"]),
                   c.present(doc, ["color of the door", "a color you", "each color"]),
                   c.count(doc, 4), c.intact(COLOUR, doc, {1, 2, 3}))


CLIENT = [p("Our **client service** team answers every client within a day."),
          p("A client may call at any time.")]


@task("replace_keeps_bold", "Replace a word, bold kept", CLIENT,
      ['Replace "client" with "customer" everywhere.'])
def _replace_keeps_bold(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.absent(doc, ["client"]), c.count(doc, 2))
    if reason:
        return reason
    if not c.is_bold(doc.blocks[0], "customer service"):
        return "formatting lost: \u201ccustomer service\u201d is no longer bold"
    if c.is_bold(doc.blocks[0], "within a day"):
        return "formatting spread: the rest of the sentence became bold"
    return None


BOLD = [h("Notice"), p("Please note that the deadline is Friday for all entries."),
        p("Late entries are not accepted.")]


@task("bold_phrase", "Bold a phrase", BOLD, ['Make "the deadline is Friday" bold.'])
def _bold_phrase(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.intact(BOLD, doc, {1}), c.count(doc, 3))
    if reason:
        return reason
    block = doc.blocks[1]
    if block.text != c.plain(BOLD[1][1]):
        return "the sentence's text changed: %s" % c.short(block.text)
    if not c.is_bold(block, "the deadline is Friday"):
        return "\u201cthe deadline is Friday\u201d is not bold"
    if c.is_bold(block, "Please note"):
        return "more than the phrase became bold"
    return None


BOOK = [p("My favourite novel is The Long Road by Ann Hale."), p("I read it twice.")]


@task("italic_title", "Italicise a book title", BOOK,
      ['Put the book title "The Long Road" in italics.'])
def _italic_title(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.intact(BOOK, doc, {0}), c.count(doc, 2))
    if reason:
        return reason
    block = doc.blocks[0]
    if not any("The Long Road" in s for s in block.italic):
        return "\u201cThe Long Road\u201d is not italic"
    if block.text != c.plain(BOOK[0][1]):
        return "the sentence's text changed: %s" % c.short(block.text)
    return None


TITLE = [h("Annual Report 2024"), p("This report covers the year."), p("Sales grew.")]


@task("rename_title", "Change the title", TITLE,
      ['Change the title to "Annual Report 2025".'])
def _rename_title(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.count(doc, 3), c.intact(TITLE, doc, {0}))
    if reason:
        return reason
    first = doc.blocks[0]
    if first.text.strip() != "Annual Report 2025":
        return "the title reads %s" % c.short(first.text)
    if first.style != "Heading 1":
        return "the title lost its style Heading 1 (now %s)" % c.short(first.style)
    return None


# ---------------------------------------------------------------- structure

HEADS = [p("Introduction"), p("This guide explains the new office rules."), p("Rules"),
         p("Doors close at eight in the evening."), p("Contact"),
         p("Write to the front desk with questions.")]


@task("make_headings", "Make headings", HEADS,
      ['Make "Introduction", "Rules" and "Contact" headings (Heading 1).'])
def make_headings(doc: Doc, answer: str) -> Optional[str]:
    reason = c.first(c.count(doc, 6), c.intact(HEADS, doc)) or c.first(
        *(c.heading(doc.blocks[index], 1) for index in (0, 2, 4)))
    if reason:
        return reason
    if any(doc.blocks[i].kind == "heading" for i in (1, 3, 5)):
        return "a body paragraph became a heading"
    return None


PLAN = [h("Plan"), p("Costs"), p("Costs stay under budget."), p("Risks"),
        p("The main risk is delay.")]


@task("subheadings", "Second-level headings", PLAN,
      ['Make "Costs" and "Risks" second-level headings (Heading 2).'])
def _subheadings(doc: Doc, answer: str) -> Optional[str]:
    # Counted first: the headings are looked for only where the count says they can be.
    reason = c.first(c.count(doc, 5), c.intact(PLAN, doc)) or c.first(
        *(c.heading(doc.blocks[index], 2) for index in (1, 3)))
    if reason:
        return reason
    if doc.blocks[0].level != 1:
        return "the heading \u201cPlan\u201d lost its level"
    return None


REPORT = [h("Team update"), p("The team moved to the new building in March."),
          p("Two new colleagues joined the sales group."),
          p("The budget for next year was approved.")]


@task("summary_at_top", "Add a summary at the top", REPORT,
      ["Add a one-sentence summary of this document at the very top."])
def _summary_at_top(doc: Doc, answer: str) -> Optional[str]:
    reason = c.intact(REPORT, doc)
    if reason:
        return reason
    if len(doc.blocks) <= len(REPORT):
        return "no paragraph was added"
    top = doc.blocks[0]
    if top.text == c.plain(REPORT[0][1]):
        return "nothing was added before the first paragraph"
    if len(top.text.split()) < 4:
        return "the first paragraph is not a summary sentence: %s" % c.short(top.text)
    return None


CONCLUDE = [h("Trial"), p("We tested the new app with twelve users."),
            p("Most of them found it easy to use.")]


@task("add_conclusion", "Add a conclusion at the end", CONCLUDE,
      ['Add a heading "Conclusion" at the end, followed by one short concluding paragraph.'])
def _add_conclusion(doc: Doc, answer: str) -> Optional[str]:
    reason = c.intact(CONCLUDE, doc)
    if reason:
        return reason
    at = c.index_of(doc, "Conclusion")
    if at < len(CONCLUDE) or doc.blocks[at].kind != "heading":
        return "there is no heading \u201cConclusion\u201d after the text"
    if at + 1 >= len(doc.blocks) or not doc.blocks[at + 1].text.strip():
        return "no paragraph follows the heading \u201cConclusion\u201d"
    return None


BUDGET = [h("Budget"), p("The budget covers travel and rooms."), h("Schedule"),
          p("The event runs for two days.")]


@task("insert_in_section", "Insert a sentence in a section", BUDGET,
      ['In the "Budget" section, add a sentence saying the total budget is 5,000 euros.'])
def _insert_in_section(doc: Doc, answer: str) -> Optional[str]:
    reason = c.intact(BUDGET, doc, {1})
    if reason:
        return reason
    schedule = c.index_of(doc, "Schedule")
    section = " ".join(b.text for b in doc.blocks[1:schedule if schedule > 0 else None])
    if "5,000" not in section and "5000" not in section and "5 000" not in section:
        return "the Budget section does not mention 5,000 euros"
    return None


FRUIT = [h("Fruits"), p("These grow in our garden."), h("Vegetables"), p("These too.")]


@task("insert_list", "Insert a bulleted list", FRUIT,
      ['Add a bulleted list of three fruits after the sentence "These grow in our garden."'])
def insert_list(doc: Doc, answer: str) -> Optional[str]:
    reason = c.intact(FRUIT, doc)
    if reason:
        return reason
    items = c.items_after(doc, c.index_of(doc, "These grow"))
    if len(items) != 3:
        return "expected a list of 3 items after the sentence, found %d" % len(items)
    return None


STEPS = [h("Steps"), p("Step 3: Close the lid."), p("Step 1: Open the lid."),
         p("Step 2: Put the bread in.")]


@task("reorder", "Put steps in order", STEPS,
      ["Reorder the steps so they run from Step 1 to Step 3."])
def _reorder(doc: Doc, answer: str) -> Optional[str]:
    found = [b.text for b in doc.blocks if b.text.startswith("Step ")]
    wanted = ["Step 1: Open the lid.", "Step 2: Put the bread in.", "Step 3: Close the lid."]
    if found != wanted:
        return "the steps read %s" % c.short(" / ".join(found), 70)
    return c.first(c.count(doc, 4), c.intact(STEPS[:1], doc))


PRICES = [h("Prices"), p("Apples: 3 euros"), p("Pears: 4 euros"), p("Plums: 2 euros"),
          p("Prices include tax.")]


@task("to_table", "Turn text into a table", PRICES,
      ["Turn the three price lines (Apples, Pears, Plums) into a table with the columns "
       "Fruit and Price, replacing those lines."])
def _to_table(doc: Doc, answer: str) -> Optional[str]:
    reason = c.intact(PRICES, doc, {1, 2, 3})
    if reason:
        return reason
    tables = [b for b in doc.blocks if b.kind == "table"]
    if not tables:
        return "no table was made"
    cells = [c.norm(cell) for row in tables[0].rows for cell in row]
    for fruit, price in (("apples", "3"), ("pears", "4"), ("plums", "2")):
        if not any(fruit in cell for cell in cells) or not any(price in x for x in cells):
            return "the table lacks %s or its price" % fruit.capitalize()
    if any(b.kind != "table" and b.text.startswith("Apples:") for b in doc.blocks):
        return "the price lines were kept beside the table"
    return None


DUP = [h("Notes"), p("Bring a warm coat."), p("Meet at the station."),
       p("Bring a warm coat."), p("Tickets are free.")]


@task("remove_duplicate", "Remove a repeated paragraph", DUP,
      ["One paragraph appears twice. Delete the second copy."])
def _remove_duplicate(doc: Doc, answer: str) -> Optional[str]:
    texts = [b.text for b in doc.blocks]
    if texts.count("Bring a warm coat.") != 1:
        return "\u201cBring a warm coat.\u201d appears %d times" % texts.count("Bring a warm coat.")
    return c.first(c.count(doc, 4), c.intact(DUP, doc, {3}))


PARK = [h("Office news"), p("The kitchen has a new coffee machine."),
        p("The parking lot will be closed on Monday for repairs."),
        p("The printer on floor two is fixed.")]


@task("delete_paragraph", "Delete a paragraph", PARK,
      ["Delete the paragraph about the parking lot."])
def delete_paragraph(doc: Doc, answer: str) -> Optional[str]:
    if c.find(doc, "parking lot"):
        return "the paragraph about the parking lot is still there"
    return c.first(c.intact(PARK, doc, {2}), c.count(doc, 3))


MERGE = [h("Story"), p("The rain started at dawn."), p("It did not stop until noon."),
         p("Then the sun came out.")]


@task("merge_paragraphs", "Join two paragraphs", MERGE,
      ['Join the paragraphs "The rain started at dawn." and "It did not stop until noon." '
       "into one paragraph."])
def merge_paragraphs(doc: Doc, answer: str) -> Optional[str]:
    block = c.find(doc, "rain started")
    if block is None or "stop until noon" not in block.text:
        return "the two sentences are not in one paragraph"
    return c.first(c.count(doc, 3), c.intact(MERGE, doc, {1, 2}))

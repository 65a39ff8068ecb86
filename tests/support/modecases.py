"""Generated documents and edits for the apply modes' property test (fixed seeds).

A case is a small document (plain paragraphs, headings, list items, a table, bold
and italic words, a comment, bookmarks, an earlier tracked change by the user)
and one edit call chosen from what that document holds, both drawn from one
``random.Random(seed)``. ``describe`` prints a case small enough to read when it
fails.
"""

import random
from typing import Any, Dict, List, Tuple

from tests.support.writer import build, find

WORDS = ["recieve", "receive", "teh", "the", "colour", "report", "grew", "fast", "north",
         "south", "sales", "caf\u00e9", "na\u00efve", "\U0001F680", "data", "plan", "a", "an"]
STYLES = ["Standard", "Standard", "Heading 1", "Heading 2", "Text body", "List 1"]
EDITS = ["replace_text", "replace_text", "insert_paragraphs", "replace_paragraphs",
         "delete_paragraphs", "set_paragraph_style", "format_text", "add_comment",
         "insert_table", "replace_selection", "edit", "edit"]
# How the rewrite protocol's edit changes a line (document.revision): words, a heading,
# struck through, a line after it, a note, a word made bold.
LINE_EDITS = ("words", "heading", "struck", "after", "note", "bold")
# How a model changes a word: swap two letters, add one, drop one, another word, two words.
MUTATIONS = ("swap", "add", "drop", "other", "split")


class Case:
    """One generated document and one call on it."""

    def __init__(self, seed: int):
        self.seed = seed
        rng = random.Random(seed)
        self.items = _items(rng)
        self.bold = rng.choice(self._words())
        self.italic = rng.choice(self._words())
        self.noted = rng.choice(self._words())
        self.marked = rng.choice(self._words())
        self.tracked = rng.choice(self._words()) if rng.random() < 0.5 else None
        self.call, self.selection = _call(rng, self)

    def _words(self) -> List[str]:
        out = []
        for item in self.items:
            if item[0] != "table":
                out.extend(w for w in item[1].split() if w.isalpha() and len(w) > 2)
        return out or ["report"]

    def texts(self) -> List[str]:
        return [item[1] for item in self.items if item[0] != "table"]

    def blocks(self) -> int:
        return len(self.items)

    def make(self, office) -> Any:
        """The document, built through the bridge like a user's; undo history empty."""
        doc = build(office, self.items)
        for word, prop, value in ((self.bold, "CharWeight", 150.0),
                                  (self.italic, "CharPosture", _italic())):
            found = find(doc, word)
            if found is not None:
                found.setPropertyValue(prop, value)
        _comment(doc, self.noted)
        _bookmark(doc, "Plain", find(doc, self.marked))
        _bookmark(doc, "_GoBack", doc.getText().getEnd())
        if self.tracked:
            # The user's own earlier suggestion, recorded under the profile's name.
            found = find(doc, self.tracked)
            if found is not None:
                doc.setPropertyValue("RecordChanges", True)
                found.setString(self.tracked.upper())
                doc.setPropertyValue("RecordChanges", False)
        if self.selection:
            found = find(doc, self.selection)
            if found is not None:
                doc.getCurrentController().select(found)
        doc.getUndoManager().clear()
        return doc

    def describe(self) -> str:
        return "seed %d: items=%r bold=%r italic=%r comment=%r mark=%r tracked=%r " \
               "selection=%r call=%r" % (self.seed, self.items, self.bold, self.italic,
                                         self.noted, self.marked, self.tracked,
                                         self.selection, self.call)


def _italic():
    import uno
    return uno.Enum("com.sun.star.awt.FontSlant", "ITALIC")


def _comment(doc, word):
    found = find(doc, word)
    if found is None:
        return
    note = doc.createInstance("com.sun.star.text.textfield.Annotation")
    note.setPropertyValue("Author", "A reader")
    note.setPropertyValue("Content", "About %s?" % word)
    found.getText().insertTextContent(found, note, True)


def _bookmark(doc, name, rng):
    if rng is None:
        return
    mark = doc.createInstance("com.sun.star.text.Bookmark")
    mark.setName(name)
    rng.getText().insertTextContent(rng, mark, True)


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(3, 8))]
    return " ".join(words).capitalize() + "."


def _items(rng: random.Random) -> List[Tuple]:
    items: List[Tuple] = []
    for _ in range(rng.randint(3, 6)):
        style = rng.choice(STYLES)
        items.append((style, _sentence(rng)) if style != "List 1" else
                     (style, _sentence(rng), rng.randint(0, 1)))
    if rng.random() < 0.4:
        items.insert(rng.randint(1, len(items)), ("table", [["Region", "Sales"],
                                                            [rng.choice(WORDS), "12"]]))
    return items


def mutate(rng: random.Random, word: str) -> str:
    how = rng.choice(MUTATIONS)
    if how == "swap" and len(word) > 3:
        i = rng.randint(1, len(word) - 3)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if how == "add":
        return word + "s"
    if how == "drop" and len(word) > 3:
        return word[:-1]
    if how == "split" and len(word) > 3:
        return word[:2] + " " + word[2:]
    return rng.choice([w for w in WORDS if w != word])


def _span(rng: random.Random, case: Case) -> Tuple[int, int]:
    """A range of text paragraphs (tables left out: tracked, Writer cannot delete one)."""
    numbers = [n for n, item in enumerate(case.items, 1) if item[0] != "table"]
    start = rng.choice(numbers)
    end = start
    if rng.random() < 0.4 and start + 1 in numbers:
        end = start + 1
    return start, end


def _lines(rng: random.Random, case: Case) -> str:
    """An edit's text for one of the case's text paragraphs, numbered as the view numbers
    it (its words place it, document.alignment, whatever marks the view shows)."""
    start, _end = _span(rng, case)
    text = case.items[start - 1][1]
    how = rng.choice(LINE_EDITS)
    if how == "words":
        return "%d: %s" % (start, " ".join(mutate(rng, w) if rng.random() < 0.3 else w
                                           for w in text.split()))
    if how == "heading":
        return "%d: ## %s" % (start, text)
    if how == "struck":
        return "%d: ~~%s~~" % (start, text)
    if how == "after":
        return "%d: %s\n%s" % (start, text, _sentence(rng))
    if how == "note":
        return "%d: %s <!-- Check this. -->" % (start, text)
    word = rng.choice([w for w in text.split() if w.isalpha()] or [text.split()[0]])
    return "%d: %s" % (start, text.replace(word, "**%s**" % word, 1))


def _call(rng: random.Random, case: Case) -> Tuple[Tuple[str, Dict[str, Any]], Any]:
    name = rng.choice(EDITS)
    if name == "edit":
        return (name, {"text": _lines(rng, case)}), None
    words = case._words()
    word = rng.choice(words)
    if name == "replace_text":
        text = rng.choice(case.texts())
        parts = text.rstrip(".").split()
        i = rng.randint(0, len(parts) - 1)
        search = " ".join(parts[i:i + rng.randint(1, 2)])
        new = " ".join(mutate(rng, w) for w in search.split())
        return (name, {"search": search, "replacement": new, "all": rng.random() < 0.5}), None
    if name == "insert_paragraphs":
        markdown = rng.choice([_sentence(rng), "## " + _sentence(rng),
                               "- %s\n- %s" % (word, rng.choice(WORDS))])
        return (name, {"markdown": markdown,
                       "after_paragraph": rng.randint(-1, case.blocks())}), None
    if name == "replace_paragraphs":
        start, end = _span(rng, case)
        text = case.items[start - 1][1]
        markdown = rng.choice([" ".join(mutate(rng, w) if rng.random() < 0.3 else w
                                        for w in text.split()),
                               _sentence(rng), "# " + _sentence(rng)])
        return (name, {"start": start, "end": end, "markdown": markdown}), None
    if name == "delete_paragraphs":
        start, end = _span(rng, case)
        return (name, {"start": start, "end": end}), None
    if name == "set_paragraph_style":
        start, end = _span(rng, case)
        return (name, {"start": start, "end": end,
                       "style": rng.choice(["Heading 1", "Heading 3", "Title", "Text body",
                                            "Quotations"])}), None
    if name == "format_text":
        return (name, {"search": word, rng.choice(["bold", "italic", "underline"]):
                       rng.random() < 0.7, "all": rng.random() < 0.5}), None
    if name == "add_comment":
        return (name, {"search": word, "comment": "Check %s." % word}), None
    if name == "insert_table":
        return (name, {"after_paragraph": rng.randint(-1, case.blocks()),
                       "rows": [["Q", "Sales"], [rng.choice(WORDS), "9"]]}), None
    new = " ".join(mutate(rng, w) for w in word.split())
    return ("replace_selection", {"markdown": new}), word

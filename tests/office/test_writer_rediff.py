"""Replacements change only the words that differ: the rest keeps its formatting."""

from tests.support.writer import build, find, one, select, texts, tracked_changes, turn

LINK = "https://example.org/fox"
PHRASE = "quick brown fox jumps over \U0001F680 the dog"


def ok(result):
    assert result["ok"], result["content"]
    return result


def formatted(office):
    """ "The quick brown fox jumps over 🚀 the dog." with italic quick, bold brown, a link
    on fox and a comment anchored on jumps."""
    doc = build(office, [("Standard", "Intro."), ("Standard", "The %s." % PHRASE)])
    find(doc, "quick").setPropertyValue("CharPosture",
                                        __import__("uno").Enum("com.sun.star.awt.FontSlant",
                                                               "ITALIC"))
    find(doc, "brown").setPropertyValue("CharWeight", 150.0)
    find(doc, "fox").setPropertyValue("HyperLinkURL", LINK)
    note = doc.createInstance("com.sun.star.text.textfield.Annotation")
    note.setPropertyValue("Content", "Really?")
    jumps = find(doc, "jumps")
    jumps.getText().insertTextContent(jumps, note, True)
    doc.getUndoManager().clear()
    return doc


def italic(rng):
    return rng.getPropertyValue("CharPosture").value == "ITALIC"


def bold(rng):
    return rng.getPropertyValue("CharWeight") == 150.0


def anchors(doc):
    out = []
    fields = doc.getTextFields().createEnumeration()
    while fields.hasMoreElements():
        field = fields.nextElement()
        if field.supportsService("com.sun.star.text.textfield.Annotation"):
            out.append(field.getAnchor().getString())
    return out


def check_kept(doc):
    assert italic(find(doc, "quick")) and not bold(find(doc, "quick"))
    assert bold(find(doc, "brown")) and not italic(find(doc, "brown"))
    assert find(doc, "fox").getPropertyValue("HyperLinkURL") == LINK
    assert anchors(doc) == ["jumps"]


NEW = "so quick, brown red fox jumps high over \U0001F680 all the dog"


def test_replace_text_keeps_each_words_format_and_new_words_take_neighbours(office):
    doc = formatted(office)
    try:
        ok(one(office, doc, "replace_text", search=PHRASE, replacement=NEW))
        assert texts(doc)[1] == "The %s." % NEW
        check_kept(doc)
        for word in ("so", "red", "high", "all"):
            rng = find(doc, word)
            assert not bold(rng) and not italic(rng), word
            assert rng.getPropertyValue("HyperLinkURL") == "", word
        # A changed word inside the link keeps the link on its new letters.
        ok(one(office, doc, "replace_text", search="red fox", replacement="red foxes"))
        assert find(doc, "foxes").getPropertyValue("HyperLinkURL") == LINK
    finally:
        office.close(doc)


def test_replace_all_with_a_partial_change_and_one_undo_step(office):
    doc = build(office, [("Standard", "A step, a bold step."), ("Standard", "Last step")])
    find(doc, "bold").setPropertyValue("CharWeight", 150.0)
    doc.getUndoManager().clear()
    try:
        result = ok(one(office, doc, "replace_text", search="bold step",
                        replacement="bold steps", all=True))
        assert result["data"]["replaced"] == 1
        ok(one(office, doc, "replace_text", search="step", replacement="stage", all=True))
        assert texts(doc) == ["A stage, a bold stages.", "Last stage"]
        assert bold(find(doc, "bold")) and not bold(find(doc, "stages"))
        ok(one(office, doc, "replace_text", search="STAGE", replacement="stair",
               all=True, match_case=False))
        assert texts(doc) == ["A stair, a bold stairs.", "Last stair"]
        assert doc.getUndoManager().getCurrentUndoActionTitle() == "Marginalia: test turn"
        doc.getUndoManager().undo()
        assert texts(doc) == ["A stage, a bold stages.", "Last stage"]
    finally:
        office.close(doc)


def test_tracked_changes_show_only_the_changed_words(office):
    doc = formatted(office)
    try:
        ok(turn(office, doc, ("replace_text", {"search": PHRASE, "replacement": NEW}),
                track_changes=True)[0])
        changed = {"Insert": "", "Delete": ""}
        for red in tracked_changes(doc):
            changed[red["type"]] += red["text"]
        assert changed == {"Insert": "so ,red high all ", "Delete": ""}
        check_kept(doc)
    finally:
        office.close(doc)


def test_replace_paragraphs_and_selection_with_plain_text_keep_formatting(office, doc):
    ok(one(office, doc, "replace_paragraphs", start=2, end=2, expect="Sales grew",
           markdown="Sales grew strongly in every region this year."))
    assert texts(doc)[1] == "Sales grew strongly in every region this year."
    assert bold(find(doc, "grew")) and not bold(find(doc, "strongly"))
    ok(one(office, doc, "replace_paragraphs", start=1, end=1, markdown="# Annual review"))
    assert texts(doc)[0] == "Annual review"
    select(doc, "grew strongly in every")
    ok(one(office, doc, "replace_selection", markdown="grew strongly in each"))
    assert texts(doc)[1] == "Sales grew strongly in each region this year."
    assert bold(find(doc, "grew")) and not bold(find(doc, "each"))


def test_replace_all_of_one_text_in_narrow_passes_keeps_formatting(office):
    doc = build(office, [("Standard", "Buy a.b (c) now, a.b (c) later."),
                         ("Standard", "Then a.b (c) \U0001F680 again.")])
    for i, rng in enumerate(_all(doc, "a.b")):
        rng.setPropertyValue("CharWeight", 150.0 if i % 2 == 0 else 100.0)
    doc.getUndoManager().clear()
    try:
        result = ok(one(office, doc, "replace_text", search="a.b (c)",
                        replacement="so a.b & $1 (c)", all=True))
        assert result["data"]["replaced"] == 3
        assert texts(doc) == ["Buy so a.b & $1 (c) now, so a.b & $1 (c) later.",
                              "Then so a.b & $1 (c) \U0001F680 again."]
        assert [bold(r) for r in _all(doc, "a.b")] == [True, False, True]
        assert not any(bold(r) for r in _all(doc, "& $1"))
    finally:
        office.close(doc)


def _all(doc, text):
    sd = doc.createSearchDescriptor()
    sd.setSearchString(text)
    found = doc.findAll(sd)
    return [found.getByIndex(i) for i in range(found.getCount())]

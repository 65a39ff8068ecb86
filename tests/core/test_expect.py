"""document.expect: the expect check's comparison and the sentences the model reads."""

from marginalia.document.expect import begins, fold, mismatch, moved, where


def test_fold_ignores_case_spacing_and_punctuation():
    assert fold("  The \u201cQuick\u201d -- brown, fox! ") == "thequickbrownfox"


def test_begins_with_any_shown_form():
    assert begins("the quick", ["The Quick brown fox."])
    assert begins("2. Second step", ["Second step", "2.Second step"])
    assert not begins("second", ["First step"])
    assert begins("", [""]) and not begins("...", ["text"])


def test_where_prefers_paragraphs_beginning_with_it():
    paras = [(1, "Intro"), (2, "Old conclusion here"), (3, "See the old conclusion")]
    assert where("old conclusion", paras) == ([2], False)
    assert where("see the", paras) == ([3], False)
    assert where("conclusion here", paras) == ([2], True)
    assert where("nothing like it", paras) == ([], False)


def test_mismatch_says_what_is_there_and_where_the_text_went():
    said = mismatch(7, "A line the user typed", [9], "The conclusion")
    assert said.startswith("Paragraph 7 does not begin with \u201cThe conclusion\u201d; it now "
                           "reads \u201cA line the user typed\u201d.")
    assert "Paragraph 9 begins with it now." in said and "Nothing was changed" in said
    nowhere = mismatch(2, "Plan for the spring term", [], "Heading 2")
    assert "no longer in the document" in nowhere and "Nothing was changed" in nowhere
    # A way on the model can take by copying: the paragraph's first words as they are.
    assert 'call again with expect="Plan for the spring term"' in nowhere
    assert "Paragraphs 3, 5 contain it now." in mismatch(2, "x", [3, 5], "y", containing=True)


def test_moved_in_one_line():
    assert moved(3, 5) == "Paragraphs 3 and after are now 5 and after."
    assert moved(8, 8) == "Paragraphs 8 and after keep their numbers."
    assert moved(None, None) == "No paragraphs follow, so no other numbers changed."

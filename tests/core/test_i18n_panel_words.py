"""The panel side's words (issue 26, batch B) follow the catalog: the change card, the
first-run card, the Options page's sentences and the screen reader's announcement."""

import pytest

from marginalia.config import Settings
from marginalia.document import change_log as cl
from marginalia.i18n import catalog
from marginalia.i18n.catalog import tr
from marginalia.i18n.pseudo import pseudo
from marginalia.ui import change_list, first_run, options_form, spoken


@pytest.fixture
def pseudo_locale():
    assert catalog.install(catalog.PSEUDO, "/nonexistent") == catalog.PSEUDO
    yield
    catalog.install("en", "/nonexistent")


def _change(n, state=cl.MADE):
    change = cl.make(n, 7, "replace_text", cl.TRACKED,
                     {"search": "old words", "replacement": "new words"})
    change.state = state
    change.paragraphs = [n, n]
    return change


def test_the_change_card_speaks_the_users_language(pseudo_locale):
    changes = [_change(1, cl.PENDING), _change(2, cl.ACCEPTED), _change(3, cl.PENDING)]
    assert change_list.headline(changes) == " \u00b7 ".join(
        (pseudo("%d changes") % 3, pseudo("%d accepted") % 1, pseudo("%d open") % 2))
    row = change_list.rows(changes)[1]
    assert row.endswith(" \u00b7 \u00b62 %s \u00b7 %s" % (pseudo("replace"), pseudo("accepted")))
    assert change_list.restored_sentence("Fix it", 2, number=3) == pseudo(
        "Restored to before message %(number)d (\u201c%(text)s\u201d): %(turns)s taken "
        "back; Redo brings them back.") % {"number": 3, "text": "Fix it",
                                           "turns": pseudo("%d turns") % 2}
    assert tr(change_list.BUTTONS[0][1]) == pseudo("Review")
    # the records keep their English words (the ledger, the tools' results)
    assert changes[1].state == "accepted" and changes[1].kind == "replace"


def test_the_first_run_card_and_the_options_page_speak_it(pseudo_locale):
    probe = first_run.Probe(first_run.MODELS, models=["a", "b"])
    assert first_run.card_text(Settings(model=""), probe) == pseudo(
        "The server offers %d models: choose one under Model, then press Test.") % 2
    assert first_run.status_hint(Settings(model="")) == pseudo(first_run.NEEDS_MODEL)
    assert options_form.window_note(None) == pseudo("Context window: not reported")
    assert options_form.connection_sentence(Settings(endpoint="http://h/v1", model="m"),
                                            ["m"]) == pseudo(
        'Connected to %(where)s; the model "%(model)s" is available.') % {
            "where": "http://h/v1", "model": "m"}
    with pytest.raises(ValueError) as refused:
        options_form.parse_rounds("0")
    assert str(refused.value) == pseudo("Most tool steps per answer must be a whole number "
                                        "from 1 to 100.")
    assert spoken.announcement("Yes.") == pseudo("Answered: %s") % "Yes."


def test_english_reads_as_before():
    assert change_list.headline([_change(1), _change(2)]) == "2 changes"
    assert options_form.window_note(131072) == "Context window detected: 131,072"
    assert spoken.announcement("Yes.") == "Answered: Yes."


def test_a_comment_only_proposal_reads_as_text_in_the_users_language(pseudo_locale):
    """A proposal is a comment the user reads in the document: markdown's signs would read
    as noise there ("Insert after this: **Summary:** …"), and its frame is the user's."""
    proposal = cl.proposal("insert_paragraphs", {
        "after_paragraph": 2, "markdown": "## Summary\n\n**Costs** rose *twice*.\n\n"
                                          "- first\n  - nested\n1. one\n2. two"})
    assert proposal == pseudo("Insert after this: %s") % (
        "Summary\nCosts rose twice.\n\u2022 first\n  \u2022 nested\n1. one\n2. two")
    assert cl.proposal("replace_paragraphs", {"start": 1, "end": 1,
                                              "markdown": "| a | b |\n|---|---|\n| 1 | 2 |"}) \
        == pseudo("Replace with: %s") % "a | b\n1 | 2"
    assert cl.proposal("delete_paragraphs", {"start": 1, "end": 1}) == pseudo("Delete this.")
    # the record's own new text keeps the markdown: the review row and the ledger read it
    assert cl.after_text("insert_paragraphs", {"markdown": "**Costs** rose."}) == \
        "**Costs** rose."


def test_a_format_or_table_proposal_names_its_attributes_in_the_users_language(pseudo_locale):
    """The frame was translated, the attributes it listed were English ("bold, not
    italic"): a German reader saw "Formatieren: bold, not italic."."""
    said = cl.proposal("format_text", {"search": "x", "bold": True, "italic": False,
                                       "color": "#ff0000"})
    assert said == pseudo("Format: %s.") % ", ".join(
        (pseudo("bold"), pseudo("not italic"), pseudo("text color %s") % "#ff0000"))
    table = cl.proposal("insert_table", {"after_paragraph": 1, "rows": [["a", "b"], ["1", "2"]]})
    assert pseudo("table %(rows)d\u00d7%(columns)d: %(cells)s") % {
        "rows": 2, "columns": 2, "cells": "a | b"} in table
    # The review row's words for the same change (its "after"): the same words.
    assert cl.after_text("format_text", {"search": "x", "underline": True}) == pseudo(
        "underlined")

"""The corpus tasks' checkers (eval/tasks_corpus.py) on originals made by hand the way the
office reads those Word documents: styles, bookmarks on headings, links and comments kept
count as much as the edit asked for. And where the runner finds the corpus, and what a
task says when it is not there."""

import copy
import os

import pytest

from marginalia.cli import eval as cli_eval
from marginalia.cli import headless
from marginalia.eval import catalog, tasks_corpus
from marginalia.eval.odf import Block, Comment, Doc
from tests.support.evaldocs import TASKS, fails, passes, registered_by

FP, TB = "First Paragraph", "Text body"


def para(text, style=TB, links=(), bookmarks=()):
    return Block("paragraph", text, style, links=list(links), bookmarks=list(bookmarks))


def head(text, level, bookmark):
    return Block("heading", text, "Heading %d" % level, level, bookmarks=[bookmark])


ORIGINALS = {
    "corpus_heading": Doc([
        head("A Test of Headers", 1, "a-test-of-headers"), head("Second Level", 2, "second-level"),
        para("Some plain text.", FP), head("Sixth level", 6, "sixth-level"),
        para("Some more plain text.", FP), para("Seventh level"),
        para("Since no Heading 7 style exists in styles.xml, this gets converted to Span.")]),
    "corpus_comment": Doc(
        [para("I want some text to have a comment on it.", FP), para("This is a new paragraph."),
         para("And so is this."), para("One more. And this is one with a comment in a comment.")],
        [Comment("I left a comment.", 0), Comment("A comment across paragraphs.", 1),
         Comment("Do something.", 3), Comment("Do something else.", 3)]),
    "corpus_link_text": Doc([
        head("An internal link and an external link", 2, "an-internal-link"),
        para("An external link to a popular website.", FP,
             [("external link", "http://example.com/")]),
        para("An internal link to a bookmark.", links=[("internal link", "#my_bookmark")]),
        para("A bookmark right here", FP, bookmarks=["my_bookmark"])]),
    "corpus_add_paragraph": Doc([
        head("Some block quotes, in different ways", 2, "some-block-quotes"),
        para("And this is the way that most people do it:", FP),
        para("I just indented this, so it looks like a block quote.", "Block Text"),
        para("And back to the normal style.", FP)]),
    "corpus_fix_word": Doc([
        head("Short instructions", 1, "short-instructions"),
        para("Open remote folder", FP, [("Open remote folder", "#X49da2d")]),
        para("Do staff"), para("Close remote folder", links=[("Close remote folder", "#Xb95b")]),
        head("Remote folder opening", 2, "X49da2d")]),
}


def changed(name, edit):
    """A copy of the task's original with ``edit(doc)`` applied."""
    doc = copy.deepcopy(ORIGINALS[name])
    edit(doc)
    return doc


def _set(index, **values):
    def edit(doc):
        for key, value in values.items():
            setattr(doc.blocks[index], key, value)
    return edit


def _insert(index, block):
    return lambda doc: doc.blocks.insert(index, block)


def _note(index, text="Could you say more here?"):
    return lambda doc: doc.comments.append(Comment(text, index))


def _both(*edits):
    def edit(doc):
        for one in edits:
            one(doc)
    return edit


AS_HEADING = _set(5, kind="heading", style="Heading 6", level=6)
WELL_KNOWN = _set(1, text="An external link to a well-known website.")
BY_HAND = para(tasks_corpus.BY_HAND)

RIGHT = {
    "corpus_heading": AS_HEADING,
    "corpus_comment": _note(2),
    "corpus_link_text": WELL_KNOWN,
    "corpus_add_paragraph": _insert(3, BY_HAND),
    "corpus_fix_word": _set(2, text="Do stuff"),
}

WRONG = [
    ("corpus_heading", _set(5, kind="heading", style="Heading 5", level=5), "not a Heading 6"),
    ("corpus_heading", _both(AS_HEADING, _set(6, style="Heading 6")),
     "harmed: paragraph 7 \u201cSince no Heading 7"),
    ("corpus_heading", _both(AS_HEADING, _set(3, bookmarks=[])),
     "lost its bookmark \u201csixth-level\u201d"),
    ("corpus_comment", _both(_note(2), lambda doc: doc.comments.pop(0)),
     "the comment \u201cI left a comment.\u201d was lost"),
    ("corpus_comment", _note(1), "no new comment on the paragraph"),
    ("corpus_comment", _both(_note(2), _note(3)), "another paragraph too"),
    ("corpus_comment", _both(_note(2), _set(2, text="And so is this one.")), "harmed"),
    ("corpus_link_text", _both(WELL_KNOWN, _set(1, links=[])),
     "lost or changed its link \u201cexternal link\u201d"),
    ("corpus_link_text", _both(WELL_KNOWN, _set(2, links=[])), "lost or changed a link"),
    ("corpus_link_text", _set(1, text="An external link to a well-known site."),
     "the sentence reads"),
    ("corpus_add_paragraph", _insert(4, BY_HAND), "the paragraph after the quote reads"),
    ("corpus_add_paragraph", _both(_insert(3, BY_HAND), _set(2, style=FP)),
     "changed style from \u201cBlock Text\u201d"),
    ("corpus_fix_word", _set(2, text="Do the stuff"),
     "the step reads \u201cDo the stuff\u201d, not"),
    ("corpus_fix_word", _both(_set(2, text="Do stuff"), _set(4, bookmarks=[])),
     "lost its bookmark"),
    ("corpus_fix_word", _set(2, text="Do stuff", style=FP), "the step changed style"),
]


def test_every_corpus_task_has_a_right_result_and_names_a_word_document():
    assert set(RIGHT) == registered_by(tasks_corpus)
    assert all(TASKS[n].file.endswith(".docx") and not TASKS[n].source for n in RIGHT)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_right_result_passes(name):
    passes(name, changed(name, RIGHT[name]), original=ORIGINALS[name])


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_untouched_document_fails(name):
    fails(name, copy.deepcopy(ORIGINALS[name]), "", original=ORIGINALS[name])


@pytest.mark.parametrize("name,edit,words", WRONG)
def test_wrong_result_fails_with_its_reason(name, edit, words):
    fails(name, changed(name, edit), words, original=ORIGINALS[name])


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_another_file_fails_with_that_reason_not_by_chance(name):
    other = Doc([para("Something else entirely.")])
    fails(name, other, "the corpus document has no paragraph", original=other)


def test_a_file_task_is_not_judged_without_its_original():
    with pytest.raises(ValueError):
        TASKS["corpus_heading"].judge(ORIGINALS["corpus_heading"], "Done.")


def test_the_corpus_folder_is_the_environments_else_beside_the_repository(tmp_path,
                                                                          monkeypatch):
    beside = os.path.join(os.path.dirname(headless.ROOT), "shared", "corpus")
    assert cli_eval.corpus_folder({}) == beside == cli_eval.CORPUS
    assert cli_eval.corpus_folder({"MARGINALIA_CORPUS": "/c"}) == "/c"
    oxt = tmp_path / "m.oxt"
    oxt.write_bytes(b"PK")
    monkeypatch.setenv("MARGINALIA_CORPUS", "/elsewhere")
    args = cli_eval.parse_args(["--endpoint", "http://h/v1", "--model", "m", "--oxt", str(oxt)])
    assert args.corpus == "/elsewhere"


def test_a_corpus_task_without_its_folder_or_file_fails_with_that_reason(tmp_path):
    task = catalog.by_name()["corpus_heading"]
    missing = str(tmp_path / "nowhere")
    # The document is looked for before the office is asked for anything (no office here).
    outcome = cli_eval.run_task(None, task, {}, str(tmp_path), corpus=missing)
    assert not outcome.passed and outcome.name == "corpus_heading"
    assert outcome.reason == ("the corpus folder %s is missing (set MARGINALIA_CORPUS to "
                              "where it is)" % missing)
    outcome = cli_eval.run_task(None, task, {}, str(tmp_path), corpus=str(tmp_path))
    assert outcome.reason == "the corpus file golden_headers.docx is missing from %s" % tmp_path

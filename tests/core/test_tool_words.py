"""The panel's tool lines: the tool's own phrase in the user's words, never the model's
instructions; the registry's and the argument checks' refusals as phrases too; the rare
refusal without one read from the writer's English."""

import pytest

from marginalia import events as ev
from marginalia.chat.tools import ToolRegistry
from marginalia.document import tool_lines
from marginalia.document.expect import mismatch
from marginalia.document.tool_specs import spec
from marginalia.errors import ToolError
from marginalia.i18n import catalog
from marginalia.i18n.phrase import Phrase, phrase, phrase_n
from marginalia.i18n.pseudo import pseudo
from marginalia.ui.tool_words import in_user_words, refusal, tool_line
from marginalia.writer.args import block_range

# Words that address the model: advice, tool names, "the user" in the third person.
MODEL_WORDS = ("ask the user", "the user", "Leave ", "leave ", "read it again", "Read the",
               "retry", "try again", "_", "expect=", "call ", "Give ")
# The model's sentence a refusal comes with: the panel never shows it when there is a phrase.
FOR_THE_MODEL = "Paragraph 3 is marked; leave it, or ask the user. Nothing was changed."


@pytest.mark.parametrize("said,shown", [
    (tool_lines.kept_out(tool_lines.place(3)),
     "Left paragraph 3 alone: you keep Marginalia out of it \u2014 nothing changed"),
    (tool_lines.kept_out(tool_lines.place(2, 4)),
     "Left paragraphs 2\u20134 alone: you keep Marginalia out of it \u2014 nothing changed"),
    (tool_lines.kept_out(tool_lines.place(None)),
     "Left a marked passage alone: you keep Marginalia out of it \u2014 nothing changed"),
    (tool_lines.in_tracked(tool_lines.place(4)),
     "Left paragraph 4 alone: it holds a tracked change not yet accepted or rejected"
     " \u2014 nothing changed"),
    (tool_lines.in_tracked(None),
     "Left that text alone: it holds a tracked change not yet accepted or rejected"
     " \u2014 nothing changed"),
    (tool_lines.unsure(),
     "Couldn't tell which part of the document the edit would change \u2014 nothing changed"),
    (tool_lines.changed(spec("replace_paragraphs").words.action),
     "Couldn't rewrite the paragraphs: the document changed since the model read it"
     " \u2014 nothing changed"),
    (tool_lines.not_found("Costs rose"),
     "Couldn't find \u201cCosts rose\u201d \u2014 nothing changed"),
])
def test_a_refusals_phrase_is_its_line(said, shown):
    line = tool_line("replace_text", False, "replace_text failed: " + FOR_THE_MODEL, said)
    assert line == shown
    assert not any(word in line for word in MODEL_WORDS), line
    # The same line from a kept chat: the event's JSON form read back.
    event = ev.Entry.from_dict(ev.Entry.event(ev.Event(
        ev.TOOL_RESULT, name="replace_text", ok=False, summary="x", phrase=said.to_dict())
    ).to_dict()).payload
    assert tool_line(event.name, event.ok, event.summary, event.phrase) == shown
    # Where a refusal is one sentence (a quick action, the card's Apply): the same words.
    assert refusal(FOR_THE_MODEL, said) == in_user_words(FOR_THE_MODEL, said) == shown + "."


def _rewrite(start, end=None, expect=None):
    """A stand-in for replace_paragraphs that refuses as the real one's checks do."""
    if expect is not None:
        raise ToolError(mismatch(3, "Now it reads", [], expect),
                        tool_lines.no_longer_reads(tool_lines.place(3)))
    if start == "boom":
        raise RuntimeError("a bug inside the tool")
    if start == "changed":
        raise ToolError("The document changed.",
                        tool_lines.changed(spec("insert_paragraphs").words.action))
    block_range(start, end, 3)


REWRITE = "Couldn't rewrite the paragraphs"


@pytest.mark.parametrize("name,arguments,shown,for_the_model", [
    ("replace_paragraphs", {"start": 9, "end": 9},
     REWRITE + ": the model's request did not fit \u2014 nothing changed", "out of range"),
    ("replace_paragraphs", {"start": 1, "end": 1, "expect": "Old words"},
     REWRITE + ": paragraph 3 no longer reads as the model expected \u2014 nothing changed",
     "does not begin with"),
    ("replace_paragraphs", {"end": 1},
     REWRITE + ": the model's request was incomplete \u2014 nothing changed", "bad arguments"),
    ("replace_paragraphs", '{"start": 1, ',
     REWRITE + ": the model's request did not fit \u2014 nothing changed", "not valid JSON"),
    ("replace_paragraphs", {"start": "boom"}, REWRITE, "fault inside Marginalia"),
    # A refusal that names its own action keeps it.
    ("replace_paragraphs", {"start": "changed"},
     "Couldn't add the paragraphs: the document changed since the model read it \u2014 "
     "nothing changed",
     "The document changed."),
    ("rewrite_everything", {}, "The model asked for something Marginalia cannot do",
     "no tool named"),
])
def test_a_refused_call_reads_in_the_users_words_whichever_check_refused(
        name, arguments, shown, for_the_model):
    registry = ToolRegistry()
    registry.register("replace_paragraphs", "", {}, _rewrite, edits=True,
                      action=spec("replace_paragraphs").words.action)
    result = registry.call(name, arguments)
    assert not result.ok and for_the_model in result.content
    line = tool_line(name, result.ok, result.summary, result.phrase)
    assert line == shown
    assert not any(word in line for word in MODEL_WORDS), line
    # As a kept chat holds it, and read in another language: the same phrase, translated.
    assert tool_line(name, False, result.summary, result.phrase.to_dict()) == shown
    assert catalog.install(catalog.PSEUDO, "/nonexistent") == catalog.PSEUDO
    try:
        assert tool_line(name, False, result.summary, result.phrase) == \
            result.phrase.words() != shown
    finally:
        catalog.install("en", "/nonexistent")


@pytest.mark.parametrize("name,reason,shown", [
    ("replace_text", "Writer could not change the text here; nothing was changed.",
     "Couldn't change the text: Writer could not change the text here \u2014 nothing changed"),
    ("replace_selection", "Nothing is selected. Ask the user to select text, or use "
     "replace_text or replace_paragraphs.", "Couldn't replace the selection: nothing is selected"),
    # A chat kept before refusals had phrases: its lines lose no more than the model's words.
    ("replace_text", "replace_text cancelled", "Couldn't change the text"),
])
def test_a_refusal_without_a_phrase_is_read_for_the_user(name, reason, shown):
    line = tool_line(name, False, "%s failed: %s" % (name, reason))
    assert line == shown
    assert not any(word in line for word in MODEL_WORDS), line


@pytest.mark.parametrize("said,english", [
    (phrase_n("Replaced %(n)d occurrence of \u201c%(what)s\u201d",
              "Replaced %(n)d occurrences of \u201c%(what)s\u201d", 1, what="Costs"),
     "Replaced 1 occurrence of \u201cCosts\u201d"),
    (phrase_n("Replaced %(n)d occurrence of \u201c%(what)s\u201d",
              "Replaced %(n)d occurrences of \u201c%(what)s\u201d", 3, what="Costs"),
     "Replaced 3 occurrences of \u201cCosts\u201d"),
    (phrase_n("Inserted %(n)d paragraph %(where)s", "Inserted %(n)d paragraphs %(where)s", 2,
              where=phrase("after paragraph %(n)d", n=4)),
     "Inserted 2 paragraphs after paragraph 4"),
    (tool_lines.read_line(1, 5, 9), "Read paragraphs 1\u20135 of 9"),
])
def test_a_done_line_is_the_tools_phrase(said, english):
    assert str(said) == english
    assert tool_line("replace_text", True, english, said) == english
    assert tool_line("replace_text", True, english, said.to_dict()) == english
    assert Phrase.from_dict(said.to_dict()) == said


@pytest.fixture
def pseudo_locale():
    assert catalog.install(catalog.PSEUDO, "/nonexistent") == catalog.PSEUDO
    yield
    catalog.install("en", "/nonexistent")


def test_the_line_is_in_the_users_language_and_the_documents_words_are_not(pseudo_locale):
    said = phrase_n("Inserted %(n)d paragraph %(where)s", "Inserted %(n)d paragraphs %(where)s",
                    2, where=phrase("after paragraph %(n)d", n=4))
    line = tool_line("insert_paragraphs", True, str(said), said.to_dict())
    assert line == pseudo("Inserted %(n)d paragraphs %(where)s") % {
        "n": 2, "where": pseudo("after paragraph %(n)d") % {"n": 4}}
    quoted = tool_line("replace_text", False, "x", tool_lines.not_found("Kosten"))
    assert "\u201cKosten\u201d" in quoted and quoted != str(tool_lines.not_found("Kosten"))


def test_a_translation_that_drops_a_filler_falls_back_to_english(monkeypatch):
    from marginalia.i18n import phrase as phrase_module
    monkeypatch.setattr(phrase_module, "tr", lambda text: "Ersetzt %(wrong)s")
    said = phrase("Commented on \u201c%(what)s\u201d", what="Costs")
    assert said.words() == "Commented on \u201cCosts\u201d"


def test_a_kept_phrase_that_is_not_one_reads_the_summary():
    assert tool_line("read_document", True, "Read paragraphs 1\u20132 of 2",
                     {"nope": 1}) == "Read paragraphs 1\u20132 of 2"


def test_the_change_card_leaves_its_own_sentences():
    own = "That change is no longer in the document."
    assert in_user_words(own) == own

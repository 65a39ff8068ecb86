"""The wrapped strings (issue 26): what the user reads follows the catalog, what the model
reads stays English; the cli reads the terminal's language from the repo's .po files."""

import io
import sys

import pytest

from marginalia.chat import check, server_errors, window_errors
from marginalia.chat.endpoint import Endpoint
from marginalia.chat.prompt import system_prompt
from marginalia.chat.tools import ToolRegistry
from marginalia.cli import headless, terminal_language
from marginalia.config import Settings
from marginalia.document import tool_lines
from marginalia.errors import UNEXPECTED, ToolError, user_sentence
from marginalia.i18n import catalog, po
from marginalia.i18n.catalog import N_, tr
from marginalia.i18n.pseudo import pseudo
from marginalia import policy, prompt_library as prompts
from marginalia.ui import chat_export, history_menu, quick_menu, sources_menu, tool_words

GERMAN = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Shorten"
msgstr "K\u00fcrzen"

msgid "Give --message or --prompt."
msgstr "Gib --message oder --prompt an."

msgid "%(line)s + %(count)d source"
msgid_plural "%(line)s + %(count)d sources"
msgstr[0] "%(line)s + %(count)d Quelle"
msgstr[1] "%(line)s + %(count)d Quellen"
'''


@pytest.fixture
def english_after():
    yield
    catalog.install("en", "/nonexistent")


@pytest.fixture
def pseudo_locale(english_after):
    assert catalog.install(catalog.PSEUDO, "/nonexistent") == catalog.PSEUDO


def _is_pseudo(text, english):
    return text == pseudo(english)


# ---------------------------------------------------------------- the pseudo-locale
def test_user_sentences_follow_the_catalog(pseudo_locale):
    # errors: the sentence a user sees for any failure
    assert _is_pseudo(user_sentence(RuntimeError("x")), UNEXPECTED)
    # a server's refusal (chat.server_errors)
    refused = server_errors.status_error(401, {}, b"", Settings(model="m"),
                                         Endpoint("http://localhost:1/v1"))
    assert _is_pseudo(str(refused), "The server rejected the API key (401); check the key "
                                    "in the options.")
    # a notice chat.loop formats itself: translated when formatted
    assert tr(window_errors.SHRUNK) % "4,096" == pseudo(
        "The server's context window is %s tokens; older parts of the chat were shortened "
        "to fit.") % "4,096"
    # built-in prompts: names and instructions, placeholders kept
    library = {p.pid: p for p in prompts.merge([])}
    assert _is_pseudo(library["shorten"].name, "Shorten")
    assert "{argument}" in library["translate"].instruction
    assert library["translate"].instruction.startswith("[")
    # the context submenu and Translate to's languages
    entries = quick_menu.menu_entries(library.values(), True)
    labels = [e.label for e in entries]
    assert pseudo("Shorten") in labels and pseudo("Ask Marginalia\u2026") in labels
    translate = next(e for e in entries if e.label == pseudo("Translate to"))
    german = next(c for c in translate.children if c.label == pseudo("German"))
    assert "arg=German&" in german.url           # the data stays English
    # a tool line, the History menu, Export chat's headings
    line = tool_words.tool_line("no_tool", False, "no_tool failed: bad arguments",
                                tool_lines.incomplete_request())
    assert line == pseudo("Couldn't %(action)s: the model's request was incomplete \u2014 "
                          "nothing changed") % {"action": pseudo("do that")}
    items = history_menu.menu_items([], None, True)
    assert items[0].label == pseudo("No kept chats for this document yet")
    markdown = chat_export.to_markdown([("user", "Hi")], "Report.odt", when=0)
    assert "# " + pseudo("Chat about %s") % "Report.odt" in markdown
    assert "## " + pseudo("You") in markdown
    assert sources_menu.scope("Whole document", 2) == pseudo(
        "%(line)s + %(count)d sources") % {"line": "Whole document", "count": 2}
    assert policy.test_refusal(policy.Policy(allow_test_connection=False), "") == pseudo(
        policy.TEST_OFF)


def test_what_the_model_reads_stays_english(pseudo_locale):
    system = system_prompt(Settings(), "Document: Report\nSize: 40 paragraphs.")
    assert "\u00b7]" not in system and "You are" in system
    # a tool's refusal goes back to the model in English; its line for the user is not
    def refuse(text):
        raise ToolError("That passage is marked \u201cKeep Marginalia out\u201d; leave it.",
                        tool_lines.kept_out(tool_lines.place(None)))
    registry = ToolRegistry()
    registry.register("edit", "Edits.", {"type": "object", "properties": {
        "text": {"type": "string"}}, "required": ["text"]}, refuse)
    result = registry.call("edit", {"text": "x"})
    assert result.content == ("Error: That passage is marked \u201cKeep Marginalia out\u201d; "
                              "leave it.")
    assert tool_words.tool_line("edit", False, result.summary, result.phrase) == pseudo(
        "Left %(where)s alone: you keep Marginalia out of it \u2014 nothing changed") % {
            "where": pseudo("a marked passage")}
    # the frame a quick action puts around the (translated) instruction, Test connection's
    # request, the note the model gets under a selection-only policy, the agents' titles
    library = {p.pid: p for p in prompts.merge([])}
    message = quick_menu.action_message(library["shorten"], "", "Some text.")
    assert message.startswith(pseudo(prompts.BUILTINS[2].instruction))
    assert quick_menu.ONLY_TEXT in message and "The selected text:" in message
    assert check.PROMPT.startswith("This is a connection test.")
    assert policy.SELECTION_NOTE.startswith("Your administrator allows")
    assert policy.document_titles(policy.Policy(selection_only=True), ["a"]) == ["Document 1"]
    # the constants stay English (the MCP server sends UNEXPECTED to the agent as it is)
    assert UNEXPECTED.startswith("Something went wrong") and window_errors.SHRUNK[0] == "T"


def test_the_formatted_sentences_translate_before_formatting(pseudo_locale):
    assert tr(history_menu.EXPORTED) % "a.md" == pseudo("Chat exported to %s.") % "a.md"
    assert sources_menu.added("a.md", 3) == pseudo(
        "%(name)s is a source of this chat now (%(count)d passages); the model can search "
        "and cite it.") % {"name": "a.md", "count": 3}


def test_english_is_unchanged(english_after):
    catalog.install("en", "/nonexistent")
    assert tr(quick_menu.TRANSLATE_TO) == "Translate to"
    assert [p.name for p in prompts.merge([])] == [p.name for p in prompts.BUILTINS]
    assert quick_menu.instruction(prompts.builtins()[6], "de") == \
        "Translate this text into German."


# ---------------------------------------------------------------- .po and the terminal
def test_install_reads_a_po_file_compiled_in_memory(tmp_path, english_after):
    (tmp_path / "de.po").write_text(GERMAN, encoding="utf-8")
    assert catalog.find("de-AT", str(tmp_path)) == str(tmp_path / "de.po")
    assert catalog.install("de-AT", str(tmp_path)) == "de"
    assert tr("Shorten") == "K\u00fcrzen"
    assert prompts.builtins()[2].name == "K\u00fcrzen"
    assert sources_menu.scope("Alles", 1) == "Alles + 1 Quelle"
    assert sources_menu.scope("Alles", 3) == "Alles + 3 Quellen"
    # A compiled catalog beside it wins (the installed extension has only .mo files).
    entries = po.parse(GERMAN.replace("K\u00fcrzen", "Kurz"))
    (tmp_path / "de.mo").write_bytes(po.to_mo(entries))
    catalog.install("de", str(tmp_path))
    assert tr("Shorten") == "Kurz"


def test_a_broken_po_file_leaves_english(tmp_path, english_after):
    (tmp_path / "fr.po").write_text('msgid "x"\nnonsense\n', encoding="utf-8")
    assert catalog.install("fr", str(tmp_path)) == "en"
    assert tr("Shorten") == "Shorten"


@pytest.mark.parametrize("environ, wanted", [
    ({"LANGUAGE": "de_AT:fr", "LANG": "en_US.UTF-8"}, ["de-AT", "fr"]),
    ({"LC_ALL": "pt_BR.UTF-8", "LANG": "de_DE.UTF-8"}, ["pt-BR"]),
    ({"LC_MESSAGES": "sr_RS@latin", "LANG": "C"}, ["sr-RS"]),
    ({"LANG": "ja_JP.UTF-8"}, ["ja-JP"]),
    ({"LANG": "C.UTF-8"}, []),
    ({"LANGUAGE": "", "LC_ALL": "POSIX"}, []),
    ({}, []),
])
def test_the_terminals_language_is_read_as_gettext_reads_it(environ, wanted):
    assert terminal_language.wanted(environ) == wanted


def test_the_first_terminal_language_with_a_catalog_is_installed(tmp_path, english_after):
    (tmp_path / "de.po").write_text(GERMAN, encoding="utf-8")
    assert terminal_language.install({"LANGUAGE": "fi:de_CH"}, str(tmp_path)) == "de"
    assert tr("Shorten") == "K\u00fcrzen"
    # English asked for first: English, though a German catalog is there.
    assert terminal_language.install({"LANGUAGE": "en_GB:de"}, str(tmp_path)) == "en"
    assert terminal_language.install({"LANG": "C"}, str(tmp_path)) == "en"
    assert tr("Shorten") == "Shorten"
    # The repo's folder, where the cli runs from
    assert terminal_language.LOCALE_DIR.endswith("extension/locale")
    assert (terminal_language.os.path.isfile(
        terminal_language.os.path.join(terminal_language.LOCALE_DIR, "marginalia.pot")))


def test_the_runner_speaks_the_terminals_language(tmp_path, monkeypatch, english_after):
    (tmp_path / "de.po").write_text(GERMAN, encoding="utf-8")
    monkeypatch.setattr(terminal_language, "LOCALE_DIR", str(tmp_path))
    for name in terminal_language.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    document = tmp_path / "in.odt"
    document.write_bytes(b"x")
    assert headless.main([str(document), "--output", str(tmp_path / "out.odt")]) == 2
    assert err.getvalue() == "Gib --message oder --prompt an.\n"


def test_a_refusals_place_is_in_the_users_words(pseudo_locale):
    """The writer's reasons are the model's English; the place its phrase names
    ("paragraph 3") is said in the user's words in the line the user reads."""
    line = tool_words.refusal("Paragraph 4 does not begin with \u201cThe cat\u201d.",
                              tool_lines.no_longer_reads(tool_lines.place(4)))
    assert pseudo("paragraph %(n)d") % {"n": 4} in line

"""The prompt library, the quick-action menu and messages, slash commands and answer
fitting: pure, no office."""

import ast
import json
import os
import re
import time

import pytest

from marginalia.document import answer_fit
from marginalia import prompt_library as pl
from marginalia.ui import quick_menu as qm
from marginalia.ui import slash

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILTIN_IDS = [p.pid for p in pl.BUILTINS]


def user(pid="user-1", name="Make it punchy", instruction="Make it punchy.", mode=pl.PANEL,
         needs=True):
    return pl.Prompt(pid, name, instruction, mode, needs)


# ---------------------------------------------------------------- the library
def test_builtins_cannot_be_lost_or_rewritten_only_hidden_reordered_and_remoded():
    stored = [user(), pl.Prompt("shorten", "Hacked", "Do evil.", pl.COMMENT, False, True, True)]
    library = pl.merge(stored)
    assert [p.pid for p in library] == ["user-1", "shorten"] + [
        i for i in BUILTIN_IDS if i != "shorten"]
    shorten = library[1]
    assert (shorten.name, shorten.instruction) == ("Shorten", pl.BUILTINS[2].instruction)
    assert (shorten.mode, shorten.hidden, shorten.builtin) == (pl.COMMENT, True, True)
    # Deleting a built-in hides it; deleting a user prompt removes it.
    after = pl.remove(library, 2)
    assert len(after) == len(library) and after[2].hidden
    assert [p.pid for p in pl.remove(library, 0)][:1] == ["shorten"]
    assert [p.pid for p in pl.move(library, 0, 2)][:3] == ["shorten", library[2].pid, "user-1"]
    assert [p.pid for p in pl.move(library, 0, -5)] == [p.pid for p in library]


def test_find_by_name_id_or_slash_key_and_new_ids():
    library = pl.merge([user()])
    assert pl.find(library, "make it PUNCHY").pid == "user-1"
    assert pl.find(library, "/make-it-punchy").pid == "user-1"
    assert pl.find(library, "Fix spelling and grammar").pid == "fix"
    assert pl.find(library, "fix").pid == "fix"
    assert pl.find(library, "nothing") is None and pl.find(library, " ") is None
    assert pl.new_id(library) == "user-2"
    assert pl.slug("  Make it Punchy! ") == "make-it-punchy"


def test_json_round_trip_keeps_order_modes_and_hidden_flags():
    library = pl.merge([user(mode=pl.BELOW), pl.replace(pl.BUILTINS[7], hidden=True),
                        user("user-2", "Title", "Title case {argument}", pl.REPLACE, False)])
    text = pl.to_json(library)
    assert json.loads(text)["format"] == pl.FORMAT
    again = pl.from_json(text)
    assert again == library
    assert again[2].takes_argument


@pytest.mark.parametrize("text, says", [
    ("{nope", "not JSON"),
    ("[]", "not a Marginalia prompt file"),
    (json.dumps({"format": "marginalia-prompts", "version": 7, "prompts": []}), "version 7"),
    (json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": {}}), "no list"),
    (json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": [{"name": "x"}]}),
     "Prompt 1 of that file has no id"),
    (json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": [
        {"id": "u", "name": "x", "instruction": "y", "mode": "shout"}]}), "output mode"),
    (json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": [
        {"id": "u", "name": "x", "instruction": 3}]}), "as text"),
    (json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": [
        {"id": "u", "name": "x" * 80, "instruction": "y"}]}), "at most 60"),
    (json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": [
        {"id": "u", "name": "x", "instruction": "  "}]}), "needs an instruction"),
])
def test_a_bad_file_is_one_sentence(text, says):
    with pytest.raises(pl.ImportProblem) as caught:
        pl.from_json(text)
    sentence = str(caught.value)
    assert says in sentence and sentence.endswith(".") and "\n" not in sentence


# ---------------------------------------------------------------- the menu
def labels(entries):
    return [e.label if not e.separator else None for e in entries]


def test_menu_with_a_selection_lists_builtins_ask_then_own_prompts():
    library = pl.merge([user()])
    entries = qm.menu_entries(library, True, ["Italian", "German"])
    assert labels(entries) == ["Improve writing", "Fix spelling and grammar", "Shorten",
                               "Expand", "More formal", "More friendly", "Translate to",
                               "Explain", "Summarize", "Ask Marginalia\u2026", None,
                               "Make it punchy", None, "Keep Marginalia out"]
    translate = entries[6].children
    assert labels(translate)[:3] == ["Italian", "German", None]
    assert "Italian" not in labels(translate)[3:] and "English" in labels(translate)
    assert qm.parse_url(translate[0].url) == ("Run", {"id": "translate", "arg": "Italian"})
    assert qm.parse_url(entries[0].url) == ("Run", {"id": "improve"})
    assert qm.parse_url("https://x") == ("", {})
    assert qm.parse_url(entries[-1].url) == ("KeepOut", {})
    # Inside a marked passage the last entry takes the mark away.
    assert labels(qm.menu_entries(library, True, kept_out=True))[-1] == "Let Marginalia in"


def test_menu_without_a_selection_offers_what_works_on_the_document():
    library = pl.merge([user(needs=False), user("user-2", "Needs text", "x.", pl.PANEL)])
    assert labels(qm.menu_entries(library, False)) == [
        "Summarize", "Ask Marginalia\u2026", None, "Make it punchy"]


def test_recent_languages_first_without_repeats():
    assert qm.remember_language(["German", "french", "Italian"], "French") == [
        "French", "German", "Italian"]
    assert qm.language_name("de") == "German" and qm.language_name("klingon") == "Klingon"


def test_the_action_message_and_the_transcript_line():
    shorten = pl.find(pl.BUILTINS, "shorten")
    message = qm.action_message(shorten, "", "One.\n\nTwo.")
    assert message.startswith(shorten.instruction)
    assert qm.ONLY_TEXT in message and message.endswith("<<<\nOne.\n\nTwo.\n>>>")
    translate = pl.find(pl.BUILTINS, "translate")
    assert qm.action_message(translate, "de", "Hi").startswith("Translate this text into German.")
    comment = user(mode=pl.COMMENT)
    assert qm.ONLY_COMMENT in qm.action_message(comment, "", "Hi")
    summary = qm.action_message(pl.find(pl.BUILTINS, "summarize"), "", "All", True)
    assert "The document:\n<<<" in summary and qm.ONLY_TEXT not in summary
    assert qm.shown_request(translate, "de", "Good " * 40).startswith(
        "Translate German: \u201cGood Good")
    assert qm.shown_request(shorten, "", "") == "Shorten"


def test_menu_builds_fast():
    """The pure part of building the submenu (bench/bench_menu.py measures it in Writer)."""
    library = pl.merge([user("user-%d" % n, "Prompt %d" % n, "x.") for n in range(30)])
    started = time.perf_counter()
    for _n in range(100):
        qm.menu_entries(library, True, ["French"])
    assert (time.perf_counter() - started) / 100 < 0.005


# ---------------------------------------------------------------- slash commands
def test_slash_list_matches_keys_first_then_names():
    library = pl.merge([user(), pl.replace(pl.BUILTINS[3], hidden=True)])
    assert [m.key for m in slash.matches(library, "/")][:3] == ["make-it-punchy", "improve",
                                                                 "fix"]
    assert "expand" not in [m.key for m in slash.matches(library, "/")]     # hidden
    assert [m.key for m in slash.matches(library, "/sh")] == ["shorten"]
    assert [m.key for m in slash.matches(library, "/punch")] == ["make-it-punchy"]
    assert slash.matches(library, "/translate de") == []      # the argument is being typed
    assert slash.matches(library, "hello") == []
    assert slash.matches(library, "/tr")[0].label == "/translate  Translate \u2026"
    assert slash.completion("translate") == "/translate "


def test_slash_parse_runs_prompts_and_leaves_other_text_alone():
    library = pl.merge([user()])
    command = slash.parse(library, "/translate de")
    assert (command.prompt.pid, command.argument) == ("translate", "de")
    assert slash.parse(library, "/Make-it-punchy").prompt.pid == "user-1"
    assert slash.parse(library, "/test") is None          # the panel's connection test
    assert slash.parse(library, "/usr/bin is a folder") is None
    assert slash.parse(library, "/") is None and slash.parse(library, "shorten") is None


# ---------------------------------------------------------------- answers
def test_clean_takes_off_wrappers_models_add():
    assert answer_fit.clean("```\nThe text.\n```") == "The text."
    assert answer_fit.clean("Here is the shorter text:\n\nThe text.") == "The text."
    assert answer_fit.clean("\u201cThe text.\u201d") == "The text."
    assert answer_fit.clean('"A" and "B"') == '"A" and "B"'


def test_paragraphs_pair_up_or_say_none():
    old = ["First \U0001F680 one.", "Second."]
    assert answer_fit.paragraphs_for(old, "One \U0001F680.\n\nTwo.") == ["One \U0001F680.",
                                                                       "Two."]
    assert answer_fit.paragraphs_for(old, "One.\nTwo.") == ["One.", "Two."]
    assert answer_fit.paragraphs_for(old, "Just one.") is None
    assert answer_fit.paragraphs_for(old, "**One.**\n\nTwo.") is None
    assert answer_fit.paragraphs_for(old, "- One\n- Two") is None
    assert answer_fit.comment_text("**Good** point.\n\n- a\n- b") == \
        "Good point.\n\u2022 a\n\u2022 b"


# ---------------------------------------------------------------- shipped files agree
def test_tools_menu_and_macros_offer_every_bindable_command():
    urls = set(url for url, _label in qm.command_list(pl.BUILTINS))
    addons = open(os.path.join(ROOT, "extension", "registry", "Addons.xcu")).read()
    menu = set(re.findall(r"<value>(org\.marginalia\.cmd:[^<]*)</value>", addons))
    # Tools > Marginalia also has the context submenu's Translate to, every language in order.
    translate = [url for url, _name in qm.translate_urls(pl.BUILTINS)]
    shown = [u.replace("&amp;", "&") for u in re.findall(
        r"<value>(org\.marginalia\.cmd:Run\?arg=[^<]*)</value>", addons)]
    assert shown == translate and len(translate) == len(qm.LANGUAGES)
    assert {u.replace("&amp;", "&") for u in menu} == urls | set(translate)
    assert qm.command_url(qm.KEEP_OUT) in urls
    tree = ast.parse(open(os.path.join(ROOT, "extension", "scripts", "Marginalia.py")).read())
    dispatched = set(qm.PROTOCOL + node.args[0].value for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_dispatch"
                     and isinstance(node.args[0], ast.Constant))
    assert dispatched == urls
    # No default shortcut anywhere: Writer already uses the keys.
    assert not os.path.exists(os.path.join(ROOT, "extension", "registry", "Accelerators.xcu"))

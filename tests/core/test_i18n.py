"""Translation (issue 26): language tags to catalogs, .po read and .mo written for the
standard library's gettext, plural forms and contexts, the pseudo-locale, extraction."""

import gettext
import io

import pytest

from marginalia.i18n import catalog, extract, languages, office_terms, po, pseudo, tags

GERMAN = r'''
# A translator's comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: office/panel_view.py:40
msgid "Send"
msgstr "Senden"

msgctxt "verb"
msgid "Review"
msgstr "Prüfen"

msgid "%d change"
msgid_plural "%d changes"
msgstr[0] "%d Änderung"
msgstr[1] "%d Änderungen"

#, fuzzy
msgid "Stop"
msgstr "Halt"

msgid "Ready"
msgstr ""

msgid ""
"Two lines\n"
"in one \"text\""
msgstr "Zwei Zeilen\nin einem „Text“"
'''


@pytest.mark.parametrize("tag, names", [
    ("pt-BR", ["pt_BR", "pt"]), ("de", ["de"]), ("de-CH", ["de_CH", "de"]),
    ("zh-TW", ["zh_TW"]), ("zh-Hant-HK", ["zh_TW"]), ("zh-Hans", ["zh_CN"]), ("zh", ["zh_CN"]),
    ("sr-Latn-RS", ["sr_RS@latn", "sr@latn", "sr_RS", "sr"]), ("en-US", []), ("", []),
    ("es_419", ["es_419", "es"]),
])
def test_a_tag_gives_the_catalogs_to_try_most_specific_first(tag, names):
    assert tags.catalog_names(tag) == names


def test_right_to_left_languages_mirror():
    assert tags.is_right_to_left("ar-EG") and tags.is_right_to_left("he")
    assert not tags.is_right_to_left("de-DE") and not tags.is_right_to_left("ja")


def _translations(text):
    return gettext.GNUTranslations(io.BytesIO(po.to_mo(po.parse(text))))


def test_a_compiled_catalog_reads_back_through_gettext():
    german = _translations(GERMAN)
    assert german.gettext("Send") == "Senden"
    assert german.pgettext("verb", "Review") == "Prüfen"
    assert german.gettext("Review") == "Review"          # the context counts
    assert german.ngettext("%d change", "%d changes", 1) == "%d Änderung"
    assert german.ngettext("%d change", "%d changes", 3) == "%d Änderungen"
    assert german.gettext("Two lines\nin one \"text\"") == "Zwei Zeilen\nin einem „Text“"


def test_fuzzy_and_untranslated_entries_stay_english():
    german = _translations(GERMAN)
    assert german.gettext("Stop") == "Stop"
    assert german.gettext("Ready") == "Ready"


def test_the_header_is_read():
    entries = po.parse(GERMAN)
    assert po.header_field(entries, "Plural-Forms") == "nplurals=2; plural=(n != 1);"


def test_a_broken_line_names_its_line():
    with pytest.raises(po.PoError, match="line 2"):
        po.parse('msgid "a"\nmsgstr "unterminated\n')


def test_install_falls_back_and_english_is_always_there(tmp_path):
    (tmp_path / "pt.mo").write_bytes(po.to_mo(po.parse(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Send"\nmsgstr "Enviar"\n')))
    try:
        assert catalog.install("pt-BR", str(tmp_path)) == "pt"
        assert catalog.tr("Send") == "Enviar"
        assert catalog.install("fi", str(tmp_path)) == "en"
        assert catalog.tr("Send") == "Send"
        (tmp_path / "de.mo").write_bytes(b"not a catalog")
        assert catalog.install("de", str(tmp_path)) == "en"
        assert catalog.install("de", str(tmp_path / "missing")) == "en"
    finally:
        catalog.install("en", str(tmp_path))


def test_the_pseudo_locale_accents_lengthens_brackets_and_keeps_placeholders():
    text = pseudo.pseudo("Send %d changes to {name} (%(count)s)")
    assert text.startswith(pseudo.OPEN) and text.endswith(pseudo.CLOSE)
    assert "%d" in text and "{name}" in text and "%(count)s" in text
    assert "Send" not in text and "~" not in text
    assert len(text) >= len("Send %d changes to {name} (%(count)s)") * 1.3
    try:
        catalog.install(catalog.PSEUDO, "/nonexistent")
        assert catalog.tr("Ready").startswith(pseudo.OPEN)
        assert catalog.trn("%d change", "%d changes", 2) % 2 == pseudo.pseudo("%d changes") % 2
    finally:
        catalog.install("en", "/nonexistent")


SOURCE = '''
from marginalia.i18n.catalog import N_, tr, trc, trn
LABEL = N_("New chat")
def f(n, name):
    a = tr("Send")
    b = trn("%d change", "%d changes", n)
    c = trc("verb", "Review")
    d = tr("Long " "joined " + "text")
    e = tr(LABEL)
    g = tr("Hello %s" % name)
    h = tr(TABLE[name])
'''


def test_extraction_finds_every_marked_string_with_its_line():
    entries, problems = extract.from_source(SOURCE, "x.py")
    found = {(e.context, e.msgid, e.plural): e.where for e in entries}
    assert found[(None, "New chat", None)] == ("x.py:3",)
    assert found[(None, "Send", None)] == ("x.py:5",)
    assert found[(None, "%d change", "%d changes")] == ("x.py:6",)
    assert found[("verb", "Review", None)] == ("x.py:7",)
    assert (None, "Long joined text", None) in found
    assert len(entries) == 5
    # A string built before the lookup cannot be in any catalog: named with its line.
    assert problems == ["x.py:10: tr() needs literal strings to be found"]


def test_the_template_reads_back_as_the_same_entries():
    entries, _ = extract.from_source(SOURCE, "x.py")
    back = [e for e in po.parse(extract.to_pot(entries)) if e.msgid]
    assert [(e.context, e.msgid, e.plural, e.where) for e in back] == \
        [(e.context, e.msgid, e.plural, e.where) for e in entries]


@pytest.mark.parametrize("label, words", [
    ("~Aufzeichnen", "Aufzeichnen"), ("Ver~walten…", "Verwalten"), ("Options...", "Options"),
    ("Undo (Ctrl+Z)", "Undo"), ("(x)", "(x)"), ("", ""),
])
def test_libreoffices_labels_are_read_as_words(label, words):
    assert office_terms.clean(label) == words


def test_numbers_and_dates_the_locales_way():
    import time
    from marginalia.i18n import formats
    german = formats.Formats(decimal=",", thousands=".", date_order="DMY", date_separator=".",
                             twelve_hour=False)
    french = german._replace(thousands="\u202f", date_separator="/")
    when = time.struct_time((2026, 11, 26, 9, 5, 0, 3, 330, 0))
    assert formats.number(1234567, german) == "1.234.567"
    assert formats.number(1234567, french) == "1\u202f234\u202f567"
    assert formats.decimal(12345.25, 2, german) == "12.345,25"
    assert formats.day_month(when, german) == "26.11."
    assert formats.day_month(when, french) == "26/11"
    assert formats.day_month(when, formats.ENGLISH) == "11/26"
    assert formats.clock(when, german) == "09:05"
    assert formats.clock(when, formats.ENGLISH) == "9:05 AM"
    assert formats.number(1234) == "1,234"        # English until the office says


@pytest.mark.parametrize("tag, name", [
    ("de-DE", "German"), ("pt-BR", "Brazilian Portuguese"), ("pt-PT", "Portuguese"),
    ("zh-TW", "Traditional Chinese"), ("zh-Hant-HK", "Traditional Chinese"),
    ("zh-CN", "Simplified Chinese"), ("ja", "Japanese"), ("zxx", None), ("", None),
    ("qq-XX", None),
])
def test_languages_are_named_in_english_for_the_model(tag, name):
    assert languages.english_name(tag) == name


def test_the_answer_language_setting_words_the_prompts_rule():
    from marginalia.chat import prompt
    from marginalia.config import Settings
    default = prompt.system_prompt(Settings())
    assert prompt.USERS_LANGUAGE.rstrip(".") in default
    german = prompt.system_prompt(Settings(answer_language="de-DE"))
    assert "Answer in German, whatever language the user writes in." in german
    assert prompt.USERS_LANGUAGE.rstrip(".") not in german
    typed = prompt.system_prompt(Settings(answer_language="Plattdeutsch"), has_tools=False)
    assert "Answer in Plattdeutsch, whatever language the user writes in and keep" in typed
    # "The document's" before the office resolved it (no language known): the user's.
    assert prompt.language_rule("document") == prompt.USERS_LANGUAGE
    assert prompt.language_rule("document", "fr-FR") == \
        "Answer in the document's language (French), whatever language the user writes in."
    # A quick action's own prompt keeps the text's language whatever the setting says.
    action = prompt.system_prompt(Settings(answer_language="de-DE"), base="Shorten it, "
                                  "in the text's language.")
    assert "German" not in action

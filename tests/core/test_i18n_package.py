"""The package's own files in every language (issue 26): .xcu values, description.xml and
its description files get the translations of the catalogs at build time; the template
holds every string a user sees, code and package files alike."""

import gettext
import io
import os

from marginalia.i18n import extract, package, po

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

XCU = '''<node oor:name="m01" oor:op="replace">
  <prop oor:name="Title"><value xml:lang="en-US">Shorten</value></prop>
  <prop oor:name="URL"><value>org.marginalia.cmd:Shorten</value></prop>
  <prop oor:name="Label">
    <value xml:lang="en-US">Keep &amp; go</value>
  </prop>
</node>
'''
GERMAN = {"Shorten": "Kürzen", "Keep & go": "Behalten & los"}.get
ARABIC = {"Shorten": "اختصر"}.get


def test_each_english_value_gets_its_translations_beside_it():
    out = package.localize_xcu(XCU, {"de": GERMAN, "ar": ARABIC, "pt_BR": lambda t: None})
    assert ('<prop oor:name="Title"><value xml:lang="en-US">Shorten</value>'
            '<value xml:lang="ar">اختصر</value><value xml:lang="de">Kürzen</value></prop>') in out
    assert '<value xml:lang="en-US">Keep &amp; go</value><value xml:lang="de">Behalten &amp; ' \
           'los</value>' in out
    assert "pt-BR" not in out                       # nothing translated: nothing added
    assert package.localize_xcu(XCU, {}) == XCU     # no catalog: the file as it is
    assert package.xcu_texts(XCU) == [("Shorten", 2), ("Keep & go", 5)]


def test_catalog_names_become_xml_lang_values():
    assert package.lang_attribute("pt_BR") == "pt-BR"
    assert package.lang_attribute("de") == "de"
    assert package.lang_attribute("sr@latn") == "sr-Latn"
    assert package.lang_attribute("sr_RS@latn") == "sr-Latn-RS"


def test_the_extension_manager_gets_name_and_description_per_language():
    with open(os.path.join(ROOT, "description.xml"), encoding="utf-8") as fh:
        text = fh.read()
    with open(os.path.join(ROOT, "extension", "description", "description-en.txt"),
              encoding="utf-8") as fh:
        description = fh.read()
    name = package.display_name(text)
    lookups = {"de": {name: "Marginalia: KI-Schreibpartner",
                      package.description_text(description): "Marginalia ist ..."}.get}
    out, files = package.localize_description(text, description, lookups)
    assert '<name lang="de">Marginalia: KI-Schreibpartner</name>' in out
    assert '<src lang="de" xlink:href="description/description-de.txt"/>' in out
    assert files == {"description/description-de.txt": "Marginalia ist ...\n"}
    # The publisher's name is not the extension's: left alone.
    assert out.count('<name lang="de">') == 1


def test_compiled_catalogs_and_the_files_they_localize(tmp_path):
    (tmp_path / "de.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Shorten"\nmsgstr "Kürzen"\n\nmsgctxt "verb"\nmsgid "Keep & go"\n'
        'msgstr "Nicht hier"\n', encoding="utf-8")
    (tmp_path / "marginalia.pot").write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    blobs, lookups = package.compile_catalogs(str(tmp_path))
    assert [name for name, _ in blobs] == ["locale/de.mo"]
    assert lookups["de"]("Shorten") == "Kürzen"
    assert lookups["de"]("Keep & go") is None       # a context: not a package file's text
    files = package.localize_files({"registry/Addons.xcu": XCU.encode("utf-8"),
                                    "LICENSE": b"text"}, "", lookups)
    assert "Kürzen" in files["registry/Addons.xcu"].decode("utf-8")
    assert files["LICENSE"] == b"text"


def test_every_label_tooltip_and_title_of_a_dialog_is_found():
    xdl = ('<dlg:text dlg:id="A" dlg:value="Provider:" dlg:help-text="Which &quot;server&quot;"/>\n'
           '<dlg:textfield dlg:id="B"/>\n<dlg:window dlg:title="Marginalia">')
    assert package.xdl_texts(xdl) == [("Provider:", 1), ('Which "server"', 1),
                                      ("Marginalia", 3)]


def test_the_template_holds_every_string_a_user_sees():
    entries, problems = extract.template(ROOT)
    # A marker called on a string built at run time cannot be translated: none may be.
    assert problems == []
    with open(os.path.join(ROOT, "extension", "locale", "marginalia.pot"),
              encoding="utf-8") as fh:
        shipped = {e.key + (e.plural,) for e in po.parse(fh.read()) if e.msgid}
    current = {e.key + (e.plural,) for e in entries}
    assert shipped == current, (
        "extension/locale/marginalia.pot is out of date: run `python3 build.py pot` "
        "(new: %s; gone: %s)" % (sorted(current - shipped)[:5], sorted(shipped - current)[:5]))
    from marginalia.i18n import catalogs
    for name in catalogs.LANGUAGES:
        with open(os.path.join(ROOT, "extension", "locale", name + ".po"),
                  encoding="utf-8") as fh:
            keys = {e.key + (e.plural,) for e in po.parse(fh.read()) if e.msgid}
        assert keys == current, "%s.po is out of step: run `python3 build.py pot`" % name
    texts = {e.msgid for e in entries}
    assert "Marginalia: AI writing partner" in texts       # description.xml
    assert "Focus Marginalia chat" in texts                # a Tools menu entry (.xcu)
    assert "Provider:" in texts                            # an Options label (.xdl)


def test_a_catalog_keeps_in_step_with_the_template():
    from marginalia.i18n import catalogs
    template = [po.Entry("Send", where=("a.py:1",)),
                po.Entry("%d change", plural="%d changes", where=("a.py:2",)),
                po.Entry("Review", context="verb", where=("a.py:3",)),
                po.Entry("The answer stopped; your message is queued.", where=("a.py:4",))]
    first = catalogs.update("ru", template, None)
    assert "Plural-Forms: nplurals=3;" in first and 'msgstr[2] ""' in first
    assert catalogs.completeness(first) == (0, 4)
    filled = (first.replace('msgid "Send"\nmsgstr ""', 'msgid "Send"\nmsgstr "Отправить"')
              .replace('msgid "Gone"', ''))
    filled += ('\nmsgid "The answer stopped; your message was queued."\n'
               'msgstr "Ответ остановлен; сообщение в очереди."\n'
               '\nmsgid "Gone"\nmsgstr "Ушло"\n')
    again = catalogs.update("ru", template, filled)
    entries = {e.msgid: e for e in po.parse(again) if e.msgid}
    assert entries["Send"].strings == ("Отправить",) and not entries["Send"].fuzzy
    assert "Gone" not in entries                      # gone from the code: gone
    changed = entries["The answer stopped; your message is queued."]
    assert changed.fuzzy and changed.strings == ("Ответ остановлен; сообщение в очереди.",)
    assert catalogs.completeness(again) == (1, 4)     # fuzzy does not count
    # A fuzzy translation stays out of the build: the user reads English, not a guess.
    translations = gettext.GNUTranslations(io.BytesIO(po.to_mo(po.parse(again))))
    assert translations.gettext("The answer stopped; your message is queued.") == \
        "The answer stopped; your message is queued."
    assert translations.ngettext("%d change", "%d changes", 5) == "%d changes"


def test_every_shipped_languages_plural_rule_is_one_gettext_reads():
    from marginalia.i18n import catalogs
    for name in catalogs.LANGUAGES:
        text = catalogs.update(name, [po.Entry("%d file", plural="%d files")], None)
        text = text.replace('msgstr[0] ""', 'msgstr[0] "x"')
        for index in range(1, catalogs.plural_count(name)):
            text = text.replace('msgstr[%d] ""' % index, 'msgstr[%d] "x%d"' % (index, index))
        translations = gettext.GNUTranslations(io.BytesIO(po.to_mo(po.parse(text))))
        seen = {translations.ngettext("%d file", "%d files", n) for n in range(0, 120)}
        assert len(seen) == catalogs.plural_count(name), name


def test_every_translation_keeps_its_placeholders():
    """A translation that drops or renames a %s, %(name)s or {argument} would fail (or say
    something else) when formatted: each must keep exactly the English one's."""
    import re
    from marginalia.i18n import catalogs
    marks = re.compile(r"%(?:\([a-z_]+\))?[-#0 +]*\d*(?:\.\d+)?[sdifrx%]|\{[a-z_0-9]*\}")
    wrong = []
    for name in catalogs.LANGUAGES:
        with open(os.path.join(ROOT, "extension", "locale", name + ".po"),
                  encoding="utf-8") as fh:
            entries = [e for e in po.parse(fh.read()) if e.msgid]
        for entry in entries:
            english = sorted(marks.findall(entry.plural or entry.msgid))
            for text in entry.strings:
                if text and sorted(marks.findall(text)) != english:
                    wrong.append("%s.po: %r -> %r" % (name, entry.msgid[:40], text[:40]))
    assert not wrong, "\n".join(wrong[:20])


def test_every_string_a_user_sees_is_translated_in_every_catalog():
    """Each shipped language is complete: a string missing from a catalog (or left fuzzy)
    fails here with the catalog and the place the string comes from."""
    from marginalia.i18n import catalogs
    missing = []
    for name in catalogs.LANGUAGES:
        with open(os.path.join(ROOT, "extension", "locale", name + ".po"),
                  encoding="utf-8") as fh:
            for entry in po.parse(fh.read()):
                if entry.msgid and not entry.translated:
                    missing.append("%s.po: %r (%s)" % (name, entry.msgid[:50],
                                                       ", ".join(entry.where[:2])))
    assert not missing, "%d untranslated:\n%s" % (len(missing), "\n".join(missing[:30]))

"""The interface's language is LibreOffice's own UI language (issue 26), read inside the
installed extension from the office's configuration, not from the environment."""


def test_the_language_is_the_offices_own_choice(office):
    first = office.job("i18n.language")
    # The harness's office runs in English: no catalog, and English is always there.
    assert first["in_use"] == "en"
    assert first["office"].split("-")[0] == "en"
    try:
        chosen = office.job("i18n.language", set="pt-BR")
        assert chosen["office"] == "pt-BR"
        # The language is chosen once per process (before the first label); a change under
        # Tools > Options takes effect at the next start, as LibreOffice's own does.
        assert chosen["in_use"] == "en"
    finally:
        back = office.job("i18n.language", set="")
    assert back["office"] == first["office"]


def test_libreoffices_own_words_come_from_its_menus(office):
    words = office.job("i18n.words")
    assert words["undo"] == "Undo" and words["accept_all"] == "Accept All"
    assert words["comment"] == "Comment" and words["track_changes"] == "Record Track Changes"
    for concept, word in words.items():
        assert word and "~" not in word and not word.endswith(("...", "\u2026")), (concept, word)


def test_a_german_office_gives_german_words_and_says_german(office_in):
    german = office_in("de-DE")
    assert german.job("i18n.language")["office"] == "de-DE"
    words = german.job("i18n.words")
    english = {"undo": "Undo", "accept_all": "Accept All", "comment": "Comment"}
    for concept, word in english.items():
        assert words[concept] != word, (concept, words[concept])
    assert words["undo"] == "Rückgängig"
    assert words["track_changes"] == "Änderungen aufzeichnen"


def test_numbers_and_dates_follow_libreoffices_locale_data(office):
    from marginalia.i18n import formats
    german = formats.Formats(**office.job("i18n.formats", tag="de-DE"))
    american = formats.Formats(**office.job("i18n.formats", tag="en-US"))
    japanese = formats.Formats(**office.job("i18n.formats", tag="ja-JP"))
    moment = (2026, 11, 26, 14, 5, 0, 3, 330, 0)
    import time
    when = time.struct_time(moment)
    assert formats.number(12345, german) == "12.345"
    assert formats.decimal(1.5, 1, german) == "1,5"
    assert formats.full_date(when, german) == "26.11.2026"
    assert formats.clock(when, german) == "14:05"
    assert formats.number(12345, american) == "12,345"
    assert formats.full_date(when, american) == "11/26/2026"
    assert formats.clock(when, american) == "2:05 PM"
    assert formats.full_date(when, japanese) == "2026/11/26"
    dutch = formats.Formats(**office.job("i18n.formats", tag="nl-NL"))
    assert formats.full_date(when, dutch) == "26-11-2026"


def test_menus_and_the_options_tree_come_in_the_offices_language(office_in):
    """The .xcu labels got each catalog's xml:lang values at build time (i18n.package):
    a German office reads the German ones from its configuration."""
    from tests.support.office import props
    german = office_in("de-DE")
    provider = german.create("com.sun.star.configuration.ConfigurationProvider")

    def value(path, name):
        node = provider.createInstanceWithArguments(
            "com.sun.star.configuration.ConfigurationAccess", props(nodepath=path))
        return node.getPropertyValue(name)
    menu = ("/org.openoffice.Office.Addons/AddonUI/OfficeMenuBarMerging/org.marginalia.writer/"
            "ToolsMarginalia/MenuItems/marginalia/Submenu/m01")
    assert value(menu, "Title") == "Marginalia-Chat fokussieren"
    page = ("/org.openoffice.Office.OptionsDialog/Nodes/org.marginalia.writer.Node/Leaves/"
            "org.marginalia.writer.Language")
    assert value(page, "Label") == "Sprache"
    assert german.job("i18n.language")["in_use"] == "de"

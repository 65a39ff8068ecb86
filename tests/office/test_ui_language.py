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

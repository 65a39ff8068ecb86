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

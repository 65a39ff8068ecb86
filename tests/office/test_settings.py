"""Settings round-trip through the real registry; the API key through the password container.

Runs in the shared headless office with the built .oxt installed. The extension's
own settings_store runs in process through the Job service; the checks on where
the key went are made from outside, through the office's own services and the
profile's files.
"""

import os

import uno

from marginalia import config

SETTINGS_ROOT = "/org.marginalia.Settings"


def _config(office, path, update=False, defaults=False):
    # DefaultProvider shows the schema and extension layers without the user's changes.
    provider = office.create("com.sun.star.configuration.DefaultProvider" if defaults
                             else "com.sun.star.configuration.ConfigurationProvider")
    arg = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    arg.Name, arg.Value = "nodepath", path
    service = ("com.sun.star.configuration.ConfigurationUpdateAccess" if update
               else "com.sun.star.configuration.ConfigurationAccess")
    return provider.createInstanceWithArguments(service, (arg,))


def _flush_registry(office):
    # registrymodifications.xcu is written lazily; flushing makes the file tell the truth now.
    office.create("com.sun.star.configuration.ConfigurationProvider").flush()
    path = os.path.join(office.profile_dir, "user", "registrymodifications.xcu")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _stored_key(office, endpoint):
    """What the office's password container holds for our record of this endpoint."""
    from marginalia.office.settings_store import KEY_USER, key_url
    container = office.create("com.sun.star.task.PasswordContainer")
    handler = office.create("com.sun.star.task.InteractionHandler")
    url = key_url(endpoint)
    record = container.findForName(url, KEY_USER, handler)
    if record is None or record.Url != url:
        return None
    return [user.Passwords[0] for user in record.UserList if user.UserName == KEY_USER][0]


def _persistent_urls(office):
    container = office.create("com.sun.star.task.PasswordContainer")
    handler = office.create("com.sun.star.task.InteractionHandler")
    return [record.Url for record in container.getAllPersistent(handler)]


def test_schema_defaults_are_a_local_ollama_with_nothing_else_set(office):
    connection = _config(office, SETTINGS_ROOT + "/Connection", defaults=True)
    chat = _config(office, SETTINGS_ROOT + "/Chat", defaults=True)
    assert connection.getByName("endpoint") == config.DEFAULT_ENDPOINT
    assert connection.getByName("provider") == "ollama"
    assert connection.getByName("model") == ""
    assert chat.getByName("temperature") is None
    assert chat.getByName("max_tokens") is None
    assert chat.getByName("show_thinking") is True
    assert chat.getByName("max_rounds") == 12
    assert chat.getByName("track_changes") is False
    assert chat.getByName("apply_mode") == "direct"
    # Chats are kept per document (in the profile) unless the user turns it off.
    assert chat.getByName("keep_chats") is True
    # The schema has no place for a key at all.
    assert not connection.hasByName("api_key") and not chat.hasByName("api_key")


def test_fresh_profile_loads_the_defaults(office):
    loaded = office.job("settings.load")
    defaults = config.Settings()
    for name, _default in config.Settings.FIELDS:
        if name != "api_key":
            assert loaded[name] == getattr(defaults, name), name
    assert loaded["api_key"] is False


def test_every_field_round_trips(office):
    values = {
        "provider": "custom", "endpoint": "https://llm.example.invalid/v1",
        "model": "tiny-model:7b", "temperature": 0.3, "max_tokens": 512,
        "reasoning_effort": "high", "show_thinking": False,
        "extra_instructions": u"Be brief.\nUse British spelling \u2014 always.",
        "max_rounds": 5, "track_changes": True, "allow_http": True, "keep_chats": False,
        "connect_timeout": 7.5, "read_timeout": 60.0,
    }
    office.job("settings.save", **values)
    loaded = office.job("settings.load")
    for name, value in values.items():
        assert loaded[name] == value, name
    assert isinstance(loaded["max_tokens"], int)

    # Empty temperature and max tokens mean "not sent": they come back as None.
    office.job("settings.save", temperature=None, max_tokens=None)
    loaded = office.job("settings.load")
    assert loaded["temperature"] is None and loaded["max_tokens"] is None
    assert loaded["model"] == "tiny-model:7b"

    # And the values really are in the registry, typed.
    chat = _config(office, SETTINGS_ROOT + "/Chat")
    assert chat.getByName("max_rounds") == 5
    assert chat.getByName("temperature") is None
    office.job("settings.save", **dict((n, d) for n, d in config.Settings.FIELDS if n != "api_key"))


def test_the_options_page_apply_mode_round_trips_and_old_profiles_read_as_tracked(office):
    from marginalia.ui import options_form
    try:
        # What the page's "AI edits" list saves, through the real registry and back.
        for mode, _label in options_form.APPLY_MODES:
            base = config.Settings(**dict(office.job("settings.load"), api_key=""))
            form = options_form.settings_to_form(base)
            form["apply_mode"] = mode
            settings, problems = options_form.form_to_settings(base, form)
            assert problems == []
            office.job("settings.save", apply_mode=settings.apply_mode,
                       track_changes=settings.track_changes)
            chat = _config(office, SETTINGS_ROOT + "/Chat")
            assert chat.getByName("apply_mode") == mode
            assert chat.getByName("track_changes") is (mode == "tracked")
            loaded = config.Settings(**dict(office.job("settings.load"), api_key=""))
            assert options_form.settings_to_form(loaded)["apply_mode"] == mode

        # A profile written before the modes: the tick box's track_changes, and apply_mode
        # at the schema's default (test_schema_defaults...).
        chat = _config(office, SETTINGS_ROOT + "/Chat", update=True)
        chat.replaceByName("track_changes", True)
        chat.replaceByName("apply_mode", "direct")
        chat.commitChanges()
        loaded = office.job("settings.load")
        assert (loaded["apply_mode"], loaded["track_changes"]) == ("direct", True)
        assert options_form.settings_to_form(
            config.Settings(**dict(loaded, api_key="")))["apply_mode"] == "tracked"
    finally:
        office.job("settings.save", apply_mode="direct", track_changes=False)


def test_key_goes_to_the_password_container_and_not_the_registry(office):
    endpoint = "https://keys.example.invalid/v1"
    secret = "sk-test-SECRET-4f1c9a"
    office.job("settings.save", endpoint=endpoint, api_key=secret)

    assert office.job("settings.load")["api_key"] is True
    assert _stored_key(office, endpoint) == secret
    # Persistent (survives a restart), protected by a master password, not session-only.
    from marginalia.office.settings_store import key_url
    assert key_url(endpoint) in _persistent_urls(office)

    registry = _flush_registry(office)
    assert "keys.example.invalid" in registry     # the flush did write our settings...
    assert secret not in registry                 # ...but never the key
    assert "SECRET" not in registry

    office.job("settings.save", endpoint=config.DEFAULT_ENDPOINT, api_key="")


def test_each_server_keeps_its_own_key_and_an_empty_key_forgets_it(office):
    a, b = "https://a.example.invalid/v1", "https://b.example.invalid:8443/v1"
    office.job("settings.save", endpoint=a, api_key="key-for-a")
    office.job("settings.save", endpoint=b, api_key="key-for-b")
    assert _stored_key(office, a) == "key-for-a"
    assert _stored_key(office, b) == "key-for-b"

    office.job("settings.save", endpoint=a, api_key="")
    assert _stored_key(office, a) is None
    assert _stored_key(office, b) == "key-for-b"
    office.job("settings.save", endpoint=b, api_key="")
    assert _stored_key(office, b) is None
    office.job("settings.save", endpoint=config.DEFAULT_ENDPOINT)

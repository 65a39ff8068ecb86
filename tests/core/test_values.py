"""The shared value types: events.Event and config.Settings keep their contracts."""

import pytest

from marginalia.config import DEFAULT_ENDPOINT, Settings
from marginalia.events import TEXT, TOOL_RESULT, Event


def test_event_to_dict_holds_only_the_fields_that_are_set_in_order():
    event = Event(TOOL_RESULT, call_id="c1", name="read", ok=False, result="Error: x",
                  summary="read failed")
    assert list(event.to_dict().items()) == [
        ("type", "tool_result"), ("call_id", "c1"), ("name", "read"), ("ok", False),
        ("result", "Error: x"), ("summary", "read failed")]
    assert Event(TEXT, text="").to_dict() == {"type": "text", "text": ""}


def test_events_are_equal_by_value_and_kinds_are_closed():
    assert Event(TEXT, text="a") == Event("text", text="a")
    assert Event(TEXT, text="a") != Event(TEXT, text="b")
    assert Event(TEXT, text="a") != {"type": "text", "text": "a"}
    assert repr(Event(TEXT, text="a")) == "Event({'type': 'text', 'text': 'a'})"
    with pytest.raises(ValueError):
        Event("texts", text="a")


def test_settings_defaults_and_fields_in_order():
    settings = Settings()
    assert (settings.endpoint, settings.max_rounds, settings.temperature) == (
        DEFAULT_ENDPOINT, 12, None)
    assert [name for name, _ in Settings.FIELDS][:4] == [
        "provider", "endpoint", "api_key", "model"]
    assert dict(Settings.FIELDS)["read_timeout"] == 120.0
    assert all(getattr(settings, name) == default for name, default in Settings.FIELDS)


def test_settings_copy_changes_only_what_is_named():
    settings = Settings(model="m", api_key="sk-1")
    changed = settings.copy(model="n")
    assert (changed.model, changed.api_key, settings.model) == ("n", "sk-1", "m")
    assert settings.copy() == settings and settings.copy() is not settings
    with pytest.raises(TypeError):
        settings.copy(colour="red")


def test_unknown_settings_are_a_type_error():
    with pytest.raises(TypeError) as info:
        Settings(model="m", colour="red")
    assert "colour" in str(info.value)


def test_settings_repr_never_shows_the_key():
    shown = repr(Settings(api_key="sk-secret-123", model="m"))
    assert "sk-secret-123" not in shown
    assert "api_key='***'" in shown and "model='m'" in shown
    assert "api_key=''" in repr(Settings())

"""An administrator's locked settings, in a real LibreOffice with Marginalia installed for
every user (tests/support/shared_install.py: unopkg add --shared into a throwaway layer).

The administrator's settings are the configuration extension ``build.py
admin-config`` writes, installed shared beside Marginalia: endpoint and model
locked (oor:finalized), the server the test's own scripted one. Nothing is
installed into the user's profile.
"""

import os
import time

import pytest

from tests.office.test_settings import _config
from tests.support.shared_install import OXT, with_admin_settings
from tests.support.sse_server import ScriptedServer, text_response

ADMIN_MODEL = "admin-model-7b"


@pytest.fixture(scope="module")
def admin_server():
    """The administrator's model server: answers every turn."""
    with ScriptedServer([text_response("Answered by the admin's server.")],
                        models=(ADMIN_MODEL,), repeat_last=True) as srv:
        yield srv


@pytest.fixture(scope="module")
def layer(admin_server):
    shared = with_admin_settings({"endpoint": admin_server.url, "model": ADMIN_MODEL,
                                  "max_rounds": "9"}, ["endpoint", "model"])
    yield shared
    shared.remove()


@pytest.fixture(scope="module")
def user_office(layer):
    harness = layer.office(OXT)
    yield harness
    harness.stop()


def _deployed(office, repository):
    em = office.ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
    return sorted(e.getIdentifier().Value for e in em.getDeployedExtensions(
        repository, em.createAbortChannel(), None))


# The shared layer the tests make: Marginalia, the admin's settings, and the tests' own job
# commands (tests/extension), which a real deployment never has.
SHARED = ["org.marginalia.admin", "org.marginalia.tests", "org.marginalia.writer"]


def test_marginalia_and_the_admin_settings_come_from_the_shared_layer(user_office):
    assert _deployed(user_office, "shared") == SHARED
    assert _deployed(user_office, "user") == []
    assert user_office.job("ping")["version"]


def test_locked_values_are_the_admins_and_the_users_save_does_not_take(user_office,
                                                                       admin_server):
    assert user_office.job("settings.locked") == ["endpoint", "model"]
    loaded = user_office.job("settings.load")
    assert (loaded["endpoint"], loaded["model"]) == (admin_server.url, ADMIN_MODEL)
    assert loaded["max_rounds"] == 9          # set by the administrator, not locked

    user_office.job("settings.save", endpoint="https://user.example.invalid/v1",
                    model="user-model", provider="openai", max_rounds=4)
    loaded = user_office.job("settings.load")
    assert (loaded["endpoint"], loaded["model"]) == (admin_server.url, ADMIN_MODEL)
    assert loaded["provider"] == "ollama"     # held with the endpoint: the schema's value
    assert loaded["max_rounds"] == 4          # an unlocked value is still the user's

    # Around Marginalia too: LibreOffice itself refuses a write to a finalized value.
    node = _config(user_office, "/org.marginalia.Settings/Connection", update=True)
    assert node.getPropertySetInfo().getPropertyByName("model").Attributes & 16   # READONLY
    with pytest.raises(Exception) as refused:
        node.replaceByName("model", "user-model")
    assert "finalized" in str(refused.value)
    user_office.create("com.sun.star.configuration.ConfigurationProvider").flush()
    with open(os.path.join(user_office.profile_dir, "user", "registrymodifications.xcu"),
              encoding="utf-8") as fh:
        stored = fh.read()
    assert "user.example.invalid" not in stored and "user-model" not in stored
    user_office.job("settings.save", max_rounds=12)


def test_a_turn_goes_to_the_admins_server_and_model_whatever_it_asks(user_office,
                                                                      admin_server):
    other = ScriptedServer([text_response("Answered elsewhere.")])
    doc = user_office.new_writer()
    try:
        with other:
            before = len(admin_server.chat_requests)
            # The runners' override asks for another server and model: the lock holds.
            assert user_office.job("chat.start", doc, message="hello", settings={
                "endpoint": other.url, "model": "other-model"}) == {"started": True}
            entries = []
            deadline = time.time() + 60
            while not any(e["type"] == "done" for e in entries) and time.time() < deadline:
                entries.extend(user_office.job("chat.poll", doc)["entries"])
                time.sleep(0.05)
            assert any(e["type"] == "done" for e in entries), entries
            assert other.chat_requests == []
        requests = admin_server.chat_requests[before:]
        assert len(requests) == 1 and requests[0].json["model"] == ADMIN_MODEL
        assert any("Answered by the admin" in (e.get("text") or "") for e in entries), entries
        # The chat is kept in this user's own profile, not beside the shared extension.
        listed = user_office.job("chat.history", doc)
        assert listed["folder"].startswith(user_office.profile_dir)
        assert [c["title"] for c in listed["chats"]] == ["hello"]
    finally:
        user_office.close(doc)


def test_a_second_user_gets_the_same_install_and_keeps_their_own_data(layer, admin_server,
                                                                      user_office):
    second = layer.office(OXT)
    try:
        assert second.profile_dir != user_office.profile_dir
        assert _deployed(second, "shared") == SHARED
        loaded = second.job("settings.load")
        assert (loaded["endpoint"], loaded["model"]) == (admin_server.url, ADMIN_MODEL)
        assert loaded["max_rounds"] == 9
        doc = second.new_writer()
        try:
            listed = second.job("chat.history", doc)
            assert listed["folder"].startswith(second.profile_dir)
            assert listed["chats"] == []        # the first user's chat is not theirs
        finally:
            second.close(doc)
    finally:
        second.stop()

"""ChatSession's threading and key routing, with the office's main thread played by a test thread.

The glue modules import pyuno, so these run with the office tier's Python; the
document and the main thread are stand-ins, which lets a test see exactly on
which thread the settings (and the password container) are read.
"""

import queue
import threading

import pytest

from marginalia import config
from marginalia.office import chat_session
from marginalia.office import mainthread
from marginalia.office import settings_store
from marginalia import policy as admin_policy
from marginalia.errors import Cancelled, ConfigError
from marginalia.chat.transport import CancelToken


class _MainThread(object):
    """A thread that runs posted callables in order, like VCL's event loop."""

    def __init__(self):
        self._queue = queue.Queue()
        self.thread = threading.Thread(target=self._loop, name="fake-vcl-main", daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            fn = self._queue.get()
            if fn is None:
                return
            fn()

    def post(self, _ctx, fn):
        self._queue.put(fn)

    def run_sync(self, _ctx, fn, timeout=300.0):
        box = {}
        done = threading.Event()

        def call():
            try:
                box["value"] = fn()
            except BaseException as exc:
                box["error"] = exc
            finally:
                done.set()
        self._queue.put(call)
        assert done.wait(timeout)
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def stop(self):
        self._queue.put(None)
        self.thread.join(5)


class _Doc(object):
    RuntimeUID = "test-doc"

    def addCloseListener(self, _listener):
        pass


@pytest.fixture
def main(monkeypatch):
    # These sessions have no component context: the administrator's layer reads as
    # nothing locked and no policy, as on a machine without one.
    monkeypatch.setattr(settings_store, "locked", lambda _ctx: frozenset())
    monkeypatch.setattr(settings_store, "load_policy", lambda _ctx: admin_policy.Policy())
    fake = _MainThread()
    monkeypatch.setattr(mainthread, "post", fake.post)
    monkeypatch.setattr(mainthread, "run_sync", fake.run_sync)
    yield fake
    fake.stop()


def _session():
    return chat_session.ChatSession(None, _Doc(), "test-doc")


def test_settings_and_key_are_read_on_the_main_thread(main, monkeypatch):
    # Reading the key may bring up LibreOffice's master password prompt, and two
    # workers creating the password container at once made pyuno fail with
    # "AttributeError: findForName" (two documents starting a turn together).
    threads = []

    def load(_ctx, with_key=True):
        threads.append(threading.current_thread())
        raise ConfigError("No model chosen.")
    monkeypatch.setattr(settings_store, "load", load)
    _session()._run("hello", CancelToken(), 0)
    assert threads == [main.thread]


def test_an_endpoint_override_never_gets_the_stored_endpoints_key(main, monkeypatch):
    stored = config.Settings(endpoint="https://api.openai.com/v1", api_key="sk-stored-openai")
    monkeypatch.setattr(settings_store, "load", lambda _ctx, with_key=True:
                        stored if with_key else stored.copy(api_key=""))
    keys = {settings_store.key_url("https://api.openai.com/v1"): "sk-stored-openai",
            settings_store.key_url("https://openrouter.ai/api/v1"): "sk-stored-openrouter"}
    monkeypatch.setattr(settings_store, "load_key",
                        lambda _ctx, endpoint: keys.get(settings_store.key_url(endpoint), ""))
    session = _session()

    session.settings_override = {"endpoint": "http://127.0.0.1:9/v1", "model": "m"}
    assert session._settings().api_key == ""
    session.settings_override = {"endpoint": "https://openrouter.ai/api/v1"}
    assert session._settings().api_key == "sk-stored-openrouter"
    # A key given with the override is the caller's choice (the headless runner's).
    session.settings_override = {"endpoint": "http://127.0.0.1:9/v1", "api_key": "sk-given"}
    assert session._settings().api_key == "sk-given"
    session.settings_override = {"model": "other"}
    assert session._settings().api_key == "sk-stored-openai"


@pytest.mark.parametrize("failure,entries_after_user", [
    (ConfigError("No model chosen."), [("error", "No model chosen."), ("done", "error")]),
    (Cancelled(), [("done", "cancelled")]),
])
def test_a_turn_that_ends_outside_the_loop_ends_once(main, monkeypatch, failure,
                                                     entries_after_user):
    def load(_ctx, with_key=True):
        raise failure
    monkeypatch.setattr(settings_store, "load", load)
    session = _session()
    batches = []
    ended = threading.Event()

    def listener(batch):
        batches.append((list(batch), session.busy))
        if any(role == "event" and e.kind == "done" for role, e in batch):
            ended.set()
    session.add_listener(listener)
    assert session.send("hello")
    assert ended.wait(10), batches
    entries = [entry for batch, _busy in batches for entry in batch]
    assert entries[0] == ("user", "hello")
    assert [(e.kind, e.message or e.finish_reason) for _role, e in entries[1:]] == \
        entries_after_user
    # One DONE, the last entry; busy is already False when listeners get it.
    assert batches[-1][1] is False and not session.busy
    assert session.log == entries

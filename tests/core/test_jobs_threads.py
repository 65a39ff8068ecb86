"""The job settings and log commands make their UNO calls on the main thread (a job runs on
a socket thread): each goes through mainthread.run_sync. They are the tests' commands, in
the test-only extension (tests/extension), whose package is imported from its folder."""

import os
import sys
import types

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "extension", "pythonpath"))
import marginalia_testjobs as jobs  # noqa: E402


@pytest.fixture
def stand_ins(monkeypatch):
    """Stand-ins for the office modules: each call records whether it ran inside
    run_sync (the main thread's turn)."""
    state = {"main": False, "calls": []}

    def run_sync(ctx, fn):
        state["main"] = True
        try:
            return fn()
        finally:
            state["main"] = False

    def record(name, value):
        def call(*args):
            state["calls"].append((name, state["main"]))
            return value
        return call

    modules = {
        "mainthread": types.SimpleNamespace(run_sync=run_sync),
        "settings_store": types.SimpleNamespace(locked=record("locked", {"model"})),
        "logfile": types.SimpleNamespace(debug_on=record("debug_on", None),
                                         log_path=record("log_path", "/p/marginalia.log"),
                                         debug_path=lambda path: "/p/debug.log"),
    }
    package = sys.modules["marginalia.office"]
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, "marginalia.office." + name, module)
        monkeypatch.setattr(package, name, module, raising=False)
    return state


def test_the_locked_settings_are_read_on_the_main_thread(stand_ins):
    assert jobs.execute(None, "settings.locked", None, {}) == ["model"]
    assert stand_ins["calls"] == [("locked", True)]


def test_the_log_command_runs_on_the_main_thread(stand_ins):
    assert jobs.execute(None, "log", None, {"on": True})["path"] == "/p/marginalia.log"
    assert stand_ins["calls"] == [("debug_on", True), ("log_path", True)]

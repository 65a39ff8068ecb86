"""The in-process job service that tests and the headless runner use."""

import pytest

from tests.support.office import JobError


def test_ping_runs_inside_the_installed_extension(office):
    import marginalia
    assert office.job("ping") == {"version": marginalia.__version__}
    # The install through the API is fast enough to do once per test session.
    assert office.install_seconds < 30


def test_unknown_command_is_a_clear_error(office):
    with pytest.raises(JobError) as info:
        office.job("no.such.command")
    assert "unknown command" in str(info.value)


def test_the_extension_runs_inside_the_office(office, writer_doc):
    # A live install makes the components in the deployment's helper uno.bin
    # (every call a round trip over a pipe, 15-20x slower): the harness restarts.
    probe = office.job("bench.probe", document=writer_doc, calls=50)
    assert probe["process"] == "soffice.bin" and probe["own_context"] is True
    # And the callbacks run_sync posts run on the process's main thread, not a bridge thread.
    assert probe["on_main_thread"] is True

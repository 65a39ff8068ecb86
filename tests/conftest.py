"""Shared pytest set-up: the office fixtures and the no-silent-skips rule.

Imports go through the repository root (pytest.ini's ``pythonpath``): helpers
are ``tests.support.<module>``, never bare names found next to a test file.
"""

import faulthandler
import os
import sys

import pytest

_skipped = []


def pytest_runtest_logreport(report):
    # An expected failure (xfail, with its reason) is reported, not skipped: it shows in
    # the summary as xfailed, and one that starts passing shows as XPASS.
    if report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    # `python3 build.py test` must not report success with tiers skipped.
    if os.environ.get("MARGINALIA_NO_SKIPS") and _skipped and session.exitstatus == 0:
        sys.stderr.write("\n%d test(s) were skipped; skips count as failures here:\n  %s\n"
                         % (len(_skipped), "\n  ".join(_skipped)))
        session.exitstatus = 1


def _oxt():
    oxt = os.environ.get("MARGINALIA_OXT")
    if oxt and os.path.exists(oxt):
        return oxt
    import build
    return build.build()


def _harness(gui, accessibility=False, language=None, env=None):
    try:
        import uno  # noqa: F401
    except ImportError:
        pytest.fail("LibreOffice's Python bridge (uno) cannot be imported by %s: run the suite "
                    "with `python3 build.py test` (it builds a .venv over the Python that has "
                    "uno), or install libreoffice-writer and python3-uno." % sys.executable,
                    pytrace=False)
    from tests.support.office import OfficeHarness
    return OfficeHarness(_oxt(), gui=gui, accessibility=accessibility,
                         language=language, env=env).start()


@pytest.fixture
def office_in():
    """office_in("de-DE", gui=False, env=None): a private office whose UI language is that
    one (Debian's libreoffice-l10n package gives its own words), stopped after the test."""
    started = []

    def start(language, gui=False, env=None):
        started.append(_harness(gui=gui, language=language, env=env))
        return started[-1]
    yield start
    for harness in started:
        harness.stop()


@pytest.fixture(scope="session")
def office():
    """A private headless LibreOffice with the built .oxt installed."""
    harness = _harness(gui=False)
    yield harness
    harness.stop()


@pytest.fixture(scope="session")
def gui_office():
    """A private LibreOffice with real windows on an Xvfb screen, the .oxt installed."""
    harness = _harness(gui=True)
    yield harness
    harness.stop()


@pytest.fixture(scope="session")
def reader_office():
    """A LibreOffice in an Xvfb window with the gtk3 plugin on a private session D-Bus with
    the accessibility bus, as a screen reader sees it (tests/support/atspi.py)."""
    harness = _harness(gui=True, accessibility=True)
    yield harness
    harness.stop()


# No test takes minutes; one that hangs (an office deadlocked in its toolkit) would hold
# the whole run until CI gives up, saying nothing. Past this, every thread's stack is
# printed and the run ends as a failure.
TEST_DEADLINE = 480


@pytest.fixture(autouse=True)
def _deadline():
    faulthandler.dump_traceback_later(TEST_DEADLINE, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(autouse=True)
def _office_survives(request):
    """Fail the test during which a shared office died, and start it again for the rest.

    Without this, one crash turns every later test into an error, and pytest
    aborts printing them: repr() of an object of a dead office throws a C++
    exception pyuno does not catch.
    """
    yield
    for name in ("office", "gui_office", "reader_office"):
        if name not in request.fixturenames:
            continue
        harness = request.getfixturevalue(name)
        if not harness.alive():
            said = harness.output_tail()
            harness.revive()
            pytest.fail("LibreOffice died during this test; it was started again for the tests "
                        "after it. The end of its output and log:\n%s" % (said or "(nothing)"),
                        pytrace=False)


@pytest.fixture
def writer_doc(office):
    """A fresh hidden Writer document, closed after the test."""
    doc = office.new_writer()
    yield doc
    office.close(doc)

"""The product's .oxt holds the product's code only (issue 38): the job commands only tests
and bench/ use are in the test-only extension (tests/extension, dist/marginalia-tests.oxt),
which build.py test builds and the harness installs beside it, never in a user's office."""

import os
import sys
import zipfile

import pytest

import build
from marginalia.office import jobs

# What the test-only extension owns, by file: none of it may reach the user's .oxt.
TEST_MODULES = ("testing.py", "writer_jobs.py", "review_jobs.py", "mcp_jobs.py",
                "settings_jobs.py", "chat_jobs.py", "quick_jobs.py", "source_jobs.py")
# The commands the product's own runners (cli.headless, cli.eval) send.
PRODUCT_COMMANDS = ("chat.start", "chat.poll", "chat.continue", "chat.stop",
                    "chat.transcript", "quick.run", "sources.add")


def test_the_products_package_lists_no_test_code():
    names = [arc for arc, _src in build._package_files()]
    assert "pythonpath/marginalia/office/jobs.py" in names          # the product's own
    leaked = [n for n in names if "marginalia_testjobs" in n or "marginalia_tests" in n
              or n.rsplit("/", 1)[-1] in ("jobs_testing.py", "jobs_writer.py",
                                          "jobs_review.py", "jobs_mcp.py")]
    assert leaked == []


def test_the_test_extension_holds_the_test_commands(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "DIST", str(tmp_path))
    monkeypatch.setattr(build, "TEST_OXT", str(tmp_path / "marginalia-tests.oxt"))
    with zipfile.ZipFile(build.build_tests()) as zf:
        names = set(zf.namelist())
    assert {"description.xml", "META-INF/manifest.xml", "marginalia_tests.py"} <= names
    for module in TEST_MODULES:
        assert "pythonpath/marginalia_testjobs/" + module in names
    with zipfile.ZipFile(str(tmp_path / "marginalia-tests.oxt")) as zf:
        text = zf.read("META-INF/manifest.xml").decode("utf-8")
    assert 'manifest:full-path="marginalia_tests.py"' in text


def test_the_products_job_service_runs_only_the_products_commands():
    sys.path.insert(0, os.path.join(build.TEST_EXTENSION, "pythonpath"))
    import marginalia_testjobs
    for command in ("writer.generate", "mcp.start", "review.turns", "settings.save", "ping",
                    "chat.state", "chat.new", "quick.menu", "prompts.save", "sources.list"):
        with pytest.raises(ValueError, match="unknown command"):
            jobs.execute(None, command, None, {})
        assert marginalia_testjobs.handles(command), command
    for command in PRODUCT_COMMANDS:
        assert not marginalia_testjobs.handles(command), command
        assert any(command.startswith(p) for p in jobs._PREFIXES), command

"""Shipped code parses as Python 3.8 (LibreOffice bundles old Pythons) and stays in small modules."""

import ast
import glob
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = ("pythonpath", "vendor", "extension")


def shipped_sources():
    """Every .py under the shipped folders, found at test time (new files included)."""
    found = []
    for folder in SHIPPED:
        found.extend(glob.glob(os.path.join(ROOT, folder, "**", "*.py"), recursive=True))
    return sorted(found)


def test_the_glob_finds_the_streaming_core():
    names = [os.path.relpath(p, ROOT).replace(os.sep, "/") for p in shipped_sources()]
    for expected in ("vendor/deltamerge.py", "pythonpath/marginalia/chat/stream.py",
                     "pythonpath/marginalia/chat/sse.py"):
        assert expected in names


def in_office_sources():
    """The shipped sources and the test-only extension's, which runs in the same office."""
    return shipped_sources() + sorted(glob.glob(os.path.join(
        ROOT, "tests", "extension", "**", "*.py"), recursive=True))


@pytest.mark.parametrize("path", in_office_sources(),
                         ids=lambda p: os.path.relpath(p, ROOT).replace(os.sep, "/"))
def test_parses_as_python_38(path):
    with open(path, "rb") as handle:
        source = handle.read()
    # feature_version rejects 3.9+ grammar such as match statements and
    # parenthesised context managers.
    ast.parse(source, filename=path, feature_version=(3, 8))


MAX_LINES = 450


def test_no_shipped_module_exceeds_the_size_limit():
    # Small modules that say what they own: split by concern before a file grows past this.
    too_long = {}
    for path in shipped_sources():
        with open(path, encoding="utf-8") as handle:
            count = sum(1 for _ in handle)
        if count > MAX_LINES:
            too_long[os.path.relpath(path, ROOT)] = count
    assert too_long == {}

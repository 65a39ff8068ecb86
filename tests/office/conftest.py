"""Fixtures shared by the office tests."""

import os

import pytest

from tests.support import realdocs
from tests.support.writer import sample


@pytest.fixture
def doc(office):
    """The sample report (headings, lists, emoji, a table), closed after the test."""
    d = sample(office)
    yield d
    office.close(d)


@pytest.fixture(scope="session")
def real_documents(tmp_path_factory):
    """The generated real-world documents (tests/support/realdocs.py): name -> path."""
    folder = str(tmp_path_factory.mktemp("realdocs"))
    return {os.path.basename(path): path for path in realdocs.write_all(folder)}


@pytest.fixture(scope="session")
def direct_results():
    """Per document, what each tool's direct turn left (the other modes compare with it)."""
    return {}

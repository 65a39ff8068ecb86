"""Fixtures shared by the office tests."""

import pytest

from tests.support.writer import sample


@pytest.fixture
def doc(office):
    """The sample report (headings, lists, emoji, a table), closed after the test."""
    d = sample(office)
    yield d
    office.close(d)

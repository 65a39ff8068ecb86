"""Fixtures for the core suite: a scripted SSE server per test."""

import pytest

from tests.support.sse_server import ScriptedServer


@pytest.fixture
def server():
    """A started ScriptedServer with an empty script; add responses with server.add()."""
    with ScriptedServer() as srv:
        yield srv

"""Fixtures for the core suite: a scripted SSE server per test."""

import os
import sys

import pytest

# tests.support must import however pytest was started (python -m pytest or pytest).
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tests.support.sse_server import ScriptedServer  # noqa: E402


@pytest.fixture
def server():
    """A started ScriptedServer with an empty script; add responses with server.add()."""
    with ScriptedServer() as srv:
        yield srv

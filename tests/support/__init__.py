"""Test helpers shared by the core, office and gui suites (the scripted SSE server)."""

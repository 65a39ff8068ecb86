"""An MCP (Model Context Protocol) server for agents outside the office: pure, standard library.

``backend`` is what the office implements (the document tools); ``protocol`` the JSON-RPC
dispatch, free of I/O; ``server`` the Streamable HTTP transport on loopback, with the bearer
token, Host and Origin checks of ``guard``. ``cli/mcp.py`` bridges stdio clients to it.
The constants here are the ones every side must agree on.
"""

# The port the office listens on unless the settings say otherwise, and the stdio bridge's
# default; one number for the README, the options page and the bridge.
DEFAULT_PORT = 8765
ENDPOINT_PATH = "/mcp"

# Protocol revisions spoken, newest first, in two eras (protocol.py names the rules of each).
# Modern revisions are stateless: each request carries its revision (server/discover lists
# them); handshake revisions open a session with initialize, and a client asking initialize
# for a revision not among them gets the newest of them.
MODERN_VERSIONS = ("2026-07-28",)
HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26")
SUPPORTED_VERSIONS = MODERN_VERSIONS + HANDSHAKE_VERSIONS
LATEST_VERSION = SUPPORTED_VERSIONS[0]
LATEST_HANDSHAKE_VERSION = HANDSHAKE_VERSIONS[0]
# JSON-RPC batches existed in 2025-03-26 only; 2025-06-18 removed them.
BATCH_VERSIONS = ("2025-03-26",)


def default_url(port: int = DEFAULT_PORT) -> str:
    """The endpoint's address on loopback, as agents are told to connect."""
    return "http://127.0.0.1:%d%s" % (port, ENDPOINT_PATH)

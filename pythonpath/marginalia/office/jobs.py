"""Commands the ``org.marginalia.Job`` service runs inside the office: the headless runner's.

The runners outside the office (cli.headless, cli.eval) reach the extension's own code this
way: one JSON payload in, one JSON-able result out. ``execute`` runs on a UNO socket thread,
so anything touching documents goes through mainthread. Only what the product's runners
use is here (chat.*, quick.run and the prompt library, sources.*); the commands that exist
for tests and bench/ live in the test-only extension (tests/extension), which build.py
test builds and installs beside this one and which never reaches a user's office.
"""

import importlib
from typing import Any

# Command prefix -> module with handle(ctx, command, document, payload).
_PREFIXES = {
    "chat.": "marginalia.office.jobs_chat",
    "quick.": "marginalia.office.jobs_quick",
    "prompts.": "marginalia.office.jobs_quick",
    "sources.": "marginalia.office.jobs_sources",
}


def execute(ctx, command: str, document, payload: dict) -> Any:
    """Run one command; raises for an unknown one."""
    for prefix, module_name in _PREFIXES.items():
        if command.startswith(prefix):
            module = importlib.import_module(module_name)
            return module.handle(ctx, command, document, payload)
    raise ValueError("unknown command %r" % (command,))

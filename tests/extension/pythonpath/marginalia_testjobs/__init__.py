"""The job commands only the test suite and bench/ use: the test-only extension's package.

tests/extension is built by ``build.py test`` into dist/marginalia-tests.oxt and installed
beside the product's .oxt in the tests' throwaway profiles (tests/support/office.py), never
in a user's office: the product's .oxt holds the product's code only. Its service
(``org.marginalia.TestJob``, marginalia_tests.py) runs the commands here and hands every
other one to the product's ``org.marginalia.Job``. The modules import the product's package
(``marginalia``), which the product's component put on sys.path.

  settings_jobs   ping, settings.load/save/locked/test, log
  testing         a generator, map checks, Writer's floors, timings, the panel's text
  writer_jobs     writer.*: a turn of tool calls through a WriterToolbox
  review_jobs     review.*: the change card's Accept/Reject/Restore and keep-out marks
  mcp_jobs        mcp.*: the MCP server and the agents' questions driven from tests
  chat_jobs       the History menu's chat.* (new, history, state, open, delete, forget,
                  restore); quick_jobs: quick.menu|dispatch, prompts.*; source_jobs:
                  sources.read|list|remove|insert (the product's runners use the rest)
"""

import importlib
from typing import Any

# Command prefix -> module with handle(ctx, command, document, payload).
_PREFIXES = {
    "writer.": "marginalia_testjobs.writer_jobs",
    "review.": "marginalia_testjobs.review_jobs",
    "mcp.": "marginalia_testjobs.mcp_jobs",
}
# Modules whose COMMANDS map a name to handler(ctx, document, payload); looked up first
# (some share a prefix: writer.generate).
_TABLES = ("marginalia_testjobs.testing", "marginalia_testjobs.settings_jobs",
           "marginalia_testjobs.chat_jobs", "marginalia_testjobs.quick_jobs",
           "marginalia_testjobs.source_jobs")


def _handler(command: str):
    for name in _TABLES:
        handler = importlib.import_module(name).COMMANDS.get(command)
        if handler is not None:
            return handler
    return None


def handles(command: str) -> bool:
    """Whether the command is one of the tests' (else the product's Job runs it)."""
    return _handler(command) is not None or any(command.startswith(p) for p in _PREFIXES)


def execute(ctx, command: str, document, payload: dict) -> Any:
    """Run one test command; raises for an unknown one."""
    handler = _handler(command)
    if handler is not None:
        return handler(ctx, document, payload)
    for prefix, module_name in _PREFIXES.items():
        if command.startswith(prefix):
            return importlib.import_module(module_name).handle(ctx, command, document, payload)
    raise ValueError("unknown test command %r" % (command,))

"""``mcp.*`` job commands: the MCP server driven from tests and bench/ (office.mcp_host).

``mcp.start`` serves regardless of the setting (port 0: a free one) and hands back
the port and the token, which only a test may ever see; ``mcp.stop``;
``mcp.state`` (office.mcp_host.state); ``mcp.apply`` applies the saved settings as
a settings change does; ``mcp.stop_agent`` / ``mcp.resume_agent`` are the panel's
Stop and its undoing; ``mcp.new_token``; ``mcp.settle`` closes the open agent
turns at once; ``mcp.max_turn`` sets how long one agent turn may last
(office.mcp_turns.MAX_TURN); ``mcp.probe`` times the main thread's answer to a
posted call and ``mcp.longest`` gives the longest main-thread call since the
last ask (bench/bench_mcp_load.py). ``mcp.add_token`` (name, scope) makes a
named token and hands back its id and secret (tests only), ``mcp.tokens`` lists
the tokens without their secrets, ``mcp.revoke`` forgets one (office.mcp_token);
the running server takes each change at once. ``mcp.questions`` lists the questions
about agents' edits waiting for the user, ``mcp.answer`` answers one as the panel's
Allow once / Refuse do, ``mcp.ask_wait`` sets how long a call waits for that answer
(office.agent_questions); ``mcp.calls`` gives the call log's lines.
"""

import time
from typing import Any

from marginalia.office import agent_questions, mainthread, mcp_host, mcp_token, mcp_turns


def _start(ctx, payload):
    port = mainthread.run_sync(ctx, lambda: mcp_host.start(ctx, int(payload.get("port", 0))))
    if payload.get("fresh"):
        mcp_turns.reset_stops()
    token = mainthread.run_sync(ctx, lambda: mcp_token.read_token(ctx))
    return {"port": port, "token": token}


def _apply(ctx, payload):
    mainthread.run_sync(ctx, lambda: mcp_host.apply_settings(ctx))
    # A stop or a restart finishes on a worker: give it its moment.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        settings_on = mainthread.run_sync(ctx, lambda: _enabled(ctx))
        if mcp_host.running() == settings_on:
            break
        time.sleep(0.05)
    return mcp_host.state()


def _enabled(ctx):
    from marginalia.office import settings_store
    return settings_store.load(ctx, with_key=False).mcp_enabled


def _add_token(ctx, payload):
    def add():
        token = mcp_token.add_token(ctx, payload["name"], payload["scope"])
        mcp_host.tokens_changed(ctx)
        return {"id": token.id, "secret": token.secret}
    return mainthread.run_sync(ctx, add)


def _tokens(ctx):
    return [{"id": t.id, "name": t.name, "scope": t.scope}
            for t in mcp_token.read_tokens(ctx)]


def _revoke(ctx, token_id):
    mcp_token.revoke(ctx, token_id)
    mcp_host.tokens_changed(ctx)


def _probe(ctx, payload):
    """How long a call posted to the main thread waited to run (seconds)."""
    posted = time.perf_counter()
    ran = mainthread.run_sync(ctx, time.perf_counter)
    return ran - posted


def _max_turn(seconds):
    old, mcp_turns.MAX_TURN = mcp_turns.MAX_TURN, seconds
    return old


COMMANDS = {
    "mcp.start": _start,
    "mcp.stop": lambda ctx, payload: mcp_host.stop() or mcp_host.state(),
    "mcp.state": lambda ctx, payload: mcp_host.state(),
    "mcp.apply": _apply,
    "mcp.stop_agent": lambda ctx, payload: mcp_turns.stop_agent(payload["name"]),
    "mcp.resume_agent": lambda ctx, payload: mcp_turns.resume_agent(payload["name"]),
    "mcp.new_token": lambda ctx, payload: bool(
        mainthread.run_sync(ctx, lambda: mcp_host.new_token(ctx))),
    "mcp.add_token": _add_token,
    "mcp.tokens": lambda ctx, payload: mainthread.run_sync(ctx, lambda: _tokens(ctx)),
    "mcp.revoke": lambda ctx, payload: mainthread.run_sync(
        ctx, lambda: _revoke(ctx, payload["id"])),
    # The documents whose one-call-at-a-time lock is kept (closed ones must go).
    "mcp.locked_documents": lambda ctx, payload: sorted(mcp_turns._doc_locks),
    "mcp.probe": _probe,
    "mcp.longest": lambda ctx, payload: mainthread.longest_stretch(),
    # Tests: a turn's longest length (office.mcp_turns.MAX_TURN); answers the old one.
    "mcp.max_turn": lambda ctx, payload: _max_turn(float(payload["seconds"])),
    # Close the agents' open turns now instead of after the idle window (tests).
    "mcp.settle": lambda ctx, payload: mcp_turns.close_all(),
    # Tests: how long a call waits on the panel's answer (office.agent_questions); the old.
    "mcp.ask_wait": lambda ctx, payload: _ask_wait(float(payload["seconds"])),
    "mcp.questions": lambda ctx, payload: _questions(),
    # The call log's lines as Options > Agents' calls shows them, newest first.
    "mcp.calls": lambda ctx, payload: mainthread.run_sync(ctx, lambda: _calls(ctx)),
    # The panel's answer, as Allow once / Refuse give it.
    "mcp.answer": lambda ctx, payload: mainthread.run_sync(ctx, lambda: agent_questions.answer(
        payload["id"], bool(payload["allow"]))),
}


def _ask_wait(seconds):
    old, agent_questions.wait_seconds[0] = agent_questions.wait_seconds[0], seconds
    return old


def _calls(ctx):
    from marginalia.mcp import call_log
    from marginalia.office import agent_calls
    return [call_log.line(call) for call in agent_calls.recent(ctx)]


def _questions():
    """The open questions as data (the place in English: the panel's Phrase is not JSON)."""
    out = []
    for question in agent_questions.QUESTIONS.open():
        place = question.pop("place", None)
        out.append(dict(question, where=place.english() if place is not None else ""))
    return out


def handle(ctx, command: str, document, payload: dict) -> Any:
    """Run one ``mcp.*`` command; ValueError for an unknown one."""
    handler = COMMANDS.get(command)
    if handler is None:
        raise ValueError("unknown mcp command %r" % (command,))
    return handler(ctx, payload)

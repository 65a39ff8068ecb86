"""The outside agents' calls the user can read: one log per office, kept in the profile.

The MCP backend records each tools/call and resources/read as it ends (``record``, on the
server's HTTP threads); Options > Marginalia > Agents' calls lists them (``recent``) and
follows them while it is open (``add_listener``: told on the main thread). The log itself
(mcp.call_log) keeps no document text, arguments or tokens: a call's time, agent, token
name, tool, document title and outcome. Its file is ``<profile>/user/marginalia/
agent-calls.jsonl``, private to the user.
"""

import logging
import os
import threading
import time
from typing import Callable, List, Optional

from marginalia.mcp import call_log

log = logging.getLogger("marginalia.mcp")

FILE_NAME = "agent-calls.jsonl"

_lock = threading.Lock()
_log = [None]                   # type: List[Optional[call_log.CallLog]]
_listeners = []                 # type: List[Callable[[], None]]
_ctx = [None]


def opened(ctx) -> call_log.CallLog:
    """The office's call log, read from its file the first time. Main thread (the
    profile's path comes from the office)."""
    with _lock:
        if _log[0] is not None:
            return _log[0]
    from marginalia.office import logfile
    path = os.path.join(os.path.dirname(logfile.log_path(ctx)), FILE_NAME)
    made = call_log.CallLog(path)
    with _lock:
        if _log[0] is None:
            _log[0], _ctx[0] = made, ctx
        return _log[0]


def record(agent: str, token_name: str, tool: str, document: str, outcome: str) -> None:
    """One call ended (any thread; never raises). Before the log was opened (no server
    ever started in this office) there is nothing to record into."""
    with _lock:
        kept, listeners, ctx = _log[0], list(_listeners), _ctx[0]
    if kept is None:
        return
    try:
        kept.add(call_log.Call(time=time.time(), agent=agent, token_name=token_name,
                               tool=tool or call_log.READ_RESOURCE, document=document,
                               outcome=outcome))
    except Exception:
        log.exception("could not record an agent's call")
        return
    if listeners and ctx is not None:
        from marginalia.office import mainthread
        for listener in listeners:
            mainthread.post(ctx, listener)


def recent(ctx, limit: int = call_log.DEFAULT_LIMIT) -> List[call_log.Call]:
    """The newest calls first; main thread."""
    return opened(ctx).recent(limit)


def clear(ctx) -> None:
    opened(ctx).clear()


def add_listener(fn: Callable[[], None]) -> None:
    with _lock:
        _listeners.append(fn)


def remove_listener(fn: Callable[[], None]) -> None:
    with _lock:
        if fn in _listeners:
            _listeners.remove(fn)

"""Outside agents' turns on Writer documents: one undo step per agent turn, Stop, state.

An MCP agent (office.mcp_backend) sends one ``tools/call`` at a time; a chat
turn's many calls arrive as many requests. Its consecutive calls on one document
within IDLE seconds form ONE turn, as a panel turn's tool calls do: one
WriterToolbox (the apply mode from the mcp_apply_mode setting, the agent's name
as the tracked changes' author and as the undo step's title, "Claude via
Marginalia"), begun at the first call and ended when the agent has been quiet
for IDLE seconds, when another agent calls on that document, when the
panel starts a turn there (``end_for_document``, at once; while the panel's turn
runs, agent calls on that document are refused with PANEL_BUSY), or at the agent's first call
after MAX_TURN seconds (a new turn begins with it). Calls on one document run
one at a time; each runs its document work on the main thread (the toolbox's runner).

State for the panel (the lead's UI; nothing here draws):
  * ``active()``: the open agent turns now, a list of dicts
    {"agent", "session", "document" (the document id), "title" (the document's),
    "author", "since" (time.time() of the turn's first call)}.
  * ``add_listener(fn)`` / ``remove_listener(fn)``: ``fn(active())`` is called on
    the main thread whenever a turn opens or closes (posted; never inside a call).
  * ``stop_agent(name_or_session)``: refuses that agent's further calls for this
    office session (an agent named so, or the one MCP session with that id), and
    closes its open turns; returns how many agents the name stopped (0 or 1 is
    typical). ``stopped()`` lists them; ``resume_agent`` takes a Stop back.
    Names compare without case or spacing ("claude" is "Claude"), and the MCP
    sessions the agent had are refused too. Stop is for a well-behaved agent: the
    name is the agent's own say (MCP clientInfo), so an agent set on going on can
    reconnect under another one. The strong stop is New token (Options > Other
    agents): every agent must then be given the new token to be served at all.
  * A turn's change records reach the document's chat session log as CHANGE
    events when it closes, so the change card shows the last agent turn as it
    shows a panel turn (its one-line summary appears when a turn made changes,
    ui.change_fold; an agent's turn after the user's last message counts).
"""

import logging
import threading
import time
from typing import Any, Callable, Dict, List, Optional

from marginalia import threads
from marginalia.errors import Cancelled
from marginalia.mcp import questions
from marginalia.office import mainthread

log = logging.getLogger("marginalia.mcp")

# Seconds an agent may be quiet between two calls of one turn. A model's round
# trip between tool calls takes about a second on a fast cloud model, several
# on a local one; 3 s keeps a burst of calls in one undo step without letting
# a turn stay open (recording on, the step joinable) long after the agent stopped.
IDLE = 3.0
# Seconds one turn may last however busily its agent calls: the next call after it
# starts a new turn. One turn is one Undo step, and a step should stay something a
# user can take back knowingly, not an agent's whole afternoon of edits at once.
# (Tests may lower it: the mcp.max_turn job command.)
MAX_TURN = 120.0

# The agent's words (tool errors it reads and acts on): English, never translated.
CLOSED = ("That document was closed in Writer; nothing was changed. Call list_documents "
          "to see the open documents.")
PANEL_BUSY = ("The user's chat in Marginalia is editing this document now; nothing was "
              "changed. Try again when it has finished.")
STOPPED = ("The user stopped this agent in Marginalia: its calls are refused for this "
           "LibreOffice session.")


class Stopped(Exception):
    """The agent was stopped by the user (stop_agent): its call is refused."""


class PanelBusy(Exception):
    """The user's chat (the panel) runs a turn on the document: the call is refused."""


class DocumentClosed(Exception):
    """The document was closed before or during the call; nothing else changed."""


class _AgentTurn:
    """One agent's open turn on one document."""

    def __init__(self, agent, session, key, doc, title, toolbox, author):
        self.agent = agent
        self.author = author
        self.session = session
        self.key = key
        self.doc = doc
        self.title = title
        self.toolbox = toolbox
        self.since = time.time()
        self.began = self.last = time.monotonic()
        self.closed = False

    def state(self) -> Dict[str, Any]:
        return {"agent": self.agent, "session": self.session, "document": self.key,
                "title": self.title, "author": self.author,
                "since": self.since}


_lock = threading.Lock()
_open: Dict[str, _AgentTurn] = {}          # document id -> the agent turn open on it
_doc_locks: Dict[str, threading.Lock] = {}  # document id -> one call at a time
_stopped: List[str] = []                    # names (or session ids) as Stop was given them
_stopped_sessions: Dict[str, List[str]] = {}  # a stopped name -> its sessions, refused too
_agent_sessions: Dict[str, List[str]] = {}    # an agent name -> its latest MCP sessions
_SESSIONS_KEPT = 20
_listeners: List[Callable[[List[Dict[str, Any]]], None]] = []
_ctx = [None]


def _doc_lock(key) -> threading.Lock:
    with _lock:
        lock = _doc_locks.get(key)
        if lock is None:
            lock = _doc_locks[key] = threading.Lock()
        return lock


def _norm(name) -> str:
    """A name as Stop compares it: "Claude", "claude" and " CLAUDE " are one agent."""
    return " ".join(str(name or "").split()).casefold()


def is_stopped(agent: str, session: Optional[str] = None) -> bool:
    with _lock:
        if session:
            _remember(_norm(agent), session)
        stops = set(_norm(s) for s in _stopped)
        if _norm(agent) in stops or (session and _norm(session) in stops):
            return True
        return bool(session) and any(session in ids for ids in _stopped_sessions.values())


def _remember(name, session):
    """The sessions an agent name has had (the lock held): Stop refuses them too."""
    seen = _agent_sessions.setdefault(name, [])
    if session not in seen:
        seen.append(session)
        del seen[:-_SESSIONS_KEPT]


def stop_agent(name_or_session: str) -> int:
    """Refuse the agent's (or the MCP session's) further calls for this office session:
    the name compared without case or spacing, and every MCP session it has had.

    Its open turns close (their undo steps and change records settle) on a worker
    thread, so this may be called on the main thread. Returns the turns closed.
    """
    key = _norm(name_or_session)
    with _lock:
        if key not in set(_norm(s) for s in _stopped):
            _stopped.append(name_or_session)
        ids = set(_agent_sessions.get(key, ()))
        ids.update(t.session for t in _open.values() if t.session and _norm(t.agent) == key)
        _stopped_sessions[key] = sorted(ids)
        turns = [t for t in _open.values()
                 if key in (_norm(t.agent), _norm(t.session)) or t.session in ids]
    for turn in turns:
        threads.start(_close_locked, turn, name="marginalia-mcp-stop")
    log.info("an agent was stopped by the user")
    return len(turns)


def resume_agent(name_or_session: str) -> None:
    """Take a Stop back: the agent's calls are served again."""
    key = _norm(name_or_session)
    with _lock:
        _stopped[:] = [s for s in _stopped if _norm(s) != key]
        _stopped_sessions.pop(key, None)


def stopped() -> List[str]:
    with _lock:
        return list(_stopped)


def active() -> List[Dict[str, Any]]:
    """The open agent turns now (see the module docstring)."""
    with _lock:
        return [t.state() for t in _open.values()]


def know_ctx(ctx) -> None:
    """The component context listeners are told through (set by the first call too)."""
    _ctx[0] = ctx


def add_listener(fn: Callable[[List[Dict[str, Any]]], None]) -> None:
    with _lock:
        _listeners.append(fn)


def remove_listener(fn) -> None:
    with _lock:
        if fn in _listeners:
            _listeners.remove(fn)


def _changed():
    ctx = _ctx[0]
    with _lock:
        listeners = list(_listeners)
        state = [t.state() for t in _open.values()]
    if ctx is None or not listeners:
        return

    def tell():
        for fn in listeners:
            try:
                fn(state)
            except Exception:
                log.exception("an MCP state listener failed")
    try:
        mainthread.post(ctx, tell)
    except Exception:
        log.exception("could not tell the MCP state listeners")


def call(ctx, agent: str, session: Optional[str], key: str, doc: Any, name: str,
         arguments: Dict[str, Any], make_toolbox: Callable[[str], Any],
         allowed: questions.Allowance = questions.NOTHING):
    """Run one tool call in the agent's turn on the document: (its chat.tools.ToolResult,
    what the user could be asked to let it through or None: mcp.questions.Ask).

    ``make_toolbox(agent)``: a new WriterToolbox for the document, made when the
    call opens a turn; ``allowed``: what the user allowed this call (writer.consent).
    Raises Stopped, or DocumentClosed (the turn is then closed).
    """
    _ctx[0] = ctx
    if is_stopped(agent, session):
        raise Stopped(STOPPED)
    try:
        return _call(agent, session, key, doc, name, arguments, make_toolbox, allowed)
    except DocumentClosed:
        _forget(key)
        raise


def _forget(key) -> None:
    """A closed document's lock goes: its id (a RuntimeUID) never comes back, and an office
    that agents keep busy for days would otherwise keep one lock per document it had open."""
    with _lock:
        if key not in _open:
            _doc_locks.pop(key, None)


def _call(agent, session, key, doc, name, arguments, make_toolbox, allowed):
    with _doc_lock(key):
        if is_stopped(agent, session):      # stopped while this call waited
            raise Stopped(STOPPED)
        turn = _open.get(key)
        if _panel_busy(key):
            # Two turns editing one document at once would mix their undo steps and
            # change records: the panel's turn has the document to itself.
            if turn is not None:
                _close(turn)
            raise PanelBusy(PANEL_BUSY)
        if turn is not None and ((turn.agent, turn.session) != (agent, session)
                                 or time.monotonic() - turn.began >= MAX_TURN):
            _close(turn)                    # another agent's turn, or a long one, ends here
            turn = None
        if turn is None:
            turn = _begin(agent, session, key, doc, make_toolbox)
        box = turn.toolbox
        box.allowed, box.asked = allowed, None
        try:
            result = box.registry.call(name, arguments)
        except Cancelled:
            _close(turn)
            raise DocumentClosed(CLOSED)
        finally:
            asked, box.allowed, box.asked = box.asked, questions.NOTHING, None
        turn.last = time.monotonic()
        if _panel_busy(key):
            _close(turn)            # the panel started a turn during this call
        return result, (None if result.ok else asked)


def _panel_busy(key) -> bool:
    """Whether the panel's chat runs a turn on the document (no UNO: any thread)."""
    from marginalia.office import chat_session
    with chat_session._sessions_lock:
        session = chat_session._sessions.get(key)
    return session is not None and session.busy


def _begin(agent, session, key, doc, make_toolbox):
    toolbox = make_toolbox(agent)
    title = ""
    try:
        title = mainthread.run_sync(toolbox.ctx, doc.getTitle)
    except Exception:
        raise DocumentClosed(CLOSED)
    toolbox.begin_turn(agent)
    from marginalia.writer.turn import agent_author
    turn = _AgentTurn(agent, session, key, doc, title, toolbox, agent_author(agent))
    with _lock:
        _open[key] = turn
    threads.start(_watch, turn, name="marginalia-mcp-turn")
    _changed()
    return turn


def _watch(turn):
    """Close the turn once its agent has been quiet for IDLE seconds."""
    while not turn.closed:
        wait = turn.last + IDLE - time.monotonic()
        if wait > 0:
            time.sleep(wait)
            continue
        with _doc_lock(turn.key):
            if not turn.closed and turn.last + IDLE <= time.monotonic():
                _close(turn)


def _close_locked(turn):
    with _doc_lock(turn.key):
        _close(turn)


def _close(turn):
    """End the turn's undo step and hand its change records on; the caller holds the
    document's lock. Never raises: the document may be gone."""
    if turn.closed:
        return
    turn.closed = True
    with _lock:
        if _open.get(turn.key) is turn:
            del _open[turn.key]
    turn.toolbox.end_turn()
    try:
        changes = turn.toolbox.changes()
    except Exception:
        log.exception("could not read an agent turn's changes")
        changes = []
    if changes:
        _to_card(turn, changes)
    _changed()


def _to_card(turn, changes):
    """The turn's change records as CHANGE events in the document's chat session: its log
    is what the change card reads (document.change_log.turns_in), as for a panel turn.

    On the main thread (the session is made there: UNO), and with no author recovery:
    another agent's edit may hold the profile name swapped, and recovery then would
    give the user's name to that agent's tracked changes."""
    from marginalia import events as ev
    from marginalia.office import chat_session

    def hand():
        session = chat_session.session_for(turn.toolbox.ctx, turn.doc, recover=False)
        for change in changes:
            session._push(session._generation,
                          ev.Entry.event(ev.Event(ev.CHANGE, change=change.to_dict())))
    try:
        mainthread.run_sync(turn.toolbox.ctx, hand)
    except Exception:
        log.exception("could not hand an agent turn's changes to the change card")


def watch_panel() -> None:
    """Close an agent's turn on a document when the panel starts a turn there."""
    from marginalia.office import chat_session
    if end_for_document not in chat_session._starting:
        chat_session._starting.append(end_for_document)


def end_for_document(key: str) -> None:
    """Close the agent turn open on the document, if any: the panel starts a turn there
    (ChatSession.send, busy already set, so further agent calls are refused).

    Closes it now, before the panel's first edit, unless an agent call is running on
    the document: that call holds the document's lock and may wait for the main
    thread, where this may run, so it is not waited for; it closes the turn itself
    when it sees the panel busy, and a worker closes it after, should it have looked
    just before the panel started.
    """
    with _lock:
        turn = _open.get(key)
    if turn is None:
        return
    lock = _doc_lock(key)
    if lock.acquire(False):
        try:
            _close(turn)
        finally:
            lock.release()
    else:
        threads.start(_close_locked, turn, name="marginalia-mcp-end")


def end_session(session: Optional[str]) -> None:
    """Close the turns of one MCP session (it ended), and no one else's; returns at once."""
    if not session:
        return
    with _lock:
        turns = [t for t in _open.values() if t.session == session]
    for turn in turns:
        threads.start(_close_locked, turn, name="marginalia-mcp-end")


def close_all() -> None:
    """Close every open agent turn now (the server stops); waits for each."""
    with _lock:
        turns = list(_open.values())
    for turn in turns:
        _close_locked(turn)


def reset_stops() -> None:
    """Forget every Stop (tests: a fresh office session)."""
    with _lock:
        del _stopped[:]
        _stopped_sessions.clear()
        _agent_sessions.clear()

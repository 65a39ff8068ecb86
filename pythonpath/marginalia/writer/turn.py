"""The safety frame around one chat turn's edits: one undo step, tracked changes.

Undo: each edit tool call runs in an undo context of its own, left as soon
as the call ends, never across the wait for the model: the user may type
while a turn runs (tool calls run on the main thread between keystrokes), and
an undo context left open would take their typing into the AI's step, so one
Undo would take it back with the AI's edits (and Writer refuses Undo while a
context is open). A later call of the same turn joins the turn's step with a
hidden context (``enterHiddenUndoContext`` merges into the action on top)
when the document's change counter shows that nothing happened since the
turn's last edit, so the step on top is still the turn's: a turn is one Undo
step. When the user edited in between, the later calls start a new step with
the same title after the user's own, so Undo never mixes the two. Nothing is
added for a turn that only reads.

Track changes: with the setting on, recording is switched on for the turn
and switched back after; if the user already records, edits are tracked
anyway. Several turns may want recording on one document at once (an outside
agent's and the panel's): the document keeps a count of them (``_holders``), and
only the last one ending switches recording back, to what it was before the
first; a turn ending never switches it off under another still editing. Writer takes a redline's author from the user profile's name, so
during each edit call (and only then, so the user's own typing between tool
calls keeps their name) the profile name is "Marginalia (AI)", restored in
``finally``. An outside agent's turn (office.mcp_turns) carries the agent's name
instead ("Claude via Marginalia"), as author and as the undo step's title. All
methods run on the main thread.
"""

import json
import logging
import os
from typing import Any, Optional

from marginalia.document import docview
from marginalia.writer import changes

log = logging.getLogger("marginalia.writer")

AI_AUTHOR = "Marginalia (AI)"
# An outside agent's author name ends so (agent_author): it is ours to restore too.
AGENT_SUFFIX = " via Marginalia"
_PROFILE = "/org.openoffice.UserProfile/Data"
_NAME_KEYS = ("givenname", "sn")


def agent_author(agent: str) -> str:
    """The author (and undo title) of an outside agent's edits: "Claude via Marginalia"."""
    return (docview.short(agent or "", 40) or "An agent") + AGENT_SUFFIX


def _is_ours(name) -> bool:
    return name == AI_AUTHOR or str(name or "").endswith(AGENT_SUFFIX)


def undo_title(request: Optional[str]) -> str:
    """The Undo menu entry for a turn: the request, shortened to one line."""
    return "Marginalia: %s" % (docview.short(request or "", 50) or "edit")


class _Profile:
    def __init__(self, ctx):
        from com.sun.star.beans import PropertyValue
        provider = ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.configuration.ConfigurationProvider", ctx)
        arg = PropertyValue()
        arg.Name, arg.Value = "nodepath", _PROFILE
        self._access = provider.createInstanceWithArguments(
            "com.sun.star.configuration.ConfigurationUpdateAccess", (arg,))

    def names(self):
        return tuple(self._access.getByName(k) for k in _NAME_KEYS)

    def set_names(self, values):
        for key, value in zip(_NAME_KEYS, values):
            self._access.replaceByName(key, value)
        self._access.commitChanges()


class AuthorSwap:
    """Context manager: the profile name is AI_AUTHOR inside, the user's again after."""

    def __init__(self, ctx: Any, active: bool, name: str = AI_AUTHOR):
        self._ctx = ctx
        self._active = active
        self._name = name
        self._saved = None
        self._profile = None

    def __enter__(self):
        if self._active:
            self._profile = _Profile(self._ctx)
            names = self._profile.names()
            if _is_ours(names[0]):
                # An earlier edit never got to restore the name (the office crashed).
                names = _read_rescue(self._ctx) or ("", "")
            self._saved = names
            # Written before the swap, so a crash inside the edit cannot cost the
            # user their name: recover_author() puts it back on the next start.
            _write_rescue(self._ctx, names)
            self._profile.set_names((self._name, ""))
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            try:
                self._profile.set_names(self._saved)
                _remove_rescue(self._ctx)
            except Exception:
                log.exception("could not restore the user name in the profile")
        return False


def _rescue_path(ctx):
    from marginalia.writer import profile
    return os.path.join(profile.folder(ctx), "author-rescue.json")


def _read_rescue(ctx):
    try:
        with open(_rescue_path(ctx), encoding="utf-8") as fh:
            names = json.load(fh)
        return (str(names[0]), str(names[1]))
    except (OSError, ValueError, IndexError, TypeError):
        return None


def _write_rescue(ctx, names):
    path = _rescue_path(ctx)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(list(names), fh)


def _remove_rescue(ctx):
    try:
        os.remove(_rescue_path(ctx))
    except OSError:
        pass


# Document RuntimeUID -> [turns holding recording on, whether it was on before the
# first]. Main thread only, as every Turn method.
_holders = {}


def _hold_recording(doc) -> str:
    key = str(doc.RuntimeUID)
    held = _holders.get(key)
    if held is None:
        was = bool(doc.getPropertyValue("RecordChanges"))
        if not was:
            doc.setPropertyValue("RecordChanges", True)
        held = _holders[key] = [0, was]
    held[0] += 1
    return key


def _release_recording(doc, key) -> None:
    held = _holders.get(key)
    if held is None:
        return
    held[0] -= 1
    if held[0] > 0:
        return                  # another turn still edits with recording on
    del _holders[key]
    if not held[1]:
        doc.setPropertyValue("RecordChanges", False)


def recover_author(ctx: Any) -> bool:
    """Give the user back their profile name if a crash left the AI author in it."""
    rescued = _read_rescue(ctx)
    if rescued is None:
        return False
    profile = _Profile(ctx)
    if _is_ours(profile.names()[0]):
        profile.set_names(rescued)
        log.info("restored the user name after an interrupted edit")
    _remove_rescue(ctx)
    return True


class Turn:
    """Per-turn edit state of one document."""

    def __init__(self, ctx: Any, doc: Any, track_changes: bool, author: str = AI_AUTHOR):
        self.ctx = ctx
        # The redlines' author; an agent's name also titles its undo step.
        self.author_name = author
        self.doc = doc
        self.track_changes = track_changes
        self.title = undo_title("")
        self.in_context = False
        # The document's key while this turn holds recording on (_hold_recording).
        self.restore_recording = None
        # The change count right after the turn's last edit that added to its undo
        # step: while the document's count still says so, that step is on top.
        self.top = None
        self._before = 0
        self._depth = -1       # how many undo actions there were after the turn's last step
        # Undo steps the turn has added (one, unless the user edited in between);
        # a restore undoes exactly these.
        self.steps = 0
        self._new_step = False
        # Whether the call added an undo action of its own (writer.mark_keeper).
        self.added_action = False
        # Whether the last call changed the document, and the counts from before it.
        self._changed = False
        self._kept = (None, 0, None, -1)
        # The change count before the turn's first edit (None until it edits).
        self.start_count = None

    def begin(self, request: Optional[str]) -> None:
        """A new turn: nothing entered yet; the undo step is named after ``request``."""
        self.title = undo_title(request) if self.author_name == AI_AUTHOR else self.author_name
        self.in_context = False
        if self.restore_recording is not None:
            # A turn never ended (its end failed): its hold must not keep recording on.
            key, self.restore_recording = self.restore_recording, None
            _release_recording(self.doc, key)
        self.top = None
        self.steps = 0
        self.start_count = None

    def open_edit(self) -> None:
        """Enter the undo context of one edit call."""
        manager = self.doc.getUndoManager()
        self._before = changes.change_count(self.doc)
        self._new_step = False
        self.added_action = False
        if self.top is not None and (self._before == self.top or self._ours_on_top(manager)):
            try:
                manager.enterHiddenUndoContext()
                self.in_context = True
                return
            except Exception:
                # EmptyUndoStackException: undo is off, or the stack was cleared.
                pass
        manager.enterUndoContext(self.title)
        self.in_context = True
        self._new_step = True

    def _ours_on_top(self, manager) -> bool:
        """The turn's step is still the newest undo action, though the counter moved.

        Writer moves the change counter with nobody editing (fields and layout
        settling); anything the user did would have put an action of its own on top.
        """
        try:
            return (manager.getCurrentUndoActionTitle() == self.title
                    and len(manager.getAllUndoActionTitles()) == self._depth)
        except Exception:
            return False

    def close_edit(self) -> None:
        """Leave the call's context; a call that changed something put the step on top."""
        if not self.in_context:
            return
        self.in_context = False
        manager = self.doc.getUndoManager()
        manager.leaveUndoContext()
        after = changes.change_count(self.doc)
        self._kept = (self.start_count, self.steps, self.top, self._depth)
        self._changed = after != self._before
        if not self._changed and self._new_step and self.added_action:
            # A refused call left a step holding only the toolbox's own undo action
            # (writer.mark_keeper): no step for a call that changed nothing.
            manager.undo()
            manager.clearRedo()
        if self._changed:
            if self.start_count is None:
                self.start_count = self._before
            if self._new_step:
                self.steps += 1
            self.top = after
            self._depth = len(self.doc.getUndoManager().getAllUndoActionTitles())

    @property
    def depth(self) -> int:
        """How many undo actions there were right after the turn's last edit."""
        return self._depth

    def take_back_edit(self) -> bool:
        """After close_edit of a call that failed: undo what it changed, when its undo
        step is its own. False when it changed the document inside the turn's step,
        which cannot be taken back without the turn's earlier edits."""
        if not self._changed:
            return True
        if not self._new_step:
            return False
        manager = self.doc.getUndoManager()
        try:
            manager.undo()
            manager.clearRedo()
        except Exception:
            log.exception("could not take a failed call back")
            return False
        self.start_count, self.steps, self.top, self._depth = self._kept
        self._changed = False
        return True

    def before_edit(self) -> None:
        """Switch recording on at the turn's first edit (when the setting asks)."""
        if self.track_changes and self.restore_recording is None:
            self.restore_recording = _hold_recording(self.doc)

    def recording(self) -> bool:
        """Whether the document records changes right now."""
        return bool(self.doc.getPropertyValue("RecordChanges"))

    def author(self) -> AuthorSwap:
        """Wraps one edit: tracked changes made inside carry the AI author."""
        return AuthorSwap(self.ctx, self.recording(), self.author_name)

    def end(self) -> None:
        """Restore recording (and leave a context an edit left open); safe to repeat."""
        errors = []
        if self.restore_recording is not None:
            key, self.restore_recording = self.restore_recording, None
            try:
                _release_recording(self.doc, key)
            except Exception as exc:
                errors.append(exc)
        if self.in_context:
            self.in_context = False
            try:
                self.doc.getUndoManager().leaveUndoContext()
            except Exception as exc:
                errors.append(exc)
        for exc in errors:
            # A UNO message may quote the document: the type says enough (debuglog).
            log.warning("ending the turn: %s", type(exc).__name__)

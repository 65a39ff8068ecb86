"""Asking the user before an agent's edit instead of refusing it (pure, any thread).

Two edits of an outside agent are not made on the agent's word alone:

- one that touches a passage the user marked "Keep Marginalia out" (``KEPT_OUT``), and
- one that would delete many words at once, applied directly (``LARGE``: ``is_large``).
  In Suggest and Comment only every deletion is something the user reviews anyway.

The document tools find these and say so as data (an ``Ask``). The office then opens a
``Question``: the panel of the document's window asks the user (Allow once / Refuse), and an
agent on revision 2026-07-28 whose client can show forms is asked too, the revision's way: its
tools/call is answered with ``resultType: "input_required"``, an ``elicitation/create`` form
(``elicitation``) and ``requestState`` (the question's id), and the client calls again with
the user's answer (``answer_of``). Other agents' calls wait up to a minute for the panel's
answer, then read ``PENDING``; the question stays open (``LIFE``) and the same call, made
again, gets the answer once given. Either answer decides; the first one given counts.

A question belongs to one call: its ``key`` is the token's grant id, the tool and its
arguments (``call_key``), so an answer never lets through a call it was not given for, and
``requestState`` is only where to look, never a permission: a state this server did not
issue for the very call it comes back with is refused (-32602, ``BAD_STATE``), as the
revision asks of an echo that could steer what the server does. An allowed question is
used up by the call it allowed (``Questions.use``): the next such edit asks again.
"""

import hashlib
import json
import logging
import secrets
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

log = logging.getLogger("marginalia.mcp")

KEPT_OUT = "kept_out"
LARGE = "large_deletion"

# Words an edit may delete at once before the user is asked, and the share of a document
# (with at least SMALL_DOC words) past which a smaller deletion is large too.
LARGE_WORDS = 150
SMALL_DOC = 40
# Seconds a question stays open for the same call made again.
LIFE = 600.0
# Seconds a call without a form to show waits for the panel's answer. Agents' clients
# time a tool call out after one to several minutes; a minute leaves the agent time to
# say what it waits for.
WAIT = 60.0

# The agent's words (English: agents read them, and act on them).
PENDING = ("Nothing was changed yet: %s. The user is asked in LibreOffice, in the Marginalia "
           "panel, whether to allow it once. Call again with the same arguments after they "
           "have answered (the question stays open for ten minutes), or leave it.")
REFUSED = ("The user refused this in LibreOffice: %s. Nothing was changed; leave it as it is "
           "and do not make the change another way.")
FORM_KEPT = ("%(agent)s asks to change %(where)s of \u201c%(title)s\u201d, which the user kept "
             "out of Marginalia. Allow this change once?")
FORM_LARGE = ("%(agent)s asks to delete %(words)d words (%(where)s) of \u201c%(title)s\u201d "
              "at once. Allow this deletion once?")
BAD_STATE = ("The requestState is not one this server issued for this call, or it expired; "
             "call the tool again without it.")
ALLOW_FIELD = "allow"
# The inputRequests key of the one form a question sends.
FORM_KEY = "marginalia_confirm"


class Ask:
    """What a tool found it may not do unasked: ``kind``, ``where`` (the passage in English,
    "paragraph 3"), ``place`` (the same as an i18n Phrase, for the user), ``words`` (a
    deletion's size), ``mark`` (the kept-out passage's mark name: what Allow lets in)."""

    __slots__ = ("kind", "where", "place", "words", "mark")

    def __init__(self, kind: str, where: str, place: Any = None, words: int = 0,
                 mark: str = "") -> None:
        self.kind, self.where, self.place, self.words, self.mark = kind, where, place, words, mark

    def reason(self) -> str:
        """The agent's words for what was asked."""
        if self.kind == LARGE:
            return "it would delete %d words (%s)" % (self.words, self.where)
        return "%s is kept out of Marginalia by the user" % self.where


class Allowance:
    """What the user allowed one call: the marks it may change, whether it may delete much."""

    __slots__ = ("marks", "large")

    def __init__(self, marks: Tuple[str, ...] = (), large: bool = False) -> None:
        self.marks, self.large = tuple(marks), large

    def plus(self, ask: Ask) -> "Allowance":
        if ask.kind == LARGE:
            return Allowance(self.marks, True)
        return Allowance(self.marks + (ask.mark,), self.large)


NOTHING = Allowance()


def is_large(removed: int, total: Callable[[], int]) -> bool:
    """Whether deleting ``removed`` words is a large deletion. ``total()``, the document's
    words (reading them all costs), is asked only when the count alone does not decide."""
    if removed >= LARGE_WORDS:
        return True
    if removed < SMALL_DOC // 2:
        return False
    words = total()
    return words >= SMALL_DOC and removed * 2 >= words


def call_key(grant_id: str, tool: str, arguments: Any) -> str:
    """The call a question is about: the same token, tool and arguments give the same key."""
    try:
        body = json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    except ValueError:
        body = repr(arguments)
    return hashlib.sha256(("%s\n%s\n%s" % (grant_id, tool, body)).encode("utf-8")).hexdigest()


class Question:
    """One open or answered question about one call."""

    def __init__(self, key: str, ask: Ask, agent: str, document: str, title: str,
                 allowed: Allowance, now: float) -> None:
        self.id = secrets.token_urlsafe(12)
        self.key = key
        self.ask = ask
        self.agent = agent
        self.document = document        # the document's id (RuntimeUID), for its panel
        self.title = title
        self.allowed = allowed          # what the call was already allowed (earlier answers)
        self.created = now
        self.answer = None              # type: Optional[bool]
        self.by = ""                    # "panel" or "agent's client"
        self.elicited = False           # the agent's client was sent the form

    def state(self) -> Dict[str, Any]:
        """What the panel shows (office.agent_banner): plain data."""
        return {"id": self.id, "kind": self.ask.kind, "agent": self.agent,
                "document": self.document, "place": self.ask.place, "words": self.ask.words,
                "created": self.created}


class Questions:
    """The office's open questions: asked from the HTTP threads, answered from the panel
    (main thread) or the agent's retry. ``listener(open)`` hears each change."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._cond = threading.Condition()
        self._all = {}                  # type: Dict[str, Question]
        self._listeners = []            # type: List[Callable[[List[Dict[str, Any]]], None]]

    def add_listener(self, fn) -> None:
        with self._cond:
            self._listeners.append(fn)

    def remove_listener(self, fn) -> None:
        with self._cond:
            if fn in self._listeners:
                self._listeners.remove(fn)

    def open(self) -> List[Dict[str, Any]]:
        """The questions waiting for an answer, oldest first."""
        with self._cond:
            self._prune()
            return [q.state() for q in sorted(self._all.values(), key=lambda q: q.created)
                    if q.answer is None]

    def find(self, key: str) -> Optional[Question]:
        """The newest question of this call (its key), answered or not."""
        with self._cond:
            self._prune()
            mine = [q for q in self._all.values() if q.key == key]
            # Sorted stably: of two asked in the same instant, the later one is newer.
            return sorted(mine, key=lambda q: q.created)[-1] if mine else None

    def issued(self, state: Any, key: str) -> Optional[Question]:
        """The question a retried call's ``state`` (requestState) names, if this server
        issued it for this very call and it is still open to answers; else None, and
        the state is refused (BAD_STATE): the client's echo is the client's input."""
        with self._cond:
            self._prune()
            named = self._all.get(state) if isinstance(state, str) else None
            return named if named is not None and named.key == key else None

    def ask(self, key: str, ask: Ask, agent: str, document: str, title: str,
            allowed: Allowance = NOTHING) -> Question:
        """Open a question for the call (an open one of the same call and kind is reused)."""
        with self._cond:
            self._prune()
            for q in self._all.values():
                if q.key == key and q.answer is None and q.ask.kind == ask.kind and \
                        q.ask.mark == ask.mark:
                    return q
            question = Question(key, ask, agent, document, title, allowed, self._clock())
            self._all[question.id] = question
        self._tell()
        return question

    def answer(self, question_id: str, allow: bool, by: str) -> bool:
        """The user's answer; False when the question was answered already or is gone."""
        with self._cond:
            question = self._all.get(question_id)
            if question is None or question.answer is not None:
                return False
            question.answer, question.by = bool(allow), by
            self._cond.notify_all()
        self._tell()
        return True

    def wait(self, question: Question, timeout: float) -> Optional[bool]:
        """The answer, waiting up to ``timeout`` seconds for it (None: not yet)."""
        end = self._clock() + timeout
        with self._cond:
            while question.answer is None:
                left = end - self._clock()
                if left <= 0 or question.id not in self._all:
                    break
                self._cond.wait(min(left, 1.0))
            return question.answer

    def use(self, question: Question) -> None:
        """The question's call ran (or was refused for good): it is gone."""
        with self._cond:
            gone = self._all.pop(question.id, None)
        if gone is not None and gone.answer is None:
            self._tell()

    def _prune(self) -> None:
        now = self._clock()
        for qid in [qid for qid, q in self._all.items() if now - q.created > LIFE]:
            del self._all[qid]

    def _tell(self) -> None:
        with self._cond:
            listeners = list(self._listeners)
        shown = self.open()
        for fn in listeners:
            try:
                fn(shown)
            except Exception:       # a listener's failure must not cost the agent's call
                log.exception("a question listener failed")


# -- the revision's way: a form in the agent's client -------------------------------

def can_show_forms(capabilities: Any) -> bool:
    """Whether a client's capabilities (2026-07-28's clientCapabilities) say it shows
    elicitation forms: ``elicitation`` present, with ``form`` or with neither mode named
    (the form mode is the default one)."""
    found = capabilities.get("elicitation") if isinstance(capabilities, dict) else None
    if not isinstance(found, dict):
        return False
    return "form" in found or "url" not in found


def input_required(question: Question) -> Dict[str, Any]:
    """The tools/call result asking the agent's client to show the question."""
    fill = {"agent": question.agent, "where": question.ask.where, "title": question.title,
            "words": question.ask.words}
    message = (FORM_LARGE if question.ask.kind == LARGE else FORM_KEPT) % fill
    form = {"method": "elicitation/create", "params": {
        "mode": "form", "message": message,
        "requestedSchema": {"type": "object", "properties": {ALLOW_FIELD: {
            "type": "boolean", "title": "Allow once",
            "description": "Marginalia makes this one change; the next one asks again.",
            "default": False}}, "required": [ALLOW_FIELD]}}}
    return {"resultType": "input_required", "inputRequests": {FORM_KEY: form},
            "requestState": question.id}


def answer_of(responses: Any) -> Optional[bool]:
    """The user's answer in a retried call's ``inputResponses`` (None: no answer there).
    Only an accepted form with allow true allows; declined or cancelled refuses."""
    found = responses.get(FORM_KEY) if isinstance(responses, dict) else None
    if not isinstance(found, dict) or found.get("action") not in ("accept", "decline",
                                                                   "cancel"):
        return None
    content = found.get("content")
    return found["action"] == "accept" and isinstance(content, dict) and \
        content.get(ALLOW_FIELD) is True

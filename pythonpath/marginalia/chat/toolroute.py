"""Which tool call a streamed tool-call fragment belongs to.

The vendored merger joins fragments by ``index``, but servers disagree on
what an index means (provider-streams.md). ``CallRouter.route()`` decides the
call for each fragment and rewrites the fragment with a dense ``index`` (the
call's position), so the merger only ever sees well-formed OpenAI fragments.

- OpenAI: one call per index, also when the provider reuses one id for
  parallel calls (DeepSeek, GLM): the later call gets a generated id, since
  tool results are paired by id. Ollama /v1 reuses index 0 for parallel calls,
  so a new, different id at an occupied index opens a new call (or returns to
  the earlier call that id names). Gateways
  (Claude behind a proxy) start at index 1: indexes map to dense positions.
  vLLM repeats an index inside one list: both fragments land on one call.
- An id may arrive after the fragment that named the call (index and name
  first, the id later): the call adopts it, also after a generated id was
  handed out; the accumulator waits one fragment before announcing a named
  call without an id, so its TOOL_CALL_STARTED usually carries the real id.
- Gemini and Mistral send no index (or null): a known id means that call; a
  new id, or a name with no id, opens a new call; anything else continues the
  last call.
- First non-empty name wins: LM Studio resends "name": "", Fireworks and
  LiteLLM resend the whole name with every fragment. Names, ids and types
  are kept on the Call, never merged as strings.
- Whole-object arguments (some local servers) are serialised to JSON text.

``CallRouter.finished()`` turns the calls and the merged fragments into the
list the turn loop runs; the id and argument rules it applies live here too.
"""

import binascii
import json
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple


def new_call_id() -> str:
    """A fresh tool-call id for providers that send none (Gemini, some local servers)."""
    return "call_" + binascii.hexlify(os.urandom(12)).decode("ascii")


def arguments_text(value: Any) -> str:
    """Arguments as JSON text: ``""``, ``"null"``, blank or absent mean ``{}``."""
    if not isinstance(value, str) or value.strip() in ("", "null"):
        return "{}"
    return value


def is_json(text: str) -> bool:
    """True when ``text`` is one valid JSON value."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@dataclass(eq=False)
class Call:
    """What the router knows about one call; its arguments live in the merger.

    Compared by identity: two calls with the same fields so far are still two calls.
    """

    pos: int
    provider_id: Optional[str] = None   # first non-empty id the provider sent
    call_id: Optional[str] = None       # the id we use: provider's, or generated when announced
    name: str = ""
    started: bool = False               # TOOL_CALL_STARTED emitted


class CallRouter:
    """Routes fragments to calls; ``calls`` lists them in order of first appearance."""

    def __init__(self) -> None:
        self.calls: List[Call] = []
        self._by_index: Dict[int, Call] = {}   # provider index -> the call now at that index
        self._by_id: Dict[str, Call] = {}      # provider id -> call

    def at_index(self, index: int) -> Optional[Call]:
        """The call a provider index currently designates, or None."""
        return self._by_index.get(index)

    def route(self, fragment: Dict[str, Any]) -> Tuple[Call, Dict[str, Any]]:
        """Returns (call, fragment rewritten for the merger with a dense index)."""
        index = fragment.get("index")
        provider_id = fragment.get("id")
        if not isinstance(provider_id, str) or not provider_id:
            provider_id = None
        function = fragment.get("function")
        if not isinstance(function, dict):
            function = {}
        name = function.get("name")
        if not isinstance(name, str):
            name = ""
        if isinstance(index, int) and not isinstance(index, bool):
            call = self._by_index.get(index)
            if call is None or (provider_id and call.provider_id
                                and provider_id != call.provider_id):
                # A new index is a new call even with a known id (DeepSeek and GLM
                # reuse one id for parallel calls); a different id at an occupied
                # index is a new call too (Ollama), unless it names an earlier one.
                known = self._by_id.get(provider_id) if call is not None else None
                call = known or self._open()
                if known is None:
                    self._by_index[index] = call
        else:
            call = self._by_id.get(provider_id) if provider_id else None
            if call is None:
                call = self._open() if provider_id or name or not self.calls \
                    else self.calls[-1]
        if provider_id and call.provider_id is None:
            call.provider_id = provider_id
            if provider_id not in self._by_id:
                # Also over a generated id: an id sent after the call's first
                # fragment is the one the provider will expect back.
                self._by_id[provider_id] = call
                call.call_id = provider_id
            # else: a reused id; the call is given a generated one when announced
        if name and not call.name:
            call.name = name
        normalised = {"index": call.pos}
        for key, value in fragment.items():
            if key == "function" and isinstance(value, dict):
                out = {}
                for fkey, fvalue in value.items():
                    if fkey == "arguments" and fvalue is not None and not isinstance(fvalue, str):
                        fvalue = json.dumps(fvalue, ensure_ascii=False)
                    if fkey != "name":
                        out[fkey] = fvalue
                normalised["function"] = out
            elif key not in ("index", "id", "type", "function"):
                normalised[key] = value
        return call, normalised

    def finished(self, entries: Iterable[Dict[str, Any]],
                 new_id: Callable[[], str]) -> List[Dict[str, Any]]:
        """The named calls, in order, with their merged ``entries`` (the merger's tool_calls).

        Each is {"id", "name", "arguments" (JSON text)}, plus "extra_content" when
        Gemini sent one; a call still without an id is given one by ``new_id``.
        """
        by_pos = {}
        for entry in entries:
            by_pos[entry.get("index")] = entry
        calls = []
        for call in self.calls:
            if not call.name:
                continue              # nothing to run without a name
            entry = by_pos.get(call.pos, {})
            function = entry.get("function") or {}
            if call.call_id is None:
                call.call_id = new_id()   # none, or one the provider reused
            item = {"id": call.call_id, "name": call.name,
                    "arguments": arguments_text(function.get("arguments"))}
            if entry.get("extra_content") is not None:
                item["extra_content"] = entry["extra_content"]
            calls.append(item)
        return calls

    def _open(self) -> Call:
        call = Call(len(self.calls))
        self.calls.append(call)
        return call

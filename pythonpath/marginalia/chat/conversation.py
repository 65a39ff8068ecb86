"""The chat history in OpenAI message format, and usage summed over requests (pure)."""

import copy
from typing import Any, Dict, Iterable, List, Optional

from marginalia.document.seen import Seen

# Echo fields that belong to the turn that produced them (see chat.loop's docstring).
_TURN_ONLY_FIELDS = ("reasoning_content", "reasoning_details")

Usage = Dict[str, Any]


def add_usage(total: Optional[Usage], usage: Optional[Usage]) -> Optional[Usage]:
    """Sum two usage dicts field by field (nested detail dicts too); either may be None."""
    if not usage:
        return copy.deepcopy(total) if total else None
    result = copy.deepcopy(total) if total else {}
    for key, value in usage.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            previous = result.get(key)
            result[key] = (previous if isinstance(previous, (int, float)) else 0) + value
        elif isinstance(value, dict):
            previous = result.get(key)
            result[key] = add_usage(previous if isinstance(previous, dict) else None, value)
    return result


class Conversation:
    """The chat history in OpenAI message format, without the system prompt."""

    def __init__(self, messages: Optional[Iterable[Dict[str, Any]]] = None) -> None:
        self.messages: List[Dict[str, Any]] = list(messages or [])
        self.told: set = set()      # notices already given in this chat (told once per chat)
        # What the model was shown of the document in this chat (the rewrite protocol).
        self.seen = Seen()

    def append(self, message: Dict[str, Any]) -> None:
        self.messages.append(message)

    def clear(self) -> None:
        del self.messages[:]
        self.told.clear()
        self.seen.forget()

    def __len__(self) -> int:
        return len(self.messages)

    def for_request(self, turn_start: int) -> List[Dict[str, Any]]:
        """Copies of the messages to send; ``turn_start`` is where the current turn begins."""
        out = []
        for position, message in enumerate(self.messages):
            message = dict(message)
            if message.get("role") == "assistant":
                if position < turn_start:
                    for name in _TURN_ONLY_FIELDS:
                        message.pop(name, None)
                elif not message.get("tool_calls"):
                    message.pop("reasoning_content", None)   # DeepSeek rejects it here
            out.append(message)
        return out

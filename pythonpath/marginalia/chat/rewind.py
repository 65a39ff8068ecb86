"""Where a chat goes back to when the user restores to before one of their messages.

The conversation (what the model sees) and the log (what the panel shows) are
cut at the same user turn: the n-th user message from the end of the log is
the n-th user message from the end of the conversation (each turn adds one
of each; Retry and Edit take both back together).
"""

from typing import Any, Dict, List, Optional, Tuple

Entry = Tuple[str, Any]


def user_messages(log: List[Entry]) -> List[Tuple[int, str]]:
    """(log index, text) of every user message of the log, oldest first."""
    return [(i, payload) for i, (role, payload) in enumerate(log) if role == "user"]


def cut_at(messages: List[Dict[str, Any]], log: List[Entry],
           log_index: int) -> Optional[Tuple[int, int]]:
    """(index in messages, index in log) where the user turn at ``log_index`` begins."""
    if not 0 <= log_index < len(log) or log[log_index][0] != "user":
        return None
    later = sum(1 for role, _payload in log[log_index:] if role == "user")
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    if len(users) < later:
        return None
    return users[len(users) - later], log_index

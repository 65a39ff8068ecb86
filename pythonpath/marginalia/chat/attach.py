"""What changes from turn to turn rides on the user's message, after what does not (pure).

A local server re-reads a prompt only from the first token that differs from the
last one (llama.cpp's prefix cache; vLLM and the cloud providers cache prefixes
too), and chat templates render the tool schemas right after the system text. So
the rewrite protocol keeps the system message and the tools byte-identical for a
chat, and what changes goes with the user's message of the turn, as keys of that
message in the conversation, made into its text only when a request is sent:

* ``document``: the document as the model sees it (its numbered lines, or its
  outline when long), attached only when it differs from the last one this chat
  sent: a question after a question re-reads just the question; after an edit, the
  next message re-reads the new view and what follows it;
* ``sources``: what the system message said of the chat's sources before, attached
  the same way;
* ``note``: this turn's small facts (the selection), every turn it has any.

Old messages keep their attachments, so the history stays what was sent. A budget
cut that drops the message holding the current view puts it on the current message
again (``render``). ``KEYS`` never reach a server: ``render`` folds them into the
message's content.
"""

from typing import Any, Dict, List, NamedTuple, Optional

KEYS = ("document", "sources", "note")
# What opens the user's own words after the attachments: a small model tells the
# document it was given from the request it must answer.
REQUEST = "My request: "

Message = Dict[str, Any]


class Attachments(NamedTuple):
    """A turn's view of the document, what it says of the sources, and its note."""

    document: str = ""
    sources: str = ""
    note: str = ""


def last(messages: List[Message], key: str) -> Optional[str]:
    """The newest value of attachment ``key`` in ``messages``; None when none has one."""
    for message in reversed(messages):
        if message.get(key):
            return message[key]
    return None


def user_message(text: str, attachments: Optional[Attachments],
                 messages: List[Message]) -> Message:
    """The turn's user message: ``text`` with the attachments that changed since the chat
    last sent them (the note always)."""
    message: Message = {"role": "user", "content": text}
    if attachments is None:
        return message
    for key in ("document", "sources"):
        value = getattr(attachments, key)
        if value and value != last(messages, key):
            message[key] = value
    if attachments.note:
        message["note"] = attachments.note
    return message


def size(message: Message) -> str:
    """The attachments' text, for the budget's measure of a message."""
    return "".join(str(message.get(key) or "") for key in KEYS)


def _folded(message: Message) -> Message:
    if not any(key in message for key in KEYS):
        return message
    out = dict(message)
    parts = [str(out.pop(key)) for key in KEYS if out.get(key)]
    for key in KEYS:
        out.pop(key, None)
    if parts:
        out["content"] = "\n\n".join(parts + [REQUEST + str(message.get("content") or "")])
    return out


def render(messages: List[Message], attachments: Optional[Attachments]) -> List[Message]:
    """The messages as sent: the current view put back on the newest user message when
    none of them holds it any more (the budget dropped it), every attachment folded into
    its message's text."""
    messages = list(messages)
    if attachments is not None:
        for key in ("document", "sources"):
            value = getattr(attachments, key)
            if value and last(messages, key) != value:
                for i in range(len(messages) - 1, -1, -1):
                    if messages[i].get("role") == "user":
                        messages[i] = dict(messages[i], **{key: value})
                        break
    return [_folded(m) for m in messages]

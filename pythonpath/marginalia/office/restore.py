"""Restore to before a message: the document, then the chat, or neither.

The turns whose CHANGE events follow the message in the log are the ones to
take back (writer.review.restore undoes them and every later turn, each as
its own undo step). The chat is cut only once the document is back, so a
refusal or failure leaves both as they were. Main thread.
"""

from typing import Any, Dict

from marginalia.chat import rewind
from marginalia.document import change_log as cl
from marginalia.errors import ToolError
from marginalia.i18n.catalog import tr
from marginalia.ui import change_list as wording


def restore_to(session: Any, log_index: int, confirmed: bool = False) -> Dict[str, Any]:
    """{"restored": True, "text", "turns", "yours", "sentence"} or {"restored": False,
    and "question" (ask, then call again confirmed) or "sentence"}."""
    from marginalia.writer import review
    from marginalia.writer.ledger import ledger_for
    if session.busy:
        return {"restored": False, "sentence": tr(wording.BUSY)}
    cut = rewind.cut_at(session.conversation.messages, session.log, log_index)
    if cut is None:
        return {"restored": False, "sentence": tr(wording.NO_MESSAGES)}
    numbers = cl.turns_in(session.log[log_index:])
    ledger = ledger_for(session.doc)
    if any(n not in ledger.turns for n in numbers):
        return {"restored": False, "sentence": tr(wording.UNKNOWN_TURNS)}
    done = review.Restored(0)
    live = [n for n in numbers if ledger.turns[n].steps and not ledger.turns[n].undone]
    if live:
        try:
            done = review.restore(session.doc, ledger, min(live), confirmed=confirmed)
        except review.UserEdited:
            return {"restored": False, "question": tr(wording.RESTORE_QUESTION)}
        except ToolError as exc:
            return {"restored": False, "sentence": str(exc)}
    text = session.log[log_index][1]
    number = sum(1 for index, _text in rewind.user_messages(session.log) if index <= log_index)
    session.cut_back(cut[0], cut[1])
    return {"restored": True, "text": text, "turns": done.turns, "yours": done.yours,
            "sentence": wording.restored_sentence(text, done.turns, done.yours, number)}

"""``review.*`` job commands: the change card's actions, for tests and scripts.

Each runs on the main thread what the panel's card runs (office.change_card):
list the document's turns and their changes, select one, accept or reject one
or a whole turn, apply a suggestion, undo a turn, and mark or unmark a
passage Keep Marginalia out.
"""

from typing import Any, Dict

from marginalia.errors import ToolError


def _turns(ctx, doc, payload):
    from marginalia.writer import review
    from marginalia.writer.ledger import ledger_for
    ledger = ledger_for(doc)
    review.undone_in_writer(doc, ledger)
    out = []
    for number in sorted(ledger.turns):
        turn = ledger.turns[number]
        if payload.get("settle"):
            # As the card's Review does: the numbers as the document is now.
            from marginalia.writer.ledger import finish
            finish(doc, ledger, turn)
        review.refresh(doc, ledger, turn)
        out.append({"number": number, "mode": turn.mode, "steps": turn.steps,
                    "undone": turn.undone, "changes": [c.to_dict() for c in turn.changes]})
    return {"turns": out}


def _act(ctx, doc, payload):
    from marginalia.writer import review
    from marginalia.writer.ledger import ledger_for
    ledger = ledger_for(doc)
    action = payload["action"]
    if action == "select":
        change = review.find(ledger, payload["change"])
        review.select(doc, ledger, change)
        return {"selected": doc.getCurrentController().getSelection().getByIndex(0)
                .getString()}
    if action in ("accept", "reject"):
        change = review.find(ledger, payload["change"])
        return {"done": review.judge(ctx, doc, ledger, [change], action == "accept")}
    if action in ("accept_all", "reject_all"):
        turn = ledger.turns[int(payload["turn"])]
        return {"done": review.judge(ctx, doc, ledger, turn.changes, action == "accept_all")}
    if action == "apply":
        review.apply(doc, ledger, review.find(ledger, payload["change"]))
        return {"done": 1}
    if action == "restore":
        try:
            done = review.restore(doc, ledger, int(payload["turn"]),
                                  confirmed=bool(payload.get("confirmed")))
        except review.UserEdited as exc:
            return {"asked": str(exc)}
        return {"done": done.turns, "yours": done.yours}
    if action == "undo_turn":
        try:
            done = review.restore(doc, ledger, int(payload["turn"]), only_latest=True)
        except review.UserEdited as exc:
            return {"asked": str(exc)}
        return {"done": done.turns}
    raise ValueError("unknown review action %r" % (action,))


def _keepout(ctx, doc, payload):
    from marginalia.writer import keepout
    action = payload.get("action", "list")
    if action == "toggle":
        return {"sentence": keepout.toggle(doc)}
    if action == "menu":
        # The card's Keep out menu as it would open now, and the mark the selection is in.
        from marginalia.ui import keepout_words
        here = keepout.here(doc)
        return {"here": here,
                "entries": [list(e) for e in keepout_words.entries(keepout.listing(doc), here)]}
    if action == "show":
        first, last = keepout.show(doc, payload["name"])
        return {"paragraphs": [first, last], "selected": doc.getCurrentController()
                .getSelection().getByIndex(0).getString()}
    if action == "unmark":
        return {"removed": keepout.unmark(doc, payload["name"])}
    return {"marks": [{"name": n, "text": a.getString()} for n, a in keepout.marks(doc)]}


_COMMANDS = {"review.turns": _turns, "review.act": _act, "review.keepout": _keepout}


def handle(ctx: Any, command: str, document: Any, payload: Dict[str, Any]) -> Any:
    from marginalia.office.mainthread import run_sync
    handler = _COMMANDS.get(command)
    if handler is None:
        raise ValueError("unknown review command %r" % (command,))
    if document is None:
        raise ValueError("%s needs a Document" % command)

    def run():
        try:
            return handler(ctx, document, payload)
        except ToolError as exc:
            return {"refused": str(exc)}
    return run_sync(ctx, run)

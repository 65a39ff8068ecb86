"""Restore through the chat session: document, chat and message box go back together."""

import time

from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response
from tests.support.writer import build, texts


def _wait_done(office, doc, timeout=60):
    entries = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        entries.extend(office.job("chat.poll", doc)["entries"])
        if any(e["type"] == "done" for e in entries):
            return entries
        time.sleep(0.05)
    raise AssertionError("the turn did not finish: %r" % entries[-5:])


def _turn_script(label):
    return [tool_calls_response([("c-" + label, "insert_paragraphs",
                                  {"markdown": "Line %s." % label, "after_paragraph": -1})]),
            text_response("Added %s." % label)]


def _three_turns(office, doc, srv_factory):
    got = []
    for label in ("one", "two", "three"):
        with srv_factory(_turn_script(label)) as srv:
            office.job("chat.start", doc, message="add %s" % label,
                       settings={"endpoint": srv.url, "model": "test-model", "edit_protocol": "tools",
                                 "keep_chats": False})
            got.append(_wait_done(office, doc))
    return got


def test_restore_to_before_a_message_takes_back_document_and_chat(office):
    doc = build(office, [("Standard", "Start.")])
    try:
        entries = _three_turns(office, doc, ScriptedServer)
        changes = [e for turn in entries for e in turn if e["type"] == "change"]
        assert [c["change"]["after"] for c in changes] == ["Line one.", "Line two.",
                                                           "Line three."]
        assert texts(doc) == ["Start.", "Line one.", "Line two.", "Line three."]
        log = office.job("chat.state", doc)["log"]
        second = [i for i, e in enumerate(log) if e["type"] == "user"][1]
        restored = office.job("chat.restore", doc, index=second)
        assert restored["restored"] is True and restored["text"] == "add two"
        assert restored["turns"] == 2
        assert texts(doc) == ["Start.", "Line one."]
        state = office.job("chat.state", doc)
        assert [e["text"] for e in state["log"] if e["type"] == "user"] == ["add one"]
        assert [m["content"] for m in state["messages"] if m["role"] == "user"] == ["add one"]
        # Redo brings the two turns back, one step each.
        undo = doc.getUndoManager()
        undo.redo()
        assert texts(doc) == ["Start.", "Line one.", "Line two."]
        undo.redo()
        assert texts(doc) == ["Start.", "Line one.", "Line two.", "Line three."]
    finally:
        office.close(doc)


def test_restore_after_the_user_edited_asks_first(office):
    doc = build(office, [("Standard", "Start.")])
    try:
        _three_turns(office, doc, ScriptedServer)
        text = doc.getText()
        text.insertString(text.getEnd(), " Typed.", False)
        edited = texts(doc)
        log = office.job("chat.state", doc)["log"]
        first = [i for i, e in enumerate(log) if e["type"] == "user"][0]
        asked = office.job("chat.restore", doc, index=first)
        assert asked["restored"] is False and "Restore anyway?" in asked["question"]
        assert texts(doc) == edited
        assert len(office.job("chat.state", doc)["log"]) == len(log)
        done = office.job("chat.restore", doc, index=first, confirmed=True)
        assert done["restored"] is True and done["text"] == "add one"
        assert texts(doc) == ["Start."]
        assert office.job("chat.state", doc)["log"] == []
    finally:
        office.close(doc)

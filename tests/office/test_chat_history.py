"""Kept chats in a real office: the id in the file, the chat in the profile.

Turns run through the job service against a scripted local server; documents
are saved, closed and opened again as a user would, and what the session
shows afterwards is read back through the same job commands the panel's
History menu uses.
"""

import json
import os
import time
import zipfile

import pytest
import uno

from tests.support.office import props
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response

FILTERS = {"odt": "writer8", "docx": "MS Word 2007 XML"}


def _chat(office, doc, server, message):
    started = office.job("chat.start", doc, message=message,
                         settings={"endpoint": server.url, "model": "test-model",
                                   "edit_protocol": "tools"})
    assert started == {"started": True}
    deadline = time.time() + 60
    while time.time() < deadline:
        polled = office.job("chat.poll", doc)
        if any(e["type"] == "done" for e in polled["entries"]):
            return
        time.sleep(0.05)
    raise AssertionError("the turn did not finish")


def _store(doc, path):
    """Save As (storeAsURL): the document now lives at ``path``."""
    doc.storeAsURL(uno.systemPathToFileUrl(path),
                   props(FilterName=FILTERS[path.rsplit(".", 1)[1]], Overwrite=True))


def _texts(state):
    return [(e["type"], e.get("text")) for e in state["log"] if e["type"] in ("user", "text")]


def _joined(state):
    """The log with adjacent text pieces joined (the panel merges them as they arrive)."""
    out = []
    for kind, text in _texts(state):
        if out and kind == "text" and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + text)
        else:
            out.append((kind, text))
    return out


@pytest.mark.parametrize("ext", ["odt", "docx"])
def test_a_chat_survives_save_close_and_reopen_and_the_file_holds_only_its_id(
        office, tmp_path, ext):
    doc = office.new_writer()
    doc.Text.setString("The colour wheel.")
    script = [tool_calls_response([("c1", "replace_text",
                                    {"search": "colour", "replacement": "color"})]),
              text_response("Changed it to color.")]
    with ScriptedServer(script) as server:
        _chat(office, doc, server, "Use American spelling")
    before = office.job("chat.state", doc)
    path = str(tmp_path / ("kept." + ext))
    _store(doc, path)
    office.close(doc)

    again = office.load(path)
    try:
        state = office.job("chat.state", again)
        # The panel would show the same chat, and the model gets its paired tool call back.
        assert _joined(state) == [("user", "Use American spelling"),
                                  ("text", "Changed it to color.")]
        assert state["messages"] == before["messages"]
        roles = [m["role"] for m in state["messages"]]
        assert roles == ["user", "assistant", "tool", "assistant"]
        assert state["messages"][1]["tool_calls"][0]["id"] == state["messages"][2]["tool_call_id"]
        listed = office.job("chat.history", again)
        assert [c["title"] for c in listed["chats"]] == ["Use American spelling"]
        doc_id = listed["doc_id"]
        assert doc_id and os.path.isdir(os.path.join(listed["folder"], doc_id))
        assert listed["folder"].startswith(office.profile_dir)
    finally:
        office.close(again)
    # The file itself carries the id and nothing of the conversation.
    with zipfile.ZipFile(path) as package:
        everything = b"".join(package.read(n) for n in package.namelist())
    assert doc_id.encode() in everything
    assert b"American spelling" not in everything and b"Changed it" not in everything


def test_two_documents_keep_separate_chats_and_history_reopens_and_deletes(office, tmp_path):
    paths = {}
    with ScriptedServer([text_response("About A."), text_response("About B."),
                         text_response("More on A.")]) as server:
        for label in ("A", "B"):
            doc = office.new_writer()
            _chat(office, doc, server, "question %s" % label)
            if label == "A":
                office.job("chat.new", doc)
                _chat(office, doc, server, "second chat of A")
            paths[label] = str(tmp_path / ("%s.odt" % label))
            _store(doc, paths[label])
            office.close(doc)
    a, b = office.load(paths["A"]), office.load(paths["B"])
    try:
        hist_a, hist_b = office.job("chat.history", a), office.job("chat.history", b)
        assert hist_a["doc_id"] != hist_b["doc_id"]
        assert [c["title"] for c in hist_a["chats"]] == ["second chat of A", "question A"]
        assert [c["title"] for c in hist_b["chats"]] == ["question B"]
        # Reopening shows the latest chat; History reopens the earlier one.
        assert _texts(office.job("chat.state", a))[0] == ("user", "second chat of A")
        earlier = hist_a["chats"][1]["id"]
        assert office.job("chat.open", a, id=earlier) is True
        assert _joined(office.job("chat.state", a)) == [("user", "question A"),
                                                        ("text", "About A.")]
        office.job("chat.delete", a, id=earlier)
        assert [c["title"] for c in office.job("chat.history", a)["chats"]] == [
            "second chat of A"]
        office.job("chat.forget", a)
        assert office.job("chat.history", a)["chats"] == []
        assert office.job("chat.state", a)["log"] == []
        assert len(office.job("chat.history", b)["chats"]) == 1     # B is untouched
    finally:
        office.close(a)
        office.close(b)


def test_save_as_gives_the_new_file_its_own_history(office, tmp_path):
    first, second = str(tmp_path / "first.odt"), str(tmp_path / "second.docx")
    doc = office.new_writer()
    with ScriptedServer([text_response("One."), text_response("Two.")]) as server:
        _store(doc, first)
        _chat(office, doc, server, "before save as")
        doc.store()
        old_id = office.job("chat.history", doc)["doc_id"]
        _store(doc, second)
        new_id = office.job("chat.history", doc)["doc_id"]
        assert new_id and new_id != old_id
        _chat(office, doc, server, "after save as")
        doc.store()
    office.close(doc)
    old, new = office.load(first), office.load(second)
    try:
        assert office.job("chat.history", old)["doc_id"] == old_id
        assert office.job("chat.history", new)["doc_id"] == new_id
        # The new file continued the chat; the old one kept it as it was.
        assert [t for k, t in _texts(office.job("chat.state", new)) if k == "user"] == [
            "before save as", "after save as"]
        assert [t for k, t in _texts(office.job("chat.state", old)) if k == "user"] == [
            "before save as"]
    finally:
        office.close(old)
        office.close(new)


def _kept_file(office, doc):
    listed = office.job("chat.history", doc)
    folder = os.path.join(listed["folder"], listed["doc_id"])
    return folder, os.path.join(folder, listed["current"] + ".json")


def test_a_corrupt_history_is_set_aside_with_one_sentence(office, tmp_path):
    path = str(tmp_path / "corrupt.odt")
    doc = office.new_writer()
    with ScriptedServer([text_response("Kept."), text_response("Works again.")]) as server:
        _chat(office, doc, server, "a question")
        folder, kept = _kept_file(office, doc)
        _store(doc, path)
        office.close(doc)
        with open(kept, "wb") as handle:
            handle.write(b'{"format": 1, "messages": [{"role"')       # cut short
        doc = office.load(path)
        try:
            state = office.job("chat.state", doc)
            assert state["log"] == [] and state["messages"] == []
            assert len(state["notes"]) == 1 and "could not be read" in state["notes"][0]
            assert os.path.exists(kept + ".unreadable") and not os.path.exists(kept)
            # The chat goes on and is kept again.
            _chat(office, doc, server, "new start")
            listed = office.job("chat.history", doc)
            assert [c["title"] for c in listed["chats"]] == ["new start"]
        finally:
            office.close(doc)


def test_an_interrupted_write_leaves_the_old_history(office, tmp_path):
    path = str(tmp_path / "interrupted.odt")
    doc = office.new_writer()
    with ScriptedServer([text_response("First answer.")]) as server:
        _chat(office, doc, server, "first")
        folder, kept = _kept_file(office, doc)
        _store(doc, path)
    office.close(doc)
    with open(kept, "rb") as handle:
        old = handle.read()
    # What an office killed in the middle of writing leaves: a partial temporary file.
    partial = os.path.join(folder, ".writing-killed")
    with open(partial, "wb") as handle:
        handle.write(old[:len(old) // 2])
    doc = office.load(path)
    try:
        state = office.job("chat.state", doc)
        assert _joined(state) == [("user", "first"), ("text", "First answer.")]
        assert state["notes"] == []
        with open(kept, "rb") as handle:
            assert handle.read() == old
        assert json.loads(old.decode("utf-8"))["title"] == "first"
    finally:
        office.close(doc)


def test_with_keeping_off_nothing_is_written(office):
    doc = office.new_writer()
    try:
        office.job("settings.save", keep_chats=False)
        with ScriptedServer([text_response("Not kept.")]) as server:
            _chat(office, doc, server, "private")
        listed = office.job("chat.history", doc)
        assert listed["doc_id"] is None and listed["chats"] == []
    finally:
        office.job("settings.save", keep_chats=True)
        office.close(doc)

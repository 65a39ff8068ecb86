"""ChatSession inside a real office: per-document chats, overlap, closing mid-turn.

Driven through the same job commands the headless runner uses; each document
gets its own scripted server through a settings override, so a crossed wire
would show up as the wrong text in the wrong document.
"""

import time

from tests.support.office import paragraph_texts
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response


def _wait_done(office, doc, timeout=60):
    entries = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        polled = office.job("chat.poll", doc)
        entries.extend(polled["entries"])
        if any(e["type"] == "done" for e in entries):
            # DONE is delivered only once the turn has fully ended.
            assert polled["busy"] is False
            return entries
        time.sleep(0.05)
    raise AssertionError("the turn did not finish: %r" % entries[-5:])


def _insert_script(label):
    return [tool_calls_response([("c-" + label, "insert_paragraphs",
                                  {"markdown": "Written for %s." % label,
                                   "after_paragraph": -1})], delay=0.05, split=[3, 5]),
            text_response("Done for %s." % label, pieces=6, delay=0.05)]


def test_two_documents_chat_at_once_without_crossing(office):
    doc_a, doc_b = office.new_writer(), office.new_writer()
    try:
        with ScriptedServer(_insert_script("A")) as srv_a, \
                ScriptedServer(_insert_script("B")) as srv_b:
            for doc, srv in ((doc_a, srv_a), (doc_b, srv_b)):
                started = office.job("chat.start", doc, message="add a line",
                                     settings={"endpoint": srv.url, "model": "test-model",
                                               "edit_protocol": "tools"})
                assert started == {"started": True}
            entries = {"A": [], "B": []}
            first, done = {}, {}
            deadline = time.time() + 60
            while len(done) < 2 and time.time() < deadline:
                for label, doc in (("A", doc_a), ("B", doc_b)):
                    new = office.job("chat.poll", doc)["entries"]
                    entries[label].extend(new)
                    if any(e["type"] != "user" for e in new):
                        first.setdefault(label, time.time())
                    if any(e["type"] == "done" for e in new):
                        done.setdefault(label, time.time())
                time.sleep(0.02)
            assert len(done) == 2, entries
            entries_a, entries_b = entries["A"], entries["B"]
        for label, got in (("A", entries_a), ("B", entries_b)):
            results = [e for e in got if e["type"] == "tool_result"]
            assert [r.get("ok") for r in results] == [True], (label, got)
        assert "Written for A." in paragraph_texts(doc_a)
        assert "Written for B." in paragraph_texts(doc_b)
        assert not any("B" in p for p in paragraph_texts(doc_a))
        assert not any("A" in p for p in paragraph_texts(doc_b))
        text_a = "".join(e.get("text", "") for e in entries_a if e["type"] == "text")
        text_b = "".join(e.get("text", "") for e in entries_b if e["type"] == "text")
        assert (text_a, text_b) == ("Done for A.", "Done for B.")
        # The one JSON form of an entry (events.Entry): a message carries its send time.
        assert entries_a[0]["type"] == "user" and entries_a[0]["text"] == "add a line"
        assert entries_a[0]["at"] > 0
        # The two turns streamed at the same time: each began before the other ended.
        assert first["B"] < done["A"] and first["A"] < done["B"]
        # Each turn is one undo step named after the request; one Undo takes it back.
        undo = doc_a.UndoManager
        assert undo.getCurrentUndoActionTitle() == "Marginalia: add a line"
        undo.undo()
        assert paragraph_texts(doc_a) == [""]
        assert "Written for B." in paragraph_texts(doc_b)
    finally:
        office.close(doc_a)
        office.close(doc_b)


def test_closing_a_document_mid_turn_cancels_cleanly(office):
    stall = {"status": 200, "headers": {"Content-Type": "text/event-stream"},
             "body": ['data: {"choices":[{"index":0,"delta":{"reasoning_content":"Hmm"}}]}\n\n',
                      {"sleep": 30}]}
    doc = office.new_writer()
    with ScriptedServer([stall]) as srv:
        office.job("chat.start", doc, message="write", settings={"endpoint": srv.url,
                                                                  "model": "test-model",
                                                                  "edit_protocol": "tools"})
        deadline = time.time() + 20
        seen = []
        while time.time() < deadline and not any(e["type"] == "reasoning" for e in seen):
            seen.extend(office.job("chat.poll", doc)["entries"])
            time.sleep(0.05)
        assert any(e["type"] == "reasoning" for e in seen), "the stream should have started"
        started = time.time()
        office.close(doc)
        # The office stays responsive and a new document chats normally.
        assert office.job("ping")
        assert time.time() - started < 5
    doc2 = office.new_writer()
    try:
        with ScriptedServer([text_response("Fresh start.")]) as srv:
            office.job("chat.start", doc2, message="hi", settings={"endpoint": srv.url,
                                                                    "model": "test-model",
                                                                    "edit_protocol": "tools"})
            entries = _wait_done(office, doc2)
        assert "".join(e.get("text", "") for e in entries if e["type"] == "text") == \
            "Fresh start."
        assert not any(e["type"] == "error" for e in entries)
    finally:
        office.close(doc2)


def test_new_chat_drops_the_stopped_turns_late_events(office):
    slow = {"status": 200, "headers": {"Content-Type": "text/event-stream"},
            "body": ['data: {"choices":[{"index":0,"delta":{"reasoning":"Hmm"}}]}\n\n',
                     {"sleep": 0.5},
                     'data: {"choices":[{"index":0,"delta":{"reasoning":" late"}}]}\n\n',
                     {"sleep": 30}]}
    doc = office.new_writer()
    try:
        with ScriptedServer([slow, text_response("After the reset.")]) as srv:
            settings = {"endpoint": srv.url, "model": "test-model", "edit_protocol": "tools"}
            office.job("chat.start", doc, message="first", settings=settings)
            seen = []
            deadline = time.time() + 20
            while time.time() < deadline and not any(e["type"] == "reasoning" for e in seen):
                seen.extend(office.job("chat.poll", doc)["entries"])
                time.sleep(0.02)
            assert any(e["type"] == "reasoning" for e in seen)
            assert office.job("chat.new", doc) is True
            late = []
            deadline = time.time() + 10
            while time.time() < deadline:
                polled = office.job("chat.poll", doc)
                late.extend(polled["entries"])
                if not polled["busy"]:
                    break
                time.sleep(0.05)
            assert late == []
            office.job("chat.start", doc, message="second", settings=settings)
            entries = _wait_done(office, doc)
            second = srv.chat_requests[1].json["messages"]
        assert (entries[0]["type"], entries[0]["text"]) == ("user", "second")
        assert "".join(e.get("text", "") for e in entries if e["type"] == "text") == \
            "After the reset."
        # The cleared conversation is not sent again.
        assert [m["content"] for m in second if m["role"] == "user"] == ["second"]
    finally:
        office.close(doc)

"""One typed chat log entry (events.Entry) and its one JSON form, also for old kept chats."""

import json

from marginalia import events as ev
from marginalia.chat import history
from marginalia.events import Entry, Event, Said

# A kept chat as the versions before the typed entry wrote it (format 1): a message
# without its send time, a tool result without its full result, citations beside the log.
OLD_FILE = """{"format": 1, "id": "0f3c", "title": "Fix the typos", "created": 1700000000.5,
 "updated": 1700000100.0,
 "messages": [{"role": "user", "content": "Fix the typos"},
              {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "edit_paragraph", "arguments": "{}"}}]},
              {"role": "tool", "tool_call_id": "c1", "content": "ok"},
              {"role": "assistant", "content": "Fixed two."}],
 "log": [{"type": "user", "text": "Fix the typos"},
         {"type": "tool_call", "call_id": "c1", "name": "edit_paragraph", "arguments": "{}"},
         {"type": "tool_result", "call_id": "c1", "name": "edit_paragraph", "ok": true,
          "summary": "Edited paragraph 2"},
         {"type": "text", "text": "Fixed two."},
         {"type": "usage", "usage": {"prompt_tokens": 10, "completion_tokens": 2}},
         {"type": "done", "finish_reason": "stop"},
         {"type": "user", "text": "Thanks", "at": 1700000090.0},
         {"type": "text", "text": "You are welcome."},
         {"type": "done", "finish_reason": "stop"}],
 "citations": [{"after": 4, "citations": {"cited": [], "quotes": []}}]}"""


def test_an_entry_reads_as_the_pair_it_replaces():
    entry = Entry.event(Event(ev.TEXT, text="Hi"))
    role, payload = entry
    assert (role, payload.text) == ("event", "Hi")
    assert entry == ("event", Event(ev.TEXT, text="Hi"))
    user = Entry.user("Hello", at=12.0)
    assert user.role == "user" and user.payload == "Hello" and user.payload.at == 12.0
    assert isinstance(Entry.user("now").payload, Said) and Entry.user("now").payload.at > 0


def test_every_kind_round_trips_through_its_one_json_form():
    entries = [Entry.user("Shorten it", at=1700000000.0),
               Entry.event(Event(ev.TEXT, text="Done.")),
               Entry.event(Event(ev.REASONING, text="hmm")),
               Entry.event(Event(ev.TOOL_CALL, call_id="c1", name="get_text", arguments="{}")),
               Entry.event(Event(ev.TOOL_RESULT, call_id="c1", name="get_text", ok=True,
                                 result="the text", summary="Read the document")),
               Entry.event(Event(ev.USAGE, usage={"total_tokens": 5})),
               Entry.event(Event(ev.STATUS, text=ev.RUNNING, name="get_text", arguments="{}")),
               Entry.event(Event(ev.ERROR, message="The server is down.")),
               Entry.event(Event(ev.CHANGE, change={"kind": "replace"})),
               Entry.event(Event(ev.DONE, finish_reason="stop"))]
    for entry in entries:
        data = json.loads(json.dumps(entry.to_dict()))
        back = Entry.from_dict(data)
        assert back == entry
        assert type(back) is Entry
    assert Entry.user("Shorten it", at=1700000000.0).to_dict() == {
        "type": "user", "text": "Shorten it", "at": 1700000000.0}


def test_the_store_keeps_the_same_form_less_what_it_never_keeps():
    result = Entry.event(Event(ev.TOOL_RESULT, call_id="c1", name="get_text", ok=True,
                               result="the whole document", summary="Read it"))
    kept = history.entry_to_dict(result)
    assert "result" not in kept and kept["summary"] == "Read it"
    assert history.entry_to_dict(Entry.event(Event(ev.STATUS, text=ev.WRITING))) is None
    said = Entry.user("Hi", at=3.0)
    assert history.entry_to_dict(said) == said.to_dict()


def test_a_chat_kept_by_an_earlier_version_still_opens():
    chat = history.from_json(json.loads(OLD_FILE))
    assert chat.title == "Fix the typos"
    assert all(type(entry) is Entry for entry in chat.log)
    roles = [role for role, _ in chat.log]
    assert roles == ["user", "event", "event", "event", "event", "event",
                     "event", "user", "event", "event"]
    first, later = chat.log[0].payload, chat.log[7].payload
    assert first == "Fix the typos" and first.at == 0          # no time: shown as unknown
    assert later.at == 1700000090.0
    assert chat.log[4].payload.kind == ev.CITATIONS            # back after the text it followed
    assert history.last_answer(chat.log) == "You are welcome."
    # Written again, it reads the same.
    again = history.from_json(json.loads(json.dumps(history.to_json(chat))))
    assert again.log == chat.log
    # Said compares as its text: the send times are checked on their own.
    assert [getattr(p, "at", None) for _, p in again.log] == \
        [getattr(p, "at", None) for _, p in chat.log]


def test_merged_deltas_stay_typed_entries():
    merged = ev.merge_entries([Entry.user("Hi", at=1.0),
                               Entry.event(Event(ev.TEXT, text="Hel")),
                               Entry.event(Event(ev.TEXT, text="lo")),
                               Entry.event(Event(ev.DONE, finish_reason="stop"))])
    assert [type(e) for e in merged] == [Entry] * 3
    assert merged[1].payload.text == "Hello"

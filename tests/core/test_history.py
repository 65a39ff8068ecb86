"""Kept chats on disk (chat/history.py) and their Markdown export (ui/chat_export.py)."""

import json
import os
import time

import pytest

from marginalia import events as ev
from marginalia.chat import history
from marginalia.ui.chat_export import to_markdown

TOOL_MESSAGES = [
    {"role": "user", "content": "Fix the spelling"},
    {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "replace_text", "arguments": "{\"search\": \"colour\"}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "{\"replaced\": 2}"},
    {"role": "assistant", "content": "Done."},
]
TOOL_LOG = [
    ("user", "Fix the spelling"),
    ("event", ev.Event(ev.STATUS, text="Connecting")),
    ("event", ev.Event(ev.REASONING, text="Two words to change.")),
    ("event", ev.Event(ev.TEXT, text="Let me look. ")),
    ("event", ev.Event(ev.TOOL_CALL_STARTED, call_id="c1", name="replace_text")),
    ("event", ev.Event(ev.TOOL_CALL, call_id="c1", name="replace_text",
                       arguments="{\"search\": \"colour\"}")),
    ("event", ev.Event(ev.TOOL_RESULT, call_id="c1", name="replace_text", ok=True,
                       result="{\"replaced\": 2}", summary="Replaced 2 occurrences")),
    ("event", ev.Event(ev.TEXT, text="Done.")),
    ("event", ev.Event(ev.USAGE, usage={"prompt_tokens": 10, "completion_tokens": 2})),
    ("event", ev.Event(ev.DONE, finish_reason="stop")),
]


def _chat():
    return history.KeptChat(messages=list(TOOL_MESSAGES), log=list(TOOL_LOG))


def test_a_chat_round_trips_with_its_tool_calls_paired(tmp_path):
    shelf = history.Shelf(str(tmp_path), "doc1")
    chat = _chat()
    shelf.save(chat)
    back = history.Shelf(str(tmp_path), "doc1").latest()
    assert back.chat_id == chat.chat_id
    assert back.messages == TOOL_MESSAGES
    assert back.title == "Fix the spelling"
    kinds = [p.kind if r == "event" else "user" for r, p in back.log]
    # Status lines are not kept; everything the panel replays is.
    assert kinds == ["user", "reasoning", "text", "tool_call", "tool_result", "text",
                     "usage", "done"]
    result = back.log[4][1]
    assert result.summary == "Replaced 2 occurrences" and result.result is None
    assert shelf.notes == []


def test_documents_have_separate_shelves_and_listing_is_newest_first(tmp_path):
    a, b = history.Shelf(str(tmp_path), "a"), history.Shelf(str(tmp_path), "b")
    first = history.KeptChat(log=[("user", "first question")])
    a.save(first)
    second = history.KeptChat(log=[("user", "second question " + "x" * 100)])
    time.sleep(0.02)
    a.save(second)
    b.save(history.KeptChat(log=[("user", "about b")]))
    listed = a.summaries()
    assert [s.chat_id for s in listed] == [second.chat_id, first.chat_id]
    assert listed[0].title.startswith("second question") and len(listed[0].title) <= 60
    assert [s.title for s in b.summaries()] == ["about b"]
    a.delete(first.chat_id)
    assert [s.chat_id for s in a.summaries()] == [second.chat_id]
    assert a.forget() == 1
    assert a.summaries() == [] and not os.path.exists(a.folder)
    assert len(b.summaries()) == 1


@pytest.mark.parametrize("content", [b"{\"format\": 1, \"id\": \"x\", \"mess", b"\xff\xfe\x00",
                                     b"[1, 2]", b"{\"format\": 1, \"id\": \"x\", \"messages\": "
                                     b"[{\"role\": \"user\"}], \"log\": [{\"type\": \"bogus\"}]}"])
def test_an_unreadable_file_is_set_aside_with_one_sentence(tmp_path, content):
    shelf = history.Shelf(str(tmp_path), "doc")
    good = _chat()
    shelf.save(good)
    os.utime(shelf.path(good.chat_id), (1, 1))         # older than the broken one
    broken = shelf.path("broken")
    with open(broken, "wb") as handle:
        handle.write(content)
    assert shelf.latest().chat_id == good.chat_id
    assert len(shelf.notes) == 1 and "could not be read" in shelf.notes[0]
    assert "broken.json.unreadable" in shelf.notes[0]
    assert not os.path.exists(broken) and os.path.exists(broken + ".unreadable")
    assert [s.chat_id for s in shelf.summaries()] == [good.chat_id]


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    shelf = history.Shelf(str(tmp_path), "doc")
    chat = _chat()
    shelf.save(chat)
    before = open(shelf.path(chat.chat_id), "rb").read()
    chat.messages.append({"role": "user", "content": "more"})

    def power_cut(fd):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(os, "fsync", power_cut)
    with pytest.raises(OSError):
        shelf.save(chat)
    monkeypatch.undo()
    assert open(shelf.path(chat.chat_id), "rb").read() == before
    assert os.listdir(shelf.folder) == [chat.chat_id + ".json"]      # no temporary left
    # A temporary left by a process that died mid-write is ignored, then swept.
    stale = os.path.join(shelf.folder, history.TEMP_PREFIX + "dead")
    with open(stale, "w") as handle:
        handle.write("{\"format\": 1, \"id\"")
    os.utime(stale, (1, 1))
    assert shelf.latest().messages == TOOL_MESSAGES
    shelf.save(chat)
    assert not os.path.exists(stale) and shelf.notes == []


def test_unpaired_tool_calls_and_results_are_dropped():
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "a"}, {"id": "b"}]},
        {"role": "tool", "tool_call_id": "a", "content": "ok"},
        {"role": "tool", "tool_call_id": "zzz", "content": "stray"},
        {"role": "assistant", "content": "half", "tool_calls": [{"id": "c"}]},
        {"role": "tool", "tool_call_id": "nobody", "content": "orphan"},
    ]
    out = history.paired(messages)
    assert out == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "a"}]},
        {"role": "tool", "tool_call_id": "a", "content": "ok"},
        {"role": "assistant", "content": "half"},
    ]
    assert history.paired(TOOL_MESSAGES) == TOOL_MESSAGES


def test_the_last_answer_and_where_the_last_turn_starts():
    assert history.last_answer(TOOL_LOG) == "Done."
    log = TOOL_LOG + [("user", "again"), ("event", ev.Event(ev.TEXT, text="# Title\n\n")),
                      ("event", ev.Event(ev.TEXT, text="Body"))]
    assert history.last_answer(log) == "# Title\n\nBody"
    messages = TOOL_MESSAGES + [{"role": "user", "content": "again"},
                                {"role": "assistant", "content": "# Title\n\nBody"}]
    assert history.last_turn_start(messages, log) == (4, len(TOOL_LOG))
    assert history.last_turn_start([], []) is None
    assert history.last_answer([]) == ""


def test_a_quick_actions_answer_is_the_last_answer_after_its_result_line():
    # Issue 24: Copy was greyed out after a quick action: its result line (no tool call
    # before it) threw the answer away.
    log = [("user", "Shorten: \u201cA long sentence.\u201d"),
           ("event", ev.Event(ev.TEXT, text="A short one.")),
           ("event", ev.Event(ev.TOOL_RESULT, call_id="action-shorten", name="shorten", ok=True,
                              summary="Replaced the selection")),
           ("event", ev.Event(ev.DONE, finish_reason="stop"))]
    assert history.last_answer(log) == "A short one."


def test_the_file_holds_plain_json_a_person_can_read(tmp_path):
    shelf = history.Shelf(str(tmp_path), "doc")
    chat = _chat()
    shelf.save(chat)
    with open(shelf.path(chat.chat_id), encoding="utf-8") as handle:
        data = json.load(handle)
    assert data["format"] == history.FORMAT and data["title"] == "Fix the spelling"
    assert data["log"][0] == {"type": "user", "text": "Fix the spelling"}


def test_markdown_export_quotes_thinking_and_shortens_tool_calls():
    text = to_markdown(TOOL_LOG, title="report.odt", when=0)
    assert text.startswith("# Chat about report.odt\n\n_Exported from Marginalia on ")
    body = text.split("\n\n", 2)[2]
    assert body == ("## You\n\nFix the spelling\n\n## Assistant\n\n"
                    "> Two words to change.\n\nLet me look.\n\n"
                    "- `replace_text({\"search\": \"colour\"})` \u2014 Replaced 2 occurrences\n\n"
                    "Done.\n")
    failed = [("user", "q"), ("event", ev.Event(ev.ERROR, message="The server is down."))]
    assert to_markdown(failed).endswith("## Assistant\n\n\u26a0 The server is down.\n")


def test_the_history_menu_lists_chats_newest_first_with_delete_export_and_forget():
    from marginalia.ui import history_menu as hm
    now = time.mktime((2026, 11, 24, 15, 0, 0, 0, 0, -1))
    chats = [history.ChatSummary("new", "Shorten the intro", now - 600),
             history.ChatSummary("old", "Fix the spelling", now - 86400 * 40)]
    items = hm.menu_items(chats, "new", can_export=True, now=now)
    labels = [i.label for i in items]
    # Dates the locale's way (English until the office says: 12-hour clock, month/day).
    assert labels[0] == "Shorten the intro \u2014 2:50 PM"
    assert labels[1] == "Fix the spelling \u2014 10/15 3:00 PM"
    from marginalia.i18n import formats
    try:
        formats.install(formats.Formats(decimal=",", thousands=".", date_order="DMY",
                                        date_separator=".", twelve_hour=False))
        german = [i.label for i in hm.menu_items(chats, "new", can_export=True, now=now)]
        assert german[:2] == ["Shorten the intro \u2014 14:50",
                              "Fix the spelling \u2014 15.10. 15:00"]
    finally:
        formats.install(formats.ENGLISH)
    assert items[0].checked and not items[1].checked
    assert labels[2:] == ["", hm.DELETE_LABEL, hm.EXPORT_LABEL, hm.FORGET_LABEL]
    assert [s.label for s in items[3].submenu] == labels[:2]
    assert hm.chosen(items[1].item_id, chats) == ("open", "old")
    assert hm.chosen(items[3].submenu[0].item_id, chats) == ("delete", "new")
    assert hm.chosen(hm.EXPORT, chats) == ("export", None)
    assert hm.chosen(hm.FORGET, chats) == ("forget", None)
    assert hm.chosen(0, chats) is None                     # the menu was closed
    empty = hm.menu_items([], None, can_export=False, now=now)
    assert empty[0].label == hm.NO_CHATS_LABEL and not empty[0].enabled
    assert not any(i.enabled for i in empty if i.item_id in (hm.DELETE_MENU, hm.EXPORT,
                                                            hm.FORGET))
    # "~" marks a menu shortcut in VCL: a title's own tilde is doubled to show as one.
    assert hm.chat_label(history.ChatSummary("t", "about ~/notes", now), now).startswith(
        "about ~~/notes \u2014 ")
    assert hm.export_name("report.odt") == "report chat.md"
    assert hm.export_name("a/b: c") == "ab c chat.md"
    assert hm.export_name("") == "chat.md"


def test_a_long_log_is_replayed_from_a_user_message_near_its_end():
    from marginalia.ui.transcript import replay_start
    log = []
    for n in range(100):
        log.append(("user", "question %d" % n))
        log.append(("event", ev.Event(ev.TEXT, text="a" * 990)))
        log.append(("event", ev.Event(ev.DONE, finish_reason="stop")))
    start = replay_start(log, 20000)
    assert log[start][0] == "user"
    shown = sum(len(p.text or "") if r == "event" else len(p) for r, p in log[start:])
    assert 20000 <= shown < 21100                 # whole turns, about the amount asked
    assert replay_start(log[:30], 20000) == 0     # a short chat shows whole
    assert replay_start([("event", ev.Event(ev.TEXT, text="x" * 50000))], 10) == 0


# What the version before sources (a52a5e9^1) reads from a log entry: an Event of
# these kinds with these fields, or it sets the whole chat file aside.
_OLD_KINDS = {"text", "reasoning", "reclassify", "tool_call_started", "tool_call",
              "tool_result", "usage", "status", "context", "error", "notice", "change", "done"}
_OLD_FIELDS = {"type", "text", "call_id", "name", "arguments", "ok", "result", "summary",
               "usage", "message", "finish_reason", "change"}


def test_a_chat_with_citations_is_kept_so_the_previous_version_still_reads_it():
    cited = {"cited": [{"key": 1, "location": "r.pdf, p. 2"}], "quotes": [], "unknown": []}
    second = {"cited": [{"key": 2, "location": "s.odt"}], "quotes": [], "unknown": []}
    chat = history.KeptChat()
    chat.messages = [{"role": "user", "content": "hi"},
                     {"role": "assistant", "content": "It was cold [1]."}]
    chat.log = [("user", history.Said("hi", 5.0)), ("event", ev.Event(ev.TEXT, text="Cold [1].")),
                ("event", ev.Event(ev.CITATIONS, citations=cited)),
                ("event", ev.Event(ev.DONE, finish_reason="stop")),
                ("user", history.Said("more", 6.0)), ("event", ev.Event(ev.TEXT, text="Ice [2].")),
                ("event", ev.Event(ev.CITATIONS, citations=second))]
    data = json.loads(json.dumps(history.to_json(chat)))
    for entry in data["log"]:
        assert entry["type"] == "user" or (entry["type"] in _OLD_KINDS
                                           and set(entry) <= _OLD_FIELDS), entry
    # This version reads the citations back where they were.
    again = history.from_json(data)
    assert [(r, p.kind if r == "event" else str(p)) for r, p in again.log] == [
        (r, p.kind if r == "event" else str(p)) for r, p in chat.log]
    assert again.log[2][1].citations == cited and again.log[6][1].citations == second
    # A damaged list beside the log loses the lists, not the chat.
    data["citations"] = [{"after": "x"}, 7]
    assert len(history.from_json(data).log) == 5


def test_markdown_export_puts_the_answers_headings_below_the_roles_and_marks_a_stop():
    answer = ("# Plan\n\nIntro.\n\n## Steps\n\n- one\n\n```\n# a comment, not a heading\n```\n\n"
              "Costs\n=====\n\n###### Deep")
    log = [("user", "Plan it"), ("event", ev.Event(ev.TEXT, text=answer)),
           ("event", ev.Event(ev.DONE, finish_reason="stop")),
           ("user", "More"), ("event", ev.Event(ev.TEXT, text="## Half an ans")),
           ("event", ev.Event(ev.DONE, finish_reason="cancelled"))]
    text = to_markdown(log, when=0)
    body = text.split("\n\n", 2)[2]
    assert body == ("## You\n\nPlan it\n\n## Assistant\n\n### Plan\n\nIntro.\n\n#### Steps\n\n"
                    "- one\n\n```\n# a comment, not a heading\n```\n\n### Costs\n\n"
                    "###### Deep\n\n## You\n\nMore\n\n## Assistant\n\n#### Half an ans\n\n"
                    "_(stopped)_\n")
    # Every heading of an answer is below the role headings (the code keeps its "#").
    assert all(not line.startswith(("# ", "## ")) or line in ("## You", "## Assistant")
               for line in body.replace("# a comment", "").split("\n"))
    from marginalia.ui.chat_export import demote_headings
    assert demote_headings("Text\n---\n\n- item\n---") == "#### Text\n\n- item\n---"

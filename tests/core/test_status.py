"""The panel presenter (ui.status): the status line's one owner, Send/Stop, Undo, focus."""

from marginalia import config
from marginalia import events as ev
from marginalia.chat import loop
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.transport import CancelToken
from marginalia.events import Entry, Event
from marginalia.ui import first_run, status as st
from marginalia.ui.history_menu import EDITING
from marginalia.ui.status import PanelPresenter
from marginalia.ui.tool_words import WORKING, running
from tests.support.sse_server import text_response, tool_calls_response


def user(text="Go"):
    return Entry.user(text, at=1.0)


def event(kind, **fields):
    return Entry.event(Event(kind, **fields))


def state(name, tool=None):
    return event(ev.STATUS, text=name, name=tool)


class _ScriptedClient:
    """Serves each scripted response's SSE body, as the transport would."""

    def __init__(self, *responses):
        self.responses = list(responses)

    def open_stream(self, body, cancel):
        return iter([piece.encode("utf-8") for piece in self.responses.pop(0)["body"]])


def test_a_real_turn_is_worded_by_the_presenter_never_by_the_loop():
    registry = ToolRegistry()
    registry.register("get_text", "Read the document.", {"type": "object"}, lambda: "Text.")
    presenter = PanelPresenter()
    presenter.sent()
    shown = [presenter.status()]
    said = []

    def on_event(event_):
        if event_.kind == ev.STATUS:
            said.append((event_.text, event_.name))
        presenter.see([Entry.event(event_)], busy=event_.kind != ev.DONE)
        if presenter.status() != shown[-1]:
            shown.append(presenter.status())
    client = _ScriptedClient(
        tool_calls_response([("c1", "get_text", {})], reasoning="Read it first."),
        text_response("Done.", reasoning="Fine.",
                      usage={"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}))
    loop.run_turn(client, loop.Conversation(), "Go", registry,
                  config.Settings(model="test-model"), on_event, CancelToken())
    # The loop names states and the tool; no words, no "%s" to parse back.
    assert said == [("connecting", None), ("waiting", None), ("thinking", None),
                    ("running", "get_text"), ("running", "get_text"), ("connecting", None),
                    ("waiting", None), ("thinking", None), ("writing", None)]
    # A running tool in the user's words; get_text has none of its own, so the generic ones.
    assert shown == [st.CONNECTING, st.WAITING, st.THINKING, WORKING, st.CONNECTING,
                     st.WAITING, st.THINKING, st.WRITING, st.READY]
    assert running("replace_text") == "Changing the text\u2026"
    # Plain words on the line; the numbers go to its tooltip.
    assert presenter.details() == "Last turn: 12 tokens (10 prompt, 2 answer)"
    assert presenter.shown().send == st.SEND and not presenter.shown().busy


def test_every_state_of_a_turn_has_its_words_and_the_button_follows_busy():
    presenter = PanelPresenter()
    assert presenter.shown() == st.Shown(st.READY, "", False, st.SEND, False)
    presenter.sent()
    assert presenter.shown().status == st.CONNECTING
    assert presenter.shown().send == ("Stop", "Stop the answer") and presenter.shown().busy
    for name, words in [(ev.WAITING, st.WAITING), (ev.THINKING, st.THINKING),
                        (ev.WRITING, st.WRITING), (ev.CONNECTING, st.CONNECTING)]:
        presenter.see([state(name)], busy=True)
        assert presenter.status() == words
    presenter.see([state(ev.RUNNING, "search_sources")], busy=True)
    assert presenter.status() == "Searching the sources\u2026"
    presenter.see([state(ev.RUNNING, "a_tool_from_elsewhere")], busy=True)
    assert presenter.status() == WORKING
    presenter.see([event(ev.ERROR, message="The server is down.")], busy=True)
    assert presenter.status() == st.ERROR_STATUS
    presenter.see([event(ev.DONE, finish_reason="error")], busy=False)
    assert presenter.status() == st.READY and presenter.shown().send == st.SEND


def test_stop_says_stopping_until_the_turn_ends_stopped():
    presenter = PanelPresenter()
    presenter.see([user(), state(ev.WRITING)], busy=True)
    presenter.stop()
    assert presenter.status() == st.STOPPING
    presenter.see([state(ev.WRITING)], busy=True)      # late pieces still say Stopping
    assert presenter.status() == st.STOPPING
    presenter.see([event(ev.DONE, finish_reason="cancelled")], busy=False)
    assert presenter.status() == st.STOPPED and not presenter.stopping


def test_a_cut_answer_says_so_until_the_next_turn_and_retry_acts():
    presenter = PanelPresenter()
    presenter.see([user(), state(ev.WRITING), event(ev.TEXT, text="Half")], busy=True)
    presenter.see([event(ev.ERROR, message="Cut."), event(ev.DONE, finish_reason="cut")],
                  busy=False)
    assert presenter.status() == st.CUT
    assert st.answer_row(presenter.busy, True, presenter.asked)["retry"]
    presenter.see([user(), event(ev.DONE, finish_reason="stop")], busy=False)
    assert presenter.status() == st.READY
    presenter.see([user(), event(ev.ERROR, message="Bad key."),
                   event(ev.DONE, finish_reason="error")], busy=False)
    assert presenter.status() == st.READY     # other errors: their sentence is in the chat


def test_the_context_numbers_and_the_last_turn_are_the_tooltip_not_the_line():
    presenter = PanelPresenter()
    presenter.see([user(), event(ev.CONTEXT, usage={"tokens": 5210, "window": 32768})],
                  busy=True)
    assert presenter.status() == st.CONNECTING
    assert presenter.details() == "Context: 5.2k of 32k tokens"
    presenter.see([state(ev.WRITING), event(ev.CONTEXT, usage={"tokens": 900, "window": 4096}),
                   event(ev.USAGE, usage={"prompt_tokens": 1000, "completion_tokens": 234,
                                          "total_tokens": 1234}),
                   event(ev.DONE, finish_reason="stop")], busy=False)
    assert presenter.status() == st.READY
    assert presenter.details() == ("Context: 900 of 4k tokens\n"
                                   "Last turn: 1,234 tokens (1,000 prompt, 234 answer)")
    # No window, no meter; an unknown usage, no last turn.
    fresh = PanelPresenter()
    fresh.see([user(), event(ev.CONTEXT, usage={"tokens": 10}),
               event(ev.DONE, finish_reason="stop")], busy=False)
    assert fresh.details() == ""
    assert st.format_usage({"total_tokens": 7}) == "7 tokens" and st.format_usage(None) == ""


def test_a_queued_message_is_seen_on_its_own_line_and_goes_or_comes_back():
    presenter = PanelPresenter()
    presenter.see([user(), state(ev.WRITING)], busy=True)
    presenter.queue("And then?")
    presenter.queue("Also this.")
    lines = presenter.status().split("\n")
    # Its own line: a narrow panel cuts the end of a line, never this sentence.
    assert lines == [st.WRITING, "Queued: \u201cAnd then? Also this.\u201d"]
    long = PanelPresenter()
    long.see([user(), state(ev.WRITING)], busy=True)
    long.queue("A long message that goes on and on\nabout the report.")
    assert long.status().split("\n")[1] == "Queued: \u201cA long message that goes on and\u2026\u201d"
    presenter.see([state(ev.RUNNING, "search_sources")], busy=True)
    assert presenter.status().endswith(st.queued_line("And then?\n\nAlso this."))
    presenter.see([event(ev.DONE, finish_reason="stop")], busy=False)
    assert presenter.turn_ended(failed=False) == ("And then?\n\nAlso this.", None)
    assert presenter.queued is None
    # A stopped turn gives the message back to the box, and says so.
    presenter.see([user(), state(ev.WRITING)], busy=True)
    presenter.queue("Later")
    presenter.see([event(ev.DONE, finish_reason="cancelled")], busy=False)
    assert presenter.turn_ended(failed=True) == (None, "Later")
    assert presenter.status() == st.QUEUE_KEPT
    assert st.focus_after("queue_kept") == st.INPUT
    assert presenter.turn_ended(failed=False) == (None, None)


def test_new_chats_undo_and_its_sentence_end_together():
    presenter = PanelPresenter()
    presenter.see([user(), event(ev.DONE, finish_reason="stop")], busy=False)
    undo = object()
    presenter.new_chat(undo)
    assert presenter.shown().status == st.NEW_CHAT and presenter.shown().undo
    assert presenter.shown().details == ""                # the old chat's numbers went
    assert st.focus_after("new_chat") == st.INPUT
    assert not presenter.undo_expired(object())           # another offer's timer
    assert presenter.shown().undo
    # Time up: the button and the sentence go at the same moment.
    assert presenter.undo_expired(undo)
    assert presenter.shown().status == st.READY and not presenter.shown().undo
    assert not presenter.undo_expired(undo)
    assert presenter.take_undo() is None


def test_undo_used_or_taken_back_by_anything_else_said():
    presenter = PanelPresenter()
    undo = object()
    presenter.new_chat(undo)
    assert presenter.take_undo() is undo
    presenter.undone()
    assert presenter.shown().status == st.CHAT_BACK and not presenter.shown().undo
    assert st.focus_after("undo") == st.INPUT          # the button that had focus is gone
    assert st.focus_after("restore") == st.INPUT       # the message is back in the box
    # Another sentence takes the offer back: no status explains the button then.
    presenter.new_chat(undo)
    presenter.say("Added notes.md to the sources.")
    assert not presenter.shown().undo and presenter.take_undo() is None
    # So does a message sent.
    presenter.new_chat(undo)
    presenter.sent()
    assert not presenter.shown().undo and presenter.status() == st.CONNECTING
    # New chat with nothing to bring back offers nothing.
    presenter.new_chat(None)
    assert presenter.shown() == st.Shown(st.READY, "", False, st.SEND, False)


def test_a_sentence_said_lasts_until_the_turn_next_changes():
    presenter = PanelPresenter()
    presenter.see([user(), event(ev.DONE, finish_reason="stop")], busy=False)
    presenter.say("The last answer is on the clipboard.")
    assert presenter.status() == "The last answer is on the clipboard."
    presenter.sent()
    assert presenter.status() == st.CONNECTING
    presenter.say("Accepted 1 change.")
    presenter.see([state(ev.CONNECTING)], busy=True)        # no change: still said
    assert presenter.status() == "Accepted 1 change."
    presenter.see([state(ev.WRITING)], busy=True)
    assert presenter.status() == st.WRITING
    presenter.say(st.TESTING)
    presenter.quiet(st.TESTING)
    assert presenter.status() == st.WRITING


def test_tests_report_quiets_only_its_own_sentence_and_never_an_offer():
    presenter = PanelPresenter()
    presenter.see([user(), event(ev.DONE, finish_reason="stop")], busy=False)
    presenter.say(st.TESTING)
    undo = object()
    presenter.new_chat(undo)                    # New chat while /test runs
    presenter.quiet(st.TESTING)                 # its report arrives
    shown = presenter.shown()
    assert shown.undo and shown.status == st.NEW_CHAT       # the offer and its sentence
    presenter.take_undo()
    presenter.say("The last answer is on the clipboard.")
    presenter.quiet(st.TESTING)
    assert presenter.status() == "The last answer is on the clipboard."


def test_editing_the_last_message_is_said_only_while_the_box_holds_it():
    presenter = PanelPresenter()
    presenter.see([user(), event(ev.DONE, finish_reason="stop")], busy=False)
    presenter.edit()
    assert presenter.status() == EDITING and st.focus_after("edit") == st.INPUT
    presenter.box_changed(has_text=False)
    assert presenter.status() == st.READY
    presenter.box_changed(has_text=True)
    assert presenter.status() == EDITING
    presenter.say("The last answer is on the clipboard.")
    presenter.box_changed(has_text=True)                  # typing keeps the other sentence
    assert presenter.status() == "The last answer is on the clipboard."
    presenter.edit_ended()
    assert not presenter.editing
    presenter.edit()
    presenter.sent()
    assert not presenter.editing and presenter.status() == st.CONNECTING
    presenter.box_changed(has_text=True)                  # not editing: nothing said
    assert presenter.status() == st.CONNECTING


def test_the_first_run_hint_is_the_idle_line_until_the_first_message():
    presenter = PanelPresenter()
    presenter.hint = first_run.NEEDS_MODEL
    assert presenter.status() == first_run.NEEDS_MODEL
    presenter.say(first_run.KEPT)
    assert presenter.status() == first_run.KEPT
    presenter.quiet(first_run.KEPT)
    presenter.see([user(), event(ev.DONE, finish_reason="stop")], busy=False)
    assert presenter.status() == st.READY


def test_a_replayed_chat_shows_where_it_ended():
    presenter = PanelPresenter()
    log = [user(), event(ev.CONTEXT, usage={"tokens": 2048, "window": 8000}),
           event(ev.TEXT, text="Hi"), event(ev.DONE, finish_reason="cancelled")]
    presenter.see(log, busy=False)
    assert presenter.shown() == st.Shown(st.STOPPED, "Context: 2k of 8k tokens", False,
                                         st.SEND, False)
    presenter.reset()
    assert presenter.shown() == st.Shown(st.READY, "", False, st.SEND, False)


def test_a_replay_keeps_the_users_queued_message_and_edit_new_chat_ends_them():
    presenter = PanelPresenter()
    presenter.see([user(), state(ev.WRITING)], busy=True)
    presenter.queue("Next")
    presenter.reset()                       # the chat shown again (History, a deleted chat)
    presenter.see([user(), state(ev.WRITING)], busy=True)
    assert presenter.queued == "Next" and presenter.status().endswith(st.queued_line("Next"))
    presenter.new_chat(None)
    assert presenter.queued is None
    presenter.edit()
    presenter.reset()
    assert presenter.editing
    presenter.new_chat(None)
    assert not presenter.editing


def test_the_answer_row_acts_only_between_turns_on_what_there_is():
    assert st.answer_row(busy=False, answered=True, asked=True) == dict.fromkeys(
        ("copy", "insert", "retry", "edit"), True)
    assert not any(st.answer_row(busy=True, answered=True, asked=True).values())
    assert st.answer_row(busy=False, answered=False, asked=True) == {
        "copy": False, "insert": False, "retry": True, "edit": True}
    assert not any(st.answer_row(busy=False, answered=False, asked=False).values())
    assert st.focus_after("copy") is None


def test_what_the_user_left_in_a_panel_the_sidebar_took_down_comes_back_in_the_next():
    old = PanelPresenter()
    assert old.leave("") is None                        # nothing left: nothing kept
    old.sent()
    old.queue("Then shorten it.")
    left = old.leave("half a thought", chat="c1")
    assert left == st.Left("half a thought", "Then shorten it.", False, "c1")
    # The turn still runs: the message waits for it, the draft is back in the box.
    new = PanelPresenter()
    new.see([user()], busy=True)
    assert new.take_up(left, busy=True, failed=False, chat="c1") == ("half a thought", False)
    assert st.queued_line("Then shorten it.") in new.status()
    assert new.turn_ended(failed=False) == ("Then shorten it.", None)
    # The turn ended while no panel showed: the queued message goes now, and stays
    # queued until it does (a panel gone before that leaves it again).
    new = PanelPresenter()
    assert new.take_up(left, busy=False, failed=False, chat="c1") == ("half a thought", True)
    assert new.leave("half a thought", "c1").queued == "Then shorten it."
    assert new.send_left(busy=True) is None and new.queued == "Then shorten it."
    assert new.send_left(busy=False) == "Then shorten it." and new.queued is None
    assert new.send_left(busy=False) is None              # never twice
    # After a failed or stopped turn, it comes back into the box before the draft.
    new = PanelPresenter()
    box, now = new.take_up(left, busy=False, failed=True, chat="c1")
    assert (box, now) == ("Then shorten it.\n\nhalf a thought", False)
    assert new.status() == st.QUEUE_KEPT


def test_what_was_left_for_another_chat_waits_in_the_box_and_ends_the_edit():
    old = PanelPresenter()
    old.edit()
    old.sent()
    old.queue("Then shorten it.")
    left = old.leave("draft", chat="c1")
    new = PanelPresenter()
    # History opened another chat while no panel showed, and a turn of it runs.
    box, now = new.take_up(left, busy=True, failed=False, chat="c2")
    assert (box, now) == ("Then shorten it.\n\ndraft", False)
    assert not new.editing and new.queued is None
    assert st.queued_line("Then shorten it.") not in new.status() and new.status() != EDITING


def test_an_edit_in_progress_survives_the_panel_being_made_again():
    old = PanelPresenter()
    old.edit()
    left = old.leave("Fix the second paragraph", chat="c1")
    new = PanelPresenter()
    assert new.take_up(left, busy=False, failed=False, chat="c1") == (
        "Fix the second paragraph", False)
    assert new.editing and new.status() == EDITING


def test_a_turn_the_panel_did_not_start_ends_an_edit_and_a_replay_does_not():
    presenter = PanelPresenter()
    presenter.edit()
    presenter.box_changed(True)
    presenter.see([user("earlier")], busy=False)          # a replay of the chat
    assert presenter.editing
    presenter.box_changed(False)                           # /improve sent: the box emptied
    presenter.see_live([user("/improve")], busy=True)      # the quick action's turn
    presenter.see_live([event(ev.DONE, finish_reason="stop")], busy=False)
    assert not presenter.editing and presenter.status() == st.tr(st.READY)


def test_an_edit_in_progress_outlives_a_replay_while_the_box_holds_the_message():
    presenter = PanelPresenter()
    presenter.edit()
    presenter.box_changed(True)
    replayed = [user("Fix it"), event(ev.TEXT, text="Done."), event(ev.DONE,
                                                                    finish_reason="stop")]
    presenter.reset()                       # the pane laid out again at a new width
    presenter.see(replayed, busy=False)
    assert presenter.status() == EDITING
    presenter.box_changed(False)
    presenter.reset()
    presenter.see(replayed, busy=False)
    assert presenter.status() == st.tr(st.READY)

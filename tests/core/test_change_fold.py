"""When the change card shows, what its summary says, and when its list folds (pure)."""

from marginalia import events as ev
from marginalia.document import change_log as cl
from marginalia.ui import change_fold as fold
from marginalia.ui import change_list as card


def _change(n, state=cl.PENDING, mode=cl.TRACKED):
    change = cl.make(n, 7, "replace_text", mode, {"search": "old", "replacement": "new"})
    change.state = state
    change.paragraphs = [n, n]
    return change


def _edit(turn):
    return ("event", ev.Event(ev.CHANGE, change={"turn": turn}))


def test_a_plain_question_shows_no_card():
    log = [("user", "What is this about?"), ("event", ev.Event(ev.TEXT, text="Cats."))]
    assert fold.card_shown([], fold.by_last_turn(log, 1)) is False
    # Direct edits of an earlier turn: the plain question after them shows no card either.
    log = [("user", "Fix it"), _edit(3), ("user", "And what is it about?")]
    made = [_change(1, cl.MADE, cl.DIRECT)]
    assert fold.by_last_turn(log, 3) is False
    assert fold.card_shown(made, fold.by_last_turn(log, 3)) is False


def test_the_card_shows_for_the_last_turns_changes_and_for_older_ones_still_open():
    log = [("user", "Fix it"), _edit(3)]
    assert fold.by_last_turn(log, 3) and not fold.by_last_turn(log, 2)
    assert fold.card_shown([_change(1, cl.MADE, cl.DIRECT)], True)
    # Tracked changes still waiting for a decision keep it through a plain question.
    later = log + [("user", "Thanks")]
    assert fold.card_shown([_change(1), _change(2, cl.ACCEPTED)], fold.by_last_turn(later, 3))
    assert not fold.card_shown([_change(1, cl.ACCEPTED), _change(2, cl.REJECTED)],
                               fold.by_last_turn(later, 3))
    # An outside agent's turn (office.mcp_turns) with no message of the user's in the chat.
    assert fold.by_last_turn([_edit(5)], 5)


def test_summary_wording_for_one_and_three_changes_and_after_partial_review():
    assert card.headline([_change(1)]) == "1 change"
    assert card.headline([_change(i) for i in (1, 2, 3)]) == "3 changes"
    partial = [_change(1, cl.ACCEPTED), _change(2, cl.REJECTED), _change(3)]
    assert card.headline(partial) == "3 changes \u00b7 1 accepted \u00b7 1 rejected \u00b7 1 open"
    assert fold.open_count(partial) == 1
    assert card.headline([]) == ""


def test_the_list_folds_when_closed_when_a_turn_starts_and_when_nothing_is_left_open():
    assert fold.review_open(True, fold.CLOSED) is False
    assert fold.review_open(True, fold.NEW_TURN) is False
    assert fold.review_open(True, fold.REVIEWED, open_before=3, open_now=2) is True
    assert fold.review_open(True, fold.REVIEWED, open_before=1, open_now=0) is False
    # Direct edits never were open: looking through them (Go to) keeps the list.
    assert fold.review_open(True, fold.REVIEWED, open_before=0, open_now=0) is True
    assert fold.review_open(False, fold.REVIEWED, 0, 0) is False


def test_a_new_turn_is_a_new_user_message_since_the_card_last_looked():
    log = [("user", "a"), ("event", ev.Event(ev.TEXT, text="b")), ("user", "c")]
    assert fold.user_turns(log) == 2
    assert fold.new_turn(None, 2) is False          # the card's first look
    assert fold.new_turn(1, 2) is True and fold.new_turn(2, 2) is False
    assert fold.new_turn(3, 1) is False             # a restored or new chat is no new turn

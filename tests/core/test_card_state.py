"""Which of the panel's cards show: the presenter's part ui.card_state (pure)."""

from marginalia.document import change_log as cl
from marginalia.ui import card_state
from marginalia.ui.status import PanelPresenter


def _change(n, state=cl.PENDING):
    change = cl.make(n, 7, "replace_text", cl.TRACKED, {"search": "old", "replacement": "new"})
    change.state = state
    return change


def test_the_presenter_owns_the_cards_and_a_fresh_panel_shows_none():
    presenter = PanelPresenter()
    assert isinstance(presenter.cards, card_state.CardState)
    shown = presenter.cards.shown()
    assert not (shown.setup or shown.summary or shown.review or shown.tray or shown.changes)


def test_the_first_run_card_shows_until_a_model_answered_and_never_when_locked():
    cards = card_state.CardState()
    assert cards.model_state("", answered=False) and cards.shown().setup
    assert cards.model_state("qwen", answered=False)
    assert not cards.model_state("qwen", answered=True)
    assert not cards.model_state("qwen", answered=False, locked=("endpoint", "model"))
    cards.model_state(None, answered=True)
    assert cards.shown().setup
    cards.answered()
    assert not cards.shown().setup


def test_a_plain_question_shows_no_change_card_and_review_cannot_open_it():
    cards = card_state.CardState()
    cards.changes_seen([], last_turn_made_them=False)
    assert not cards.review_pressed()
    assert cards.shown() == card_state.CardsShown(False, False, False, False)


def test_review_opens_and_closes_the_list_and_a_new_turn_folds_it_and_the_tray():
    cards = card_state.CardState()
    cards.changes_seen([_change(1), _change(2)], last_turn_made_them=True)
    assert cards.shown().summary and not cards.shown().review
    assert cards.review_pressed() and cards.shown().review
    assert not cards.review_pressed() and not cards.shown().review
    cards.review_pressed()
    assert cards.tray_pressed() == card_state.MODE and cards.shown().tray
    cards.turn_began()
    shown = cards.shown()
    assert not shown.review and not shown.tray and shown.summary
    assert cards.tray_pressed() == card_state.MODE
    assert cards.tray_pressed() is None and not cards.shown().tray


def test_the_list_folds_when_an_action_settles_the_last_open_change_only():
    cards = card_state.CardState()
    cards.changes_seen([_change(1), _change(2)], True)
    cards.review_pressed()
    before = cards.open_now
    assert before == 2
    cards.changes_seen([_change(1, cl.ACCEPTED), _change(2)], True)     # Accept one
    cards.reviewed(before)
    assert cards.shown().review
    before = cards.open_now
    cards.changes_seen([_change(1, cl.ACCEPTED), _change(2, cl.REJECTED)], True)
    cards.reviewed(before)
    assert not cards.shown().review and cards.shown().summary


def test_the_list_goes_with_the_summary_and_the_tray_alone_keeps_the_card():
    cards = card_state.CardState()
    cards.changes_seen([_change(1)], True)
    cards.review_pressed()
    cards.tray_pressed()
    cards.changes_seen([], False)          # another chat, or its changes undone
    shown = cards.shown()
    assert not shown.summary and not shown.review
    assert shown.tray and shown.changes

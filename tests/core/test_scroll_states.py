"""The panel's scrolling and transient states, decided in pure code (ui.follow, ui.offer);
tests/gui/test_panel_scrolling.py checks the real window draws them."""

from marginalia.ui.follow import SLACK, Follow, Scroll, at_end
from marginalia.ui.offer import Offer

# A pane 500 px high over 2000 px of text; its end is at value 1500.
END = Scroll(1500, 2000, 500)
UP = Scroll(700, 2000, 500)


def test_the_end_is_the_last_screen_within_a_few_pixels_and_a_short_text_is_all_end():
    assert at_end(END)
    assert at_end(Scroll(1500 - SLACK, 2000, 500))
    assert not at_end(Scroll(1500 - SLACK - 1, 2000, 500))
    assert at_end(Scroll(0, 300, 500))


def test_text_arriving_at_the_end_is_followed_and_offers_nothing():
    follow = Follow()
    assert follow.arriving(END, cursor_at_end=True)
    assert follow.following and not follow.offered


def test_a_view_scrolled_up_stays_though_the_cursor_is_at_the_end_and_the_offer_stays():
    follow = Follow()
    follow.scrolled(UP)
    assert not follow.following
    assert not follow.offered              # nothing new below yet
    assert not follow.arriving(UP, cursor_at_end=True)
    assert follow.offered
    # More text, the view still up (its top kept, the text longer): still not followed.
    assert not follow.arriving(Scroll(700, 2400, 500), cursor_at_end=True)
    # The user scrolls, but not to the end: the offer stays.
    follow.scrolled(Scroll(1200, 2400, 500))
    assert follow.offered and not follow.following


def test_scrolling_back_to_the_end_resumes_following_and_ends_the_offer():
    follow = Follow()
    follow.arriving(UP, cursor_at_end=True)
    follow.scrolled(Scroll(1900, 2400, 500))
    assert follow.following and not follow.offered
    assert follow.arriving(Scroll(1900, 2400, 500), cursor_at_end=False)


def test_a_view_at_the_end_follows_though_the_cursor_was_put_higher_up():
    # The user clicked into the text to select, then scrolled back down: the scroll wins.
    assert Follow().arriving(END, cursor_at_end=False)


def test_jumping_follows_again_and_takes_the_offer_back():
    follow = Follow()
    follow.arriving(UP, cursor_at_end=True)
    follow.jumped()
    assert follow.following and not follow.offered


def test_without_a_readable_scroll_bar_the_cursor_decides():
    follow = Follow()
    assert not follow.arriving(None, cursor_at_end=False)
    assert follow.offered
    assert follow.arriving(None, cursor_at_end=True)
    assert not follow.offered      # following again: nothing is below to offer


def test_the_offer_goes_when_the_view_shows_the_end_again_without_a_scroll():
    follow = Follow()
    assert not follow.arriving(Scroll(0, 1000, 200), cursor_at_end=False)
    assert follow.offered
    # The panel grew: the same top now shows the end, and the next text is followed.
    assert follow.arriving(Scroll(0, 1000, 1000), cursor_at_end=False)
    assert not follow.offered


def test_an_offer_and_its_sentence_end_together_when_the_time_is_up():
    offer = Offer()
    token = object()
    offer.start("undo", "New chat started.", token)
    assert offer.status_shown("New chat started.") is None      # its own sentence keeps it
    assert offer.expire(token)
    assert offer.button is None and offer.status is None
    assert not offer.expire(token)                               # only once


def test_another_status_takes_the_offer_back_and_a_late_timer_then_does_nothing():
    offer = Offer()
    token = object()
    offer.start("undo", "New chat started.", token)
    assert offer.status_shown("Connecting\u2026") == "undo"
    assert offer.take() is None
    assert not offer.expire(token)


def test_a_timer_of_an_earlier_offer_leaves_a_newer_one():
    offer = Offer()
    first, second = object(), object()
    offer.start("undo", "New chat started.", first)
    offer.take()
    offer.start("undo", "New chat started.", second)
    assert not offer.expire(first)
    assert offer.button == "undo"
    assert offer.take() is second

"""document.rediff: only the words that differ are replaced, each changed word whole."""

import random

from marginalia.document.rediff import Piece, apply, pieces, tokens, whole


def test_a_changed_last_word_is_the_only_piece():
    assert pieces("quick brown fox", "quick brown cat") == [Piece(12, 15, "cat")]


def test_a_word_added_between_goes_after_the_space_not_after_the_word():
    # Inserted text takes the format of the character before it: the space, not "brown".
    assert pieces("brown fox", "brown red fox") == [Piece(6, 6, "red ")]


def test_words_added_before_between_and_after():
    old, new = "quick brown fox", "the quick, brown and lazy fox!"
    found = pieces(old, new)
    assert found == [Piece(0, 0, "the "), Piece(5, 5, ","), Piece(12, 12, "and lazy "),
                     Piece(15, 15, "!")]
    assert apply(old, found) == new


def test_a_changed_word_is_one_piece_however_alike():
    # Tracked, letter pieces read as "e|all|very" and a swap of two letters lost one.
    assert pieces("colour scheme", "color scheme") == [Piece(0, 6, "color")]
    assert pieces("I recieve it", "I receive it") == [Piece(2, 9, "receive")]
    assert pieces("zephyr", "zephyrs") == [Piece(0, 6, "zephyrs")]
    assert pieces("fox", "cat") == [Piece(0, 3, "cat")]
    assert whole("zephyr", "zephyrs") and not whole("a zephyr", "a zephyrs")


def test_emoji_are_tokens_of_their_own_and_offsets_count_code_points():
    old = "Launch \U0001F680 day"
    assert tokens(old) == ["Launch", " ", "\U0001F680", " ", "day"]
    assert pieces(old, "Launch \U0001F680 night") == [Piece(9, 12, "night")]


def test_equal_texts_need_nothing_and_empty_ends_work():
    assert pieces("same words", "same words") == []
    assert pieces("", "new") == [Piece(0, 0, "new")]
    assert pieces("gone", "") == [Piece(0, 4, "")]


def test_any_pair_round_trips_with_ascending_untouching_pieces():
    rng = random.Random(7)
    words = ["a", "bold", "Bold", "cat", "cats", " ", "  ", ",", ".", "\U0001F600", "x\u00e9"]
    for _ in range(400):
        old = "".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
        new = "".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
        found = pieces(old, new)
        assert apply(old, found) == new, (old, new, found)
        for first, second in zip(found, found[1:]):
            assert first.end < second.start, found
        assert all(0 <= p.start <= p.end <= len(old) for p in found)

"""The one sentence a user sees for an exception."""

from marginalia.errors import (UNEXPECTED, Cancelled, EndpointError, MarginaliaError, user_sentence)


def test_our_errors_speak_for_themselves():
    assert user_sentence(EndpointError("The API key was refused.")) == "The API key was refused."
    assert user_sentence(Cancelled()) == "Stopped."


def test_anything_else_is_one_sentence_pointing_at_the_log():
    for exc in (KeyError("x"), RuntimeError("Traceback (most recent call last)"),
                MarginaliaError("")):
        assert user_sentence(exc) == UNEXPECTED
    assert "marginalia.log" in UNEXPECTED and "\n" not in UNEXPECTED

"""A transient offer (New chat's Undo) and the status sentence that words it (pure).

The two are one state: they appear together and end together. When the
offer's time is up the button goes and the status line goes back to its idle
words at the same moment; a status saying something else (a message sent, a
command's report) takes the button back too, since no sentence explains it then.
"""

from typing import Any, Optional


class Offer:
    """At most one offer at a time: its button's name, its status sentence, what it brings back."""

    def __init__(self):
        self.button = None      # the control's name while an offer shows
        self.status = None
        self.value = None

    def start(self, button: str, status: str, value: Any) -> None:
        self.button, self.status, self.value = button, status, value

    def take(self) -> Optional[Any]:
        """The offer is used or withdrawn: what it held (None when none showed)."""
        value = self.value
        self.button = self.status = self.value = None
        return value

    def status_shown(self, text: str) -> Optional[str]:
        """The status line now says ``text``: the button to hide if that ends the offer."""
        if self.button is None or text == self.status:
            return None
        button = self.button
        self.take()
        return button

    def expire(self, value: Any) -> bool:
        """The time of the offer holding ``value`` is up: True when it still showed (then
        its button and its sentence both go)."""
        if self.button is None or self.value is not value:
            return False
        self.take()
        return True

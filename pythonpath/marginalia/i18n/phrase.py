"""A sentence as data: its catalog text and what fills it (pure).

A tool says what it did ("Replaced 2 occurrences of “Costs”") once, where it knows
the facts. The model's log and the headless runner read it in English (``english``);
the panel reads it in the user's language (``words``); a kept chat keeps it as
``to_dict``, so a chat reopened in German reads German. Nobody parses the English back.

``phrase("Deleted paragraph %(n)d", n=3)`` and ``phrase_n("Read %(n)d paragraph",
"Read %(n)d paragraphs", 2)`` are the markers the catalog extraction finds (their
first arguments are msgids, literal strings). A filler may be a phrase itself
("Inserted … %(where)s" with where = phrase("after paragraph %(n)d", n=2)); quoted
document text is a plain string, never translated.
"""

import logging
from typing import Any, Dict, Mapping, Optional

from marginalia.i18n.catalog import tr, trn

log = logging.getLogger("marginalia.i18n.phrase")


class Phrase:
    """``text`` (a msgid with %(name)s fillers), ``plural`` and ``count`` when the number
    decides the form (``count`` is also the filler ``n``), ``params`` the fillers."""

    __slots__ = ("text", "plural", "count", "params")

    def __init__(self, text: str, params: Optional[Mapping[str, Any]] = None,
                 plural: Optional[str] = None, count: Optional[int] = None) -> None:
        self.text = text
        self.plural = plural
        self.count = count
        self.params = dict(params or {})
        if count is not None:
            self.params["n"] = count

    def english(self) -> str:
        """The sentence in the source language (the catalog's msgid filled)."""
        template = self.text if self.plural is None or self.count == 1 else self.plural
        return template % self._filled(lambda p: p.english())

    def words(self) -> str:
        """The sentence in the user's language; in English if the translation's fillers
        do not match (a catalog mistake must not cost the line)."""
        template = (tr(self.text) if self.plural is None
                    else trn(self.text, self.plural, int(self.count or 0)))
        try:
            return template % self._filled(lambda p: p.words())
        except (KeyError, TypeError, ValueError):
            log.warning("the translation of %r does not take its fillers", self.text)
            return self.english()

    def _filled(self, say) -> Dict[str, Any]:
        return {k: say(v) if isinstance(v, Phrase) else v for k, v in self.params.items()}

    def __str__(self) -> str:
        return self.english()

    def __repr__(self) -> str:
        return "Phrase(%r)" % (self.english(),)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Phrase) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.english())

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: {"text", "params"} and "plural"/"count" when set; a filler phrase
        as its own dict."""
        out: Dict[str, Any] = {"text": self.text, "params": {
            k: v.to_dict() if isinstance(v, Phrase) else v for k, v in self.params.items()}}
        if self.plural is not None:
            out["plural"], out["count"] = self.plural, self.count
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Phrase":
        """The phrase ``to_dict`` gave; ValueError when ``data`` is not one."""
        if not isinstance(data, Mapping) or not isinstance(data.get("text"), str):
            raise ValueError("not a phrase: %r" % (data,))
        params = {k: cls.from_dict(v) if isinstance(v, Mapping) else v
                  for k, v in dict(data.get("params") or {}).items()}
        count = data.get("count")
        return cls(data["text"], params, data.get("plural"),
                   int(count) if count is not None else None)


def phrase(text: str, **params: Any) -> Phrase:
    """A sentence with fillers; ``text`` is a literal msgid (the extraction reads it)."""
    return Phrase(text, params)


def phrase_n(singular: str, plural: str, count: int, **params: Any) -> Phrase:
    """A sentence whose form follows ``count`` (also its filler ``n``)."""
    return Phrase(singular, params, plural, count)


def said(value: Any) -> Optional[Phrase]:
    """A phrase kept as JSON (an event's ``phrase``) read back; None when there is none or
    it is not one (a chat kept by another version reads its English summary instead)."""
    if value is None or isinstance(value, Phrase):
        return value
    try:
        return Phrase.from_dict(value)
    except (ValueError, TypeError):
        return None

"""Lenient reading of the almost-JSON that small local models write for tool calls.

Only ``textcalls`` uses it, and only on text that already looks like a call,
so leniency here cannot turn prose into a call. What it forgives, each seen
from small models (Qwen2.5 0.5B-7B, Llama 3.2 1B/3B, Phi) on llama.cpp and
Ollama when the chat template's call format is not followed exactly:

* doubled braces, ``{{"name": ..., "arguments": {{...}}}}``: a template that
  wrote its example through Python's ``str.format`` (``{{`` for ``{``) and a
  model that copied it. ``{{`` can never start valid JSON (an object's first
  token is a key), so an object opened by two braces is read as one, and its
  closing pair as one; a single closing brace is accepted too;
* Python literals: single-quoted strings (``{'name': 'f'}``, what ``repr`` of
  a dict prints), ``True``/``False``/``None``;
* trailing commas before ``}`` or ``]``; bare identifier keys (``{name: "f"}``);
* raw newlines and tabs inside strings, and unknown escapes kept literally.

``read_value`` tells a value the text ended inside (``Incomplete``: more may
still stream) from one that cannot be read at all (``ValueError``).
"""

import json
import re
from typing import Any, Tuple

_SPACE = " \t\r\n"
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORDS = {"true": True, "false": False, "null": None,
          "True": True, "False": False, "None": None}
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "/": "/", "b": "\b", "f": "\f",
            "n": "\n", "r": "\r", "t": "\t"}
_PLAIN = {'"': re.compile(r'[^"\\]*'), "'": re.compile(r"[^'\\]*")}
_MAX_DEPTH = 100


class Incomplete(ValueError):
    """The text ended before the value did."""


def skip_space(text: str, pos: int) -> int:
    """The first position from ``pos`` that is not JSON whitespace."""
    while pos < len(text) and text[pos] in _SPACE:
        pos += 1
    return pos


class _Reader(object):
    def __init__(self, text, final):
        self.text = text
        self.final = final

    def space(self, pos):
        return skip_space(self.text, pos)

    def need(self, pos):
        if pos >= len(self.text):
            raise Incomplete("the text ended inside a value")

    def value(self, pos, depth):
        if depth > _MAX_DEPTH:
            raise ValueError("nested too deeply")
        pos = self.space(pos)
        self.need(pos)
        char = self.text[pos]
        if char == "{":
            return self.object(pos, depth)
        if char == "[":
            return self.array(pos, depth)
        if char in _PLAIN:
            return self.string(pos)
        return self.scalar(pos)

    def scalar(self, pos):
        text = self.text
        number = _NUMBER.match(text, pos)
        if number:
            if number.end() == len(text) and not self.final:
                raise Incomplete("a number may go on")
            return json.loads(number.group()), number.end()
        word = _IDENT.match(text, pos)
        if word:
            if word.end() == len(text) and not self.final and any(
                    w.startswith(word.group()) for w in _WORDS):
                raise Incomplete("a word may go on")
            if word.group() in _WORDS:
                return _WORDS[word.group()], word.end()
        if text[pos] == "-" and pos + 1 == len(text) and not self.final:
            raise Incomplete("a number may follow")
        raise ValueError("not a value at %d" % pos)

    def string(self, pos):
        text = self.text
        quote = text[pos]
        plain = _PLAIN[quote]
        parts = []
        pos += 1
        while True:
            run = plain.match(text, pos)
            parts.append(run.group())
            pos = run.end()
            self.need(pos)
            if text[pos] == quote:
                return _paired("".join(parts)), pos + 1
            # A backslash.
            self.need(pos + 1)
            escape = text[pos + 1]
            if escape == "u":
                digits = text[pos + 2:pos + 6]
                if len(digits) < 4:
                    self.need(len(text) + 1)
                try:
                    parts.append(chr(int(digits, 16)))
                except ValueError:
                    raise ValueError("bad \\u escape at %d" % pos)
                pos += 6
            else:
                parts.append(_ESCAPES.get(escape, "\\" + escape))
                pos += 2

    def key(self, pos):
        self.need(pos)
        if self.text[pos] in _PLAIN:
            return self.string(pos)
        word = _IDENT.match(self.text, pos)
        if not word:
            raise ValueError("not a key at %d" % pos)
        if word.end() == len(self.text):
            self.need(word.end())
        return word.group(), word.end()

    def object(self, pos, depth):
        text = self.text
        pos = self.space(pos + 1)
        doubled = pos < len(text) and text[pos] == "{"
        if doubled:
            pos += 1
        result = {}
        while True:
            pos = self.space(pos)
            self.need(pos)
            if text[pos] == "}":
                return result, self.close(pos + 1, doubled)
            key, pos = self.key(pos)
            pos = self.space(pos)
            self.need(pos)
            if text[pos] != ":":
                raise ValueError("expected ':' at %d" % pos)
            value, pos = self.value(pos + 1, depth + 1)
            result[key] = value
            pos = self.space(pos)
            self.need(pos)
            if text[pos] == ",":
                pos += 1
            elif text[pos] != "}":
                raise ValueError("expected ',' or '}' at %d" % pos)

    def close(self, pos, doubled):
        """Past the object's closing brace: a doubled object takes its second one."""
        if not doubled:
            return pos
        after = self.space(pos)
        if after < len(self.text):
            return after + 1 if self.text[after] == "}" else pos
        if self.final:
            return pos
        raise Incomplete("the second closing brace may follow")

    def array(self, pos, depth):
        text = self.text
        result = []
        pos += 1
        while True:
            pos = self.space(pos)
            self.need(pos)
            if text[pos] == "]":
                return result, pos + 1
            value, pos = self.value(pos, depth + 1)
            result.append(value)
            pos = self.space(pos)
            self.need(pos)
            if text[pos] == ",":
                pos += 1
            elif text[pos] != "]":
                raise ValueError("expected ',' or ']' at %d" % pos)


def _paired(text: str) -> str:
    """A string whose \\u escapes wrote a character outside the BMP as a surrogate pair
    ("\\ud83d\\ude00") with the pair joined, as json does: a lone surrogate cannot be
    encoded as UTF-8 (the next request would fail)."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def read_value(text: str, pos: int = 0, final: bool = True) -> Tuple[Any, int]:
    """(value, end) of the lenient JSON value at ``text[pos]`` (whitespace first allowed).

    Raises ``Incomplete`` when the text ends inside the value and, without
    ``final``, more may come; ``ValueError`` when it cannot be read.
    With ``final`` a doubled object missing its last closing brace is accepted.
    """
    try:
        return _Reader(text, final).value(pos, 0)
    except Incomplete:
        if final:
            raise ValueError("the text ended inside a value")
        raise


def loads(text: str) -> Any:
    """The one lenient JSON value ``text`` holds (whitespace around it allowed)."""
    value, end = read_value(text, 0, final=True)
    if text[end:].strip():
        raise ValueError("more after the value")
    return value

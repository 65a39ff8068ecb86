"""The Writer tools' argument checks: a model's argument, or a ToolError naming it.

Models send numbers as strings, booleans as "true" and colours by name; each
helper accepts what is unambiguous and refuses the rest with a sentence the
model can act on. Pure Python: no document is touched here.
"""

import re
from typing import Any, List, Optional, Tuple

from marginalia.document import markdown as md, tool_lines
from marginalia.errors import ToolError

NAMED_COLORS = {
    "black": 0x000000, "white": 0xFFFFFF, "red": 0xFF0000, "green": 0x00A933,
    "blue": 0x2A6099, "yellow": 0xFFFF00, "orange": 0xFF8000, "purple": 0x800080,
    "gray": 0x808080, "grey": 0x808080, "cyan": 0x00FFFF, "magenta": 0xFF00FF,
    "pink": 0xFFC0CB, "brown": 0x8B4513,
}


def unfit(message: str) -> ToolError:
    """A refusal of the model's arguments: ``message`` tells the model what to send, the
    user's line that the request did not fit (document.tool_lines)."""
    return ToolError(message, tool_lines.did_not_fit_request())


def as_int(value: Any, name: str) -> int:
    """A whole number (an int, an integral float or a string of digits)."""
    if isinstance(value, bool):
        raise unfit("%s must be a whole number." % name)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.match(r"^\s*-?\d+\s*$", value):
        return int(value)
    raise unfit("%s must be a whole number, not %r." % (name, value))


def as_text(value: Any, name: str, allow_empty: bool = False) -> str:
    """A string, not blank unless ``allow_empty``."""
    if not isinstance(value, str):
        raise unfit("%s must be a string." % name)
    if not allow_empty and not value.strip():
        raise unfit("%s must not be empty." % name)
    return value


def as_bool(value: Any, name: str) -> Optional[bool]:
    """True, False, or None when the argument was left out."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise unfit("%s must be true or false." % name)


# Markdown emphasis around words: "**bold**", "__bold__", "*italic*", "_italic_".
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1(?![\w*])")


# The same in HTML: "<b>bold</b>", "<i>italic</i>", "<em>", "<strong>", "<u>".
_TAGS = re.compile(r"<(b|strong|i|em|u)>(.+?)</\1>", re.I)
_TAG_LOOKS = {"b": "bold=true", "strong": "bold=true", "i": "italic=true", "em": "italic=true",
              "u": "underline=true"}


def plain_replacement(search: str, replacement: str, rewrite: bool = False) -> str:
    """``replacement`` unless it marks words with markdown emphasis or HTML tags the search
    does not have (replace_text writes plain text, so the marks would land in the document),
    or is the search itself (nothing would change). Small models do both when asked to
    format words; the refusal names the way to do it (``rewrite``: the rewrite protocol's
    edit block, else format_text)."""
    if replacement == search:
        raise unfit("The replacement is the same text as the search, so nothing would "
                    "change. To fix words give the corrected text as replacement; to "
                    "format them, %s." % (_WRITE_INSTEAD if rewrite else
                                         "call format_text"))
    found = _EMPHASIS.search(replacement)
    if found is not None and not _EMPHASIS.search(search):
        marks, words = found.group(1), found.group(2)
        looks = {1: "italic=true", 2: "bold=true"}.get(len(marks), "bold=true, italic=true")
        kind = "asterisks" if marks[0] == "*" else "underscores"
        raise unfit(_WRITTEN % (kind, _WRITE_INSTEAD) if rewrite else
                    _FORMAT_INSTEAD % (kind, _quoted(words), looks))
    tagged = _TAGS.search(replacement)
    if tagged is not None and not _TAGS.search(search):
        raise unfit(_WRITTEN % ("HTML tags", _WRITE_INSTEAD) if rewrite else
                    _FORMAT_INSTEAD % ("HTML tags", _quoted(tagged.group(2)),
                                       _TAG_LOOKS[tagged.group(1).lower()]))
    return replacement


_FORMAT_INSTEAD = ("replace_text writes plain text: the %s would be typed into the document, "
                   "so nothing was changed. To format words, call format_text with search=%s "
                   "and %s; to rewrite a paragraph with formatting, use replace_paragraphs "
                   "with markdown.")


_WRITTEN = ("replace_text writes plain text: the %s would be typed into the document, so "
            "nothing was changed. To format words, %s.")
_WRITE_INSTEAD = ("write their whole line again, with its number, in an edit block, the "
                  "words marked **bold** or *italic*")


def _quoted(text: str) -> str:
    return '"%s"' % text.replace('"', '\\"')


def block_range(start: Any, end: Any, count: int) -> Tuple[int, int]:
    """Validated 1-based inclusive (start, end); end -1 means the last paragraph."""
    start = as_int(start, "start")
    end = as_int(end, "end")
    if end == -1:
        end = count
    if not 1 <= start <= count:
        raise unfit("start %d is out of range: the document has paragraphs 1 to %d."
                    % (start, count))
    if not start <= end <= count:
        raise unfit("end %d is out of range: it must be between %d and %d."
                    % (end, start, count))
    return start, end


def parse_color(value: Any, name: str) -> Optional[int]:
    """An RGB int, -1 for "no colour", None when the argument was left out."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in ("none", "transparent", "auto", ""):
        return -1
    if text in NAMED_COLORS:
        return NAMED_COLORS[text]
    m = re.match(r"^#?([0-9a-f]{6})$", text)
    if m:
        return int(m.group(1), 16)
    raise unfit("%s must be a colour like \"#FF0000\" or a name like red, not %r."
                % (name, value))


def parse_blocks(markdown: Any) -> List[md.Block]:
    """The markdown argument as blocks; at least one."""
    blocks = md.parse(as_text(markdown, "markdown"))
    if not blocks:
        raise unfit("The markdown contains no text to insert.")
    return blocks

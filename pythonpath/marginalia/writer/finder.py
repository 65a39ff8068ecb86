"""Search and replace descriptors that find exactly the text asked for, on every Writer.

Why: LibreOffice 25.2's plain (not regular-expression) search ignoring case
returns a broken range for a character outside the Basic Multilingual Plane
(an emoji, "𝔸"): it reads as empty, and replacing it splits the character's
surrogate pair, after which reading that paragraph crashes the office (seen
with Replace All, tracked or not). Its regular-expression search finds them
right, so a plain search for such text goes out as a regular expression
matching itself. 7.4 finds them either way. Main thread.
"""

from typing import Any, Optional


def literal(text: str) -> str:
    """``text`` as an ICU regular expression matching itself."""
    # Only ASCII needs it: ICU reads a backslash before another letter as a class.
    return "".join("\\" + ch if ch < "\x80" and not ch.isalnum() and ch != " " else ch
                   for ch in text)


def literal_replacement(text: str) -> str:
    """``text`` as a regular-expression replacement inserting itself (& and $n insert
    the match, \\ escapes)."""
    return text.replace("\\", "\\\\").replace("&", "\\&").replace("$", "\\$")


def _astral(text: str) -> bool:
    return any(ord(ch) > 0xFFFF for ch in text)


def descriptor(doc: Any, search: str, regex: Optional[bool] = False,
               match_case: Optional[bool] = True, replacement: Optional[str] = None) -> Any:
    """A search descriptor, or a replace descriptor when ``replacement`` is given."""
    if not regex and _astral(search):
        search, regex = literal(search), True
        if replacement is not None:
            replacement = literal_replacement(replacement)
    if replacement is None:
        sd = doc.createSearchDescriptor()
    else:
        sd = doc.createReplaceDescriptor()
        sd.setReplaceString(replacement)
    sd.setSearchString(search)
    sd.setPropertyValue("SearchRegularExpression", bool(regex))
    sd.setPropertyValue("SearchCaseSensitive", bool(match_case))
    return sd

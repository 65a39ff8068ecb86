"""Sources by mention in the chat box: "@" lists the chat's sources and the open documents.

While the user types "@" and a word at the end of the message (at its start or
after a space), the list under the box (office.slash_list, as for "/") offers
the chat's sources and the other open Writer documents whose names hold the
word; choosing one puts "@name " in the message, and an open document that is
no source yet becomes one (office.quick_panel reads it in).
"""

from typing import List, Optional, Sequence, Tuple

from marginalia.i18n.catalog import tr
from marginalia.ui.slash import MAX_SHOWN, Match

SOURCE_KEY = "source:"        # + the source's id
DOCUMENT_KEY = "document:"    # + the open document's index


def typed_word(text: str) -> Optional[str]:
    """The word after the message's last "@" ("see @rep" -> "rep"), or None when no "@"
    is being typed at the end."""
    at = text.rfind("@")
    if at < 0 or (at > 0 and not text[at - 1].isspace()):
        return None
    word = text[at + 1:]
    if any(c.isspace() for c in word):
        return None
    return word.casefold()


def matches(sources: Sequence[Tuple[str, str]], documents: Sequence[str],
            text: str) -> List[Match]:
    """The entries for the box's text: sources first, then open documents not yet sources;
    names starting with the word before names holding it."""
    word = typed_word(text)
    if word is None:
        return []
    names = set(name for _ident, name in sources)
    # "@name  (...)": name_of reads the name back, so only the brackets' words translate.
    entries = [(SOURCE_KEY + ident, name, "@%s  (%s)" % (name, tr("source %s") % ident))
               for ident, name in sources]
    entries += [(DOCUMENT_KEY + str(n), title, "@%s  (%s)" % (title,
                                                            tr("open document: add it")))
                for n, title in enumerate(documents) if title not in names]
    first = [Match(key, label) for key, name, label in entries
             if name.casefold().startswith(word)]
    then = [Match(key, label) for key, name, label in entries
            if word in name.casefold() and not name.casefold().startswith(word)]
    return (first + then)[:MAX_SHOWN]


def completion(text: str, name: str) -> str:
    """The box's text with the "@word" being typed replaced by "@name "."""
    at = text.rfind("@")
    return text[:at] + "@%s " % name


def name_of(label: str) -> str:
    """The name an entry's label shows after "@"."""
    return label[1:].rsplit("  (", 1)[0]

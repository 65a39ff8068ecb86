"""Words for the index and text for quote matching, the same for every language.

``tokens``: what BM25 counts. Unicode words, case-folded (``casefold``: "Straße"
and "STRASSE" meet), NFKC-normalised (a PDF's "u" + combining diaeresis is "ü",
full-width Latin is Latin), English plurals folded to the singular. Japanese and
Chinese write without spaces, so a run of their characters gives its overlapping
characters and their overlapping bigrams ("東京都" -> "東", "京", "都", "東京",
"京都"): a query's bigrams meet the text's without a dictionary, and the rarer
bigrams weigh more than the characters.

``normalise``: what a quote is compared on. Case, curly and straight quotes
(single or double alike),
dashes, hyphens (a PDF's "inter-\\nnational" is "international") and every run of
whitespace are made equal; nothing else is, so a changed word is still a changed
word.
"""

import re
import unicodedata
from typing import Dict, List

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(r"[^\W_]+")
_CJK_ANY = re.compile("[%s]" % CJK)
_CJK_SPLIT = re.compile("([%s]+)" % CJK)

_stems: Dict[str, str] = {}


def _stem(word: str) -> str:
    """English plurals to the singular; other words as they are. Cached: a text's words repeat."""
    stem = _stems.get(word)
    if stem is None:
        stem = word
        if len(word) > 3 and word[-1] == "s" and word.isascii():
            if word.endswith("ies") and len(word) > 4:
                stem = word[:-3] + "y"
            elif not word.endswith(("ss", "us", "is")):
                stem = word[:-1]
        if len(_stems) < 200000:      # bounded: a long run of odd words must not grow it forever
            _stems[word] = stem
    return stem


def _cjk_terms(run: str) -> List[str]:
    # The characters too: a one-character word (雨, rain) has no bigram of its own.
    return list(run) + [run[i:i + 2] for i in range(len(run) - 1)]


def tokens(text: str) -> List[str]:
    """The index terms of a text, in order."""
    text = unicodedata.normalize("NFKC", text).casefold()
    words = _WORD.findall(text)
    if not _CJK_ANY.search(text):
        return [_stem(w) for w in words]
    out: List[str] = []
    for word in words:
        if not _CJK_ANY.search(word):
            out.append(_stem(word))
            continue
        for i, piece in enumerate(_CJK_SPLIT.split(word)):
            if piece:
                out.extend(_cjk_terms(piece) if i % 2 else [_stem(piece)])
    return out


_QUOTES = {ord(c): "'" for c in "\u2018\u2019\u201a\u201b\u2032\u00b4`"}
# Double marks too: a quotation turns the source's inner "..." into '...'.
_QUOTES.update({ord(c): "'" for c in "\"\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033\u300c\u300d"
                                     "\u300e\u300f"})
_QUOTES.update({ord(c): "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"})
_QUOTES[0x00ad] = None            # a soft hyphen is no character of the text
_QUOTES[0x2026] = "..."
_HYPHEN = re.compile(r"(?<=\w)-\s*(?=\w)")
_SPACE = re.compile(r"\s+")
_CJK_GAP = re.compile("(?<=[%s]) (?=[%s])" % (CJK, CJK))


def normalise(text: str) -> str:
    """The text as quotes are compared: folded case, quotes, dashes, hyphens and spaces."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(_QUOTES)
    text = _HYPHEN.sub("", text)
    text = _SPACE.sub(" ", text).strip()
    # A PDF breaks Japanese lines between any two characters: such a break is no space.
    return _CJK_GAP.sub("", text)

"""An answer's citations: the [n] keys it used, numbered in order, and its quotes checked.

The tools show each passage under a key ([3]) that stays the passage's for the
whole chat; an answer cites by those keys. ``number`` rewrites them as 1, 2, 3
in the order the answer first uses them and lists what each names; a key the
model made up (no passage was shown under it) is left as written and reported.

``check_quotes``: a quotation in an answer (in “…”, "…", „…“, «…», 「…」) that the
answer attributes to a source (a key or the source's name in the same sentence)
is looked up in the sources' text, compared normalised (case, quote marks,
dashes, hyphens and line breaks do not count; an ellipsis stands for left-out
words). One not found is unverified: the panel marks it and the model is told
(``notice``). A quotation attributed to nothing is not checked (it may be the
user's own words) but is reported when a source holds it.
"""

import re
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Tuple

from marginalia.sources.index import Library
from marginalia.sources.model import Passage
from marginalia.sources.passages import words

_KEYS = re.compile(r"\[(\d{1,4}(?:\s*[,;]\s*\d{1,4})*)\](?!\()")
_QUOTE = re.compile("\u201c([^\u201c\u201d]+?)\u201d|\"([^\"]+?)\"|\u201e([^\u201c\u201d\u201e]+?)"
                    "[\u201c\u201d]|\u00ab([^\u00ab\u00bb]+?)\u00bb|\u00bb([^\u00ab\u00bb]+?)"
                    "\u00ab|\u300c([^\u300c\u300d]+?)\u300d|\u300e([^\u300e\u300f]+?)\u300f")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[\u3002\uff01\uff1f]|\n")  # 。 needs no space
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)    # fenced blocks, inline spans
MIN_WORDS = 3          # shorter quotations are names and terms, not claims about a text
NEAR = 160             # how far around a quotation a key or a name attributes it


@dataclass(frozen=True)
class Citation:
    """One cited passage: its number in the answer, the key the model used, the passage."""

    number: int
    key: int
    passage: Passage

    def line(self) -> str:
        """"[1] report.pdf, § Results, p. 3": the line listed under the answer."""
        return "[%d] %s" % (self.number, self.passage.location())


@dataclass
class Numbered:
    """An answer with its keys renumbered, the citations in order, keys that name nothing."""

    text: str
    citations: List[Citation] = field(default_factory=list)
    unknown: List[int] = field(default_factory=list)

    def renumbered(self, key: int) -> Optional[int]:
        for citation in self.citations:
            if citation.key == key:
                return citation.number
        return None


def number(answer: str, cited: Mapping[int, Passage]) -> Numbered:
    """Renumber the answer's keys 1, 2, 3... in order of first use (``cited``: every key
    shown to the model with its passage, Library.keys())."""
    new: Dict[int, int] = {}
    out = Numbered(answer)

    def renumber(match: "re.Match") -> str:
        numbers = []
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            key = int(part)
            if key not in cited:
                if key not in out.unknown:
                    out.unknown.append(key)
                numbers.append(part)
                continue
            if key not in new:
                new[key] = len(new) + 1
                out.citations.append(Citation(new[key], key, cited[key]))
            numbers.append(str(new[key]))
        sep = ", " if "," in match.group(1) or ";" in match.group(1) else ""
        return "[" + sep.join(numbers) + "]" if sep else "[" + numbers[0] + "]"

    out.text = _KEYS.sub(renumber, answer)
    return out


@dataclass(frozen=True)
class QuoteCheck:
    """A quotation of the answer: found in a source or not, the key it was cited by
    (None without one), and the passage holding it (or the cited one, when not found);
    ``marker``, the (start, end) in the answer of the [n] that cites it (Insert takes a
    key out of it: for_insert)."""

    quote: str
    found: bool
    key: Optional[int] = None
    passage: Optional[Passage] = None
    marker: Optional[Tuple[int, int]] = field(default=None, compare=False)


def _quotes(answer: str) -> List[Tuple[str, int, int]]:
    """(quotation, start, end) of each quotation long enough to check."""
    out = []
    for match in _QUOTE.finditer(answer):
        text = next(g for g in match.groups() if g is not None).strip()
        if words(text) >= MIN_WORDS and "\n\n" not in text:
            out.append((text, match.start(), match.end()))
    return out


def _sentence_around(answer: str, start: int, end: int) -> Tuple[str, str]:
    """The text before a quotation back to its sentence's start, and after it to its end."""
    before = answer[max(0, start - NEAR):start]
    ends = list(_SENTENCE_END.finditer(before))
    if ends:
        before = before[ends[-1].end():]
    after = answer[end:end + NEAR]
    stop = _SENTENCE_END.search(after)
    if stop:
        after = after[:stop.end()]
    return before, after


def _named(answer: str, start: int, end: int, library: Library) -> List[str]:
    """The ids of the sources a quotation without a key is attributed to by name ([] for
    none): a source's file name or title in its sentence."""
    before, after = _sentence_around(answer, start, end)
    sentence = (before + " " + after).casefold()
    named = [s.id for s in library.sources()
             if (s.name and s.name.casefold() in sentence)
             or (s.title and len(s.title) > 3 and s.title.casefold() in sentence)]
    return named


def _citing_marker(answer: str, start: int, end: int,
                   cited: Mapping[int, Passage]) -> Optional[Tuple[int, int, int]]:
    """(key, start, end) of the [n] marker in the quotation's sentence that cites it (the
    first after it, else the last before it, naming a shown passage), or None."""
    before, after = _sentence_around(answer, start, end)
    found = []
    for text, offset in ((after, end), (before, start - len(before))):
        for match in _KEYS.finditer(text):
            keys = [int(k) for k in re.split(r"\s*[,;]\s*", match.group(1))]
            found.extend((k, offset + match.start(), offset + match.end())
                         for k in keys if k in cited)
        if found:
            return found[0] if offset == end else found[-1]
    return None


def check_quotes(answer: str, library: Library) -> List[QuoteCheck]:
    """Each attributed quotation in the answer, looked up in the sources (see the module)."""
    cited = library.keys()
    out = []
    for quote, start, end in _quotes(answer):
        # The key it is cited by (after it first, else before), or the sources it names.
        marker = _citing_marker(answer, start, end, cited)
        key = marker[0] if marker is not None else None
        sources = ([cited[key].source_id] if marker is not None
                   else _named(answer, start, end, library))
        span = marker[1:] if marker is not None else None
        needle = re.sub(r"\[\s*(\.\.\.|\u2026)\s*\]", "\u2026", quote).rstrip(".,;:!?")
        holder = (library.find(needle, sources) if sources else None) or library.find(needle)
        if holder is None and not sources:
            continue       # attributed to nothing, and no source holds it: not theirs to check
        if holder is None and key is not None:
            out.append(QuoteCheck(quote, False, key, cited[key], span))
        else:
            out.append(QuoteCheck(quote, holder is not None, key, holder, span))
    return out


def notice(checks: List[QuoteCheck]) -> Optional[str]:
    """What the model is told about quotations not found in the sources, or None."""
    missing = [c for c in checks if not c.found]
    if not missing:
        return None
    listed = "; ".join("\u201c%s\u201d" % (c.quote if len(c.quote) <= 120
                                           else c.quote[:117] + "...") for c in missing)
    return ("These quotations are not in the sources word for word: %s. Quote the passages "
            "exactly, or say it in your own words without quotation marks." % listed)


def excerpt(text: str, limit: int = 200) -> str:
    """The text's start on one line, cut between words at about ``limit`` characters."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    head = flat[:limit]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(",;:") + "\u2026"


def footnote(citation: Citation, checks: List[QuoteCheck] = ()) -> str:
    """A footnote's text: the file, heading or page, and the passage quoted (the answer's
    quotation of it when one was found there, else the passage's start)."""
    quoted = [c.quote for c in checks
              if c.found and c.passage is not None and c.passage.ref == citation.passage.ref]
    shown = quoted[0] if quoted else excerpt(citation.passage.text)
    return "%s: \u201c%s\u201d" % (citation.passage.location(), shown)


@dataclass
class ForInsert:
    """An answer made ready for Insert: ``text`` with the keys no note may follow taken
    out, ``notes`` ({key: footnote text}) for the keys that stay, and what was left out:
    ``unbacked`` quotations whose key's source does not hold them (their note is left
    off) and ``unknown`` keys that name no passage shown in this chat."""

    text: str
    notes: Dict[int, str] = field(default_factory=dict)
    unbacked: List[str] = field(default_factory=list)
    unknown: List[int] = field(default_factory=list)


def for_insert(answer: str, library: Library) -> ForInsert:
    """The answer as Insert puts it in: a note only where its source holds what the answer
    quotes beside it. A key that also follows a real quotation elsewhere keeps its note
    there, never at the quotation its source does not hold."""
    cited = library.keys()
    drop = []                       # (start, end, key) of marker keys to take out
    out = ForInsert(answer)
    checks = check_quotes(answer, library)
    for check in checks:
        if check.marker is None:
            continue                # no key follows it: no note to leave off
        holds = check.found and check.passage is not None and \
            check.passage.source_id == cited[check.key].source_id
        if not holds:
            drop.append(check.marker + (check.key,))
            out.unbacked.append(check.quote)
    code = [m.span() for m in _CODE.finditer(answer)]
    for match in _KEYS.finditer(answer):
        if any(a <= match.start() < b for a, b in code):
            continue                # x[42] in code is code, not a citation
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            if int(part) not in cited:
                drop.append((match.start(), match.end(), int(part)))
                if int(part) not in out.unknown:
                    out.unknown.append(int(part))
    out.text = _without(answer, drop)
    numbered = number(out.text, cited)
    out.notes = {c.key: footnote(c, [c2 for c2 in checks if c2.quote not in out.unbacked])
                 for c in numbered.citations}
    return out


def _without(answer: str, drop: List[Tuple[int, int, int]]) -> str:
    """The answer with the given keys taken out of their markers: a marker left with no
    key goes whole, with the space before it."""
    by_marker: Dict[Tuple[int, int], List[int]] = {}
    for start, end, key in drop:
        by_marker.setdefault((start, end), []).append(key)
    for (start, end), keys in sorted(by_marker.items(), reverse=True):
        inner = answer[start + 1:end - 1]
        kept = [k for k in re.split(r"\s*[,;]\s*", inner) if int(k) not in keys]
        if kept:
            answer = answer[:start] + "[" + ", ".join(kept) + "]" + answer[end:]
        else:
            while start > 0 and answer[start - 1] in " \u00a0":
                start -= 1
            answer = answer[:start] + answer[end:]
    return answer


def cite(answer: str, library: Library) -> Tuple[Numbered, List[QuoteCheck]]:
    """Both at once, for a finished answer: its keys renumbered and its quotations checked
    (on the answer as the model wrote it; ``Numbered.renumbered(check.key)`` maps a key)."""
    return number(answer, library.keys()), check_quotes(answer, library)

"""The languages Marginalia ships, and each catalog kept in step with the template (pure).

`python3 build.py pot` rewrites the template and then every catalog: a new string is added
untranslated (the user sees English until a translator fills it), a string gone from the
code goes, a translation whose English changed is kept but marked fuzzy (left out of the
build until a translator checks it), and each file keeps its translations and header.
"""

import difflib
from typing import Dict, List, Optional, Tuple

from marginalia.i18n import po
from marginalia.i18n.po import Entry

_TWO = "nplurals=2; plural=(n != 1);"
_ONE = "nplurals=1; plural=0;"
_SLAVIC = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
           "(n%100<10 || n%100>=20) ? 1 : 2);")
# catalog name: (the language in English, its gettext Plural-Forms)
LANGUAGES: Dict[str, Tuple[str, str]] = {
    "de": ("German", _TWO),
    "fr": ("French", "nplurals=2; plural=(n > 1);"),
    "es": ("Spanish", _TWO),
    "it": ("Italian", _TWO),
    "pt_BR": ("Brazilian Portuguese", "nplurals=2; plural=(n > 1);"),
    "pt": ("Portuguese", _TWO),
    "nl": ("Dutch", _TWO),
    "ru": ("Russian", _SLAVIC),
    "uk": ("Ukrainian", _SLAVIC),
    "pl": ("Polish", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && "
                     "(n%100<10 || n%100>=20) ? 1 : 2);"),
    "cs": ("Czech", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"),
    "tr": ("Turkish", _TWO),
    "sv": ("Swedish", _TWO),
    "hu": ("Hungarian", _TWO),
    "ja": ("Japanese", _ONE),
    "zh_CN": ("Simplified Chinese", _ONE),
    "zh_TW": ("Traditional Chinese", _ONE),
    "ko": ("Korean", _ONE),
    "ar": ("Arabic", "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : "
                     "n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);"),
    "he": ("Hebrew", _TWO),
}


def header(name: str) -> Entry:
    language, plurals = LANGUAGES[name]
    return Entry("", strings=("Language: %s\nMIME-Version: 1.0\n"
                              "Content-Type: text/plain; charset=UTF-8\n"
                              "Content-Transfer-Encoding: 8bit\n"
                              "Plural-Forms: %s\n" % (name, plurals),))


def plural_count(name: str) -> int:
    return int(LANGUAGES[name][1].split("nplurals=")[1].split(";")[0])


def _fit(strings: Tuple[str, ...], count: int, plural: bool) -> Tuple[str, ...]:
    """``strings`` as many as the language's forms (one without a plural)."""
    if not plural:
        return strings[:1] or ("",)
    return tuple(strings[:count]) + ("",) * max(0, count - len(strings))


def update(name: str, template: List[Entry], old_text: Optional[str]) -> str:
    """The catalog ``name`` brought in step with ``template`` (the old file's text, or None
    for a new catalog)."""
    old = {e.key: e for e in po.parse(old_text) if e.msgid} if old_text else {}
    wanted = {e.key for e in template}
    # Translations of English that changed: offered as fuzzy to the nearest new text.
    orphans = {e.msgid: e for key, e in old.items() if key not in wanted and e.translated}
    count = plural_count(name)
    out = [header(name)]
    for entry in template:
        plural = entry.plural is not None
        kept = old.get(entry.key)
        if kept is None or not any(kept.strings):
            near = difflib.get_close_matches(entry.msgid, list(orphans), n=1, cutoff=0.8)
            candidate = orphans.get(near[0]) if near else None
            if candidate is not None and (candidate.plural is not None) == plural \
                    and candidate.context == entry.context:
                kept = candidate._replace(fuzzy=True)
                del orphans[candidate.msgid]
        if kept is not None and (kept.plural is not None) == plural:
            out.append(entry._replace(strings=_fit(kept.strings, count, plural),
                                      fuzzy=kept.fuzzy))
        else:
            out.append(entry._replace(strings=("",) * (count if plural else 1)))
    return po.dump(out)


def completeness(text: str) -> Tuple[int, int]:
    """(translated, total) strings of a catalog's text (fuzzy ones do not count)."""
    entries = [e for e in po.parse(text) if e.msgid]
    return sum(1 for e in entries if e.translated), len(entries)


def write_all(root: str) -> Tuple[int, List[str], Dict[str, Tuple[int, int]]]:
    """`build.py pot`: the template from the code and package files, then every shipped
    catalog in step with it; (strings, extraction problems, {catalog: (done, total)})."""
    import os
    from marginalia.i18n import extract
    folder = os.path.join(root, "extension", "locale")
    os.makedirs(folder, exist_ok=True)
    entries, problems = extract.template(root)
    with open(os.path.join(folder, "marginalia.pot"), "w", encoding="utf-8") as fh:
        fh.write(extract.to_pot(entries))
    done = {}
    for name in LANGUAGES:
        path = os.path.join(folder, name + ".po")
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                old = fh.read()
        text = update(name, entries, old)
        if text != old:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        done[name] = completeness(text)
    return len(entries), problems, done

"""Language tags as LibreOffice writes them ("pt-BR", "zh-Hant-TW", "sr-Latn-RS") turned
into the catalog names to try, most specific first (pure).

A Brazilian user gets pt_BR, else pt; a Taiwanese user zh_TW (the traditional script), never
the simplified zh_CN; English needs no catalog at all.
"""

from typing import List

# Chinese is split by script, not only by region: a region names the script users expect.
_CHINESE = {"hant": "zh_TW", "tw": "zh_TW", "hk": "zh_TW", "mo": "zh_TW",
            "hans": "zh_CN", "cn": "zh_CN", "sg": "zh_CN"}


def catalog_names(tag: str) -> List[str]:
    """Catalog names for ``tag``, most specific first; [] for English or no tag."""
    parts = [p for p in tag.replace("_", "-").split("-") if p]
    if not parts:
        return []
    language = parts[0].lower()
    rest = [p.lower() for p in parts[1:]]
    if language == "zh":
        for part in rest:
            if part in _CHINESE:
                return [_CHINESE[part]]
        return ["zh_CN"]
    if language == "en":
        return []
    names = []
    script = next((p for p in rest if len(p) == 4 and p.isalpha()), None)
    region = next((p for p in rest if len(p) == 2 or (len(p) == 3 and p.isdigit())), None)
    if script and region:
        names.append("%s_%s@%s" % (language, region.upper(), script))
    if script:
        names.append("%s@%s" % (language, script))
    if region:
        names.append("%s_%s" % (language, region.upper()))
    names.append(language)
    return names


def is_right_to_left(tag: str) -> bool:
    """Whether the interface mirrors for ``tag`` (Arabic, Hebrew, Persian, Urdu...)."""
    language = tag.replace("_", "-").split("-")[0].lower()
    return language in ("ar", "he", "fa", "ur", "ug", "yi", "ps", "sd", "ckb", "dv")

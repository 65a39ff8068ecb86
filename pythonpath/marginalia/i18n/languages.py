"""Languages by name, for the model and the answer-language setting (pure).

Model-facing text stays in English, so a language is named to the model in English
("German"), whatever language the interface shows.
"""

from typing import Optional

NAMES = {
    "ar": "Arabic", "bg": "Bulgarian", "ca": "Catalan", "cs": "Czech", "da": "Danish",
    "de": "German", "el": "Greek", "en": "English", "es": "Spanish", "et": "Estonian",
    "eu": "Basque", "fa": "Persian", "fi": "Finnish", "fr": "French", "gl": "Galician",
    "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian", "id": "Indonesian",
    "it": "Italian", "ja": "Japanese", "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian",
    "nb": "Norwegian Bokmål", "nl": "Dutch", "nn": "Norwegian Nynorsk", "pl": "Polish",
    "pt": "Portuguese", "ro": "Romanian", "ru": "Russian", "sk": "Slovak", "sl": "Slovenian",
    "sr": "Serbian", "sv": "Swedish", "ta": "Tamil", "th": "Thai", "tr": "Turkish",
    "uk": "Ukrainian", "vi": "Vietnamese", "zh": "Chinese",
}
# Where a region or script makes a language the reader would name differently.
VARIANTS = {"pt-br": "Brazilian Portuguese", "zh-tw": "Traditional Chinese",
            "zh-hant": "Traditional Chinese", "zh-cn": "Simplified Chinese",
            "zh-hans": "Simplified Chinese", "en-gb": "British English",
            "en-us": "American English"}


def english_name(tag: str) -> Optional[str]:
    """"de-DE" -> "German", "pt-BR" -> "Brazilian Portuguese"; None for an unknown tag
    (and for LibreOffice's "zxx", no language)."""
    parts = [p.lower() for p in (tag or "").replace("_", "-").split("-") if p]
    if not parts:
        return None
    for size in (3, 2):
        key = "-".join(parts[:size])
        if len(parts) >= size and key in VARIANTS:
            return VARIANTS[key]
    for part in parts[1:]:
        if parts[0] == "zh" and part in ("tw", "hk", "hant"):
            return VARIANTS["zh-tw"]
    return NAMES.get(parts[0])

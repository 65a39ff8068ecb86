"""Shortening a row to its box (office.text_fit.shorten), measured by a scripted font:
6 px a character, 12 px a wide (CJK) one, 0 px a combining mark."""

import unicodedata

from marginalia.office import text_fit


class _Font:
    def __init__(self):
        self.calls = 0

    def getStringWidth(self, text):
        self.calls += 1
        return sum(0 if unicodedata.category(c).startswith("M") or c in "\u200d\ufe0f"
                   else 12 if unicodedata.east_asian_width(c) in "WF" else 6 for c in text)


def _shorten(text, room):
    font = _Font()
    out = text_fit.shorten(None, text, room, font)
    assert font.getStringWidth(out) <= room, out
    return out, font.calls - 1


def test_latin_rows_are_cut_at_a_word():
    out, _ = _shorten("/summarize Summarize the document in three lines", 150)
    assert out == "/summarize Summarize the\u2026", out


def test_japanese_rows_are_cut_by_character_not_at_their_first_space():
    """"¶4 replace: “日本語…" became "¶4 replace…", nearly all of the room left empty."""
    row = "\u00b64 replace: \u201c\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3092\u3053\u3053\u3067" \
          "\u66f8\u304d\u63db\u3048\u307e\u3059\u201d"
    out, _ = _shorten(row, 150)
    assert out.startswith("\u00b64 replace: \u201c\u65e5\u672c\u8a9e\u306e"), out
    assert _Font().getStringWidth(out) >= 150 - 12, out
    out, _ = _shorten("/\u8981\u7d04 \u6587\u66f8\u3092\u4e09\u884c\u3067\u8981\u7d04\u3057"
                      "\u307e\u3059", 100)
    assert out.startswith("/\u8981\u7d04 \u6587\u66f8\u3092"), out


def test_a_cut_never_splits_a_character():
    for room in range(12, 120, 2):
        # never before a combining mark: "e" + U+0301 stays whole or goes whole
        out, _ = _shorten("Xcafe\u0301" * 6, room)
        assert not out[:-1].endswith("cafe"), (room, repr(out))
        # never after a zero-width joiner (a family emoji is one character to the eye)
        out, _ = _shorten("ab\U0001f468\u200d\U0001f469\u200d\U0001f467cd" * 3, room)
        assert not out[:-1].endswith("\u200d") and not out[:-1].endswith("\U0001f468"), \
            (room, repr(out))
    # never inside a surrogate pair (text that came through UTF-16 unjoined)
    out, _ = _shorten("ab" + "\ud83d\ude00" * 10, 40)
    assert not "\ud800" <= out[-2] <= "\udbff", repr(out)


def test_a_long_row_takes_a_few_measurements_not_one_per_word():
    row = "\u00b612 replace: \u201c" + " ".join(["a"] * 40) + "\u201d \u2192 \u201c" + \
        " ".join(["b"] * 40) + "\u201d"
    out, calls = _shorten(row, 60)
    assert calls <= 12, calls
    assert out == "\u00b612 repla\u2026", out


def test_a_shortened_rows_whole_text_is_the_lists_tooltip_while_selected():
    full = ("/summarize Summarize the document in three lines", "/fix Fix typos")
    shown = ("/summarize Summarize the\u2026", "/fix Fix typos")
    assert text_fit.whole(full, shown, 0, "Prompts") == full[0]
    assert text_fit.whole(full, shown, 1, "Prompts") == "Prompts"      # shown whole
    assert text_fit.whole(full, shown, -1, "Prompts") == "Prompts"     # nothing selected


def test_words_wrap_into_lines_within_the_room():
    font = _Font()
    lines = text_fit.wrap(font.getStringWidth, "Keep chats (this computer only)", 66)
    assert lines == ("Keep chats", "(this", "computer", "only)"), lines
    assert text_fit.wrap(font.getStringWidth, "Supercalifragilistic word", 30)[0] == \
        "Supercalifragilistic"


def test_the_fit_tests_words_break_between_any_two_cjk_characters():
    from marginalia.office import fit_probe
    assert fit_probe.words("Keep chats (this) \u65e5\u672c\u8a9eOK") == \
        ["Keep", "chats", "(this)", "\u65e5", "\u672c", "\u8a9e", "OK"]
    assert fit_probe.words("") == [""]

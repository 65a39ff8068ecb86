"""Where the panel's panes may break a line, asked of LibreOffice's own break iterator.

The conversation pane is a VCL multi-line edit; its text engine breaks a line where
com.sun.star.i18n.BreakIterator's getLineBreak says. "12 % in Q3" broke before the
"%" at the pane's edge (issue 39): the rules let a line end after a space. The panes'
text puts a word joiner between the space and the sign (ui.softwrap), which the same
iterator must then keep on the number's line.
"""

import uno

from marginalia.ui.softwrap import SoftWrap

SENTENCE = "Sales rose by 12 % in Q3 and by 40 \u20ac a unit."


def _line_break(office, text, overflow):
    """The index where a line that overflows at ``overflow`` breaks (en-US)."""
    iterator = office.create("com.sun.star.i18n.BreakIterator")
    locale = uno.createUnoStruct("com.sun.star.lang.Locale", "en", "US", "")
    hyphenation = uno.createUnoStruct("com.sun.star.i18n.LineBreakHyphenationOptions")
    user = uno.createUnoStruct("com.sun.star.i18n.LineBreakUserOptions")
    user.applyForbiddenRules = True
    return iterator.getLineBreak(text, overflow, locale, 0, hyphenation, user).breakIndex


def test_a_sign_after_a_number_and_a_space_stays_on_the_numbers_line(office):
    for sign in ("%", "\u20ac"):
        plain = SENTENCE.index(sign)
        # As the model wrote it: the line may end after the space, the sign starting the
        # next line alone (what the user saw).
        assert _line_break(office, SENTENCE, plain + 1) == plain, sign
        shown = SoftWrap().feed(SENTENCE)
        at = shown.index(sign)
        number = shown.rindex(" ", 0, at - 2) + 1
        # As the pane shows it: the line breaks before the number, never between the
        # number and its sign.
        assert _line_break(office, shown, at + 1) == number, (sign, shown[number:at + 1])

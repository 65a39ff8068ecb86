"""The pseudo-locale (pure): every translated string accented, ~40% longer and bracketed,
so a window test sees at once a string that skipped the catalog (plain English) and a
label too narrow for a longer language (the closing bracket is cut).

Placeholders (%s, %d, %(name)s, {name}) are kept as they are, so formatting still works;
the padding is a middle dot, not "~", which LibreOffice reads as a mnemonic mark.
"""

import gettext
import re

_ACCENTED = dict(zip("AEIOUYaceinosuyCDGLNRSZ",
                     "ÅÉÎÖÛÝåçéîñöšûýÇĐĜĹÑŘŠŽ"))
_PLACEHOLDER = re.compile(r"%(\([a-z_]+\))?[-#0 +]*\d*(\.\d+)?[sdifrx%]|\{[a-z_0-9]*\}")
OPEN, CLOSE = "[", "]"


def pseudo(text: str) -> str:
    if not text:
        return text
    out, last = [], 0
    for match in _PLACEHOLDER.finditer(text):
        out.append("".join(_ACCENTED.get(c, c) for c in text[last:match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append("".join(_ACCENTED.get(c, c) for c in text[last:]))
    body = "".join(out)
    letters = sum(1 for c in text if c.isalpha())
    padding = "\u00b7" * max(1, (letters * 4 + 9) // 10)
    return OPEN + body + padding + CLOSE


class PseudoTranslations(gettext.NullTranslations):
    def gettext(self, message):
        return pseudo(message)

    def ngettext(self, msgid1, msgid2, n):
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context, message):
        return pseudo(message)

    def npgettext(self, context, msgid1, msgid2, n):
        return pseudo(msgid1 if n == 1 else msgid2)

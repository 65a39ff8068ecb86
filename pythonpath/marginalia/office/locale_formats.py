"""The user's locale conventions from LibreOffice's own locale data (runs in the office).

Numbers and dates follow the office's locale setting (Tools > Options > Language Settings >
Languages > Locale setting, ooSetupSystemLocale), which may differ from the UI language;
when it is "Default", the UI language's locale. com.sun.star.i18n.LocaleData gives the
separators, and the default short date and time formats give the order and the clock.
"""

import logging

import uno

from marginalia.i18n import formats
from marginalia.office.config_node import node

log = logging.getLogger(__name__)


def locale_tag(ctx, fallback: str) -> str:
    try:
        value = node(ctx, "/org.openoffice.Setup/L10N").getPropertyValue("ooSetupSystemLocale")
    except Exception:
        log.debug("no locale setting", exc_info=True)
        value = ""
    return str(value) or fallback


def read(ctx, tag: str) -> formats.Formats:
    """The conventions of ``tag`` ("de-DE") as LibreOffice's locale data has them."""
    locale = uno.createUnoStruct("com.sun.star.lang.Locale")
    parts = tag.replace("_", "-").split("-")
    locale.Language = parts[0]
    locale.Country = next((p for p in parts[1:] if len(p) == 2), "")
    data = ctx.ServiceManager.createInstanceWithContext("com.sun.star.i18n.LocaleData", ctx)
    item = data.getLocaleItem(locale)
    twelve = any(e.isDefault and e.formatUsage == "TIME" and "AM/PM" in e.formatCode.upper()
                 for e in data.getAllFormats(locale))
    order, separator = _date_style(ctx, locale)
    return formats.Formats(decimal=item.decimalSeparator or ".",
                           thousands=item.thousandSeparator or ",",
                           date_order=order, date_separator=separator,
                           time_separator=item.timeSeparator or ":", twelve_hour=twelve,
                           am=item.timeAM or "AM", pm=item.timePM or "PM")


# 2033-11-22 as LibreOffice's date serial (days since 1899-12-30): day, month and year
# differ in every digit, so where each lands in the formatted date gives the order.
SAMPLE_SERIAL, SAMPLE = 48905, {"D": "22", "M": "11", "Y": "2033"}
# com.sun.star.i18n.NumberFormatIndex.DATE_SYS_DDMMYYYY: the locale's numeric date with
# the whole year, in its own order (the standard date may lack the year, ja, or count in
# another calendar, ar: hijri).
DATE_SYS_DDMMYYYY = 21


def _date_style(ctx, locale):
    """(order, separator) of the locale's numeric date: ("DMY", ".") in German. Format codes
    use the language's own letters (TT.MM.JJJJ), so a date is formatted and read instead."""
    smgr = ctx.ServiceManager
    supplier = smgr.createInstanceWithArgumentsAndContext(
        "com.sun.star.util.NumberFormatsSupplier", (locale,), ctx)
    formatter = smgr.createInstanceWithContext("com.sun.star.util.NumberFormatter", ctx)
    formatter.attachNumberFormatsSupplier(supplier)
    key = supplier.getNumberFormats().getFormatIndex(DATE_SYS_DDMMYYYY, locale)
    shown = formatter.convertNumberToString(key, SAMPLE_SERIAL)
    found = sorted((shown.find(digits), part, digits) for part, digits in SAMPLE.items())
    if any(at < 0 for at, _part, _digits in found):
        return "MDY", "/"
    first_end = found[0][0] + len(found[0][2])
    separator = shown[first_end:found[1][0]].strip() or "/"
    return "".join(part for _at, part, _digits in found), separator


def install(ctx, fallback: str) -> formats.Formats:
    """Read and install the user's conventions; English ones when the data cannot be read."""
    try:
        found = read(ctx, locale_tag(ctx, fallback))
    except Exception:
        log.exception("the locale's number and date formats could not be read")
        found = formats.ENGLISH
    formats.install(found)
    return found

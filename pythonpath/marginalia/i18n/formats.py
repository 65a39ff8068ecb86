"""Numbers, dates and times the locale's way (pure).

The conventions come from LibreOffice's own locale data for the user's locale setting
(office.locale_formats reads them: Tools > Options > Language Settings > Languages >
Locale setting), so "1.234" in German and "1,234" in English, "26.11." and "11/26", a
24-hour clock or AM/PM, as Writer's own fields show them. Until the office says, English.
"""

import time
from typing import NamedTuple, Optional


class Formats(NamedTuple):
    decimal: str = "."
    thousands: str = ","
    date_order: str = "MDY"      # the order of day, month and year in a short date
    date_separator: str = "/"
    time_separator: str = ":"
    twelve_hour: bool = True
    am: str = "AM"
    pm: str = "PM"


ENGLISH = Formats()
_current = ENGLISH


def install(formats: Formats) -> None:
    global _current
    _current = formats


def current() -> Formats:
    return _current


def number(value: int, formats: Optional[Formats] = None) -> str:
    """A whole number with the locale's grouping: 12,345 / 12.345 / 12 345."""
    f = formats or _current
    return "{:,}".format(int(value)).replace(",", f.thousands)


def decimal(value: float, places: int = 1, formats: Optional[Formats] = None) -> str:
    """A number with ``places`` decimals and the locale's marks: 1.5 / 1,5."""
    f = formats or _current
    text = "{:,.{}f}".format(value, places)
    return text.replace(",", "\0").replace(".", f.decimal).replace("\0", f.thousands)


def clock(moment: time.struct_time, formats: Optional[Formats] = None) -> str:
    """The time of day: 14:05, or 2:05 PM where the locale counts twelve hours."""
    f = formats or _current
    if not f.twelve_hour:
        return "%02d%s%02d" % (moment.tm_hour, f.time_separator, moment.tm_min)
    hour = moment.tm_hour % 12 or 12
    return "%d%s%02d %s" % (hour, f.time_separator, moment.tm_min,
                            f.am if moment.tm_hour < 12 else f.pm)


def day_month(moment: time.struct_time, formats: Optional[Formats] = None) -> str:
    """Day and month without the year, in the locale's order: 26.11. / 11/26 / 11/26."""
    f = formats or _current
    parts = {"D": "%d" % moment.tm_mday, "M": "%d" % moment.tm_mon}
    ordered = [parts[c] for c in f.date_order if c in parts]
    text = f.date_separator.join(ordered)
    return text + f.date_separator if f.date_separator == "." else text


def full_date(moment: time.struct_time, formats: Optional[Formats] = None) -> str:
    """A whole date in the locale's order: 26.11.2026 / 11/26/2026 / 2026/11/26."""
    f = formats or _current
    parts = {"D": "%d" % moment.tm_mday, "M": "%d" % moment.tm_mon, "Y": "%d" % moment.tm_year}
    return f.date_separator.join(parts[c] for c in f.date_order)

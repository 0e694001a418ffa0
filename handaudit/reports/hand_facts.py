"""Where a hand comes from, as the report's ``hands`` table gives it: venue, table, event, time,
stakes, currency (from the PHH optional fields; null where the file does not say).

One function per fact, each a pure function of the read :class:`~handaudit.core.hand.Hand`, so
that the table writer, the run's summary (rake per currency) and the HTML report agree.

Time (PHH optional fields, "Time"): ``time`` is a local time of day; ``day``, ``month``,
``year`` the date. The zone is ``time_zone`` (IANA, ``America/Toronto``), else
``time_zone_abbreviation`` (``EDT``: read through :data:`ABBREVIATIONS`, fixed offsets, the
usual North American reading of ``CST``; ``ET``, ``PT``... through :data:`ZONE_ABBREVIATIONS`,
zones whose offset the date decides; an offset written out, ``GMT-0910`` or ``UTC+2``, as written); with neither, the spec takes the venue's local time
when ``city``, ``region`` and ``country`` are all given (unknown to us: no timestamp) and UTC
otherwise. A hand with a date but no time has a ``date`` and no ``timestamp``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

from ..core.currencies import iso_code
from ..core.hand import Hand

_H: Final = dt.timedelta(hours=1)
# Time zone abbreviations read as fixed offsets from UTC. Ambiguous ones (IST: India, Ireland,
# Israel) are left out: a hand written with one has no timestamp rather than a wrong one.
ABBREVIATIONS: Final[dict[str, dt.timedelta]] = {
    "UTC": 0 * _H, "GMT": 0 * _H, "Z": 0 * _H, "WET": 0 * _H, "WEST": 1 * _H, "BST": 1 * _H,
    "CET": 1 * _H, "CEST": 2 * _H, "MET": 1 * _H, "MEST": 2 * _H, "EET": 2 * _H, "EEST": 3 * _H,
    "MSK": 3 * _H, "EST": -5 * _H, "EDT": -4 * _H, "CST": -6 * _H, "CDT": -5 * _H,
    "MST": -7 * _H, "MDT": -6 * _H, "PST": -8 * _H, "PDT": -7 * _H, "AKST": -9 * _H, "AKDT": -8 * _H,
    "HST": -10 * _H, "AST": -4 * _H, "ADT": -3 * _H, "NST": dt.timedelta(hours=-3, minutes=-30),
    "NDT": dt.timedelta(hours=-2, minutes=-30), "JST": 9 * _H, "KST": 9 * _H, "HKT": 8 * _H, "SGT": 8 * _H,
    "AWST": 8 * _H, "ACST": dt.timedelta(hours=9, minutes=30), "ACDT": dt.timedelta(hours=10, minutes=30),
    "AEST": 10 * _H, "AEDT": 11 * _H, "NZST": 12 * _H, "NZDT": 13 * _H,
}

# Abbreviations of a zone with daylight saving time, not of one offset ("ET": Eastern Time, EST
# in winter and EDT in summer): read as the IANA zone, so that the date decides the offset.
ZONE_ABBREVIATIONS: Final[dict[str, str]] = {
    "ET": "America/New_York", "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
    "AKT": "America/Anchorage",
}


def _text(value: object) -> str | None:
    """A string field, or an integer one (``table = 7``) as text; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (str, int)):
        return str(value)
    return None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def venue(hand: Hand | None) -> str | None:
    return None if hand is None else _text(hand.fields.get("venue"))


def table(hand: Hand | None) -> str | None:
    return None if hand is None else _text(hand.fields.get("table"))


def event(hand: Hand | None) -> str | None:
    return None if hand is None else _text(hand.fields.get("event"))


def seat_count(hand: Hand | None) -> int | None:
    return None if hand is None else _int(hand.fields.get("seat_count"))


def level(hand: Hand | None) -> int | None:
    return None if hand is None else _int(hand.fields.get("level"))


def currency(hand: Hand | None) -> str | None:
    """The hand's currency as an ISO 4217 code: PHH ``currency`` (``usd`` read as ``USD``), else
    the code of ``currency_symbol`` (``$`` -> ``USD``); a text that is neither, as written; None
    for chips (core/currencies.py)."""
    if hand is None:
        return None
    fields = hand.fields
    value, symbol = fields.get("currency"), fields.get("currency_symbol")
    if value is None and symbol is None:
        return None
    return iso_code(value, symbol)


def currency_symbol(hand: Hand | None) -> str | None:
    """The PHH ``currency_symbol`` field as written, or None."""
    if hand is None:
        return None
    symbol = hand.fields.get("currency_symbol")
    return symbol if isinstance(symbol, str) and symbol else None


def date(hand: Hand | None) -> dt.date | None:
    """The hand's date from ``year``, ``month`` and ``day``; None if one is missing or impossible."""
    if hand is None:
        return None
    fields = hand.fields  # (three calls, not a generator: compiled, a generator cost some 2,000 instructions)
    y, m, d = _int(fields.get("year")), _int(fields.get("month")), _int(fields.get("day"))
    if y is None or m is None or d is None:
        return None
    try:
        return dt.date(y, m, d)
    except ValueError:  # month 13, February 30, year 0
        return None


def time_us(clock: dt.time) -> int:
    """A time of day as microseconds since midnight (Parquet's ``time64[us]``)."""
    return ((clock.hour * 60 + clock.minute) * 60 + clock.second) * 1_000_000 + clock.microsecond


def local_time(hand: Hand | None) -> dt.time | None:
    """The PHH ``time`` field (a local time of day), or None."""
    if hand is None:
        return None
    value = hand.fields.get("time")
    return value if isinstance(value, dt.time) else None


def time_zone(hand: Hand | None) -> str | None:
    """The zone the time is in, as the file names it: ``time_zone``, else the abbreviation."""
    if hand is None:
        return None
    for key in ("time_zone", "time_zone_abbreviation"):
        value = hand.fields.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def timestamp(hand: Hand | None) -> dt.datetime | None:
    """When the hand began, in UTC, if the file says enough (module docstring); else None."""
    value = timestamp_us(hand)
    return None if value is None else from_timestamp_us(value)


_EPOCH: Final = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
_MICROSECOND: Final = dt.timedelta(microseconds=1)
_DAY_US: Final = 86_400_000_000
_EPOCH_ORDINAL: Final = 719_163  # dt.date(1970, 1, 1).toordinal()
# The instants a datetime can hold (years 1 to 9999, UTC), in microseconds since the epoch: a
# hand whose time falls outside them in UTC (1 January of year 1 in Tokyo) has no timestamp.
_FIRST_US: Final = (1 - _EPOCH_ORDINAL) * _DAY_US
_LAST_US: Final = (dt.date.max.toordinal() + 1 - _EPOCH_ORDINAL) * _DAY_US - 1
_FIXED_OFFSETS: dict[dt.tzinfo, int] = {}


def timestamp_us(hand: Hand | None) -> int | None:
    """:func:`timestamp` as microseconds since the Unix epoch, the Parquet column's own value:
    pyarrow converts an aware ``datetime`` in some 1.2 µs, an int in 20 ns."""
    return timestamp_us_at(hand, date(hand), local_time(hand))


def timestamp_us_at(hand: Hand | None, day: dt.date | None, clock: dt.time | None) -> int | None:
    """:func:`timestamp_us` for a hand whose :func:`date` and :func:`local_time` the caller has
    read already (the row builder writes both as columns too).

    Counted in integers, the local time less the zone's offset then (the same instant as
    ``datetime.astimezone``, at a tenth of its cost: the datetime arithmetic was some 18,000
    instructions a hand, compiled)."""
    if hand is None or day is None or clock is None:
        return None
    zone = _zone(hand)
    if zone is None:
        return None
    offset_us = _FIXED_OFFSETS.get(zone)
    if offset_us is None:
        if isinstance(zone, dt.timezone):  # one offset whatever the date: remembered
            offset_us = _FIXED_OFFSETS[zone] = _us(zone.utcoffset(None))
        else:  # a zone whose offset the local date and time decide (IANA; the time's fold too):
            # a tzinfo reads only those of the datetime it is given, so the time's own tzinfo
            # (none from TOML) does not matter
            offset_us = _us(zone.utcoffset(dt.datetime.combine(day, clock)))
    local_us = days_since_epoch(day.year, day.month, day.day) * _DAY_US + time_us(clock)
    value = local_us - offset_us
    return value if _FIRST_US <= value <= _LAST_US else None


def days_since_epoch(year: int, month: int, day: int) -> int:
    """Days from 1 January 1970 to the date (proleptic Gregorian), in integers: what
    ``date.toordinal() - 719163`` gives, without the method call (the era algorithm: 400-year
    eras of 146,097 days, years counted from March so that the leap day ends the year)."""
    y = year - 1 if month <= 2 else year
    era = y // 400
    year_of_era = y - era * 400
    day_of_year = (153 * (month - 3 if month > 2 else month + 9) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146_097 + day_of_era - 719_468


def _us(offset: dt.timedelta | None) -> int:
    if offset is None:
        return 0
    return (offset.days * 86_400 + offset.seconds) * 1_000_000 + offset.microseconds


def from_days(value: int) -> dt.date:
    """The date :func:`days_since_epoch` counted."""
    return dt.date(1970, 1, 1) + dt.timedelta(days=value)


def from_time_us(value: int) -> dt.time:
    """The time of day :func:`time_us` counted."""
    seconds, micro = divmod(value, 1_000_000)
    return dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60, micro)


def from_timestamp_us(value: int) -> dt.datetime:
    """The UTC ``datetime`` of :func:`timestamp_us`'s value."""
    return _EPOCH + value * _MICROSECOND


_OFFSET: Final = re.compile(r"^(?:GMT|UTC)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$")


def _written_offset(text: str) -> dt.timedelta | None:
    """An offset written out (``GMT-0910``, ``UTC+2``, ``+05:30``), read as written (east of UTC
    positive); None if the text is not one or it is beyond ±18 hours."""
    m = _OFFSET.match(text)
    if m is None:
        return None
    hours, minutes = int(m.group(2)), int(m.group(3) or 0)
    if minutes >= 60 or hours * 60 + minutes > 18 * 60:
        return None
    offset = dt.timedelta(hours=hours, minutes=minutes)
    return -offset if m.group(1) == "-" else offset


_ZONES: dict[str, dt.tzinfo | None] = {}


def _zone_info(name: str) -> dt.tzinfo | None:
    """The IANA zone ``name``, None if unknown; remembered by name. (zoneinfo is imported here,
    by the first hand that names a zone: some 3 ms of every run's start otherwise.)"""
    if name in _ZONES:
        return _ZONES[name]
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        zone: dt.tzinfo | None = ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        zone = None
    if len(_ZONES) > 1_000:  # (names come from the input: bounded)
        _ZONES.clear()
    _ZONES[name] = zone
    return zone


# The zone of each abbreviation text met (the same text names the same zone; a fixed offset is
# then one object, whose offset timestamp_us_at remembers): some 1,500 instructions a hand saved.
_ZONE_OF_ABBREVIATION: dict[str, dt.tzinfo | None] = {}


def _abbreviation_zone(text: str) -> dt.tzinfo | None:
    """The zone a ``time_zone_abbreviation`` names: a known abbreviation (an IANA zone, or a
    fixed offset) or an offset written out; None if neither."""
    abbreviation = text.strip().upper()
    zone_name = ZONE_ABBREVIATIONS.get(abbreviation)
    if zone_name is not None:
        return _zone_info(zone_name)
    offset = ABBREVIATIONS.get(abbreviation)
    if offset is None:
        offset = _written_offset(abbreviation)
    return None if offset is None else dt.timezone(offset)


def _zone(hand: Hand) -> dt.tzinfo | None:
    fields = hand.fields
    name = fields.get("time_zone")
    if isinstance(name, str) and name:
        return _zone_info(name)
    abbreviation = fields.get("time_zone_abbreviation")
    if isinstance(abbreviation, str) and abbreviation:
        if abbreviation in _ZONE_OF_ABBREVIATION:
            return _ZONE_OF_ABBREVIATION[abbreviation]
        zone = _abbreviation_zone(abbreviation)
        if len(_ZONE_OF_ABBREVIATION) > 1_000:  # (texts come from the input: bounded)
            _ZONE_OF_ABBREVIATION.clear()
        _ZONE_OF_ABBREVIATION[abbreviation] = zone
        return zone
    if all(isinstance(fields.get(k), str) for k in ("city", "region", "country")):
        return None  # the venue's local time: its zone is not in the file
    return dt.timezone.utc

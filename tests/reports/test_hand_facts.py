"""Where a hand comes from (reports/hand_facts.py): venue, table, date and time in UTC, currency."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import NT3

from handaudit.grammar.reader import read_text
from handaudit.reports import hand_facts as F

ACTIONS = "actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 f']\n"


def _hand(extra: str):
    read = read_text(NT3 + ACTIONS + extra)
    assert read.hand is not None, read.findings
    return read.hand


UTC = dt.timezone.utc


@pytest.mark.parametrize("extra,expected", [
    # IANA zone, with daylight saving time: Toronto is UTC-5 in January, UTC-4 in July
    ("time = 23:30:00\nday = 31\nmonth = 12\nyear = 2024\ntime_zone = 'America/Toronto'\n",
     dt.datetime(2025, 1, 1, 4, 30, tzinfo=UTC)),
    ("time = 12:00:00\nday = 4\nmonth = 7\nyear = 2024\ntime_zone = 'America/Toronto'\n",
     dt.datetime(2024, 7, 4, 16, 0, tzinfo=UTC)),
    # an abbreviation is a fixed offset
    ("time = 12:00:00\nday = 4\nmonth = 7\nyear = 2024\ntime_zone_abbreviation = 'CEST'\n",
     dt.datetime(2024, 7, 4, 10, 0, tzinfo=UTC)),
    # no zone, no full location: UTC (the PHH spec)
    ("time = 08:15:30\nday = 1\nmonth = 2\nyear = 2023\n", dt.datetime(2023, 2, 1, 8, 15, 30, tzinfo=UTC)),
    # the venue's local time, whose zone the file does not give: unknown
    ("time = 08:15:30\nday = 1\nmonth = 2\nyear = 2023\ncity = 'Las Vegas'\nregion = 'Nevada'\n"
     "country = 'United States'\n", None),
    # an ambiguous abbreviation, an unknown zone, an impossible date, no time: unknown
    ("time = 08:00:00\nday = 1\nmonth = 2\nyear = 2023\ntime_zone_abbreviation = 'IST'\n", None),
    ("time = 08:00:00\nday = 1\nmonth = 2\nyear = 2023\ntime_zone = 'Mars/Olympus'\n", None),
    ("time = 08:00:00\nday = 30\nmonth = 2\nyear = 2023\n", None),
    ("day = 1\nmonth = 2\nyear = 2023\n", None),
])
def test_timestamp_in_utc(extra, expected):
    assert F.timestamp(_hand(extra)) == expected


def test_date_without_time_and_the_zone_as_written():
    hand = _hand("day = 1\nmonth = 2\nyear = 2023\ntime_zone_abbreviation = 'EDT'\n")
    assert (F.date(hand), F.local_time(hand), F.time_zone(hand)) == (dt.date(2023, 2, 1), None, "EDT")
    assert F.date(_hand("day = 30\nmonth = 2\nyear = 2023\n")) is None


def test_venue_table_event_seats_level_currency():
    hand = _hand("venue = 'PokerStars'\ntable = 7\nevent = 'Sunday Million'\nseat_count = 9\nlevel = 12\n"
                 "currency_symbol = '$'\n")
    assert (F.venue(hand), F.table(hand), F.event(hand), F.seat_count(hand), F.level(hand), F.currency(hand)) == (
        "PokerStars", "7", "Sunday Million", 9, 12, "USD")  # the symbol's ISO 4217 code
    assert F.currency_symbol(hand) == "$"  # the symbol as written, in its own column
    assert F.currency(_hand("currency = 'EUR'\ncurrency_symbol = '€'\n")) == "EUR"  # the code wins
    assert F.currency(_hand("currency = 'usd'\n")) == "USD"
    assert F.currency(_hand("currency_symbol = '£'\n")) == "GBP"
    assert F.currency(_hand("currency = 'chips of <b>'\n")) == "chips of <b>"  # neither: as written
    assert F.currency_symbol(_hand("currency = 'USD'\n")) is None
    plain = _hand("")
    assert [f(plain) for f in (F.venue, F.table, F.event, F.seat_count, F.level, F.currency, F.timestamp)] == [None] * 7
    assert F.venue(None) is None and F.timestamp(None) is None


def test_a_generic_zone_abbreviation_follows_daylight_saving_time():
    """`ET` is Eastern Time: EDT (UTC-4) in July, EST (UTC-5) in January; a fixed offset would be
    an hour wrong half the year."""
    summer = _hand("year = 2009\nmonth = 7\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'ET'\n")
    winter = _hand("year = 2009\nmonth = 1\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'ET'\n")
    assert F.timestamp(summer) == dt.datetime(2009, 7, 1, 4, 0, 9, tzinfo=dt.timezone.utc)
    assert F.timestamp(winter) == dt.datetime(2009, 1, 1, 5, 0, 9, tzinfo=dt.timezone.utc)
    edt = _hand("year = 2009\nmonth = 1\nday = 1\ntime = 00:00:09\ntime_zone_abbreviation = 'EDT'\n")
    assert F.timestamp(edt) == dt.datetime(2009, 1, 1, 4, 0, 9, tzinfo=dt.timezone.utc)  # as written


@pytest.mark.parametrize("written, hours, minutes", [
    ("GMT-0910", -9, -10), ("UTC+2", 2, 0), ("+05:30", 5, 30), ("GMT+0000", 0, 0), ("utc-3", -3, 0)])
def test_an_offset_written_out_is_read_as_written(written, hours, minutes):
    hand = _hand(f"year = 2009\nmonth = 7\nday = 1\ntime = 12:00:00\ntime_zone_abbreviation = '{written}'\n")
    local = dt.datetime(2009, 7, 1, 12, 0, 0)
    assert F.timestamp(hand) == (local - dt.timedelta(hours=hours, minutes=minutes)).replace(tzinfo=dt.timezone.utc)


@pytest.mark.parametrize("written", ["GMT+19", "UTC+0570", "GMT-", "XYZ", "IST"])
def test_an_unknown_or_impossible_zone_gives_no_timestamp(written):
    hand = _hand(f"year = 2009\nmonth = 7\nday = 1\ntime = 12:00:00\ntime_zone_abbreviation = '{written}'\n")
    assert F.timestamp(hand) is None and F.date(hand) == dt.date(2009, 7, 1)


@settings(max_examples=60, deadline=None)
@given(st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2200, 1, 1)))
def test_the_parquet_timestamp_value_is_the_timestamp_exactly(naive):
    """The hands table buffers microseconds since the epoch (pyarrow converts ints far faster
    than aware datetimes); read back, they are the timestamp to the microsecond."""
    stamp = naive.replace(tzinfo=dt.timezone.utc)
    hand = _hand(f"year = {stamp.year}\nmonth = {stamp.month}\nday = {stamp.day}\n"
                 f"time = {stamp.time().isoformat()}\ntime_zone = 'UTC'\n")
    assert F.timestamp(hand) == stamp
    assert F.from_timestamp_us(F.timestamp_us(hand)) == stamp
    assert F.timestamp_us(None) is None


ZONE_FIELDS = ["time_zone = 'America/Toronto'", "time_zone = 'Australia/Lord_Howe'", "time_zone = 'Asia/Kathmandu'",
               "time_zone = 'Europe/Dublin'", "time_zone_abbreviation = 'ET'", "time_zone_abbreviation = 'NST'",
               "time_zone_abbreviation = 'GMT-0910'", "time_zone_abbreviation = 'UTC+14'", ""]


@settings(max_examples=150, deadline=None)
@given(st.datetimes(min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(9999, 12, 31, 23, 59, 59, 999_999)),
       st.sampled_from(ZONE_FIELDS))
def test_the_timestamp_is_the_local_time_less_the_zones_offset_then(naive, zone_field):
    """The integer count agrees with ``datetime.astimezone`` to the microsecond, in zones with
    daylight saving time, half-hour and odd offsets, historical local mean time (years before
    1900) and none (UTC); a time outside the years a datetime holds once in UTC has none."""
    hand = _hand(f"year = {naive.year}\nmonth = {naive.month}\nday = {naive.day}\n"
                 f"time = {naive.time().isoformat()}\n{zone_field}\n")
    zone = F._zone(hand)
    try:
        expected = naive.replace(tzinfo=zone).astimezone(UTC)
    except OverflowError:
        expected = None
    assert F.timestamp(hand) == expected
    assert F.timestamp_us(hand) == (None if expected is None else (expected - F._EPOCH) // dt.timedelta(microseconds=1))


@pytest.mark.parametrize("extra", [
    "year = 1\nmonth = 1\nday = 1\ntime = 00:30:00\ntime_zone_abbreviation = 'JST'\n",  # UTC: 31 December of year 0
    "year = 9999\nmonth = 12\nday = 31\ntime = 23:30:00\ntime_zone = 'America/Toronto'\n",  # UTC: year 10000
])
def test_a_time_beyond_the_years_a_datetime_holds_in_utc_has_no_timestamp(extra):
    hand = _hand(extra)
    assert F.date(hand) is not None and F.timestamp(hand) is None and F.timestamp_us(hand) is None


@given(st.dates())
def test_days_since_the_epoch_are_the_dates_ordinal_less_1970s(day):
    assert F.days_since_epoch(day.year, day.month, day.day) == day.toordinal() - dt.date(1970, 1, 1).toordinal()

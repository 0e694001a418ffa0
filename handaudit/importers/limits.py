"""The limits every site importer applies, the same as the PHH reader's (README "Limits on
input", :mod:`handaudit.grammar.fields`): one place, so that no site's value can fail a run.

A value past a limit is an ``invalid-field`` finding on its hand (with the line), never an
internal error, a killed run or a report column that cannot hold it:

- an amount: at most :data:`MAX_PLACES` decimal places (trailing zeros not counted) and at most
  :data:`MAX_UNITS` units of the hand's smallest unit, each and in total (the stacks);
- a table size (``6-max``) and a seat number: 1 to :data:`MAX_SEAT`; a hand's players at most
  :data:`MAX_PLAYERS`;
- a hand id, a tournament id, a level: at most :data:`MAX_DIGITS` digits (a 64-bit integer);
- a date and a time of day: a real one (``2014/13/45`` is none);
- the seat list: no seat twice, no name twice (an action names its player: two seats of one
  name cannot be told apart).

Each function returns the message of the finding, or None when the value is within the limits.
"""

from __future__ import annotations

import datetime as _dt
from typing import Final

from ..grammar.fields import MAX_PLACES, MAX_PLAYERS, MAX_SEAT, MAX_UNITS, MAX_UNITS_TEXT

MAX_DIGITS: Final = 18  # an id or a level: fits a signed 64-bit integer column
MAX_AMOUNT_DIGITS: Final = 40  # digits of an amount as written, read at all (more: too large at once)
INVALID: Final = "invalid-field"

__all__ = ["INVALID", "MAX_AMOUNT_DIGITS", "MAX_DIGITS", "MAX_PLACES", "MAX_PLAYERS", "MAX_SEAT", "MAX_UNITS",
           "amount_problem", "date_problem", "digits_problem", "scaled_problem", "seat_problem", "seats_problems",
           "table_problem", "time_problem"]


def amount_problem(text: str, value: int, places: int) -> str | None:
    """An amount as written (``text``), read as ``value / 10**places`` (``value`` -2: more than
    :data:`MAX_AMOUNT_DIGITS` digits), past the limits?"""
    shown = text if len(text) <= 40 else text[:37] + "..."
    if value == -2:
        return f"the amount {shown!r} has more than {MAX_AMOUNT_DIGITS} digits; handaudit reads at most {MAX_UNITS_TEXT} units"
    if places > MAX_PLACES:
        return f"the amount {shown!r} has {places} decimal places; handaudit reads at most {MAX_PLACES}"
    if value > MAX_UNITS:
        return f"the amount {shown!r} is more than {MAX_UNITS_TEXT} units; handaudit reads at most that"
    return None


def scaled_problem(largest: int, stacks_total: int) -> str | None:
    """The hand's amounts at its one scale (the most decimal places any has): the largest and the
    stacks' total, past :data:`MAX_UNITS`?"""
    if largest > MAX_UNITS:
        return f"an amount is more than {MAX_UNITS_TEXT} units of the hand's smallest unit"
    if stacks_total > MAX_UNITS:
        return f"the players' stacks total more than {MAX_UNITS_TEXT} units of the hand's smallest unit"
    return None


def digits_problem(text: str, what: str) -> str | None:
    """An id or a level of ``text`` (ASCII digits), more digits than a 64-bit integer holds?"""
    if len(text) > MAX_DIGITS:
        shown = text if len(text) <= 24 else text[:12] + "..." + f" ({len(text):,} digits)"
        return f"the {what} {shown} has more than {MAX_DIGITS} digits; handaudit reads at most {MAX_DIGITS}"
    return None


def table_problem(text: str) -> str | None:
    """A table size (``6-max``'s 6) outside 1..MAX_SEAT?"""
    if len(text) > 6 or not 1 <= int(text) <= MAX_SEAT:
        return f"the table size {text[:12]}-max is not from 1 to {MAX_SEAT:,}"
    return None


def seat_problem(text: str, what: str = "seat") -> str | None:
    """A seat number (or the button's) outside 1..MAX_SEAT?"""
    if len(text) > 6 or not 1 <= int(text) <= MAX_SEAT:
        return f"{what} {text[:12]} is not a seat number from 1 to {MAX_SEAT:,}"
    return None


def date_problem(year: str, month: str, day: str) -> str | None:
    """A date the site could not have written (``2014/13/45``)?"""
    try:
        _dt.date(int(year), int(month), int(day))
    except ValueError:
        return f"the date {year}/{month}/{day} is no date"
    return None


def time_problem(hour: str, minute: str, second: str) -> str | None:
    if len(hour) > 2 or not (int(hour) < 24 and int(minute) < 60 and int(second) < 60):
        return f"the time {hour}:{minute}:{second} is no time of day"
    return None


def seats_problems(seats: list[int], names: list[str]) -> list[str]:
    """Two players in one seat, one name in two seats, more players than a hand may have."""
    out: list[str] = []
    if len(seats) > MAX_PLAYERS:
        out.append(f"the hand has {len(seats):,} seated players; handaudit reads at most {MAX_PLAYERS:,} a hand")
    seen: dict[int, str] = {}
    for seat, name in zip(seats, names, strict=True):
        if seat in seen:
            out.append(f"seat {seat} is listed twice ({seen[seat]!r} and {name!r}): which player sits there is unknown")
        else:
            seen[seat] = name
    where: dict[str, int] = {}
    for seat, name in zip(seats, names, strict=True):
        if name in where and where[name] != seat:
            out.append(f"the name {name!r} sits in seat {where[name]} and seat {seat}: its actions cannot be attributed")
        else:
            where.setdefault(name, seat)
    return out

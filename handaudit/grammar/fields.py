"""The PHH fields: their TOML types, which are per-player arrays, and exact amount conversion.

Source: phh-std spec.rst (the field table) and required.rst (required fields per variant).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
from decimal import Decimal

# Unlimited precision: the default context (28 digits) would round long amounts.
_EXACT = decimal.Context(prec=decimal.MAX_PREC)

# Field kinds
STR = "string"
INT = "integer"
NUM = "number"  # integer or float: an amount
BOOL = "boolean"
TIME = "local time"
STR_OR_INT = "string or integer"
NUMS = "array of numbers"  # per-player amounts
STACKS = "array of numbers or inf"  # per-player, inf = unknown stack
INTS = "array of integers"
STRS = "array of strings"
ACTIONS = "array of action strings"

FIELDS: dict[str, str] = {
    # required (per variant)
    "variant": STR,
    "antes": NUMS,
    "blinds_or_straddles": NUMS,
    "bring_in": NUM,
    "small_bet": NUM,
    "big_bet": NUM,
    "min_bet": NUM,
    "starting_stacks": STACKS,
    "actions": ACTIONS,
    # optional
    "author": STR,
    "event": STR,
    "url": STR,
    "venue": STR,
    "address": STR,
    "city": STR,
    "region": STR,
    "postal_code": STR,
    "country": STR,
    "time": TIME,
    "time_zone": STR,
    "time_zone_abbreviation": STR,
    "day": INT,
    "month": INT,
    "year": INT,
    "hand": STR_OR_INT,
    "level": INT,
    "seats": INTS,
    "seat_count": INT,
    "table": STR_OR_INT,
    "players": STRS,
    "finishing_stacks": NUMS,
    "winnings": NUMS,
    "currency": STR,
    "currency_symbol": STR,
    "ante_trimming_status": BOOL,
    "time_limit": NUM,
    "time_banks": NUMS,
}

# Arrays with one entry per player, in PHH player order.
PER_PLAYER = ("antes", "blinds_or_straddles", "starting_stacks", "seats", "players",
              "finishing_stacks", "winnings", "time_banks")
# Amounts that take part in the hand's scale (time_limit and time_banks are seconds).
AMOUNT_SCALARS = ("bring_in", "small_bet", "big_bet", "min_bet")
AMOUNT_ARRAYS = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings")
AMOUNT_FIELDS = AMOUNT_SCALARS + AMOUNT_ARRAYS


_NUMBER_TYPES = (int, float, Decimal)
Number = int | Decimal  # an exact amount before scaling


def is_number(value) -> bool:
    return type(value) in _NUMBER_TYPES  # bool is not a number here (type, not isinstance)


def type_ok(kind: str, value) -> bool:
    """Whether a TOML value has the field kind's type (array elements included)."""
    t = type(value)
    if kind == STR:
        return t is str
    if kind == INT:
        return t is int
    if kind == NUM:
        return t in _NUMBER_TYPES
    if kind == BOOL:
        return t is bool
    if kind == TIME:
        return isinstance(value, (_dt.time, _dt.datetime))
    if kind == STR_OR_INT:
        return t is str or t is int
    if t is not list:
        return False
    if kind in (NUMS, STACKS):
        return all(type(v) in _NUMBER_TYPES for v in value)
    if kind == INTS:
        return all(type(v) is int for v in value)
    return all(type(v) is str for v in value)  # STRS, ACTIONS


class NeedsExactReparse(Exception):
    """A float with 16+ significant digits: the text must be read again with decimals."""


def number(value: object) -> Number | None:
    """A TOML number as an exact int or Decimal; None for inf/nan or an absurd exponent.

    Floats come from the fast TOML reader as binary doubles. ``repr`` gives the shortest
    decimal that reads back as the same double, which is the written decimal whenever that has
    at most 15 significant digits (two such decimals never share a double); a longer one raises
    :class:`NeedsExactReparse` so the hand is read again with decimals from the start.
    """
    if type(value) is int:  # not bool: the field checks let no boolean through
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        d = Decimal(repr(value))
        if len(d.as_tuple().digits) > 15:
            raise NeedsExactReparse
        return d
    if isinstance(value, Decimal):  # from the exact path (tomllib with decimals)
        exponent = value.as_tuple().exponent
        if not value.is_finite() or (isinstance(exponent, int) and abs(exponent) > 1000):
            # inf/nan, or an absurd exponent (1e-99999999: 10**99999999 units)
            return None
        return value
    raise TypeError(f"not a TOML number: {value!r}")


def checked(value: Number | None) -> Number:
    """An amount the reader has already checked to be finite (None here is a reader bug)."""
    if value is None:
        raise ValueError("an unchecked amount reached the hand: the reader's field checks missed it")
    return value


def places(value: int | Decimal) -> int:
    """Decimal places needed to write the value exactly (trailing zeros do not count)."""
    return 0 if isinstance(value, int) else decimals(value)


def units(value: int | Decimal, scale: int) -> int:
    """An exact number as integer minor units at ``scale`` decimals."""
    return value * 10**scale if isinstance(value, int) else to_units(value, scale)


def decimals(value: Decimal) -> int:
    """Decimal places needed to write the value exactly (trailing zeros do not count)."""
    exponent = value.normalize(_EXACT).as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def to_units(value: Decimal, scale: int) -> int:
    """An exact decimal as integer minor units at ``scale`` decimals (exact by construction)."""
    return int(value.scaleb(scale, _EXACT))

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
AMOUNT_FIELDS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
                 "starting_stacks", "finishing_stacks", "winnings")


def is_number(value) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def type_ok(kind: str, value) -> bool:
    """Whether a TOML value has the field kind's type (array elements included)."""
    if kind == STR:
        return isinstance(value, str)
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == NUM:
        return is_number(value)
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == TIME:
        return isinstance(value, (_dt.time, _dt.datetime))
    if kind == STR_OR_INT:
        return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
    if not isinstance(value, list):
        return False
    if kind in (NUMS, STACKS):
        return all(is_number(v) for v in value)
    if kind == INTS:
        return all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    return all(isinstance(v, str) for v in value)  # STRS, ACTIONS


def exact(value) -> Decimal | None:
    """A TOML number as an exact Decimal; None for inf/nan.

    Floats come from a fast TOML reader as binary doubles. ``repr`` gives the shortest decimal
    that reads back as the same double, which is the written decimal whenever that has at most
    15 significant digits (two such decimals never share a double). Longer numbers are flagged
    by :func:`needs_exact_reparse` and read again with decimals from the start.
    """
    if isinstance(value, float):
        if math.isinf(value) or math.isnan(value):
            return None
        return Decimal(repr(value))
    if isinstance(value, Decimal) and (not value.is_finite() or abs(value.as_tuple().exponent) > 1000):
        # inf/nan, or an absurd exponent (1e-99999999: 10**99999999 units), from the exact path
        return None
    return Decimal(value)


def needs_exact_reparse(value) -> bool:
    """True when a float may not be the decimal the file wrote (16+ significant digits)."""
    if isinstance(value, float) and math.isfinite(value):
        digits = Decimal(repr(value)).as_tuple().digits
        return len(digits) > 15
    if isinstance(value, list):
        return any(needs_exact_reparse(v) for v in value)
    return False


def decimals(value: Decimal) -> int:
    """Decimal places needed to write the value exactly (trailing zeros do not count)."""
    exponent = value.normalize(_EXACT).as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def to_units(value: Decimal, scale: int) -> int:
    """An exact decimal as integer minor units at ``scale`` decimals (exact by construction)."""
    return int(value.scaleb(scale, _EXACT))

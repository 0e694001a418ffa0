"""The PHH fields: their TOML types, which are per-player arrays, and exact amount conversion.

Source: phh-std spec.rst (the field table) and required.rst (required fields per variant).
"""

from __future__ import annotations

import datetime as _dt
import math
from decimal import Decimal
from typing import Final

# Field kinds: small integers (type_ok compares them natively); KIND_NAMES[kind] is the text
# that messages show.
STR: Final = 0
INT: Final = 1
NUM: Final = 2  # integer or float: an amount
BOOL: Final = 3
TIME: Final = 4
STR_OR_INT: Final = 5
NUMS: Final = 6  # per-player amounts
STACKS: Final = 7  # per-player, inf = unknown stack
INTS: Final = 8
STRS: Final = 9
ACTIONS: Final = 10
KIND_NAMES: Final = ("string", "integer", "number", "boolean", "local time", "string or integer",
                     "array of numbers", "array of numbers or inf", "array of integers", "array of strings",
                     "array of action strings")

FIELDS: Final[dict[str, int]] = {
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
PER_PLAYER: Final = ("antes", "blinds_or_straddles", "starting_stacks", "seats", "players",
                     "finishing_stacks", "winnings", "time_banks")
# Amounts that take part in the hand's scale (time_limit and time_banks are seconds).
AMOUNT_SCALARS: Final = ("bring_in", "small_bet", "big_bet", "min_bet")
AMOUNT_ARRAYS: Final = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings")
AMOUNT_FIELDS: Final = AMOUNT_SCALARS + AMOUNT_ARRAYS


_TIMES: Final = (_dt.time, _dt.datetime)


def type_ok(kind: int, value: object) -> bool:
    """Whether a TOML value has the field kind's type (array elements included).

    Exact type tests (``type(v) is int``): a boolean is not an integer here.
    """
    t = type(value)
    if kind == STR:
        return t is str
    if kind == INT:
        return t is int
    if kind == NUM:
        return t is int or t is float or t is Decimal
    if kind == BOOL:
        return t is bool
    if kind == TIME:
        return isinstance(value, _TIMES)
    if kind == STR_OR_INT:
        return t is str or t is int
    if not isinstance(value, list):
        return False
    if kind == NUMS or kind == STACKS:
        for v in value:
            t = type(v)
            if not (t is int or t is float or t is Decimal):
                return False
        return True
    if kind == INTS:
        for v in value:
            if type(v) is not int:
                return False
        return True
    for v in value:  # STRS, ACTIONS
        if type(v) is not str:
            return False
    return True


class NeedsExactReparse(Exception):
    """A float with 16+ significant digits: the text must be read again with decimals."""


def exact(value: object) -> tuple[int | None, int]:
    """A TOML number as ``(units, places)``, exactly ``units / 10**places`` with no trailing zero
    in the decimals (``200.30`` -> ``(2003, 1)``, ``5`` -> ``(5, 0)``); units None for inf/nan or
    an absurd exponent.

    Floats come from the fast TOML reader as binary doubles. ``repr`` gives the shortest
    decimal that reads back as the same double, which is the written decimal whenever that has
    at most 15 significant digits (two such decimals never share a double); a longer one raises
    :class:`NeedsExactReparse` so the hand is read again with decimals from the start.
    """
    if type(value) is int:  # not bool: the field checks let no boolean through
        return value, 0  # type: ignore[return-value]  # an int, by the test above
    if isinstance(value, float):
        if -_FEW_PLACES_LIMIT < value < _FEW_PLACES_LIMIT:
            few = _few_places(value)
            if few is not None:
                return few
        if math.isinf(value) or math.isnan(value):
            return None, 0
        text = repr(value)  # '200.3', '200.0', '1.5e-05', '1e+16'
        exponent = 0
        if "e" in text:
            text, _, power = text.partition("e")
            exponent = int(power)
        whole, _, frac = text.partition(".")
        digits = whole + frac
        if len(digits.lstrip("-0")) > 15:  # significant digits, trailing zeros included
            raise NeedsExactReparse
        return _normal(int(digits), len(frac) - exponent)
    if isinstance(value, Decimal):  # from the exact path (tomllib with decimals)
        sign, digit_tuple, exp = value.as_tuple()
        if not isinstance(exp, int) or abs(exp) > 1000:
            # inf/nan, or an absurd exponent (1e-99999999: 10**99999999 units)
            return None, 0
        units = int("".join([str(d) for d in digit_tuple]))
        return _normal(-units if sign else units, -exp)
    raise TypeError(f"not a TOML number: {value!r}")


# Below this magnitude, a decimal of at most _FEW_PLACES places is found with float arithmetic.
_FEW_PLACES_LIMIT: Final = 1e10
_FEW_PLACES: Final = 4


def _few_places(value: float) -> tuple[int, int] | None:
    """``value`` (``abs(value) < 1e10``) as ``(units, places)`` when a decimal of at most 4
    places reads back as it, else None: what :func:`exact` gets from ``repr``, without the string
    (repr and its parsing cost about 5,000 instructions a float; this about 100).

    Why it is repr's decimal: with ``|value| < 1e10`` and ``p <= 4``, ``value * 10**p`` is within
    0.04 of the integer ``units`` of any p-place decimal that reads back as ``value``, so rounding
    finds it, and ``units / 10**p`` (exact operands, one correctly rounded division) is ``value``
    exactly when that decimal reads back as it. At most one p-place decimal is that close to
    ``value``, and none with fewer places was (tried first), so it is the shortest: repr's, with
    at most 14 significant digits (never a reparse) and no trailing zero in its decimals.
    """
    scale = 1.0
    for places in range(_FEW_PLACES + 1):
        x = value * scale
        units = int(x + 0.5) if x >= 0.0 else -int(0.5 - x)
        if float(units) / scale == value:
            return units, places
        scale *= 10.0
    return None


def _normal(units: int, places: int) -> tuple[int, int]:
    """``units / 10**places`` with the fewest places >= 0: ``(2000, 1)`` -> ``(200, 0)``,
    ``(1, -16)`` (1e+16) -> ``(10**16, 0)``."""
    if places < 0:
        return units * 10**-places, 0
    while places > 0 and units % 10 == 0:  # trailing zeros: 0.50 needs one place
        units //= 10
        places -= 1
    return units, places


def exact_all(values: list) -> tuple[list[int | None], int]:
    """TOML numbers as integers at one number of decimal places, the fewest that holds them all:
    ``[0.50, 1, 0]`` -> ``([5, 10, 0], 1)``. None entries for inf/nan, as in :func:`exact`.

    An array of integers, the usual case, is its own result (the same list, not a copy).
    """
    for value in values:
        if type(value) is not int:
            break
    else:
        return values, 0
    out: list[int | None] = []
    places = 0
    for value in values:
        units, p = exact(value)
        if units is not None and p != places:
            if p < places:
                units *= power_of_ten(places - p)
            else:
                scale = power_of_ten(p - places)
                out = [None if u is None else u * scale for u in out]
                places = p
        out.append(units)
    return out, places


_POWERS_OF_TEN: Final[tuple[int, ...]] = tuple([10**k for k in range(19)])


def power_of_ten(k: int) -> int:
    """``10**k`` for ``k >= 0``; the usual ones from a table (compiled, ``**`` is a generic call
    of some 200 instructions)."""
    return _POWERS_OF_TEN[k] if k < 19 else 10**k


def written(value: object) -> int | Decimal:
    """A finite TOML number as the exact value written (for messages)."""
    return Decimal(repr(value)) if isinstance(value, float) else value  # type: ignore[return-value]


def rescaled(units: list[int | None], places: int, scale: int) -> tuple[int | None, ...]:
    """Integers at ``places`` decimals as integers at ``scale`` (>= places) decimals."""
    if places == scale:
        return tuple(units)
    factor = power_of_ten(scale - places)
    return tuple([None if u is None else u * factor for u in units])


def checked(value: int | None) -> int:
    """An amount the reader has already checked to be finite (None here is a reader bug)."""
    if value is None:
        raise ValueError("an unchecked amount reached the hand: the reader's field checks missed it")
    return value

"""The PHH fields: their TOML types, which are per-player arrays, and exact amount conversion.

Source: phh-std spec.rst (the field table) and required.rst (required fields per variant).
"""

from __future__ import annotations

import datetime as _dt
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
# Each amount's slot: its position in AMOUNT_FIELDS, where the reader keeps the converted amounts.
# Literals, so that mypyc folds them into the code (a Final bound to an expression such as
# AMOUNT_FIELDS.index("bring_in") is a C static, checked on every read); the check below holds
# each literal to its name's position, so reordering AMOUNT_FIELDS fails at import, not silently.
SLOT_BRING_IN: Final = 0
SLOT_SMALL_BET: Final = 1
SLOT_BIG_BET: Final = 2
SLOT_MIN_BET: Final = 3
SLOT_ANTES: Final = 4
SLOT_BLINDS: Final = 5
SLOT_STARTING_STACKS: Final = 6
SLOT_FINISHING_STACKS: Final = 7
SLOT_WINNINGS: Final = 8
SCALAR_SLOTS: Final = 4  # slots 0..3: the scalars, then the arrays
AMOUNT_SLOT: Final[dict[str, int]] = {
    "bring_in": SLOT_BRING_IN, "small_bet": SLOT_SMALL_BET, "big_bet": SLOT_BIG_BET, "min_bet": SLOT_MIN_BET,
    "antes": SLOT_ANTES, "blinds_or_straddles": SLOT_BLINDS, "starting_stacks": SLOT_STARTING_STACKS,
    "finishing_stacks": SLOT_FINISHING_STACKS, "winnings": SLOT_WINNINGS,
}
if ({name: slot for slot, name in enumerate(AMOUNT_FIELDS)} != AMOUNT_SLOT
        or SCALAR_SLOTS != len(AMOUNT_SCALARS)):
    raise ImportError("grammar.fields: the SLOT_* constants no longer match the order of AMOUNT_FIELDS")


_TIMES: Final = (_dt.time, _dt.datetime)


def type_ok(kind: int, value: object) -> bool:
    """Whether a TOML value has the field kind's type (array elements included).

    Exact type tests (``type(v) is int``): a boolean is not an integer here. Floats are
    :class:`TomlFloat` (the reader's ``parse_float``).
    """
    t = type(value)
    if kind == STR:
        return t is str
    if kind == INT:
        return t is int
    if kind == NUM:
        return t is int or t is TomlFloat
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
            if not (t is int or t is TomlFloat):
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



# -- limits -----------------------------------------------------------------------------------
# Every value the reader lets through fits the report's columns (handaudit/reports/schema.py),
# and so does every value the replay and the settlement derive from them: README "Limits".
MAX_PLAYERS: Final = 1_000  # players of a hand (int16 columns: players, player, eligible, pots)
MAX_SEAT: Final = 1_000  # seats entries and seat_count: 1..MAX_SEAT (int16 column: seat)
MAX_ACTIONS: Final = 10_000  # entries of the actions array (memory per hand: README "Limits")
MAX_ACTION_CHARS: Final = 1_000  # characters of one action string, commentary included
MAX_PLACES: Final = 18  # decimal places of an amount, trailing zeros not counted (int8: scale)
# Units of the hand's smallest unit: each amount, and the total money a hand can move (pots,
# stacks, rake), at most this; twice it still fits int64 (bets and raises-to above a stack).
MAX_UNITS: Final = 4 * 10**18
MAX_UNITS_TEXT: Final = "4 * 10**18"  # as messages say it
MAX_INT: Final = 2**63 - 1  # any other integer field: a TOML (64-bit) integer, |value| <= this

# Why a TomlFloat has no units (its ``places`` then): not finite (inf, nan), or beyond the limits.
NOT_FINITE: Final = 0
TOO_PRECISE: Final = -1
TOO_LARGE: Final = -2


class TomlFloat:
    """A TOML float as written (``toml_rs.loads(..., parse_float=toml_float)``), with its exact
    value: ``units / 10**places``, no trailing zero in the decimals (``200.30`` -> 2003, 1).

    ``units`` is None for ``inf``/``nan`` (``places`` NOT_FINITE) and for a number beyond the
    limits: more than :data:`MAX_PLACES` decimal places (TOO_PRECISE) or more than
    :data:`MAX_UNITS` units at its places (TOO_LARGE). No binary double is ever made: ``3.0000000000000001``
    is ``(30000000000000001, 16)``, ``1e-400`` too precise, ``1e400`` too large, never 0 or inf.
    ``repr`` is the text as written (messages quote it).
    """

    __slots__ = ("text", "units", "places")

    def __init__(self, text: str) -> None:
        units, places = exact_text(text)
        self.text: Final = text
        self.units: Final = units
        self.places: Final = places

    def __repr__(self) -> str:
        return self.text if len(self.text) <= 40 else self.text[:37] + "..."

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TomlFloat) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple:
        return (TomlFloat, (self.text,))

    def __float__(self) -> float:
        """The nearest binary double (for callers who want one; handaudit never does)."""
        return float(self.text.replace("_", ""))

    @property
    def infinite(self) -> bool:
        """``inf`` or ``+inf`` (an unknown stack), not ``-inf`` or ``nan``."""
        t = self.text
        return t == "inf" or t == "+inf"


# Floats read so far, by text: hands repeat their amounts (0.25, 0.50), and a lookup costs a
# fraction of converting the text. Bounded: a full cache starts again.
_FLOATS: Final[dict[str, TomlFloat]] = {}
_MAX_FLOATS: Final = 4096


def toml_float(text: str) -> TomlFloat:
    """``parse_float`` for the TOML reader: the float's text, as a shared :class:`TomlFloat`."""
    number = _FLOATS.get(text)
    if number is None:
        if len(_FLOATS) >= _MAX_FLOATS:
            _FLOATS.clear()
        number = TomlFloat(text)
        _FLOATS[text] = number
    return number


def exact_text(text: str) -> tuple[int | None, int]:
    """A TOML float's text (the TOML reader has checked its syntax) as ``(units, places)``,
    exactly, by its digits: ``'+1_000.50'`` -> ``(10005, 1)``, ``'-0.0'`` -> ``(0, 0)``,
    ``'1.5e3'`` -> ``(1500, 0)``. ``(None, NOT_FINITE)`` for inf and nan; ``(None,
    TOO_PRECISE)`` / ``(None, TOO_LARGE)`` beyond :data:`MAX_PLACES` places or :data:`MAX_UNITS` units
    (decided on the digits, before any int is made, so 5,000 digits cost no more than 40)."""
    if "_" in text:
        text = text.replace("_", "")
    negative = text.startswith("-")
    start = 1 if negative or text.startswith("+") else 0
    end = len(text)
    exponent = 0
    e = text.find("e")
    if e < 0:
        e = text.find("E")
    if e >= 0:
        power = text[e + 1:]
        power_digits = power.lstrip("+-").lstrip("0")
        end = e
        if len(power_digits) > 6:  # |exponent| >= 10**6: beyond any limit unless the number is 0
            if text[start:end].strip("0.") == "":
                return 0, 0
            return None, (TOO_PRECISE if power.startswith("-") else TOO_LARGE)
        exponent = int(power)
    elif text.endswith(("inf", "nan")):
        return None, NOT_FINITE
    dot = text.find(".", start, end)
    if dot < 0:
        whole = text[start:end]
        frac = ""
    else:
        whole = text[start:dot]
        frac = text[dot + 1:end].rstrip("0")
    digits = (whole + frac).lstrip("0")
    if not digits:
        return 0, 0
    places = len(frac) - exponent
    if places > 0 and e >= 0:  # '150e-3': trailing zeros of the whole part count as decimals
        stripped = digits.rstrip("0")
        cut = min(len(digits) - len(stripped), places)
        if cut:
            digits = digits[:len(digits) - cut]
            places -= cut
    if places > MAX_PLACES:
        return None, TOO_PRECISE
    if len(digits) - places > 19:  # 10**19 or more: decided before an int of those digits is made
        return None, TOO_LARGE
    units = int(digits)
    if places < 0:  # '5e18': the exponent's zeros are units too, so scale before the limit
        units *= power_of_ten(-places)
        places = 0
    if units > MAX_UNITS:
        return None, TOO_LARGE
    return (-units if negative else units), places


def exact(value: object) -> tuple[int | None, int]:
    """A TOML number (an int, or a :class:`TomlFloat`) as ``(units, places)``, exactly ``units /
    10**places`` with no trailing zero in the decimals (``200.30`` -> ``(2003, 1)``, ``5`` ->
    ``(5, 0)``); units None for inf/nan and for a float beyond the limits (see TomlFloat).

    An int is taken as it is: its magnitude is checked against :data:`MAX_UNITS` with the rest
    of the hand (reader.py), where its scale is known.
    """
    if type(value) is int:  # not bool: the field checks let no boolean through
        return value, 0  # type: ignore[return-value]  # an int, by the test above
    if isinstance(value, TomlFloat):
        return value.units, value.places
    raise TypeError(f"not a TOML number: {value!r}")


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
    """``10**k`` for ``k >= 0``; the usual ones from a table (compiled, ``**`` is a generic
    call)."""
    return _POWERS_OF_TEN[k] if k < 19 else 10**k


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

"""Exact amounts: a TOML float's text becomes (units, places) by its digits, never a double.

The oracle is Decimal over the same text (TOML's float grammar is a subset of what Decimal
reads, underscores included): every float TOML can write is exact or refused, as the limits say.
"""

from __future__ import annotations

import decimal
from decimal import Decimal

import pytest
import toml_rs
from hypothesis import given
from hypothesis import strategies as st

from handaudit.grammar import fields as F
from handaudit.grammar.fields import TomlFloat, exact, exact_all, exact_text, toml_float

_EXACT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def by_decimal(text: str) -> tuple[int | None, int]:
    """The same answer through Decimal: normalize, then the limits."""
    value = Decimal(text)
    if not value.is_finite():
        return None, F.NOT_FINITE
    if value.is_zero():
        return 0, 0
    sign, digits, exponent = value.normalize(_EXACT).as_tuple()
    assert isinstance(exponent, int)
    places = max(0, -exponent)
    if places > F.MAX_PLACES:
        return None, F.TOO_PRECISE
    if len(digits) + exponent > 20:  # far beyond: no int of the digits made here either
        return None, F.TOO_LARGE
    units = int(value.scaleb(places, _EXACT))
    if abs(units) > F.MAX_UNITS:
        return None, F.TOO_LARGE
    return units, places


def toml_text(sign: str, whole: str, frac: str | None, exp: str | None, underscores: bool) -> str:
    if underscores and len(whole) > 1:
        whole = whole[0] + "_" + whole[1:]
    text = sign + whole
    if frac is not None:
        text += "." + frac
    if exp is not None:
        text += exp
    return text


_whole = st.one_of(st.just("0"), st.from_regex(r"[1-9][0-9]{0,24}", fullmatch=True))
_frac = st.none() | st.from_regex(r"[0-9]{1,30}", fullmatch=True)
_exp = st.none() | st.from_regex(r"[eE][+-]?[0-9]{1,3}", fullmatch=True)


@given(st.sampled_from(["", "+", "-"]), _whole, _frac, _exp, st.booleans())
def test_every_toml_float_exact_or_refused(sign, whole, frac, exp, underscores):
    if frac is None and exp is None:
        frac = "0"
    text = toml_text(sign, whole, frac, exp, underscores)
    # toml_rs accepts it, and hands the very text to parse_float
    assert toml_rs.loads(f"a = {text}", toml_version="1.0.0", parse_float=str)["a"] == text
    assert exact_text(text) == by_decimal(text.replace("_", ""))


@pytest.mark.parametrize(("text", "expected"), [
    ("3.0000000000000001", (30000000000000001, 16)),  # a double says 3
    ("1e-400", (None, F.TOO_PRECISE)),  # a double says 0
    ("1e400", (None, F.TOO_LARGE)),  # a double says inf
    ("1e-18", (1, 18)),
    ("1e-19", (None, F.TOO_PRECISE)),
    ("4e18", (4 * 10**18, 0)),
    ("4.000000000000000001e18", (None, F.TOO_LARGE)),
    ("5e18", (None, F.TOO_LARGE)),  # the exponent's zeros count: over the limit once scaled
    ("0.05E20", (None, F.TOO_LARGE)),  # (found by the differential above)
    ("40e17", (4 * 10**18, 0)),
    ("1_000.5", (10005, 1)),
    ("-0.0", (0, 0)),
    ("+0.0", (0, 0)),
    ("+1.5", (15, 1)),
    ("-1.50", (-15, 1)),
    ("150e-3", (15, 2)),
    ("1.5E+3", (1500, 0)),
    ("200.30", (2003, 1)),
    ("0e99999999999", (0, 0)),
    ("1e99999999999", (None, F.TOO_LARGE)),
    ("1e-99999999999", (None, F.TOO_PRECISE)),
    ("1." + "0" * 5000, (1, 0)),  # exactly 1: trailing zeros are no decimals
    ("1" + "0" * 5000 + ".0", (None, F.TOO_LARGE)),  # decided on the digits: no 5,000-digit int
    ("0." + "0" * 5000 + "1", (None, F.TOO_PRECISE)),
    ("inf", (None, F.NOT_FINITE)), ("+inf", (None, F.NOT_FINITE)), ("-inf", (None, F.NOT_FINITE)),
    ("nan", (None, F.NOT_FINITE)), ("+nan", (None, F.NOT_FINITE)), ("-nan", (None, F.NOT_FINITE)),
])
def test_written_floats(text, expected):
    assert exact_text(text) == expected
    assert toml_rs.loads(f"a = {text}", toml_version="1.0.0", parse_float=str)["a"] == text


def test_toml_float_keeps_the_text_and_is_shared():
    a = toml_float("0.50")
    assert a is toml_float("0.50")
    assert (a.text, a.units, a.places, repr(a)) == ("0.50", 5, 1, "0.50")
    assert exact(a) == (5, 1) and exact(7) == (7, 0)
    assert toml_float("inf").infinite and toml_float("+inf").infinite and not toml_float("-inf").infinite
    assert float(toml_float("1_0.25")) == 10.25
    with pytest.raises(TypeError):
        exact(0.5)  # a binary double is never an amount
    import pickle
    assert pickle.loads(pickle.dumps(a)) == a


def test_an_array_shares_the_largest_places():
    f = toml_float
    assert exact_all([f("0.5"), 1, 0, f("200.3"), f("inf")]) == ([5, 10, 0, 2003, None], 1)
    assert exact_all([f("1.25"), f("0.5")]) == ([125, 50], 2)
    ints = [1, 2, 3]
    assert exact_all(ints)[0] is ints  # an all-integer array is its own units


def test_the_cache_is_bounded():
    for k in range(F._MAX_FLOATS + 10):
        toml_float(f"{k}.5")
    assert len(F._FLOATS) <= F._MAX_FLOATS
    assert isinstance(toml_float("1.5"), TomlFloat)


def test_amount_slots_are_the_positions_of_their_names():
    """The reader indexes the converted amounts by the literal SLOT_* constants (folded by mypyc);
    each must be its field's position in AMOUNT_FIELDS, and every SLOT_* constant must be mapped."""
    assert F.AMOUNT_FIELDS == F.AMOUNT_SCALARS + F.AMOUNT_ARRAYS
    assert list(F.AMOUNT_SLOT) == list(F.AMOUNT_FIELDS)
    for name, slot in F.AMOUNT_SLOT.items():
        assert F.AMOUNT_FIELDS[slot] == name
    constants = {k: v for k, v in vars(F).items() if k.startswith("SLOT_")}
    assert sorted(constants.values()) == sorted(F.AMOUNT_SLOT.values()) == list(range(len(F.AMOUNT_FIELDS)))
    for key, slot in constants.items():  # SLOT_BLINDS is blinds_or_straddles; the others spell their field
        assert F.AMOUNT_FIELDS[slot].upper().startswith(key.removeprefix("SLOT_"))
    assert F.SCALAR_SLOTS == len(F.AMOUNT_SCALARS)

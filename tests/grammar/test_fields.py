"""Exact amounts: fields.exact agrees with the decimal reading of a float's shortest repr."""

from __future__ import annotations

import decimal
import math
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handaudit.grammar.fields import NeedsExactReparse, exact, exact_all

_EXACT = decimal.Context(prec=decimal.MAX_PREC)


def by_decimal(value: float | Decimal) -> tuple[int | None, int] | str:
    """(units, places) through Decimal: repr, 15 significant digits, normalize, scaleb."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None, 0
        value = Decimal(repr(value))
        if len(value.as_tuple().digits) > 15:
            return "reparse"
    exponent = value.as_tuple().exponent
    if not value.is_finite() or (isinstance(exponent, int) and abs(exponent) > 1000):
        return None, 0
    normal = value.normalize(_EXACT).as_tuple().exponent
    places = max(0, -normal) if isinstance(normal, int) else 0
    return int(value.scaleb(places, _EXACT)), places


def exact_or_reparse(value):
    try:
        return exact(value)
    except NeedsExactReparse:
        return "reparse"


@given(st.floats())
def test_floats_as_their_shortest_decimal(value):
    assert exact_or_reparse(value) == by_decimal(value)


@given(st.decimals() | st.integers(0, 30).flatmap(lambda p: st.decimals(places=p)))
def test_decimals_exactly(value):
    assert exact_or_reparse(value) == by_decimal(value)


@pytest.mark.parametrize("text", ["200.30", "0.50", "1e-5", "1.5E+16", "-0.0", "123456789012345.0", "12.3400"])
def test_written_decimals(text):
    assert exact_or_reparse(float(text)) == by_decimal(float(text))
    assert exact_or_reparse(Decimal(text)) == by_decimal(Decimal(text))


def test_an_array_shares_the_largest_places():
    assert exact_all([0.5, 1, 0, 200.3, float("inf")]) == ([5, 10, 0, 2003, None], 1)
    assert exact_all([1.25, 0.5]) == ([125, 50], 2)
    ints = [1, 2, 3]
    assert exact_all(ints)[0] is ints  # an all-integer array is its own units


@given(st.integers(-10**15, 10**15), st.integers(0, 6))
def test_decimals_of_few_places_as_repr_reads_them(units, places):
    """The amounts hands hold (cents and the like) take exact's float arithmetic, not repr:
    the same answer as the decimal reading of repr, at and around its limits."""
    value = float(Decimal(units).scaleb(-places))
    assert exact_or_reparse(value) == by_decimal(value)
    assert exact_or_reparse(-value) == by_decimal(-value)


@given(st.floats(-1e10, 1e10))
def test_floats_below_the_few_places_limit(value):
    assert exact_or_reparse(value) == by_decimal(value)

"""The fixed-width columns of the report buffer: bytes the writer wraps as Arrow arrays unchanged.

:class:`~handaudit.reports.buffer.Ints` and :class:`~handaudit.reports.buffer.Flags` hold their
values as Arrow lays them out (little-endian values, a validity byte each), and the writer's
``_array`` wraps those bytes instead of converting each value. Whatever the values (nulls, the
ends of int64, values the column's narrower type refuses) and whatever rollbacks came between,
the array must be exactly what Arrow's own conversion of the values gives, or the same refusal.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.reports.buffer import Flags, Ints, Strings
from handaudit.reports.parquet import _array

I64 = st.integers(-(2**63), 2**63 - 1)
_INT_OPS = st.lists(st.one_of(st.tuples(st.just("add"), st.one_of(st.none(), I64, st.integers(-300, 300))),
                              st.tuples(st.just("truncate"), st.integers(0, 40))), max_size=80)


def _fill(column, ops):
    """Apply the ops to ``column`` and to a plain list (the model); the model."""
    model: list = []
    for op, arg in ops:
        if op == "add":
            column.append(arg)
            model.append(arg)
        else:
            column.truncate(arg)
            del model[arg:]
    return model


@settings(max_examples=300, deadline=None)
@given(_INT_OPS, st.sampled_from([pa.int64(), pa.int32(), pa.int16(), pa.int8()]))
def test_an_int_column_is_the_array_arrow_converts(ops, kind):
    column = Ints()
    model = _fill(column, ops)
    assert column.values() == model and len(column) == len(model)
    assert column.nulls == model.count(None)
    try:
        expected = pa.array(model, type=kind)
    except (pa.ArrowInvalid, OverflowError):  # a value beyond the narrower type: refused either way
        with pytest.raises(pa.ArrowInvalid):
            _array(column, pa.field("x", kind))
        return
    got = _array(column, pa.field("x", kind))
    got.validate(full=True)
    assert got.equals(expected) and got.null_count == expected.null_count


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("add"), st.one_of(st.none(), st.booleans())),
                          st.tuples(st.just("truncate"), st.integers(0, 40))), max_size=80))
def test_a_flag_column_is_the_array_arrow_converts(ops):
    column = Flags()
    model = _fill(column, ops)
    assert column.values() == model
    got = _array(column, pa.field("x", pa.bool_()))
    got.validate(full=True)
    assert got.equals(pa.array(model, type=pa.bool_()))


def test_a_timestamp_column_is_cast_from_its_microseconds():
    column = Ints()
    for value in (0, None, -62135596800000000, 253402300799999999):  # the epoch, null, years 1 and 9999
        column.append(value)
    kind = pa.timestamp("us", tz="UTC")
    assert _array(column, pa.field("t", kind)).equals(pa.array(column.values(), type=pa.int64()).cast(kind))


def test_an_int_beyond_int64_is_refused_when_added():
    """(librt says ValueError, the compiled conversion to a native int OverflowError.)"""
    column = Ints()
    column.append(2**63 - 1)
    with pytest.raises((OverflowError, ValueError)):
        column.append(2**63)
    with pytest.raises((OverflowError, ValueError)):
        column.append(-(2**63) - 1)
    assert column.values() == [2**63 - 1]  # the refused value left nothing behind


def test_string_codes_are_int32_with_their_nulls():
    column = Strings()
    for word in ("flop", None, "turn", "flop", None):
        column.add(word)
    codes = _array(column, pa.field("s", pa.string()))
    assert codes.type == pa.int32() and codes.to_pylist() == [0, None, 1, 0, None]
    assert pa.DictionaryArray.from_arrays(codes, pa.array(column.take_words())).to_pylist() == \
        ["flop", None, "turn", "flop", None]

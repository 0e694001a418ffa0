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

from handaudit.reports import buffer as buffer_module
from handaudit.reports.buffer import (
    AwardLists,
    Flags,
    Int8s,
    Int16Lists,
    Int16s,
    Int32s,
    Int64Lists,
    Ints,
    ReportBuffer,
    Strings,
    Texts,
    pack_bits,
)
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.parquet import _array, _words, fits
from handaudit.reports.schema import schema

I64 = st.integers(-(2**63), 2**63 - 1)
_INT_OPS = st.lists(st.one_of(st.tuples(st.just("add"), st.one_of(st.none(), I64, st.integers(-300, 300))),
                              # a value never null, passed unboxed (the column's add), the same bytes
                              st.tuples(st.just("add_int"), st.one_of(I64, st.integers(-300, 300))),
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


WIDTHS = [(Ints, pa.int64()), (Int32s, pa.int32()), (Int16s, pa.int16()), (Int8s, pa.int8())]


@settings(max_examples=400, deadline=None)
@given(_INT_OPS, st.sampled_from(WIDTHS))
def test_an_int_column_is_the_array_arrow_converts(ops, width):
    """Values the type holds give Arrow's own array; one it cannot hold is refused when added,
    and leaves nothing behind (Arrow's conversion refused the same values)."""
    kind_class, kind = width
    column = kind_class()
    model: list = []
    for op, arg in ops:
        if op in ("add", "add_int"):
            put = column.append if op == "add" or kind == pa.int8() else column.add  # (int8: the scale, nullable)
            try:
                pa.array([arg], type=kind)
            except (pa.ArrowInvalid, OverflowError):
                with pytest.raises((OverflowError, ValueError)):  # (librt says ValueError in pure Python)
                    put(arg)
                continue
            put(arg)
            model.append(arg)
        else:
            column.truncate(arg)
            del model[arg:]
    assert column.values() == model and len(column) == len(model)
    assert column.nulls == model.count(None)
    got = _array(column, pa.field("x", kind))
    got.validate(full=True)
    assert got.equals(pa.array(model, type=kind)) and got.null_count == model.count(None)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 1), max_size=70))
def test_bits_are_packed_as_arrow_packs_them(flags):
    data = bytes(flags)
    expected = pa.array([bool(f) for f in flags], type=pa.bool_()).buffers()[1]
    packed = pack_bits(data)
    assert len(packed) == (len(flags) + 7) // 8
    assert packed == (expected.to_pybytes()[:len(packed)] if flags else b"")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet=st.characters(max_codepoint=127), max_size=12), st.text(max_size=6)),
                max_size=40, unique=True))
def test_a_string_columns_words_are_the_array_arrow_converts(words):
    """A coded column's dictionary, wrapped from its text and offsets when ASCII (else converted):
    Arrow's own array of the words, the empty word and no word at all included."""
    got = _words(list(words))
    got.validate(full=True)
    assert got.equals(pa.array(words, type=pa.string())) and got.null_count == 0


def test_every_buffered_column_fits_its_schema_type():
    """What the writer checks when it starts (it refuses a misfit): each fixed-width column is the
    width of its type, flags are bool, codes are strings."""
    buffer = ReportBuffer()
    for name, table in zip(TABLE_NAMES, buffer.tables, strict=True):
        for field in schema(name):
            source = table.keys if table.keyed and hasattr(table.keys, field.name) else table
            assert fits(getattr(source, field.name), field), (name, field.name)
    assert not fits(Int32s(), pa.field("x", pa.int16())) and not fits(Ints(), pa.field("x", pa.string()))
    assert not fits(Flags(), pa.field("x", pa.int8())) and not fits(Int8s(), pa.field("x", pa.bool_()))
    assert not fits([], pa.field("x", pa.string()))  # every column is laid out as Arrow holds it: no list converted


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


@pytest.mark.parametrize(("kind_class", "bits"), [(Ints, 64), (Int32s, 32), (Int16s, 16), (Int8s, 8)])
def test_the_ends_of_each_width_are_kept_and_beyond_them_refused(kind_class, bits):
    """(librt says ValueError, the compiled conversion to a native int OverflowError.)"""
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    column = kind_class()
    column.append(low)
    column.append(high)
    for beyond in (high + 1, low - 1):
        with pytest.raises((OverflowError, ValueError)):
            column.append(beyond)
    assert column.values() == [low, high]  # the refused values left nothing behind


def test_string_codes_are_int32_with_their_nulls():
    column = Strings()
    for word in ("flop", None, "turn", "flop", None):
        column.add(word)
    codes = _array(column, pa.field("s", pa.string()))
    assert codes.type == pa.int32() and codes.to_pylist() == [0, None, 1, 0, None]
    assert pa.DictionaryArray.from_arrays(codes, pa.array(column.take_words())).to_pylist() == \
        ["flop", None, "turn", "flop", None]


# ASCII texts (the usual case: wrapped from the joined text), texts with other characters (two-,
# three- and four-byte UTF-8: converted one by one), empty strings apart from nulls.
_TEXT = st.one_of(st.text(alphabet=st.characters(max_codepoint=127), max_size=12),
                  st.text(max_size=6), st.just(""), st.sampled_from(["é", "€", "\U0001f0a1", "p1 cbr 20"]))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("add"), st.one_of(st.none(), _TEXT)),
                          st.tuples(st.just("truncate"), st.integers(0, 40))), max_size=80))
def test_a_text_column_is_the_array_arrow_converts(ops):
    """Offsets, validity and text give Arrow's own string array, whatever the values (nulls
    apart from empty strings, characters beyond ASCII) and the rollbacks between them."""
    column = Texts()
    model = _fill(column, ops)
    assert column.values() == model and len(column) == len(model) and column.nulls == model.count(None)
    assert column.size == sum(len(v) for v in model if v is not None)
    got = _array(column, pa.field("x", pa.string()))
    got.validate(full=True)
    assert got.type == pa.string() and got.equals(pa.array(model, type=pa.string()))
    assert got.null_count == model.count(None)


def test_a_table_is_taken_when_a_text_column_nears_its_offsets_limit(monkeypatch):
    """A table with few rows but a text column of TEXT_LIMIT code points is due: int32 offsets
    never overflow, however long the texts of a batch."""
    monkeypatch.setattr(buffer_module, "TEXT_LIMIT", 10)
    buffer = ReportBuffer(batch_rows=1000)
    table = buffer.actions
    assert not table.full(1000)
    table.action.append("p1 cbr 20")
    assert not table.full(1000) and table.full(0)
    table.action.append("p2 cc")
    assert table.full(1000) and not buffer.hands.full(1000)


_LIST_OPS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.one_of(st.none(), st.lists(st.integers(-(2**15), 2**15 - 1), max_size=6))),
    st.tuples(st.just("begin"), st.lists(st.integers(1, 10), min_size=1, max_size=3)),  # items, no end: a hand cut short
    st.tuples(st.just("truncate"), st.integers(0, 20))), max_size=50)


def _fill_lists(column, add_list, add_item, ops):
    model: list = []
    for op, arg in ops:
        if op == "add":
            add_list(arg)
            model.append(arg)
        elif op == "begin":  # items of a list that never ends: only a truncate (the rollback) may follow
            for item in arg:
                add_item(item)
            n = len(model)
            column.truncate(n)
        else:
            column.truncate(arg)
            del model[arg:]
    return model


@settings(max_examples=300, deadline=None)
@given(_LIST_OPS)
def test_an_int16_list_column_is_the_array_arrow_converts(ops):
    """Offsets, validity and items give Arrow's own list array, whatever the nulls, the empty
    lists and the rollbacks (a list begun and cut off by one leaves no item behind)."""
    column = Int16Lists()

    def add_list(values):
        if values is None:
            column.end_null()
        else:
            for v in values:
                column.add(v)
            column.end()

    model = _fill_lists(column, add_list, column.add, ops)
    assert column.values() == model and len(column) == len(model) and column.nulls == model.count(None)
    assert column.count == len(column.items) == sum(len(v) for v in model if v is not None)
    kind = pa.list_(pa.int16())
    got = _array(column, pa.field("x", kind))
    got.validate(full=True)
    assert got.equals(pa.array(model, type=kind)) and fits(column, pa.field("x", kind))


@settings(max_examples=300, deadline=None)
@given(_LIST_OPS)
def test_an_int64_list_column_is_the_array_arrow_converts(ops):
    column = Int64Lists()
    model = _fill_lists(column, lambda v: column.append(None if v is None else tuple(v)),
                        lambda item: (column.ints.append(item), setattr(column, "count", column.count + 1)), ops)
    assert column.values() == model and column.nulls == model.count(None)
    kind = pa.list_(pa.int64())
    got = _array(column, pa.field("x", kind))
    got.validate(full=True)
    assert got.equals(pa.array(model, type=kind))
    assert not fits(column, pa.field("x", pa.list_(pa.int16()))) and not fits(Int16Lists(), pa.field("x", kind))


_AWARD = st.tuples(st.integers(1, 64), st.integers(-(2**63), 2**63 - 1), st.sampled_from(["whole", "high", "low"]),
                   st.one_of(st.none(), st.text(max_size=8), st.just("two pair, kings and sevens")))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("add"), st.lists(_AWARD, max_size=4)),
                          st.tuples(st.just("begin"), st.lists(_AWARD, min_size=1, max_size=2)),
                          st.tuples(st.just("truncate"), st.integers(0, 20))), max_size=40))
def test_an_award_list_column_is_the_array_arrow_converts(ops):
    """Each pot's awards (a list of structs) give Arrow's own array from the struct's field order,
    whatever the rollbacks (a pot's list begun and cut off leaves no award behind)."""
    from handaudit.reports.schema import schema

    column = AwardLists()
    model: list = []
    for op, arg in ops:
        if op == "add":
            for award in arg:
                column.add(*award)
            column.end()
            model.append(arg)
        elif op == "begin":
            for award in arg:
                column.add(*award)
            column.truncate(len(model))
        else:
            column.truncate(arg)
            del model[arg:]
    assert column.values() == model and len(column) == len(model)
    field = schema("pots").field("awards")
    got = _array(column, field)
    got.validate(full=True)
    names = [field.type.value_type.field(i).name for i in range(field.type.value_type.num_fields)]
    assert got.equals(pa.array([[dict(zip(names, a, strict=True)) for a in pot] for pot in model], type=field.type))
    assert fits(column, field) and not fits(column, pa.field("x", pa.list_(pa.int16())))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.dates()), max_size=30), st.lists(st.one_of(st.none(), st.times()), max_size=30))
def test_dates_and_times_are_the_arrays_arrow_converts(days, clocks):
    """The hands table's date (days since 1970-01-01, date32) and time (microseconds since
    midnight, time64[us]) give Arrow's conversion of the date and time objects, and read back."""
    from handaudit.reports import hand_facts as F
    from handaudit.reports.schema import schema

    date_column, time_column = Int32s(), Ints()
    for day in days:
        date_column.append(None if day is None else F.days_since_epoch(day.year, day.month, day.day))
    for clock in clocks:
        time_column.append(None if clock is None else F.time_us(clock))
    date_field, time_field = schema("hands").field("date"), schema("hands").field("time")
    assert fits(date_column, date_field) and fits(time_column, time_field)
    assert _array(date_column, date_field).equals(pa.array(days, type=pa.date32()))
    assert _array(time_column, time_field).equals(pa.array([None if c is None else c.replace(tzinfo=None) for c in clocks],
                                                           type=pa.time64("us")))
    assert [None if v is None else F.from_days(v) for v in date_column.values()] == days
    assert [None if v is None else F.from_time_us(v) for v in time_column.values()] == \
        [None if c is None else c.replace(tzinfo=None, fold=0) for c in clocks]

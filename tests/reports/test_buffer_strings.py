"""The string columns of the report buffer: dictionary codes that always decode to what was added.

:class:`~handaudit.reports.buffer.Strings` keeps a dictionary of the strings seen since the
writer last took its words, and the last string added with its code (a shortcut for a column
that repeats itself). Whatever the order of adds, takes, new dictionaries and rollbacks, the codes
taken with the words they index must give back exactly the strings added, nulls included. The
columns whose strings rarely repeat are :class:`Texts` (offsets into their values joined), and the
writer codes exactly the columns the buffer holds as :class:`Strings`.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.reports.buffer import Lists, ReportBuffer, Strings, Texts
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.parquet import _TableWriter
from handaudit.reports.schema import schema

# Equal strings that are not the same object, so the identity shortcut is tested against equality.
WORDS = ["preflop", "flop", "".join(["fl", "op"]), "turn", "p1", "".join(["p", "1"]), ""]

_OPS = st.one_of(
    st.tuples(st.just("add"), st.sampled_from([*range(len(WORDS)), None])),
    st.tuples(st.just("take"), st.none()),
    st.tuples(st.just("take_words"), st.none()),
    st.tuples(st.just("truncate"), st.integers(0, 6)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_OPS, max_size=60))
def test_codes_decode_to_the_strings_added(ops):
    column = Strings()
    pending: list[str | None] = []  # added since the last take (the model)
    taken: list[tuple[list, list]] = []  # (codes, the words they index), per take
    batches: list[list] = []  # codes taken since the last take_words
    expected: list[str | None] = []
    for op, arg in ops:
        if op == "add":
            value = None if arg is None else WORDS[arg]
            column.add(value)
            pending.append(value)
        elif op == "take":
            codes, nulls, size = column.take()
            assert nulls == pending.count(None)
            assert all(c is None or 0 <= c < size for c in codes)
            batches.append(codes)
            expected.extend(pending)
            pending = []
        elif op == "take_words":
            codes, _, _ = column.take()
            batches.append(codes)
            expected.extend(pending)
            pending = []
            words = column.take_words()
            taken.extend((codes, words) for codes in batches)
            batches = []
        else:
            column.truncate(arg)
            del pending[arg:]
    codes, _, _ = column.take()
    batches.append(codes)
    expected.extend(pending)
    words = column.take_words()
    taken.extend((codes, words) for codes in batches)
    decoded = [None if c is None else words[c] for codes, words in taken for c in codes]
    assert decoded == expected


# The string columns whose values rarely repeat from row to row: buffered as Texts.
PLAIN = {"hands": {"hand"}, "actions": {"cards", "action"}, "findings": {"message"}, "pots": set(),
         "players": {"hole_cards"}}


def _texts_in(columns):
    """Every Texts column among ``columns``, a list column's item fields included."""
    for column in columns:
        if isinstance(column, Texts):
            yield column
        elif isinstance(column, Lists):
            yield from _texts_in(column.fields)


def test_the_plain_string_columns_are_texts_and_written_as_strings(tmp_path):
    from handaudit.reports.layout import ReportDir, prepare_dir

    prepare_dir(tmp_path / "out")
    report = ReportDir(tmp_path / "out")
    buffer = ReportBuffer()
    try:
        for name, table in zip(TABLE_NAMES, buffer.tables, strict=True):
            writer = _TableWriter(report, name, "0", table, 1000, {}, 1000)
            strings = {f.name for f in schema(name) if f.type == pa.string()}
            assert writer.coded == strings - PLAIN[name], name
            for column in PLAIN[name]:
                assert isinstance(getattr(table, column), Texts), (name, column)
            assert {c for c in PLAIN[name]} == {n for n in vars(table) if isinstance(getattr(table, n), Texts)}
            assert set(map(id, table.texts)) == set(map(id, _texts_in(table.columns))), name  # all watched
            for field in writer.write_schema:
                if field.name in writer.coded:
                    assert field.type == pa.dictionary(pa.int32(), pa.string()), (name, field.name)
                elif field.name in strings:
                    assert field.type == pa.string(), (name, field.name)
    finally:
        report.close()


def test_the_writer_refuses_a_column_not_of_its_schema_type(tmp_path):
    """The writer checks the buffer's columns against the schema once per sequence of column
    classes; a buffer with another class in one place is checked anew, and refused by name."""
    from handaudit.reports.buffer import Ints
    from handaudit.reports.layout import ReportDir, prepare_dir

    prepare_dir(tmp_path / "out")
    report = ReportDir(tmp_path / "out")
    try:
        good = ReportBuffer()
        players = TABLE_NAMES.index("players")
        _TableWriter(report, "players", "0", good.tables[players], 1000, {}, 1000)  # fits (and is remembered)
        bad = ReportBuffer()
        bad.tables[players].seat = Ints()  # int64 where the schema says int16
        with pytest.raises(TypeError, match=r"^players: buffered columns not of their schema type: seat$"):
            _TableWriter(report, "players", "0", bad.tables[players], 1000, {}, 1000)
    finally:
        report.close()

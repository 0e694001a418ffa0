"""The string columns of the report buffer: dictionary codes that always decode to what was added.

:class:`~handaudit.reports.buffer.Strings` keeps a dictionary of the strings seen since the
writer last took its words, and the last string added with its code (a shortcut for a column
that repeats itself). Whatever the order of adds, takes, new dictionaries and rollbacks, the codes
taken with the words they index must give back exactly the strings added, nulls included. The
columns whose strings rarely repeat (:data:`~handaudit.reports.buffer.TEXT_COLUMNS`) are plain
lists and are written as plain strings.
"""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.reports.buffer import TEXT_COLUMNS, ReportBuffer, Strings
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.parquet import write_schema
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


def test_the_plain_string_columns_are_lists_and_written_as_strings():
    buffer = ReportBuffer()
    for name, table in zip(TABLE_NAMES, buffer.tables, strict=True):
        sch = schema(name)
        for column in TEXT_COLUMNS[name]:
            assert sch.field(column).type == pa.string(), (name, column)
            assert isinstance(getattr(table, column), list), (name, column)
        coded = {f.name for f in sch if f.type == pa.string() and f.name not in TEXT_COLUMNS[name]}
        written = write_schema(sch, coded)
        for field in written:
            if field.name in TEXT_COLUMNS[name]:
                assert field.type == pa.string()
            elif field.name in coded:
                assert field.type == pa.dictionary(pa.int32(), pa.string())

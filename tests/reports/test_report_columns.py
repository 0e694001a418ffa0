"""The report's columns by name: the column buffers, the schema and every row agree on one list.

:data:`handaudit.reports.columns.COLUMNS` is the order; each table's buffer in
:mod:`handaudit.reports.buffer` has exactly those columns (a keyed table's key in its ``keys``),
the schema lists them in that order, and every column of a real hand has one value per row.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.core.cards import UNKNOWN, card_text, cards_text
from handaudit.grammar.chunk import Chunk
from handaudit.reports import rows
from handaudit.reports.buffer import KEY_COLUMNS, Column, ReportBuffer
from handaudit.reports.columns import COLUMNS
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.schema import TABLES, schema
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_chunk


HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.05, 0.10, 0]
min_bet = 0.10
starting_stacks = [10.00, 26.85, 5.00]
players = ['a', 'b', 'c']
seats = [1, 2, 3]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 QhQd', 'p3 cbr 0.30', 'p1 f', 'p2 cc']
finishing_stacks = [9.95, 26.75, 5.15]
winnings = [0, 0, 0.25]
"""  # p2 calls: an incomplete hand, with findings, in every table


def _buffered(table):
    """The names of a buffer's columns: its attributes that are lists or Columns (keys and the
    registry of columns apart), each in the registry that truncate takes back."""
    names = {n for n in dir(table)
             if not n.startswith("_") and n not in ("columns", "texts") and isinstance(getattr(table, n), (list, Column))}
    registered = table.columns
    assert len(registered) == len(names) and all(any(getattr(table, n) is c for c in registered) for n in names)
    return names


def test_every_table_has_a_buffer_and_its_columns_in_the_schema():
    buf = ReportBuffer()
    assert tuple(COLUMNS) == TABLE_NAMES == tuple(TABLES)
    assert len(buf.tables) == len(TABLE_NAMES)
    for table, columns in zip(TABLE_NAMES, buf.tables, strict=True):
        assert tuple(c.name for c in TABLES[table]) == COLUMNS[table]
        assert tuple(schema(table).names) == COLUMNS[table]
        assert len(set(COLUMNS[table])) == len(COLUMNS[table])
        own = set(COLUMNS[table]) - (set(KEY_COLUMNS) if columns.keyed else set())
        assert _buffered(columns) == own, table  # no column missing, none extra
        if columns.keyed:
            assert set(KEY_COLUMNS) - {"scale"} <= set(COLUMNS[table])
            assert ("scale" in COLUMNS[table]) == (table != "findings")


def test_a_hand_that_fails_half_way_leaves_no_row():
    """add_hand is all or nothing: a failure while building a row takes the hand's rows back."""
    book = load_rulebook("tda-2026", [])
    good = audit_chunk(Chunk("t.phh", "", 0, HAND.encode(), 1), book)
    buf = ReportBuffer()
    rows.add_hand(buf, good)
    counts = [t.count() for t in buf.tables]

    class Broken:
        def __getattr__(self, name):
            if name == "replay":
                raise RuntimeError("broken")
            return getattr(good, name)

    with pytest.raises(RuntimeError):
        rows.add_hand(buf, Broken())  # fails after the findings, pots and hands rows
    assert [t.count() for t in buf.tables] == counts
    rows.add_hand(buf, good)
    assert [t.count() for t in buf.tables] == [2 * c for c in counts]
    assert buf.actions.keys.ends.values() == [counts[1], 2 * counts[1]]


def test_every_row_of_a_hand_has_its_tables_column_count():
    book = load_rulebook("tda-2026", [])
    report = audit_chunk(Chunk("t.phh", "", 0, HAND.encode(), 1), book)
    tables = rows.hand_rows(report)
    assert tuple(tables) == TABLE_NAMES
    assert all(tables[t] for t in TABLE_NAMES)  # one row at least in every table
    for table, table_rows in tables.items():
        for row in table_rows:
            assert len(row) == len(COLUMNS[table]) == len(schema(table))
    first = dict(zip(COLUMNS["hands"], tables["hands"][0], strict=True))
    assert (first["source"], first["hand_index"], first["status"]) == ("t.phh", 0, "invalid")
    assert (first["variant"], first["players"], first["scale"], first["currency"]) == ("NT", 3, 2, None)
    player = dict(zip(COLUMNS["players"], tables["players"][2], strict=True))
    assert (player["player"], player["name"], player["seat"], player["starting_stack"]) == (3, "c", 3, 500)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(UNKNOWN, 51), max_size=12), min_size=1, max_size=40))
def test_the_cards_text_is_the_cards_whatever_was_asked_before(hands):
    """The text of a few cards (put together from shared strings and pairs) is each card's text
    one after another, whatever came before: unknown cards and lists of every length included."""
    for cards in hands + hands[::-1]:
        assert cards_text(tuple(cards)) == cards_text(cards) == _plain(cards), cards


def test_cards_that_differ_only_by_leading_unknowns_have_texts_of_their_own():
    for cards in [(), (UNKNOWN,), (UNKNOWN, UNKNOWN), (0,), (UNKNOWN, 0), (UNKNOWN, UNKNOWN, 0), (51,) * 9,
                  (UNKNOWN,) + (51,) * 9, (0,), (UNKNOWN, 0), ()]:
        assert cards_text(cards) == _plain(cards), cards


def _plain(cards) -> str:
    return "".join(card_text(c) for c in cards)

"""The report's columns by name: the row builders, the schema and every row agree on one list.

:data:`handaudit.reports.columns.COLUMNS` is the order; each table's row builder in
:mod:`handaudit.reports.rows` takes exactly those names (keyword-only) and returns them in that
order, the schema lists them in that order, and every row of real hands has that many values.
"""

from __future__ import annotations

import pytest

from handaudit.grammar.chunk import Chunk
from handaudit.reports import rows
from handaudit.reports.columns import COLUMNS
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.schema import TABLES, schema
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_chunk

BUILDERS = {"hands": rows.hands_row, "actions": rows.action_row, "findings": rows.finding_row,
            "pots": rows.pot_row, "players": rows.player_row}

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


def test_every_table_has_a_builder_and_its_columns_in_the_schema():
    assert tuple(COLUMNS) == TABLE_NAMES == tuple(BUILDERS) == tuple(TABLES)
    for table in TABLE_NAMES:
        assert tuple(c.name for c in TABLES[table]) == COLUMNS[table]
        assert tuple(schema(table).names) == COLUMNS[table]
        assert len(set(COLUMNS[table])) == len(COLUMNS[table])


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_each_builder_puts_each_value_under_its_column(table):
    """Called with each column's name as its value, a builder returns the column names in order:
    it takes exactly the table's columns, and puts each where the schema has it."""
    names = COLUMNS[table]
    assert BUILDERS[table](**{n: n for n in names}) == names
    with pytest.raises(TypeError):
        BUILDERS[table](*names)  # keyword-only: no value is placed by its position


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

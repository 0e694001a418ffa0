"""Compare two Parquet reports table by table: the same schema and the same rows, in order.

    python benchmarks/same_tables.py BEFORE_DIR AFTER_DIR

A speed change to the Parquet path must leave the tables' contents unchanged (the files may
differ: compression, encodings, row-group sizes). Both reports are read with
``handaudit.reports.parquet.read_table`` (every part, in part-name order) and compared with
``pyarrow.Table.equals`` (types, nulls and values; the schema's key/value metadata is not
compared, since it carries the run's version). Exit status 0 when every table is equal.
"""

from __future__ import annotations

import sys


def compare(before: str, after: str) -> list[str]:
    """The tables that differ, each with a line saying how (empty: all equal)."""
    from handaudit.reports.layout import TABLE_NAMES
    from handaudit.reports.parquet import read_table

    problems = []
    for table in TABLE_NAMES:
        a, b = read_table(before, table), read_table(after, table)
        if a.schema.remove_metadata() != b.schema.remove_metadata():
            problems.append(f"{table}: schemas differ:\n{a.schema}\n---\n{b.schema}")
        elif a.num_rows != b.num_rows:
            problems.append(f"{table}: {a.num_rows} rows against {b.num_rows}")
        elif not a.equals(b):
            for name in a.column_names:
                if not a[name].equals(b[name]):
                    problems.append(f"{table}: column {name} differs")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = compare(*argv)
    for line in problems:
        print(line)
    if not problems:
        print("every table equal")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

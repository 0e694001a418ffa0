"""Compare two Parquet reports table by table: the same schema and the same rows, in order.

    python benchmarks/same_tables.py BEFORE_DIR AFTER_DIR

A speed change to the Parquet path must leave the tables' contents unchanged (the files may
differ: compression, encodings, row-group sizes). Both reports are read with
``handaudit.reports.parquet.read_table`` (every part, in part-name order) and compared with
``pyarrow.Table.equals`` (types, nulls and values; the schema's key/value metadata is not
compared, since it carries the run's version). Exit status 0 when every table is equal (their
rows are counted, so that an empty comparison shows), 2 when a directory is not a finished report
(two missing reports would otherwise read as equal empty tables).
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
    import os

    from handaudit.reports.layout import MANIFEST, TABLE_NAMES
    from handaudit.reports.parquet import read_table

    # two missing (or unfinished) reports read as empty tables, which compare equal: refused
    unfinished = [d for d in argv if not os.path.isfile(os.path.join(d, MANIFEST))]
    if unfinished:
        print(f"not a finished report (no {MANIFEST}): {', '.join(unfinished)}", file=sys.stderr)
        return 2
    problems = compare(*argv)
    for line in problems:
        print(line)
    if not problems:
        rows = ", ".join(f"{t} {read_table(argv[0], t).num_rows:,}" for t in TABLE_NAMES)
        print(f"every table equal ({rows} rows)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

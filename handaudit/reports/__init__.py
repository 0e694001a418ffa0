"""The reports room: the text summary, JSON Lines, and the Parquet audit report.

- :mod:`.schema`: the five Parquet tables, every column's type and meaning.
- :mod:`.parquet`: the per-worker writer, and readers (:func:`to_dataframes`, :func:`read_table`).
- :mod:`.jsonl`: one contract object per hand, amounts as exact decimals.
- :mod:`.text`: the run summary and the progress display.
"""

from __future__ import annotations

TABLE_NAMES = ("hands", "actions", "findings", "pots", "players")


def to_dataframes(out_dir, tables=TABLE_NAMES) -> dict:
    """Every table of a Parquet report as a pandas DataFrame: ``{"hands": df, "actions": df, ...}``.

    Amounts are pandas nullable ``Int64`` minor units (exact; see each row's ``scale``).
    """
    from .parquet import to_dataframes as _to_dataframes

    return _to_dataframes(out_dir, tables)


def read_table(out_dir, table: str, columns=None):
    """One table of a Parquet report as a ``pyarrow.Table``."""
    from .parquet import read_table as _read_table

    return _read_table(out_dir, table, columns)


def __getattr__(name):
    if name == "TABLES":  # imported lazily: `python -m handaudit.reports.schema` runs that module
        from .schema import TABLES

        return TABLES
    raise AttributeError(name)


__all__ = ["TABLE_NAMES", "TABLES", "read_table", "to_dataframes"]

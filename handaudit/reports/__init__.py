"""The reports room: everything written about an audit, and the report directory.

- :mod:`.hand_report`: the report of one hand (:class:`HandReport`), the value the writers render.
- :mod:`.layout`: the report directory (tables, parts, manifest, lock).
- :mod:`.schema`: the five Parquet tables, every column's type and meaning.
- :mod:`.rows`: each hand's table rows; :mod:`.parquet`: the per-worker writer and the readers.
- :mod:`.jsonl`: one contract object per hand, amounts as exact decimals.
- :mod:`.summary`, :mod:`.text`: the run's counts, the run summary and the progress display.
- :mod:`.explain`, :mod:`.ledger`: the action-by-action replay and the settlement ledger, as text.
- :mod:`.subsets`: the clean subsets (``--write-valid``, ``--write-invalid``).
"""

from __future__ import annotations

from .layout import TABLE_NAMES


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

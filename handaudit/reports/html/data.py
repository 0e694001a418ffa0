"""Reading a Parquet report for the HTML report: whole tables as Arrow datasets (columns read
only when asked, nothing turned into Python objects), and the rows of a few hands as dicts.

A column is used only if the report's files have it (``columns(...)``): a report written before a
column was added still renders, without what needs that column.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from ..layout import OutputError, part_files
from ..schema import schema

# Repeated strings read as dictionaries: a million-row `source` column then costs its codes.
_DICTIONARY = ("source", "hand_key", "variant", "status", "payout_check", "rake_check", "currency",
               "code", "severity", "street", "kind", "actor", "rulebook", "venue", "rule")

Key = tuple[str, int]  # (source, hand_index): a hand of the report


class Report:
    """The five tables of one report directory, opened lazily as datasets."""

    def __init__(self, directory: str | os.PathLike):
        self.directory = os.fspath(directory)
        self._sets: dict[str, ds.Dataset | None] = {}

    def dataset(self, table: str) -> ds.Dataset | None:
        """The table's part files as one dataset (None when it has none)."""
        if table not in self._sets:
            files = [str(p) for p in part_files(self.directory, table)]
            if not files:
                self._sets[table] = None
            else:
                fmt = ds.ParquetFileFormat(read_options=ds.ParquetReadOptions(
                    dictionary_columns=set(_DICTIONARY)))
                try:
                    self._sets[table] = ds.dataset(files, format=fmt)
                except (OSError, pa.ArrowException) as err:
                    raise OutputError(f"cannot read {self.directory}/{table}: {' '.join(str(err).split())}") from None
        return self._sets[table]

    def columns(self, table: str) -> list[str]:
        """The columns the report's files have (this version's schema when the table is empty)."""
        d = self.dataset(table)
        return d.schema.names if d is not None else schema(table).names

    def has(self, table: str, column: str) -> bool:
        return column in self.columns(table)

    def read(self, table: str, columns: Iterable[str], where: pc.Expression | None = None) -> pa.Table:
        """The given columns (those present) of every row (matching ``where``)."""
        wanted = [c for c in columns if self.has(table, c)]
        d = self.dataset(table)
        if d is None:
            sch = schema(table)
            return pa.schema([sch.field(c) for c in wanted]).empty_table()
        try:
            t = d.to_table(columns=wanted, filter=where)
        except (OSError, pa.ArrowException) as err:
            raise OutputError(f"cannot read {self.directory}/{table}: {' '.join(str(err).split())}") from None
        return t

    def rows_of(self, table: str, keys: list[Key]) -> dict[Key, list[dict]]:
        """Every row of ``table`` (all its columns) for each of ``keys``, as dicts, in file order."""
        out: dict[Key, list[dict]] = {k: [] for k in keys}
        if not keys:
            return out
        # hand_index first: an integer test on every row, then the exact (source, hand_index) below
        where = pc.field("hand_index").isin(pa.array(sorted({k[1] for k in keys}), pa.int64()))
        t = plain(self.read(table, self.columns(table), where))
        for row in t.to_pylist():
            key = (row["source"], row["hand_index"])
            if key in out:
                out[key].append(row)
        return out


def plain(t: pa.Table) -> pa.Table:
    """Dictionary columns decoded back to their value type (small tables only)."""
    cols = []
    for col in t.columns:
        cols.append(col.cast(col.type.value_type) if pa.types.is_dictionary(col.type) else col)
    return pa.table(cols, names=t.column_names)

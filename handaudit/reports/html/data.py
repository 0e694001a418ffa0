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
import pyarrow.parquet as pq

from ..layout import OutputError, part_files
from ..schema import schema

# Repeated strings read as dictionaries: a million-row `source` column then costs its codes.
_DICTIONARY = ("source", "hand_key", "variant", "status", "payout_check", "rake_check", "currency", "currency_symbol",
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
        return t.unify_dictionaries()  # one dictionary per column across parts: group_by needs it

    def rows_of(self, table: str, keys: list[Key]) -> dict[Key, list[dict]]:
        """Every row of ``table`` (all its columns) for each of ``keys``, as dicts, in file order."""
        out: dict[Key, list[dict]] = {k: [] for k in keys}
        if not keys:
            return out
        for t in self._row_groups_with(table, sorted({k[1] for k in keys})):
            for row in plain(t).to_pylist():
                key = (row["source"], row["hand_index"])
                if key in out:
                    out[key].append(row)
        return out

    def _row_groups_with(self, table: str, indexes: list[int]):
        """The rows whose ``hand_index`` is one of ``indexes``, row group by row group: a group
        whose statistics exclude them is skipped, the others are tested on their ``hand_index``
        column alone and read whole only when one matches (a scan of every column of a
        20-million-row actions table took 16 s; this reads the few groups that hold the hands)."""
        wanted = pa.array(indexes, pa.int64())
        low, high = indexes[0], indexes[-1]
        for path in part_files(self.directory, table):
            try:
                names = set(pq.read_schema(path).names)
                pf = pq.ParquetFile(path, read_dictionary=[c for c in _DICTIONARY if c in names])
                at = pf.schema_arrow.get_field_index("hand_index")
                for g in range(pf.num_row_groups):
                    stats = pf.metadata.row_group(g).column(at).statistics
                    if stats is not None and stats.has_min_max and (stats.max < low or stats.min > high):
                        continue
                    mask = pc.is_in(pf.read_row_group(g, columns=["hand_index"])["hand_index"], value_set=wanted)
                    if pc.any(mask).as_py():
                        yield pf.read_row_group(g).filter(mask)
            except (OSError, pa.ArrowException) as err:
                raise OutputError(f"cannot read {path}: {' '.join(str(err).split())}") from None


def plain(t: pa.Table) -> pa.Table:
    """Dictionary columns decoded back to their value type (small tables only)."""
    cols = []
    for col in t.columns:
        cols.append(col.cast(col.type.value_type) if pa.types.is_dictionary(col.type) else col)
    return pa.table(cols, names=t.column_names)

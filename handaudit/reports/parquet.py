"""Write and read the Parquet audit report.

A worker (process) owns one :class:`ReportWriter`: for each table it buffers rows, turns them
into an Arrow record batch every ``batch_rows`` rows, and writes the batches to its current part
file as row groups of ``group_rows`` rows. A part is written under a hidden temporary name and renamed to
``<table>/part-<worker>-<seq>.parquet`` once its footer is written (after ``part_rows`` rows, or
when the worker closes), so a visible part file is always whole. The parent process never holds
rows: it prepares the directory, and at the end writes ``_manifest.json`` and ``_SUCCESS``.

Column definitions and meanings: :mod:`handaudit.reports.schema`.
"""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from . import (  # noqa: F401  (the report directory's layout: light, shared with the parent)
    MANIFEST,
    PART_PREFIX,
    SUCCESS,
    TMP_PREFIX,
    TMP_SUFFIX,
    is_report,
    part_files,
    prepare_dir,
    read_manifest,
    remove_temporaries,
    write_manifest,
)
from .rows import hand_rows  # noqa: F401  (re-exported: the rows this module writes)
from .schema import TABLE_NAMES, schema

DEFAULT_BATCH_ROWS = 8_192  # rows per Arrow record batch (Python values buffered until then)
DEFAULT_GROUP_ROWS = 65_536  # rows per Parquet row group
DEFAULT_PART_ROWS = 2_000_000  # rows per part file (then the next part is started)
COMPRESSION = os.environ.get("HANDAUDIT_PARQUET_COMPRESSION", "zstd")


# ---------------------------------------------------------------------------------------------
# amounts


def units(value, scale: int) -> int | None:
    """A JSON amount (int or exact Decimal, in chips/currency) back to minor units."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value * 10**scale if scale else value
    if isinstance(value, Decimal):
        scaled = value.scaleb(scale)
        as_int = int(scaled)
        if as_int != scaled:
            raise ValueError(f"amount {value} has more than {scale} decimal places")
        return as_int
    raise TypeError(f"not an exact amount: {value!r}")


def _units_list(values, scale: int, n: int) -> list:
    if values is None:
        return [None] * n
    return [units(v, scale) for v in values]


# ---------------------------------------------------------------------------------------------
# writing


class _TableWriter:
    """The part files of one table written by one worker.

    Rows are buffered column-wise as Python values and turned into an Arrow record batch every
    ``batch_rows`` rows (Arrow holds them far more compactly than Python objects); record batches
    are collected and written as one Parquet row group of at least ``group_rows`` rows.
    """

    def __init__(self, directory: Path, table: str, worker: int, batch_rows: int, part_rows: int,
                 metadata: dict, group_rows: int):
        self.dir = directory / table
        self.table = table
        self.schema = schema(table).with_metadata({**schema(table).metadata, **metadata})
        self.worker = worker
        self.batch_rows = batch_rows
        self.group_rows = max(group_rows, batch_rows)
        self.part_rows = part_rows
        # Column-wise: lists of ints and strings are cheap for the garbage collector (row tuples
        # kept alive by the thousand make every full collection slow).
        self.columns: list[list] = [[] for _ in self.schema]
        self.buffered = 0
        self.batches: list[pa.RecordBatch] = []
        self.batched = 0
        self.writer: pq.ParquetWriter | None = None
        self.tmp: Path | None = None
        self.final: Path | None = None
        self.seq = 0
        self.in_part = 0
        self.files: list[tuple[str, int]] = []

    def extend(self, rows: list[tuple]) -> None:
        if rows:
            for column, values in zip(self.columns, zip(*rows)):
                column.extend(values)
            self.buffered += len(rows)
            if self.buffered >= self.batch_rows:
                self._to_arrow()
                if self.batched >= self.group_rows or self.in_part + self.batched >= self.part_rows:
                    self.flush()

    def _to_arrow(self) -> None:
        if not self.buffered:
            return
        columns, self.columns, self.buffered = self.columns, [[] for _ in self.schema], 0
        arrays = [pa.array(col, type=field.type) for col, field in zip(columns, self.schema)]
        del columns
        batch = pa.RecordBatch.from_arrays(arrays, schema=self.schema)
        self.batches.append(batch)
        self.batched += batch.num_rows

    def flush(self) -> None:
        """Write everything buffered as one row group."""
        self._to_arrow()
        if not self.batched:
            return
        table = pa.Table.from_batches(self.batches, schema=self.schema)
        self.batches, self.batched = [], 0
        if self.writer is None:
            name = f"{self.worker}-{self.seq:05d}"
            self.tmp = self.dir / f"{TMP_PREFIX}{name}{TMP_SUFFIX}"
            self.final = self.dir / f"{PART_PREFIX}{name}.parquet"
            self.seq += 1
            self.writer = pq.ParquetWriter(str(self.tmp), self.schema, compression=COMPRESSION)
        self.writer.write_table(table, row_group_size=table.num_rows)
        self.in_part += table.num_rows
        del table
        if self.in_part >= self.part_rows:
            self._finish_part()

    def _finish_part(self) -> None:
        assert self.writer is not None and self.tmp is not None and self.final is not None
        self.writer.close()
        os.replace(self.tmp, self.final)
        self.files.append((self.final.name, self.in_part))
        self.writer, self.tmp, self.final, self.in_part = None, None, None, 0

    def close(self) -> list[tuple[str, int]]:
        self.flush()
        if self.writer is not None:
            self._finish_part()
        return self.files

    def abort(self) -> None:
        self.columns, self.buffered, self.batches, self.batched = [[] for _ in self.schema], 0, [], 0
        if self.writer is not None:
            try:
                self.writer.close()
            except Exception:
                pass
            self.writer = None
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


class ReportWriter:
    """One worker's writer of all five tables (see the module docstring)."""

    def __init__(self, out_dir: str | os.PathLike, worker: int, *, batch_rows: int = DEFAULT_BATCH_ROWS,
                 part_rows: int = DEFAULT_PART_ROWS, group_rows: int = DEFAULT_GROUP_ROWS,
                 metadata: dict | None = None):
        directory = Path(out_dir)
        meta = {k: str(v) for k, v in (metadata or {}).items()}
        self.tables = {t: _TableWriter(directory, t, worker, batch_rows, part_rows, meta, group_rows)
                       for t in TABLE_NAMES}

    def add(self, report) -> None:
        self.add_rows(hand_rows(report))

    def add_rows(self, rows: dict[str, list[tuple]]) -> None:
        for table, table_rows in rows.items():
            self.tables[table].extend(table_rows)

    def close(self) -> dict[str, list[tuple[str, int]]]:
        return {t: w.close() for t, w in self.tables.items()}

    def abort(self) -> None:
        for w in self.tables.values():
            w.abort()


# ---------------------------------------------------------------------------------------------
# the report directory (parent side)


def count_rows(out_dir: str | os.PathLike) -> dict[str, dict]:
    """Rows and files of each table, from the part files' footers (cheap)."""
    out = {}
    for table in TABLE_NAMES:
        files = part_files(out_dir, table)
        out[table] = {"files": len(files), "rows": sum(pq.ParquetFile(f).metadata.num_rows for f in files)}
    return out


def write_empty_parts(out_dir: str | os.PathLike, metadata: dict | None = None) -> None:
    """Give a table with no part file one empty part, so that every table reads (with its schema)."""
    meta = {k: str(v) for k, v in (metadata or {}).items()}
    for table in TABLE_NAMES:
        if not part_files(out_dir, table):
            sch = schema(table).with_metadata({**schema(table).metadata, **meta})
            tdir = Path(out_dir) / table
            tmp = tdir / f"{TMP_PREFIX}empty{TMP_SUFFIX}"
            pq.write_table(sch.empty_table(), str(tmp), compression=COMPRESSION)
            os.replace(tmp, tdir / f"{PART_PREFIX}empty.parquet")


def read_table(out_dir: str | os.PathLike, table: str, columns: list[str] | None = None) -> pa.Table:
    """One report table as an Arrow table (all its part files; the schema of this version)."""
    if table not in TABLE_NAMES:
        raise ValueError(f"unknown table {table!r}; the report has {', '.join(TABLE_NAMES)}")
    files = part_files(out_dir, table)
    sch = schema(table)
    if columns is not None:
        sch = pa.schema([sch.field(c) for c in columns], metadata=sch.metadata)
    if not files:
        return sch.empty_table()
    tables = [pq.read_table(f, columns=columns).replace_schema_metadata(sch.metadata) for f in files]
    return pa.concat_tables(tables, promote_options="default")


def to_dataframes(out_dir: str | os.PathLike, tables: list[str] | tuple[str, ...] = TABLE_NAMES) -> dict:
    """Every table of a report as a pandas DataFrame: ``{"hands": df, "actions": df, ...}``.

    Amount columns are pandas nullable ``Int64`` (exact minor units; see the ``scale`` column),
    so null stays null and no amount becomes a float.
    """

    out = {}
    for table in tables:
        t = read_table(out_dir, table)
        out[table] = t.to_pandas(types_mapper=_pandas_type, ignore_metadata=True)
    return out


def _pandas_type(t: pa.DataType):
    import pandas as pd

    mapping = {
        pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(),
        pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype(), pa.string(): pd.StringDtype(),
    }
    return mapping.get(t)

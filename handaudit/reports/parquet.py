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
from array import array
from decimal import Decimal
from pathlib import Path
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .layout import (  # noqa: F401  (the report directory's layout: light, shared with the parent)
    LOCK,
    MANIFEST,
    PART_PREFIX,
    SUCCESS,
    TABLE_NAMES,
    TMP_PREFIX,
    TMP_SUFFIX,
    OutputError,
    ReportDir,
    cannot,
    is_report,
    part_files,
    prepare_dir,
    read_manifest,
    reason,
    remove_temporaries,
    write_manifest,
)
from .columns import AWARD_FIELDS
from .buffer import KEY_COLUMNS, AwardLists, Column, Flags, IntLists, ReportBuffer, Strings, Table, Texts
from .rows import add_hand, hand_rows  # noqa: F401  (re-exported: the rows this module writes)
from .schema import schema, stamped_metadata

DEFAULT_BATCH_ROWS = 8_192  # rows per Arrow record batch (Python values buffered until then)
DEFAULT_GROUP_ROWS = 65_536  # rows per Parquet row group
DEFAULT_PART_ROWS = 2_000_000  # rows per part file (then the next part is started)
# snappy: some 30% fewer instructions a hand than zstd to write, files about a quarter larger
# (docs/performance.md, "The Parquet path"); HANDAUDIT_PARQUET_COMPRESSION=zstd for smaller ones.
COMPRESSION = os.environ.get("HANDAUDIT_PARQUET_COMPRESSION", "snappy")
# Parquet writes a part in small pieces (a page header, a column chunk's metadata) and large ones
# (pages); SINK_BUFFER bytes gathered in Arrow make the small ones one call into Python's file,
# whose own buffer is small: the gathered bytes and the large pages go through it whole. (16 KB
# saves as many calls as 1 MB did; 1 MB buffers raised a 100,000-hand run's peak RSS by 10 MB.)
SINK_BUFFER = 1 << 14
_FILE_BUFFER = 1 << 13


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

    Rows are buffered column-wise in compiled code (:class:`~handaudit.reports.buffer.Table`:
    string columns as dictionary codes) and turned into Arrow arrays every ``batch_rows`` rows
    (Arrow holds them far more compactly than Python objects); the batches are written as one
    Parquet row group of at least ``group_rows`` rows, each string column as one dictionary array
    (the dictionary of the whole row group: Parquet's dictionary pages are written from it
    directly). A part is finished (footer written, renamed to its final name) only by
    :meth:`finish_part`, which the :class:`ReportWriter` calls for all tables at once, between batches.
    """

    def __init__(self, report: ReportDir, table: str, name: str, buffer: Table, part_rows: int,
                 metadata: dict, group_rows: int):
        self.report = report
        self.table = table
        self.metadata = stamped_metadata(table, metadata)  # (written as the footer's key/value metadata)
        self.plan = plan = _plan(table)
        self.fields = fields = plan.fields
        self.types = plan.types
        self.name = name
        self.buffer = buffer
        # where each column is buffered: the table's attribute, or (keyed tables) the hand's key;
        # the column objects stay the same for the writer's life (taking rows truncates them)
        self.sources = [buffer.keys if buffer.keyed and f.name in KEY_COLUMNS else buffer for f in fields]
        self.columns = [getattr(source, f.name) for f, source in zip(fields, self.sources, strict=True)]
        layout = plan.layout(self.columns)
        if layout is None:  # the buffer's columns and the schema are written apart: never wrap one as the other
            misfits = [f.name for f, column in zip(fields, self.columns, strict=True) if not fits(column, f)]
            raise TypeError(f"{table}: buffered columns not of their schema type: {', '.join(misfits)}")
        self.coded = layout.coded
        self.write_schema = layout.schema  # (its metadata is not written: the part stores no Arrow schema)
        self.write_types = layout.types
        self.group_rows = group_rows
        self.part_rows = part_rows
        self.batches: list[list] = []  # per batch, per column: an array (string columns: int32 codes)
        self.batched = 0
        self.writer: pq.ParquetWriter | None = None
        self.file = None  # the part's file, and the stream that buffers Parquet's many small writes to it
        self.sink: pa.NativeFile | None = None
        self.tmp: str | None = None
        self.final: str | None = None
        self.seq = 0
        self.in_part = 0
        self.files: list[tuple[str, int]] = []

    def to_arrow(self) -> None:
        """Take the buffered rows as one batch of Arrow arrays; write a row group when due."""
        self._take_batch()
        if self.batched >= self.group_rows or self.in_part + self.batched >= self.part_rows:
            self.flush()

    def _take_batch(self) -> None:
        buffer = self.buffer
        n = buffer.rows
        if not n:
            return
        ends = _wrap(buffer.keys.ends, _RUN_ENDS.type) if buffer.keyed else None
        arrays = []
        for kind, source, column in zip(self.types, self.sources, self.columns, strict=True):
            array = _wrap(column, kind)
            if source is not buffer:  # one value per hand: repeated over the hand's rows
                array = _repeat(ends, array, n)
            arrays.append(array)
        buffer.reset()
        self.batches.append(arrays)
        self.batched += n

    @property
    def due(self) -> bool:
        """The current part has reached ``part_rows`` (with what is buffered)."""
        return self.in_part + self.batched + self.buffer.rows >= self.part_rows

    def flush(self) -> None:
        """Write everything buffered as one row group."""
        self._take_batch()
        if not self.batched:
            return
        columns: list[pa.Array | pa.ChunkedArray] = []
        batches = self.batches
        for i, (field, column) in enumerate(zip(self.fields, self.columns, strict=True)):
            chunks = [batch[i] for batch in batches]
            if field.name in self.coded:  # the row group's dictionary: every batch's codes index it
                words = _words(column.take_words())
                chunks = [pa.DictionaryArray.from_arrays(c, words) for c in chunks]
            # (one batch, as in every run of fewer than batch_rows rows a table: the array itself)
            columns.append(chunks[0] if len(chunks) == 1 else pa.chunked_array(chunks, type=self.write_types[i]))
        table = pa.Table.from_arrays(columns, schema=self.write_schema)
        self.batches, self.batched = [], 0
        try:
            if self.writer is None:
                name = f"{self.name}-{self.seq:05d}"
                self.final = f"{PART_PREFIX}{name}.parquet"
                tmp = f"{TMP_PREFIX}{name}{TMP_SUFFIX}"
                self.seq += 1
                self.file = self.report.create(self.table, tmp, buffering=_FILE_BUFFER)  # refused if anything is in the way
                self.tmp = tmp  # ours: abort() removes it (the run's end removes any other of its temporaries)
                # (the small pieces gathered in Arrow: see SINK_BUFFER)
                self.sink = pa.BufferedOutputStream(pa.PythonFile(self.file, mode="w"), SINK_BUFFER)
                self.writer = pq.ParquetWriter(self.sink, self.write_schema, compression=COMPRESSION,
                                               store_schema=False, write_statistics=self.plan.statistics,
                                               use_dictionary=self.plan.dictionary)
                self.writer.add_key_value_metadata(self.metadata)
            self.writer.write_table(table, row_group_size=table.num_rows)
        except OSError as err:
            raise cannot("write", self.report.where(self.table, self.tmp or self.final), err) from None
        self.in_part += table.num_rows

    def finish_part(self) -> list[tuple[str, int]]:
        """Write what is buffered, close the current part and give it its final name; the parts
        finished (none or one)."""
        self.flush()
        if self.writer is None:
            return []
        assert self.tmp is not None and self.final is not None and self.sink is not None
        try:
            self.writer.close()
            self.sink.close()  # writes what it buffered, and closes the file
        except OSError as err:
            raise cannot("write", self.report.where(self.table, self.tmp), err) from None
        self.writer, self.sink, self.file = None, None, None
        self.report.rename(self.table, self.tmp, self.final)
        done = (self.final, self.in_part)
        self.files.append(done)
        self.tmp, self.final, self.in_part = None, None, 0
        return [done]

    def abort(self) -> None:
        self.buffer.reset()
        for field, column in zip(self.fields, self.columns, strict=True):
            if field.name in self.coded:
                column.take_words()
        self.batches, self.batched = [], 0
        for closing in (self.writer, self.sink, self.file):
            if closing is not None:
                try:
                    closing.close()
                except Exception:
                    pass
        self.writer, self.sink, self.file = None, None, None
        if self.tmp is not None:
            try:
                self.report.unlink(self.table, self.tmp)
            except (OSError, OutputError):
                pass
            self.tmp = None


def is_string(field: pa.Field) -> bool:
    return field.type == pa.string()


class _Plan:
    """What a table's writers need of its schema, worked out once a process: pyarrow makes a
    new Field and DataType object each time one is asked for (some 100 columns, a few asks each,
    at every run's start), and the answers never change."""

    def __init__(self, table: str) -> None:
        self.table = table
        sch = schema(table)
        self.fields = fields = list(sch)
        self.types = [f.type for f in fields]
        strings = [is_string(f) for f in fields]
        # statistics (min/max) and dictionary pages where they pay: the numbers' statistics are
        # cheap and let readers skip row groups; a string's cost some 20 ns a value. The coded
        # strings arrive dictionary-encoded, the plain ones Parquet hashes itself (files some 3%
        # smaller than without, for under 1% of the time); dictionary pages for ints cost more
        # than they save here.
        self.statistics = [f.name for f, string in zip(fields, strings, strict=True) if not string]
        self.dictionary = [f.name for f, string in zip(fields, strings, strict=True) if string]
        self.layouts: dict[tuple[type, ...], _Layout] = {}

    def layout(self, columns: list) -> _Layout | None:
        """How a buffer with these columns is written; None if one does not hold its field's type
        (:func:`fits`). Decided once per sequence of column classes: a buffer column's class says
        what it holds (its width, its items, codes or text)."""
        classes = tuple(type(c) for c in columns)
        layout = self.layouts.get(classes)
        if layout is None:
            if not all(fits(c, f) for c, f in zip(columns, self.fields, strict=True)):
                return None
            layout = self.layouts[classes] = _Layout(self.table, columns)
        return layout


class _Layout:
    """A table as written from one kind of buffer: its string columns held as dictionary codes
    (the others are Texts, or lists), the write schema (see :func:`write_schema`; without a run's
    metadata) and its columns' types."""

    def __init__(self, table: str, columns: list) -> None:
        sch = schema(table)
        self.coded = {f.name for f, column in zip(sch, columns, strict=True) if isinstance(column, Strings)}
        self.schema = write_schema(sch, self.coded)
        self.types = [f.type for f in self.schema]


_PLANS: dict[str, _Plan] = {}


def _plan(table: str) -> _Plan:
    plan = _PLANS.get(table)
    if plan is None:
        plan = _PLANS[table] = _Plan(table)
    return plan


def write_schema(sch: pa.Schema, coded: set[str]) -> pa.Schema:
    """The schema as written: each ``coded`` column a dictionary of strings (read back as strings:
    the parts do not store the Arrow schema, so readers take the Parquet types, string included)."""
    return pa.schema([pa.field(f.name, pa.dictionary(pa.int32(), pa.string()), f.nullable) if f.name in coded else f
                      for f in sch], metadata=sch.metadata)


_RUN_ENDS = pa.field("ends", pa.int32(), nullable=False)


def _repeat(ends: pa.Array, values: pa.Array, n: int) -> pa.Array:
    """``values[k]`` repeated up to row ``ends[k]``: run-end decoding. (Built from buffers:
    ``RunEndEncodedArray.from_arrays`` imports pandas to check its arguments.)"""
    runs = pa.Array.from_buffers(pa.run_end_encoded(pa.int32(), values.type), n, [None], children=[ends, values])
    return pc.run_end_decode(runs)


def _array(column, field: pa.Field) -> pa.Array:
    """A buffered :class:`~handaudit.reports.buffer.Column` as an Arrow array of ``field``'s type,
    wrapped from its bytes as they are (numbers, flags, a string column's int32 codes, the offsets
    and text of strings that rarely repeat, the offsets and items of lists)."""
    return _wrap(column, field.type)


def _wrap(column, kind: pa.DataType) -> pa.Array:
    """:func:`_array` given the field's type (pyarrow makes a new type object each time a field is
    asked for its own)."""
    if isinstance(column, Texts):
        return _texts(column)
    if isinstance(column, (IntLists, AwardLists)):  # offsets and validity as they are, the items apart
        offsets, valid, nulls, n = column.buffers()
        return pa.Array.from_buffers(kind, n, [None if valid is None else pa.py_buffer(valid),
                                               pa.py_buffer(offsets)],
                                     null_count=nulls, children=[_items(column, kind.value_field)])
    data, valid, nulls, n = column.buffers()
    if isinstance(column, Strings):
        kind = _CODES
    return pa.Array.from_buffers(kind, n, [None if valid is None else pa.py_buffer(valid), pa.py_buffer(data)],
                                 null_count=nulls)


_CODES = pa.int32()


def _words(words: list) -> pa.Array:
    """A string column's dictionary as an Arrow string array: wrapped from the words' text and
    offsets when they are ASCII (nearly always: a street, a variant, a code), else each word
    converted. (``pa.array`` costs several times ``from_buffers`` for a few words.)"""
    text = "".join(words)
    if not text.isascii() or len(text) > _MAX_OFFSET:
        return pa.array(words, type=pa.string())
    offsets = array("i", [0])
    end = 0
    for word in words:
        end += len(word)
        offsets.append(end)
    return _ascii_strings(len(words), offsets, text, None, 0)


_MAX_OFFSET = (1 << 31) - 1


def _items(column: IntLists | AwardLists, item: pa.Field) -> pa.Array:
    """The items of a list column: a column of integers, or a struct of a column per field."""
    if isinstance(column, IntLists):
        return _array(column.items, item)
    fields = _struct_fields(item.type)
    return pa.StructArray.from_arrays([_array(getattr(column, f.name), f) for f in fields], fields=fields)


def _struct_fields(kind: pa.DataType) -> list[pa.Field]:
    return [kind.field(i) for i in range(kind.num_fields)]


def _texts(column: Texts) -> pa.Array:
    """A :class:`~handaudit.reports.buffer.Texts` column as an Arrow string array: its offsets and
    its text, wrapped as they are when the text is ASCII (its offsets count code points, which are
    then its UTF-8 bytes); otherwise each value converted."""
    text = column.text()
    if not text.isascii():
        return pa.array(column.values(), type=pa.string())
    offsets, valid, nulls, n = column.buffers()
    return _ascii_strings(n, offsets, text, valid, nulls)


def _ascii_strings(n: int, offsets, text: str, valid: bytes | None, nulls: int) -> pa.Array:
    """``n`` strings of ASCII ``text`` ending at ``offsets`` (int32, counted in characters, which
    are then UTF-8 bytes), wrapped as they are."""
    return pa.Array.from_buffers(pa.string(), n, [None if valid is None else pa.py_buffer(valid),
                                                  pa.py_buffer(offsets), pa.py_buffer(text.encode("ascii"))],
                                 null_count=nulls)


def fits(column: object, field: pa.Field) -> bool:
    """The buffered column holds values of the field's type, as Arrow lays them out (a string
    column: its codes, the dictionary's indexes, or its offsets and text)."""
    if not isinstance(column, Column):
        return False
    if isinstance(column, (Strings, Texts)):
        return field.type == pa.string()
    if isinstance(column, Flags):
        return field.type == pa.bool_()
    if isinstance(column, IntLists):
        return pa.types.is_list(field.type) and fits(column.items, field.type.value_field)
    if isinstance(column, AwardLists):  # a list of structs whose fields are the award's columns, in order
        if not (pa.types.is_list(field.type) and pa.types.is_struct(field.type.value_type)):
            return False
        fields = _struct_fields(field.type.value_type)
        return tuple(f.name for f in fields) == AWARD_FIELDS and all(fits(getattr(column, f.name), f) for f in fields)
    kind = field.type
    return (pa.types.is_integer(kind) and pa.types.is_signed_integer(kind) or pa.types.is_timestamp(kind)
            or pa.types.is_date32(kind) or pa.types.is_time64(kind) and kind.unit == "us") \
        and kind.bit_width == 8 * column.width


class ReportWriter:
    """One worker's writer of all five tables (see the module docstring).

    Part names are ``part-[<run_id>-]<worker>-<seq>.parquet``: a run's parts never have another
    run's names. :meth:`commit` finishes the current part of every table at once, so that after it
    every row added so far is in a finished part (the runner commits between batches).
    """

    def __init__(self, out_dir: str | os.PathLike, worker: int | str, *, batch_rows: int = DEFAULT_BATCH_ROWS,
                 part_rows: int = DEFAULT_PART_ROWS, group_rows: int = DEFAULT_GROUP_ROWS,
                 metadata: dict | None = None, run_id: str | None = None):
        self.report = ReportDir(out_dir)
        name = f"{run_id}-{worker}" if run_id else str(worker)
        try:
            self.buffer = ReportBuffer(batch_rows)
            group_rows = max(group_rows, batch_rows)
            self.tables = {t: _TableWriter(self.report, t, name, self.buffer.tables[k], part_rows, metadata or {},
                                           group_rows)
                           for k, t in enumerate(TABLE_NAMES)}
            for t in TABLE_NAMES:
                self.report.table(t)
        except BaseException:
            self.report.close()
            raise

    def add(self, report) -> None:
        """One hand's rows (the auditing loop adds them to :attr:`buffer` itself, then calls
        :meth:`take_rows` when :func:`~handaudit.reports.rows.add_hand` says so)."""
        if add_hand(self.buffer, report):
            self.take_rows()

    def take_rows(self) -> None:
        """Turn each table's buffered rows into an Arrow batch once it has ``batch_rows`` (or a
        text column near its offsets' limit)."""
        for w in self.tables.values():
            if w.buffer.full(self.buffer.batch_rows):
                w.to_arrow()

    @property
    def due(self) -> bool:
        """Some table's current part is full: time to :meth:`commit`."""
        return any(w.due for w in self.tables.values())

    def commit(self) -> dict[str, list[tuple[str, int]]]:
        """Finish every table's current part; the parts finished now, by table."""
        return {t: w.finish_part() for t, w in self.tables.items()}

    def close(self) -> dict[str, list[tuple[str, int]]]:
        """Commit, release the directory; every part this writer finished, by table."""
        try:
            self.commit()
        except BaseException:
            self.abort()
            raise
        self.report.close()
        return {t: list(w.files) for t, w in self.tables.items()}

    def abort(self) -> None:
        for w in self.tables.values():
            w.abort()
        self.report.close()


# ---------------------------------------------------------------------------------------------
# the report directory (parent side)


def _as_report(out_dir) -> tuple[ReportDir, bool]:
    if isinstance(out_dir, ReportDir):
        return out_dir, False
    return ReportDir(out_dir), True


def count_rows(out_dir: str | os.PathLike | ReportDir, run_id: str | None = None) -> dict[str, dict]:
    """Rows and files of each table (only run ``run_id``'s parts, if given), from the part files'
    footers (cheap); each part opened without following a link."""
    report, owned = _as_report(out_dir)
    prefix = f"{PART_PREFIX}{run_id}-" if run_id else PART_PREFIX
    out = {}
    try:
        for table in TABLE_NAMES:
            names = sorted(n for n in report.names(table) if n.startswith(prefix) and n.endswith(".parquet"))
            if run_id and f"{PART_PREFIX}empty.parquet" in report.names(table):
                names.append(f"{PART_PREFIX}empty.parquet")
            rows = 0
            for name in names:
                where = report.where(table, name)
                try:
                    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=report.table(table))
                    with os.fdopen(fd, "rb") as f:
                        rows += pq.ParquetFile(f).metadata.num_rows
                except (OSError, pa.ArrowException) as err:
                    raise OutputError(f"cannot read {where}: {_read_reason(err)}") from None
            out[table] = {"files": len(names), "rows": rows}
    finally:
        if owned:
            report.close()
    return out


def write_empty_parts(out_dir: str | os.PathLike | ReportDir, metadata: dict | None = None,
                      run_id: str | None = None) -> None:
    """Give a table with no part file (of run ``run_id``, if given) one empty part, so that every
    table reads (with its schema)."""
    report, owned = _as_report(out_dir)
    prefix = f"{PART_PREFIX}{run_id}-" if run_id else PART_PREFIX
    try:
        for table in TABLE_NAMES:
            if not any(n.startswith(prefix) and n.endswith(".parquet") for n in report.names(table)):
                write_empty_part(report, table, metadata, run_id)
    finally:
        if owned:
            report.close()


def write_empty_part(report: ReportDir, table: str, metadata: dict | None = None, run_id: str | None = None) -> None:
    """Write ``<table>/part-empty.parquet``: no rows, the table's schema stamped with the run's
    metadata (written under a temporary name, then renamed, as every part)."""
    tmp = f"{TMP_PREFIX}{run_id or 'empty'}-empty-{os.getpid()}{TMP_SUFFIX}"
    try:
        with report.create(table, tmp) as f:
            try:
                write_empty(f, table, metadata or {})
            except OSError as err:
                raise cannot("write", report.where(table, tmp), err) from None
        report.rename(table, tmp, f"{PART_PREFIX}empty.parquet")
    except BaseException:
        try:
            report.unlink(table, tmp)
        except (OSError, OutputError):
            pass
        raise


def write_empty(f, table: str, metadata: dict) -> None:
    """An empty part of ``table`` to the open binary file ``f``: the table's columns, no row
    group, the run's key/value metadata. Written as every other part is (no Arrow schema
    stored, so read back with the same types as the parts with rows), and without an empty
    table to write: some 0.2 ms instead of ``pq.write_table``'s 0.7 (a run whose hands have no
    findings writes one)."""
    writer = pq.ParquetWriter(pa.PythonFile(f, mode="w"), schema(table), compression=COMPRESSION,
                              store_schema=False)
    writer.add_key_value_metadata(stamped_metadata(table, metadata))
    writer.close()


def _read_reason(err: BaseException, path: object = None) -> str:
    if isinstance(err, OSError) and err.strerror:
        return reason(err)
    text = " ".join(str(err).split()) or type(err).__name__
    if path is not None:  # pyarrow names the file again: "Could not open Parquet input source '<path>': ..."
        head, sep, tail = text.partition(f"'{path}': ")
        text = tail if sep else text
    return f"not a whole Parquet file ({text})" if isinstance(err, pa.ArrowException) else text


def read_table(out_dir: str | os.PathLike, table: str, columns: list[str] | None = None) -> pa.Table:
    """One report table as an Arrow table (all its part files; the schema of this version).
    A part that cannot be read (truncated, not Parquet) raises OutputError naming it."""
    if table not in TABLE_NAMES:
        raise ValueError(f"unknown table {table!r}; the report has {', '.join(TABLE_NAMES)}")
    files = part_files(out_dir, table)
    sch = schema(table)
    if columns is not None:
        sch = pa.schema([sch.field(c) for c in columns], metadata=sch.metadata)
    if not files:
        return sch.empty_table()
    tables = []
    for f in files:
        try:
            tables.append(pq.read_table(f, columns=columns).replace_schema_metadata(sch.metadata))
        except (OSError, pa.ArrowException) as err:
            raise OutputError(f"cannot read {f}: {_read_reason(err, f)}") from None
    try:
        return pa.concat_tables(tables, promote_options="default")
    except pa.ArrowException as err:
        raise OutputError(f"cannot read {Path(out_dir) / table}: its parts do not fit together ({err})") from None


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

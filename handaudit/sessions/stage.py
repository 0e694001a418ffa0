"""The cross-hand pass over a finished Parquet report: records out of the report part by part,
partitioned by :func:`~handaudit.sessions.keying.bucket_key` into buckets, each bucket's
sessions split, checked and written.

Memory stays flat: a report of more than ``bucket_hands`` hands is partitioned on disk first
(the records of each part appended, pickled, to one of ``B`` bucket files under
``DIR/.sessions-spill/``, ``B`` = hands / ``bucket_hands``), and then one bucket at a time is
read back, so the pass holds about ``bucket_hands`` hands' records at once, whatever the
report's size. A smaller report is partitioned in memory.
"""

from __future__ import annotations

import os
import pickle
import shutil
import time
import zlib
from pathlib import Path

import pyarrow as pa

from ..reports.layout import PART_PREFIX, SESSION_TABLES, OutputError, part_files
from .checks import Checker, Session
from .extract import read_report
from .keying import GAP_MINUTES, bucket_key, split_sessions, table_key
from .record import HandRecord
from .tables import Rows, Writer

BUCKET_HANDS = 400_000  # records held at once (about 1 KB each)
PART_SESSIONS = 20_000
SPILL = ".sessions-spill"


class SessionsResult:
    """What the pass did: sessions, hands in them, hands without a table, unreadable hands (the
    three add up to the report's hands), findings by code, the rows and files of each table,
    and its time."""

    def __init__(self) -> None:
        self.sessions = 0
        self.hands = 0
        self.unkeyed = 0
        self.unreadable = 0
        self.codes: dict[str, int] = {}
        self.tables: dict[str, dict[str, int]] = {}
        self.buckets = 1
        self.elapsed = 0.0

    def as_dict(self) -> dict:
        return {"sessions": self.sessions, "hands": self.hands, "hands_without_table": self.unkeyed,
                "unreadable": self.unreadable,
                "findings": dict(sorted(self.codes.items())), "tables": self.tables, "buckets": self.buckets,
                "elapsed": round(self.elapsed, 3)}


def _hands_in(out_dir: str | os.PathLike) -> int:
    import pyarrow.parquet as pq

    return sum(pq.ParquetFile(f).metadata.num_rows for f in part_files(out_dir, "hands"))


def _bucket_of(key: tuple[str, str], buckets: int) -> int:
    return zlib.crc32("\x1f".join(key).encode("utf-8", "surrogatepass")) % buckets


def audit_sessions(out_dir: str | os.PathLike, book, *, run_id: str | None = None, metadata: dict | None = None,
                   gap_minutes: int = GAP_MINUTES, bucket_hands: int = BUCKET_HANDS, jobs: int = 1,
                   mapper=None) -> SessionsResult:
    """Run the cross-hand pass over the report in ``out_dir`` under rulebook ``book`` (a loaded
    :class:`~handaudit.rules.rulebook.Rulebook`); write its four tables into the report.

    ``jobs`` > 1 (or a ``mapper``, ``map``-like: a Dask client's map and gather) checks the
    buckets of the on-disk partition in parallel, each bucket in one call of
    :func:`check_bucket` writing its own parts."""
    started = time.monotonic()
    result = SessionsResult()
    clear_tables(out_dir)
    total = _hands_in(out_dir)
    buckets = max(1, -(-total // max(1, bucket_hands)))
    if (jobs > 1 or mapper is not None) and total > 1000:
        buckets = max(buckets, 2 * max(1, jobs))
    result.buckets = buckets
    tag = f"{run_id}-sessions" if run_id else "sessions"
    spill = Path(out_dir) / SPILL
    try:
        if buckets == 1:
            groups: dict[tuple[str, str], list[HandRecord]] = {}
            for records in _parts(out_dir, result):
                for r in records:
                    if table_key(r) is None:
                        result.unkeyed += 1
                        continue
                    groups.setdefault(bucket_key(r), []).append(r)
            _merge(result, _check_groups(groups, book, out_dir, tag, metadata, gap_minutes))
        else:
            _partition(out_dir, spill, buckets, result)
            calls = [(str(spill / f"bucket-{b}.pickle"), book, str(out_dir), f"{tag}-b{b}", metadata, gap_minutes)
                     for b in range(buckets)]
            if mapper is not None:
                outcomes = mapper(check_bucket_call, calls)
            elif jobs > 1:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                # spawned: this process has imported pyarrow, whose threads make a fork unsafe
                with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
                    outcomes = list(pool.map(check_bucket_call, calls))
            else:
                outcomes = [check_bucket_call(c) for c in calls]
            for outcome in outcomes:
                _merge(result, outcome)
        result.tables = Writer(out_dir, tag, metadata).finish(result.tables)
    finally:
        shutil.rmtree(spill, ignore_errors=True)
    result.elapsed = time.monotonic() - started
    return result


def clear_tables(out_dir: str | os.PathLike) -> None:
    """Remove the pass's tables of an earlier pass over this report."""
    for t in SESSION_TABLES:
        tdir = Path(out_dir) / t
        if tdir.is_dir():
            for f in tdir.iterdir():
                if f.name.startswith((PART_PREFIX, "." + PART_PREFIX)) and f.name.endswith((".parquet", ".tmp")):
                    f.unlink()


def _partition(out_dir: str | os.PathLike, spill: Path, buckets: int, result: SessionsResult) -> None:
    """The records of every part appended, pickled, to their bucket's file."""
    shutil.rmtree(spill, ignore_errors=True)
    spill.mkdir()
    files = [open(spill / f"bucket-{b}.pickle", "wb") for b in range(buckets)]  # noqa: SIM115
    try:
        for records in _parts(out_dir, result):
            split: list[list[HandRecord]] = [[] for _ in range(buckets)]
            for r in records:
                if table_key(r) is None:
                    result.unkeyed += 1
                    continue
                split[_bucket_of(bucket_key(r), buckets)].append(r)
            for b, chunk in enumerate(split):
                if chunk:
                    pickle.dump(chunk, files[b], protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        for f in files:
            f.close()


def check_bucket_call(call: tuple) -> dict:
    """:func:`check_bucket` of one tuple of arguments (what a pool or Dask maps)."""
    return check_bucket(*call)


def check_bucket(path: str, book, out_dir: str, tag: str, metadata: dict | None, gap_minutes: int) -> dict:
    """One bucket of the partition: its records read back, its sessions checked, its parts
    written (named by ``tag``); its counts."""
    groups: dict[tuple[str, str], list[HandRecord]] = {}
    with open(path, "rb") as back:
        while True:
            try:
                chunk = pickle.load(back)
            except EOFError:
                break
            for r in chunk:
                groups.setdefault(bucket_key(r), []).append(r)
    os.unlink(path)
    return _check_groups(groups, book, out_dir, tag, metadata, gap_minutes)


def _check_groups(groups: dict[tuple[str, str], list[HandRecord]], book, out_dir, tag: str, metadata: dict | None,
                  gap_minutes: int) -> dict:
    writer = Writer(out_dir, tag, metadata)
    rows = Rows()
    counts = SessionsResult()
    _check_bucket(groups, Checker(book), rows, writer, counts, gap_minutes)
    writer.write(rows)
    return {"sessions": counts.sessions, "hands": counts.hands, "codes": counts.codes,
            "tables": {t: {"files": writer.files[t], "rows": writer.rows[t]} for t in writer.files}}


def _merge(result: SessionsResult, outcome: dict) -> None:
    result.sessions += outcome["sessions"]
    result.hands += outcome["hands"]
    for code, n in outcome["codes"].items():
        result.codes[code] = result.codes.get(code, 0) + n
    for t, c in outcome["tables"].items():
        mine = result.tables.setdefault(t, {"files": 0, "rows": 0})
        mine["files"] += c["files"]
        mine["rows"] += c["rows"]


def _parts(out_dir: str | os.PathLike, result: SessionsResult):
    for records, unreadable in _read(out_dir):
        result.unreadable += unreadable
        yield records


def _read(out_dir: str | os.PathLike):
    it = read_report(out_dir)
    while True:
        try:
            yield next(it)
        except StopIteration:
            return
        except (OSError, ValueError, pa.ArrowException) as err:
            raise OutputError(f"{out_dir}: the cross-hand pass cannot read a part of the report ({err})") from None


def _check_bucket(groups: dict[tuple[str, str], list[HandRecord]], checker: Checker, rows: Rows, writer: Writer,
                  result: SessionsResult, gap_minutes: int) -> None:
    for bkey in sorted(groups):
        by_table: dict[tuple[str, str, str], list[HandRecord]] = {}
        for r in groups[bkey]:
            k = table_key(r)
            assert k is not None
            by_table.setdefault(k, []).append(r)
        sessions: list[Session] = []
        for key in sorted(by_table):
            for n, (began, hands) in enumerate(split_sessions(by_table[key], gap_minutes)):
                sid = f"{key[0]}|{key[1]}|{key[2]}|{n + 1}"
                s = Session(sid, began, hands)
                checker.check(s)
                sessions.append(s)
        if bkey[1].startswith("\x00"):
            checker.moves(sessions)
        for s in sessions:
            result.sessions += 1
            result.hands += len(s.hands)
            for f in s.findings:
                result.codes[f.code] = result.codes.get(f.code, 0) + 1
            rows.add(s)
            if rows.sessions >= PART_SESSIONS:
                writer.write(rows)


def run_pass(out_dir: str | os.PathLike, rulebook: str, overrides=(), run_id: str | None = None,
             metadata: dict | None = None, jobs: int = 1) -> dict:
    """The pass as a run's last stage (both engines): its summary for ``_manifest.json``
    (``"sessions"``), or ``{"error": ...}`` when it cannot read or write the report (the
    per-hand report stays whole either way)."""
    from ..rules.rulebook import load_rulebook

    try:
        return audit_sessions(out_dir, load_rulebook(rulebook, list(overrides)), run_id=run_id,
                              metadata=metadata, jobs=jobs).as_dict()
    except (OutputError, OSError, pa.ArrowException) as err:
        return {"error": str(err).splitlines()[0]}


def describe(out_dir: str | os.PathLike) -> str:
    """The pass's lines of ``check``'s summary, from the report's manifest."""
    from ..reports.layout import read_manifest

    got = (read_manifest(out_dir) or {}).get("sessions")
    if not got:
        return "Across hands: the cross-hand pass did not run."
    if "error" in got:
        return f"Across hands: the cross-hand pass failed: {got['error']}"
    codes = ", ".join(f"{code} {n:,}" for code, n in sorted(got["findings"].items(), key=lambda x: (-x[1], x[0])))
    return (f"Across hands: {got['sessions']:,} table sessions of {got['hands']:,} hands"
            f" ({got['hands_without_table']:,} hands without a table); findings: {codes or 'none'}"
            f" (tables sessions, session_hands, session_players, session_findings)")

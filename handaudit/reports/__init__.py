"""The reports room: the text summary, JSON Lines, and the Parquet audit report.

- :mod:`.schema`: the five Parquet tables, every column's type and meaning.
- :mod:`.parquet`: the per-worker writer, and readers (:func:`to_dataframes`, :func:`read_table`).
- :mod:`.jsonl`: one contract object per hand, amounts as exact decimals.
- :mod:`.text`: the run summary and the progress display.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

TABLE_NAMES = ("hands", "actions", "findings", "pots", "players")

# The report directory's layout (no pyarrow needed: the parent process of a run uses these).
MANIFEST = "_manifest.json"
SUCCESS = "_SUCCESS"
PART_PREFIX = "part-"
TMP_PREFIX = ".part-"
TMP_SUFFIX = ".parquet.tmp"


def prepare_dir(out_dir: str | os.PathLike) -> Path:
    """Create DIR and its table directories; remove the files of an earlier report in it."""
    directory = Path(out_dir)
    if directory.exists() and not directory.is_dir():
        raise NotADirectoryError(f"{out_dir}: exists and is not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    for name in (SUCCESS, MANIFEST):
        try:
            (directory / name).unlink()
        except FileNotFoundError:
            pass
    for table in TABLE_NAMES:
        tdir = directory / table
        tdir.mkdir(exist_ok=True)
        for f in tdir.iterdir():
            if f.name.startswith((PART_PREFIX, TMP_PREFIX)) and f.name.endswith((".parquet", TMP_SUFFIX)):
                f.unlink()
    return directory


def remove_temporaries(out_dir: str | os.PathLike) -> int:
    """Delete unfinished (temporary) part files left by a stopped worker; how many."""
    removed = 0
    for table in TABLE_NAMES:
        tdir = Path(out_dir) / table
        if not tdir.is_dir():
            continue
        for f in tdir.iterdir():
            if f.name.startswith(TMP_PREFIX) and f.name.endswith(TMP_SUFFIX):
                try:
                    f.unlink()
                    removed += 1
                except OSError:
                    pass
    return removed


def part_files(out_dir: str | os.PathLike, table: str) -> list[Path]:
    tdir = Path(out_dir) / table
    if not tdir.is_dir():
        return []
    return sorted(f for f in tdir.iterdir() if f.name.startswith(PART_PREFIX) and f.name.endswith(".parquet"))


def write_manifest(out_dir: str | os.PathLike, manifest: dict, complete: bool) -> None:
    directory = Path(out_dir)
    tmp = directory / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, directory / MANIFEST)
    if complete:
        (directory / SUCCESS).write_text("", encoding="utf-8")


def read_manifest(out_dir: str | os.PathLike) -> dict | None:
    try:
        return json.loads((Path(out_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def is_report(out_dir: str | os.PathLike) -> bool:
    directory = Path(out_dir)
    return (directory / MANIFEST).exists() or (directory / "hands").is_dir()


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

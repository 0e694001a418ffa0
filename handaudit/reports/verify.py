"""A report directory checked before it is read (``handaudit summary``, ``handaudit report``):
is it whole, and is it ours?

The run's ``_manifest.json`` lists every table's part files with their rows (and, from older
runs or the Dask engine, each table's count of files and rows). A copy or a sync that did not
finish can lose a part file or a whole table; read as it is, such a report would be summarised
as complete with fewer hands (or as "0 hands"). :func:`verify_report` compares the manifest with
the files there and refuses, in one line naming the file and the problem, a report that lost a
part or a table, holds a part of another run or of another schema, or whose manifest is not a
JSON object of the form a run writes.
"""

from __future__ import annotations

import json
import os
from typing import Any

from .layout import MANIFEST, PART_PREFIX, TABLE_NAMES, OutputError, part_files


def read_manifest_strict(out_dir: str) -> dict | None:
    """``DIR/_manifest.json`` as a JSON object, or None when there is none (a run that did not
    finish); OutputError naming it when it cannot be read, is not JSON, or is not an object."""
    path = os.path.join(out_dir, MANIFEST)
    if not os.path.lexists(path):
        return None
    if os.path.islink(path) or not os.path.isfile(path):
        raise OutputError(f"{path}: not a regular file; a report's manifest is a JSON file")
    try:
        size = os.path.getsize(path)
        if size > 256 * 1024 * 1024:
            raise OutputError(f"{path}: {size:,} bytes, too large for a report's manifest")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise OutputError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise OutputError(f"{path}: not a handaudit manifest: not JSON ({' '.join(str(err).split())})") from None
    except RecursionError:
        raise OutputError(f"{path}: not a handaudit manifest: nested too deeply") from None
    if not isinstance(manifest, dict):
        raise OutputError(f"{path}: not a handaudit manifest: JSON {type(manifest).__name__}, not an object")
    _check_fields(manifest, path)
    return manifest


def _check_fields(manifest: dict, path: str) -> None:
    """The members every reader of a manifest uses, of the types a run writes."""
    expect: dict[str, tuple[type, ...]] = {"status": (str,), "hands": (int,), "tables": (dict,),
                                           "rulebook": (str, type(None)), "summary": (dict,),
                                           "working_directory": (str,), "inputs": (list,)}
    for key, types in expect.items():
        if key in manifest and (not isinstance(manifest[key], types) or isinstance(manifest[key], bool)):
            raise OutputError(f"{path}: not a handaudit manifest: {key!r} is {type(manifest[key]).__name__}")
    tables = manifest.get("tables", {})
    for table, entry in tables.items():
        if table not in TABLE_NAMES:
            continue
        if not isinstance(entry, dict):
            raise OutputError(f"{path}: not a handaudit manifest: tables.{table} is not an object")
        for key in ("files", "rows"):
            if key in entry and (not isinstance(entry[key], int) or isinstance(entry[key], bool) or entry[key] < 0):
                raise OutputError(f"{path}: not a handaudit manifest: tables.{table}.{key} is not a count")
        parts = entry.get("parts")
        if parts is not None and (not isinstance(parts, dict) or not all(
                isinstance(n, str) and isinstance(r, int) and not isinstance(r, bool) for n, r in parts.items())):
            raise OutputError(f"{path}: not a handaudit manifest: tables.{table}.parts is not a list of parts and rows")


def verify_report(out_dir: str) -> dict | None:
    """The manifest of the report in ``out_dir`` (None: no manifest, an unfinished run), after
    checking that the files are what it lists and of this version's schema; OutputError (one
    line: the file and the problem) otherwise."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .schema import schema

    manifest = read_manifest_strict(out_dir)
    listed: dict[str, Any] = (manifest or {}).get("tables", {}) if manifest is not None else {}
    for table in TABLE_NAMES:
        tdir = os.path.join(out_dir, table)
        entry = listed.get(table)
        if not os.path.isdir(tdir):
            if manifest is not None and isinstance(entry, dict):
                raise OutputError(f"{tdir}: missing: the report lost its {table} table (_manifest.json lists "
                                  f"{entry.get('files', '?')} part files with {entry.get('rows', 0):,} rows)")
            if manifest is not None or table == "hands":
                raise OutputError(f"{tdir}: missing: the report has no {table} table")
            continue
        files = part_files(out_dir, table)
        rows: dict[str, int] = {}
        expected = schema(table)
        for f in files:
            try:
                meta = pq.read_metadata(f)
                got = meta.schema.to_arrow_schema()
            except (OSError, pa.ArrowException) as err:
                raise OutputError(f"cannot read {f}: not a whole Parquet file ({' '.join(str(err).split())})") from None
            for field in expected:
                i = got.get_field_index(field.name)
                if i < 0:
                    raise OutputError(f"{f}: no column {field.name!r}: a part of another table or schema version "
                                      "than this handaudit reads")
                if not got.field(i).type.equals(field.type):
                    raise OutputError(f"{f}: column {field.name!r} is {got.field(i).type}, where the {table} table "
                                      f"has {field.type}: a part of another schema version")
            rows[f.name] = meta.num_rows
        if not isinstance(entry, dict):
            continue
        parts = entry.get("parts")
        if isinstance(parts, dict):
            missing = sorted(set(parts) - set(rows))
            if missing:
                lost = sum(parts[n] for n in missing)
                shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
                raise OutputError(f"{tdir}: {len(missing)} of {len(parts)} part files listed in _manifest.json are "
                                  f"missing ({shown}): {lost:,} of {sum(parts.values()):,} rows lost; the report is not whole")
            extra = sorted(set(rows) - set(parts))
            if extra:
                raise OutputError(f"{os.path.join(tdir, extra[0])}: not listed in _manifest.json (a part of another run); "
                                  "the report is not the run's")
            for name, n in parts.items():
                if rows[name] != n:
                    raise OutputError(f"{os.path.join(tdir, name)}: {rows[name]:,} rows where _manifest.json lists {n:,}")
            continue
        want_files, want_rows = entry.get("files"), entry.get("rows")
        ours = {n: r for n, r in rows.items() if n.startswith(PART_PREFIX)}
        if isinstance(want_files, int) and len(ours) < want_files:
            raise OutputError(f"{tdir}: {len(ours)} part files where _manifest.json lists {want_files}: "
                              f"{want_files - len(ours)} lost; the report is not whole")
        if isinstance(want_rows, int) and sum(ours.values()) != want_rows:
            raise OutputError(f"{tdir}: its part files hold {sum(ours.values()):,} rows where _manifest.json "
                              f"lists {want_rows:,}; the report is not whole")
    return manifest

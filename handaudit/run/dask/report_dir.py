"""The Dask client's report directory: the steps of a run on DIR, local or on an fsspec store.

The client prepares DIR before the first task, removes what no successful task reported when
the tasks are done (parts from attempts given up, temporaries), writes the empty parts of a
table no task wrote to, and writes the manifest. A local DIR goes through the local engine's
:class:`~handaudit.reports.layout.ReportDir` (its lock, its checks); a URL through fsspec.
"""

from __future__ import annotations

import os
import re
import shutil

from ...reports.layout import TABLE_NAMES, ReportDir, manifest_bytes
from .inputs import is_url, unlink_quietly, url_fs
from .worker import STAGING

_OUR_PART = re.compile(r"^part-t\d+-\d+\.parquet$")  # a task's part (its name depends on the task only)


class LocalReport:
    """DIR on this machine: locked and cleared as the local engine does."""

    def __init__(self, out: str):
        self.out = out
        self.held: ReportDir | None = None  # the directory, locked from prepare() to close()

    def prepare(self) -> None:
        """Lock DIR as the local engine does (another run on it is refused), then clear it."""
        report = ReportDir(self.out, create=True)
        try:
            report.lock()
            report.prepare()
        except BaseException:
            report.close()
            raise
        self.held = report
        shutil.rmtree(os.path.join(self.out, STAGING), ignore_errors=True)

    def close(self) -> None:
        """Release the lock (the run's report is written, or it failed)."""
        if self.held is not None:
            self.held.close()
            self.held = None

    def cleanup(self, reported: dict) -> int:
        """Remove the staging area and parts no successful task reported; temporaries removed."""
        assert self.held is not None  # prepare() ran
        shutil.rmtree(os.path.join(self.out, STAGING), ignore_errors=True)
        for table in TABLE_NAMES:
            tdir = os.path.join(self.out, table)
            keep = reported.get(table, set())
            for name in os.listdir(tdir) if os.path.isdir(tdir) else ():
                if _OUR_PART.match(name) and name not in keep:
                    unlink_quietly(os.path.join(tdir, name))
        return self.held.remove_temporaries()

    def finish(self, metadata: dict, complete: bool) -> dict:
        from ...reports.parquet import count_rows, write_empty_parts

        if complete:
            write_empty_parts(self.out, metadata)
        return count_rows(self.out)

    def write_manifest(self, manifest: dict, complete: bool) -> None:
        assert self.held is not None  # prepare() ran
        self.held.write_manifest(manifest, complete)


class RemoteReport:
    """The same steps through fsspec, for ``--out s3://bucket/report`` and the like."""

    def __init__(self, out: str):
        self.out = out
        self.fs, root = url_fs(out)
        self.root = root.rstrip("/")

    def _names(self, table: str) -> list[str]:
        try:
            return [p.rstrip("/").rsplit("/", 1)[-1] for p in self.fs.ls(f"{self.root}/{table}", detail=False)]
        except (FileNotFoundError, OSError):
            return []

    def prepare(self) -> None:
        from ...reports.parquet import MANIFEST, PART_PREFIX, SUCCESS, TMP_PREFIX

        fs = self.fs
        fs.makedirs(self.root, exist_ok=True)
        for name in (SUCCESS, MANIFEST):
            if fs.exists(f"{self.root}/{name}"):
                fs.rm(f"{self.root}/{name}")
        for table in TABLE_NAMES:
            fs.makedirs(f"{self.root}/{table}", exist_ok=True)
            for name in self._names(table):
                if name.startswith((PART_PREFIX, TMP_PREFIX, ".part-t")):
                    fs.rm(f"{self.root}/{table}/{name}")

    def cleanup(self, reported: dict) -> int:
        removed = 0
        for table in TABLE_NAMES:
            keep = reported.get(table, set())
            for name in self._names(table):
                temporary = name.startswith(".part-") and name.endswith(".tmp")  # (a worker's: .<part>.<id>.tmp)
                if temporary or (_OUR_PART.match(name) and name not in keep):
                    self.fs.rm(f"{self.root}/{table}/{name}")
                    removed += temporary
        return removed

    def finish(self, metadata: dict, complete: bool) -> dict:
        import pyarrow.parquet as pq

        from ...reports.parquet import PART_PREFIX, write_empty

        tables = {}
        for table in TABLE_NAMES:
            names = [n for n in self._names(table) if n.startswith(PART_PREFIX) and n.endswith(".parquet")]
            if complete and not names:
                with self.fs.open(f"{self.root}/{table}/{PART_PREFIX}empty.parquet", "wb") as f:
                    write_empty(f, table, metadata)
                names = [f"{PART_PREFIX}empty.parquet"]
            rows = 0
            for n in names:
                with self.fs.open(f"{self.root}/{table}/{n}", "rb") as f:
                    rows += pq.ParquetFile(f).metadata.num_rows
            tables[table] = {"files": len(names), "rows": rows}
        return tables

    def close(self) -> None:
        """Nothing is held on a remote store (fsspec has no lock to take)."""

    def write_manifest(self, manifest: dict, complete: bool) -> None:
        from ...reports.parquet import MANIFEST, SUCCESS

        self.fs.pipe_file(f"{self.root}/{MANIFEST}", manifest_bytes(manifest))
        if complete:
            self.fs.pipe_file(f"{self.root}/{SUCCESS}", b"")


def report_dir(out: str) -> LocalReport | RemoteReport:
    """The report directory's steps for ``--out``: through fsspec for a URL, else local."""
    return RemoteReport(out) if is_url(out) else LocalReport(out)

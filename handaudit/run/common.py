"""What both engines share (the local one, run/local.py, and Dask, run/dask/): a run's
configuration and results, the Auditor that audits batches in a process and writes its parts,
the manifest, and the handler of interrupts.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import ClassVar, Final

from ..core.status import ERROR
from ..core.open_value import OpenValue
from ..findings.selection import EVERYTHING, Selection
from ..grammar.chunk import Chunk
from ..grammar.sources import report_path
from ..reports.sinks import HAND_SINKS, HandSink, RowSink
from ..reports.summary import Summary
from .hand_loop import audit_batch
from .process import fewer_collections

DEFAULT_BATCH = 500
MAX_BATCH_BYTES = 8 * 1024 * 1024
SMALL_INPUT_BYTES = 2 * 1024 * 1024  # default --jobs: below this, one process (no start-up cost)
COMMIT_BYTES = 16 * 1024 * 1024  # a worker finishes its parts after this much hand text (the parent holds it until then)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class RunError(Exception):
    """The run could not go on (a worker failed or died)."""


_RUN_CONFIG_FIELDS = ("rulebook", "overrides", "out_dir", "outputs", "batch_rows", "part_rows", "metadata", "run_id",
                      "selection")


class RunConfig(OpenValue):
    """What a worker needs (picklable: it is sent to spawned processes). A value
    (handaudit/core/open_value.py); this module's classes are not dataclasses, whose generated
    methods would be compiled from source at every run's start (docs/performance.md)."""

    __slots__ = _RUN_CONFIG_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _RUN_CONFIG_FIELDS

    def __init__(self, rulebook: str = "tda-2026", overrides: tuple[str, ...] = (), out_dir: str | None = None,
                 outputs: tuple[str, ...] = (), batch_rows: int | None = None, part_rows: int | None = None,
                 metadata: tuple[tuple[str, str], ...] = (), run_id: str | None = None,
                 selection: Selection = EVERYTHING) -> None:
        self.rulebook: Final = rulebook
        self.overrides: Final = overrides
        self.out_dir: Final = out_dir
        # the hand sinks each batch fills (reports.sinks.HAND_SINKS), besides the Parquet rows
        self.outputs: Final = outputs
        self.batch_rows: Final = batch_rows
        self.part_rows: Final = part_rows
        self.metadata: Final = metadata
        self.run_id: Final = run_id  # in every part name of the run (None: the Dask engine's own names)
        self.selection: Final = selection  # the findings reported (--select, --ignore, --severity)


class BatchResult:
    """One batch audited: its sequence number, hands, summary and hand sinks' outputs."""

    __slots__ = ("seq", "hands", "summary", "outputs", "committed")

    def __init__(self, seq: int, hands: int, summary: Summary, outputs: dict[str, object] | None = None,
                 committed: dict | None = None) -> None:
        self.seq = seq
        self.hands = hands
        self.summary = summary
        self.outputs: dict[str, object] = {} if outputs is None else outputs  # hand sink name -> the batch's output
        # None: this batch's rows are not in finished parts yet. Else the auditor has just committed:
        # every batch it ran so far is in finished parts, these ones ({table: [(name, rows)]}) new.
        self.committed = committed


class RunResult:
    """What a run did: the merged summary, whether it finished, and the report's files."""

    def __init__(self, summary: Summary, complete: bool, interrupted: bool = False, out_dir: str | None = None,
                 tables: dict | None = None, removed_temporaries: int = 0, subsets: list[str] | None = None,
                 error: str | None = None, notes: list[str] | None = None) -> None:
        self.summary = summary
        self.complete = complete
        self.interrupted = interrupted
        self.out_dir = out_dir
        self.tables: dict = {} if tables is None else tables  # table -> {"files": n, "rows": n}
        self.removed_temporaries = removed_temporaries
        self.subsets: list[str] = [] if subsets is None else subsets
        self.error = error
        # what the run recovered from (a worker that died)
        self.notes: list[str] = [] if notes is None else notes
        self.manifest_written = True  # False: the report's _manifest.json could not be written

    def __repr__(self) -> str:
        return (f"RunResult(complete={self.complete!r}, interrupted={self.interrupted!r}, out_dir={self.out_dir!r}, "
                f"error={self.error!r}, hands={self.summary.hands!r})")

    def exit_status(self, fail_on: str = ERROR) -> int:
        if self.interrupted:
            return 130
        if self.error:
            return 2
        return self.summary.exit_status(fail_on)


class Auditor:
    """Audits batches of chunks; owns its process's Parquet writer (worker 0: the parent).

    ``commit_bytes``: finish the part files after this much hand text (None: only when a part is
    full, and at :meth:`close`)."""

    def __init__(self, config: RunConfig, worker: int | str, commit_bytes: int | None = None):
        from ..rules.rulebook import load_rulebook

        self.config = config
        self.book = load_rulebook(config.rulebook, list(config.overrides))
        self.writer = None
        self.commit_bytes = commit_bytes
        self.uncommitted = 0
        self.sinks: list[HandSink] = [HAND_SINKS[name]() for name in config.outputs]
        if config.out_dir:
            from ..reports.parquet import ReportWriter

            kw = {}
            if config.batch_rows:
                kw["batch_rows"] = config.batch_rows
            if config.part_rows:
                kw["part_rows"] = config.part_rows
            self.writer = ReportWriter(config.out_dir, worker, metadata=dict(config.metadata), run_id=config.run_id,
                                       **kw)
            self.sinks.append(RowSink(self.writer))

    def run(self, seq: int, chunks: list[Chunk], nbytes: int = 0) -> BatchResult:
        summary = Summary()
        with fewer_collections():
            audit_batch(chunks, self.book, summary.add, self.sinks, self.config.selection)
        committed = None
        if self.writer is None:
            committed = {}
        else:
            self.uncommitted += nbytes
            if self.writer.due or (self.commit_bytes is not None and self.uncommitted >= self.commit_bytes):
                committed = self.commit()
        outputs = {sink.name: sink.take() for sink in self.sinks if sink.name in HAND_SINKS}
        return BatchResult(seq, len(chunks), summary, outputs, committed)

    def commit(self) -> dict:
        """Finish the current parts (every row so far is then in a finished part); the new parts."""
        self.uncommitted = 0
        return self.writer.commit() if self.writer is not None else {}

    def close(self) -> dict:
        return self.writer.close() if self.writer is not None else {}

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.abort()


def report_metadata(rulebook: str, overrides) -> tuple[tuple[str, str], ...]:
    """The key/value metadata stamped on every Parquet part of a run (RunConfig.metadata)."""
    meta = {"handaudit.rulebook": rulebook, "handaudit.overrides": " ".join(overrides)}
    try:
        from .. import __version__

        meta["handaudit.version"] = __version__
    except ImportError:  # pragma: no cover
        pass
    return tuple(sorted(meta.items()))


def build_manifest(config: RunConfig, inputs, files, rulebook: str, jobs: int, tables: dict, summary: Summary,
                   complete: bool, interrupted: bool, error: str | None) -> dict:
    """The report's ``_manifest.json`` (shared by the local and the Dask engine)."""
    from ..reports.schema import SCHEMA_VERSION

    status = "complete" if complete else ("interrupted" if interrupted else "failed")
    manifest = {
        "status": status,
        "handaudit_version": dict(config.metadata).get("handaudit.version"),
        "schema_version": SCHEMA_VERSION,
        "inputs": [report_path(p) for p in inputs],  # as the reports write paths: valid UTF-8
        "working_directory": report_path(os.getcwd()),  # where relative sources are (handaudit summary)
        "files": len(files),
        "rulebook": rulebook,
        "overrides": list(config.overrides),
        "findings_selected": config.selection.describe(),  # what --select, --ignore, --severity asked
        "jobs": jobs,
        "hands": tables["hands"]["rows"],
        "tables": tables,
        "elapsed_seconds": round(summary.elapsed or 0.0, 3),
        "summary": summary.to_json(),
    }
    if error:
        manifest["error"] = error.splitlines()[0]
    return manifest


class Interrupt:
    """The run's handler of SIGINT, SIGTERM and SIGHUP: the first asks to stop, the second stops at
    once (KeyboardInterrupt), except after :meth:`hold` (the report is being finished: a signal
    then only asks). SIGXFSZ is ignored meanwhile, so that a file size limit is an EFBIG error,
    reported, and not the death of the process."""

    SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))

    def __init__(self) -> None:
        self.requested = False
        self.signal: int | None = None
        self.holding = False
        self.previous: dict = {}
        self.installed = False

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self.previous[sig] = signal.signal(sig, self._handle)
            if hasattr(signal, "SIGXFSZ"):
                self.previous[signal.SIGXFSZ] = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            self.installed = True
        return self

    def _handle(self, signum, frame):
        if self.requested and not self.holding:
            raise KeyboardInterrupt
        self.requested = True
        self.signal = self.signal or signum

    def hold(self) -> None:
        self.holding = True

    def __exit__(self, *exc):
        if self.installed:
            for sig, previous in self.previous.items():
                signal.signal(sig, previous)
        return False

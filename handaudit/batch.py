"""The batch runner: audit many hands in ``jobs`` processes, in flat memory.

This process finds the input files and cuts them into hands (raw bytes, no parsing:
:func:`~handaudit.grammar.sources.read_chunks`) in batches of ``batch_size`` hands. It is one
of the ``jobs`` auditors: it sends a batch to one of ``jobs - 1`` worker processes that has room
for it and audits the batch itself otherwise, and it keeps the input's last batches for itself
(see :meth:`Runner._run_local`). A large ``.phhs`` file is thus spread over all processes, not
given to one. Each process reads, replays and settles its hands and writes its own Parquet part
files (one :class:`~handaudit.reports.parquet.ReportWriter` each); a worker sends back a small
per-batch summary, the hands' statuses and, when asked, their JSONL lines. This process merges
the summaries, writes JSONL and the clean subsets in input order, and shows progress.

Memory stays flat: at most ``window`` batches are in flight or waiting to be written in order.
The result does not depend on ``jobs``: the same rows, only spread over other part files.
``jobs=1`` runs everything in the calling process (no worker).

Stopping: on SIGINT (Ctrl-C) this process stops cutting batches, lets each worker finish the
batch it is on and close its part files, closes its own, removes any temporary part, writes
``_manifest.json`` with status ``interrupted`` (no ``_SUCCESS``) and reports how many hands are
in the report. A second Ctrl-C stops at once (temporary parts are still removed).
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import queue
import signal
import sys
import threading
import time
import traceback
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field

from .auditing import audit_batch
from .grammar.sources import Chunk, expand_paths, pack_chunks, read_chunks, report_path, unpack_chunks
from .reports.summary import Summary

DEFAULT_BATCH = 500
MAX_BATCH_BYTES = 8 * 1024 * 1024
SMALL_INPUT_BYTES = 2 * 1024 * 1024  # default --jobs: below this, one process (no start-up cost)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class RunError(Exception):
    """The run could not go on (a worker failed or died)."""


class OutputError(Exception):
    """An output directory that cannot be written (exit status 2)."""


@dataclass(frozen=True)
class RunConfig:
    """What a worker needs (picklable: it is sent to spawned processes)."""

    rulebook: str = "tda-2026"
    overrides: tuple[str, ...] = ()
    out_dir: str | None = None
    jsonl: bool = False
    statuses: bool = False
    batch_rows: int | None = None
    part_rows: int | None = None
    metadata: tuple[tuple[str, str], ...] = ()


@dataclass
class BatchResult:
    seq: int
    hands: int
    summary: Summary
    statuses: list[str] | None = None
    jsonl: str | None = None


@dataclass
class RunResult:
    """What a run did: the merged summary, whether it finished, and the report's files."""

    summary: Summary
    complete: bool
    interrupted: bool = False
    out_dir: str | None = None
    tables: dict = field(default_factory=dict)  # table -> {"files": n, "rows": n}
    removed_temporaries: int = 0
    subsets: list[str] = field(default_factory=list)
    error: str | None = None

    def exit_status(self, fail_on: str = "error") -> int:
        if self.interrupted:
            return 130
        if self.error:
            return 2
        return self.summary.exit_status(fail_on)


# ---------------------------------------------------------------------------------------------
# one hand, one batch (worker side)


# While a batch is audited, the garbage collector's youngest generation is collected after
# this many new container objects instead of Python's 700. Auditing a hand makes no reference
# cycles (runs over the real corpus with the collector off leave no unreachable object), so a
# collection only walks live objects (the hand at hand, the parse memo) and ages them into
# older generations that are walked again. Real corpus, memo cleared before each run: at 700,
# collections took 1.6 ms of a 37 ms run (gc.callbacks), at 10,000 0.02 ms; callgrind counts
# 304,631 against 302,359 instructions a hand over 20 runs (the rest of the time is the
# collector's cache misses on objects allocated long before).
GC_YOUNG = 10_000


@contextmanager
def fewer_collections(young: int = GC_YOUNG):
    """Raise the youngest generation's threshold to ``young`` inside the block, then restore it
    (a threshold of 0, the collector switched off that way, or a higher one is left alone)."""
    old = gc.get_threshold()
    if not 0 < old[0] < young:
        yield
        return
    gc.set_threshold(young, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


class Auditor:
    """Audits batches of chunks; owns its process's Parquet writer (worker 0: the parent)."""

    def __init__(self, config: RunConfig, worker: int):
        from .validator.rulebook import load_rulebook

        self.config = config
        self.book = load_rulebook(config.rulebook, list(config.overrides))
        self.writer = None
        if config.out_dir:
            from .reports.parquet import ReportWriter

            kw = {}
            if config.batch_rows:
                kw["batch_rows"] = config.batch_rows
            if config.part_rows:
                kw["part_rows"] = config.part_rows
            self.writer = ReportWriter(config.out_dir, worker, metadata=dict(config.metadata), **kw)

    def run(self, seq: int, chunks: list[Chunk]) -> BatchResult:
        summary = Summary()
        lines = [] if self.config.jsonl else None
        statuses = [] if self.config.statuses else None
        with fewer_collections():
            audit_batch(chunks, self.book, summary.add, lines, statuses,
                        self.writer.add_rows if self.writer is not None else None)
        return BatchResult(seq, len(chunks), summary, statuses,
                           "\n".join(lines) + "\n" if lines else ("" if lines is not None else None))

    def close(self) -> dict:
        return self.writer.close() if self.writer is not None else {}

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.abort()


def no_idle_blas_threads() -> None:
    """handaudit does no linear algebra, but pyarrow imports numpy, whose OpenBLAS starts a thread
    per core that keeps polling for work (perf: about 3% of a run's CPU). One thread is enough.
    Only ``handaudit check`` and handaudit's own worker processes set this (unless the user did);
    a library caller's process is left as it is."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def skip_pandas_in_pyarrow() -> None:
    """Keep pyarrow from importing pandas (about 55 MB per process) in a process that has none.

    The first time pyarrow converts a Python list it imports pandas, only to ask whether the
    list is a pandas object. A worker converts nothing but lists, so the import is answered
    "not available" once, up front; pandas stays importable afterwards (pyarrow tries again when
    it really needs it, e.g. ``Table.to_pandas``). A process that already has pandas is left alone.
    """
    if "pandas" in sys.modules:
        return
    import pyarrow as pa

    class _NoPandas:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "pandas" or name.startswith("pandas."):
                raise ImportError("pandas is not needed here")
            return None

    blocker = _NoPandas()
    sys.meta_path.insert(0, blocker)
    try:
        pa.array([0], type=pa.int64())
    except ImportError:  # pragma: no cover - pyarrow versions that do not swallow it
        pass
    finally:
        sys.meta_path.remove(blocker)


def _worker_main(worker: int, config: RunConfig, tasks, results, stop) -> None:
    """A worker process: batches in, results out, until ``None``; then close the part files."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides how to stop
    no_idle_blas_threads()  # before pyarrow
    auditor = None
    try:
        if config.out_dir:
            skip_pandas_in_pyarrow()
        auditor = Auditor(config, worker)
        gc.freeze()  # imports, grammar, rulebook: never garbage; keep them out of every collection
        while True:
            task = tasks.get()
            if task is None:
                break
            if stop.is_set():
                continue  # drain: the parent is stopping the run
            seq, packed = task
            results.put(("batch", worker, auditor.run(seq, unpack_chunks(packed))))
        results.put(("done", worker, auditor.close()))
    except BaseException as err:  # report, never hang the parent
        if auditor is not None:
            auditor.abort()
        results.put(("error", worker, f"{type(err).__name__}: {err}\n{traceback.format_exc()}"))


# ---------------------------------------------------------------------------------------------
# the parent


def _batches(files: list[str], batch_size: int):
    """(chunks, bytes) batches over all files, in input order (a batch may span files)."""
    batch: list[Chunk] = []
    size = 0
    for path in files:
        for chunk in read_chunks(path):
            batch.append(chunk)
            size += len(chunk.data) + len(chunk.hand_key) + 3
            if len(batch) >= batch_size or size >= MAX_BATCH_BYTES:
                yield batch, size
                batch, size = [], 0
    if batch:
        yield batch, size


def _flag_last(items, count: int):
    """``(item, last)`` for each of ``items``: ``last`` is True for the final ``count`` of them
    (known by reading ``count`` items ahead)."""
    ahead: deque = deque()
    for item in items:
        ahead.append(item)
        if len(ahead) > count:
            yield ahead.popleft(), False
    while ahead:
        yield ahead.popleft(), True


def _input_bytes(files: list[str]) -> int | None:
    """Total size when every input is a plain (uncompressed, seekable) file; else None."""
    total = 0
    for f in files:
        if f == "-" or f.endswith(".gz"):
            return None
        try:
            total += os.path.getsize(f)
        except OSError:
            return None
    return total


def report_metadata(rulebook: str, overrides) -> tuple[tuple[str, str], ...]:
    """The key/value metadata stamped on every Parquet part of a run (RunConfig.metadata)."""
    meta = {"handaudit.rulebook": rulebook, "handaudit.overrides": " ".join(overrides)}
    try:
        from . import __version__

        meta["handaudit.version"] = __version__
    except ImportError:  # pragma: no cover
        pass
    return tuple(sorted(meta.items()))


def build_manifest(config: RunConfig, inputs, files, rulebook: str, jobs: int, tables: dict, summary: Summary,
                   complete: bool, interrupted: bool, error: str | None) -> dict:
    """The report's ``_manifest.json`` (shared by the local and the Dask engine)."""
    from .reports.schema import SCHEMA_VERSION

    status = "complete" if complete else ("interrupted" if interrupted else "failed")
    manifest = {
        "status": status,
        "handaudit_version": dict(config.metadata).get("handaudit.version"),
        "schema_version": SCHEMA_VERSION,
        "inputs": [report_path(p) for p in inputs],  # as the reports write paths: valid UTF-8
        "files": len(files),
        "rulebook": rulebook,
        "overrides": list(config.overrides),
        "jobs": jobs,
        "hands": tables["hands"]["rows"],
        "tables": tables,
        "elapsed_seconds": round(summary.elapsed or 0.0, 3),
        "summary": summary.to_json(),
    }
    if error:
        manifest["error"] = error.splitlines()[0]
    return manifest


class _Interrupt:
    """SIGINT handler for the run: the first Ctrl-C asks to stop, the second stops at once."""

    def __init__(self):
        self.requested = False
        self.previous = None
        self.installed = False

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
            self.installed = True
        return self

    def _handle(self, signum, frame):
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __exit__(self, *exc):
        if self.installed:
            signal.signal(signal.SIGINT, self.previous)
        return False


class Runner:
    """One run of ``handaudit check``: see the module docstring.

    ``jsonl_stream``: a text stream for the JSONL lines (in input order), or None.
    ``subsets``: a :class:`~handaudit.export.Subsets` or None. ``progress``: a
    :class:`~handaudit.reports.text.Progress` or None.
    """

    def __init__(self, paths, *, rulebook: str = "tda-2026", overrides=(), jobs: int | None = None,
                 out_dir: str | None = None, jsonl_stream=None, subsets=None, progress=None,
                 batch_size: int = DEFAULT_BATCH, window: int | None = None, batch_rows: int | None = None,
                 part_rows: int | None = None):
        self.paths = list(paths)
        self.rulebook = rulebook
        self.overrides = tuple(overrides)
        self.jobs_requested = jobs
        self.out_dir = str(out_dir) if out_dir else None
        self.jsonl_stream = jsonl_stream
        self.subsets = subsets if subsets is not None and subsets.active else None
        self.progress = progress
        self.batch_size = batch_size
        self.window = window
        self.batch_rows = batch_rows
        self.part_rows = part_rows

    # -- set-up ------------------------------------------------------------------------------
    def _prepare(self):
        from .validator.rulebook import load_rulebook

        files = expand_paths(self.paths)  # SourceError: exit status 2 before anything is written
        book = load_rulebook(self.rulebook, list(self.overrides))  # RulebookError likewise
        self.book_name = book.name
        self.files = files
        self.total_bytes = _input_bytes(files)
        jobs = self.jobs_requested
        if jobs is None:
            jobs = default_jobs()
            if self.total_bytes is not None and self.total_bytes < SMALL_INPUT_BYTES:
                jobs = 1
        self.jobs = max(1, int(jobs))
        if self.progress is not None:
            self.progress.total = self.total_bytes
        self.summary = Summary(files=len(files), jobs=self.jobs, rulebook=book.name)
        self.config = RunConfig(
            rulebook=self.rulebook, overrides=self.overrides, out_dir=self.out_dir,
            jsonl=self.jsonl_stream is not None, statuses=self.subsets is not None,
            batch_rows=self.batch_rows, part_rows=self.part_rows, metadata=report_metadata(book.name, self.overrides),
        )
        if self.out_dir:
            from .reports import prepare_dir

            try:
                prepare_dir(self.out_dir)
            except OSError as err:
                raise OutputError(f"--out {self.out_dir}: {err.strerror or err}") from None

    # -- ordered output --------------------------------------------------------------------------
    def _accept(self, result: BatchResult) -> None:
        self.summary.merge(result.summary)
        self.done[result.seq] = result
        while self.next_emit in self.done:
            res = self.done.pop(self.next_emit)
            chunks, nbytes = self.held.pop(self.next_emit)
            self.bytes_done += nbytes
            if res.jsonl and self.jsonl_stream is not None:
                self.jsonl_stream.write(res.jsonl)
            if self.subsets is not None and res.statuses is not None:
                for chunk, status in zip(chunks, res.statuses):
                    self.subsets.add(chunk, status)
            self.next_emit += 1
        if self.progress is not None:
            self.progress.update(self.summary.hands, self.bytes_done)

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> RunResult:
        self._prepare()
        self.done: dict[int, BatchResult] = {}
        self.held: dict[int, tuple[list[Chunk] | None, int]] = {}
        self.next_emit = 0
        self.bytes_done = 0
        started = time.monotonic()
        interrupted = False
        error = None
        raised: BaseException | None = None
        with _Interrupt() as stop:
            try:
                interrupted = self._run_local(stop)
            except KeyboardInterrupt:
                interrupted = True
            except RunError as err:
                error = str(err)
            except BaseException as err:  # SourceError mid-run, a bug: record, clean up, re-raise
                error = f"{type(err).__name__}: {err}"
                raised = err
            finally:
                if self.progress is not None:
                    self.progress.close()
                if self.jsonl_stream is not None:
                    try:
                        self.jsonl_stream.flush()
                    except (BrokenPipeError, ValueError):
                        pass
                if self.subsets is not None:
                    self.subsets.close()
        self.summary.elapsed = time.monotonic() - started
        complete = not interrupted and error is None
        result = RunResult(self.summary, complete, interrupted, self.out_dir, error=error,
                           subsets=self.subsets.describe() if self.subsets is not None else [])
        if self.out_dir:
            result.removed_temporaries, result.tables = self._finish_report(complete, interrupted, error)
        if raised is not None:
            raise raised
        return result

    def _finish_report(self, complete: bool, interrupted: bool, error: str | None):
        from .reports import remove_temporaries, write_manifest
        from .reports.parquet import count_rows, write_empty_parts

        removed = remove_temporaries(self.out_dir)
        if complete:
            write_empty_parts(self.out_dir, dict(self.config.metadata))
        tables = count_rows(self.out_dir)
        manifest = build_manifest(self.config, self.paths, self.files, self.book_name, self.jobs, tables,
                                  self.summary, complete, interrupted, error)
        write_manifest(self.out_dir, manifest, complete)
        return removed, tables

    def _run_local(self, stop: _Interrupt) -> bool:
        """Audit every batch, here or in one of ``jobs - 1`` worker processes; True if interrupted.

        This process is one of the ``jobs`` auditors: it sends a batch to a worker that has fewer
        than ``_Workers.PER_WORKER`` batches waiting and audits it itself otherwise. So the first
        batches are audited while the workers import handaudit and pyarrow, a worker slowed by
        another program simply gets fewer, and the run has one process fewer than a parent that
        only cuts and ships hands (measured as fast as that design on two cores, in 335 MB
        against 350 MB for the process tree at 100,000 hands).
        """
        workers = _Workers(self.config, self.jobs - 1) if self.jobs > 1 else None
        auditor = None
        try:
            if self.out_dir:
                skip_pandas_in_pyarrow()  # this process writes Parquet parts too
            auditor = Auditor(self.config, 0)
            window = self.window or (2 * _Workers.PER_WORKER * self.jobs)
            # The last batches stay here: this process audits them while the workers finish what
            # they have queued, instead of waiting for them.
            batches = _flag_last(_batches(self.files, self.batch_size), _Workers.KEEP_LAST if workers else 0)
            for seq, ((chunks, nbytes), last) in enumerate(batches):
                if workers is not None:
                    # the ordered window is full: the oldest batch is still at a worker
                    while seq - self.next_emit >= window and not stop.requested and workers.failure is None:
                        workers.wait(self._accept)
                    workers.collect(self._accept)
                if stop.requested or (workers is not None and workers.failure is not None):
                    break
                self.held[seq] = (chunks if self.subsets is not None else None, nbytes)
                if workers is None or last or not workers.send(seq, chunks):
                    self._accept(auditor.run(seq, chunks))
            interrupted = stop.requested
            if workers is not None:
                if not interrupted and workers.failure is None:
                    auditor.close()  # this process's last row groups are written while the workers finish
                    auditor = None
                interrupted = workers.finish(self._accept, stop, interrupted)
            if auditor is not None:
                auditor.close()  # what this process audited stays in the report, whatever the workers did
                auditor = None
        except BaseException:
            if auditor is not None:
                auditor.abort()
            if workers is not None:
                workers.stop()
            raise
        finally:
            if workers is not None:
                workers.close()
        if workers is not None and workers.failure is not None and not interrupted:
            raise RunError(workers.failure)
        return interrupted


class _Workers:
    """The worker processes of a local run and their batches in flight (see :meth:`Runner._run_local`).

    Workers are numbered from 1 (the parent's own part files are worker 0's). Each gets at most
    ``PER_WORKER`` batches at a time, so that it always has the next one queued while the parent,
    busy auditing a batch of its own, cannot answer.
    """

    PER_WORKER = 3
    KEEP_LAST = 2  # a worker has 2-3 batches left when the input ends; the parent keeps as many

    def __init__(self, config: RunConfig, count: int):
        ctx = mp.get_context("spawn")
        self.results = ctx.Queue()
        self.stop_event = ctx.Event()
        self.tasks = [ctx.Queue() for _ in range(count)]
        self.processes = [ctx.Process(target=_worker_main, args=(w + 1, config, self.tasks[w], self.results,
                                                                 self.stop_event),
                                      name=f"handaudit-worker-{w + 1}", daemon=True) for w in range(count)]
        self.outstanding = [0] * count
        self.finished: set[int] = set()
        self.failure: str | None = None
        for p in self.processes:
            p.start()

    def send(self, seq: int, chunks: list[Chunk]) -> bool:
        """Give batch ``seq`` to the least busy worker; False if every worker has enough."""
        w = min(range(len(self.tasks)), key=self.outstanding.__getitem__)
        if self.outstanding[w] >= self.PER_WORKER:
            return False
        self.tasks[w].put((seq, pack_chunks(chunks)))
        self.outstanding[w] += 1
        return True

    def _handle(self, message, accept) -> None:
        kind, worker, payload = message
        w = worker - 1
        if kind == "batch":
            self.outstanding[w] -= 1
            accept(payload)
        elif kind == "done":
            self.finished.add(w)
        else:
            self.finished.add(w)
            self.failure = self.failure or f"worker {worker} failed: {payload.strip()}"

    def collect(self, accept) -> None:
        """Hand every result already back to ``accept``, without waiting."""
        while True:
            try:
                message = self.results.get_nowait()
            except queue.Empty:
                return
            self._handle(message, accept)

    def wait(self, accept, timeout: float = 0.2) -> None:
        """Wait up to ``timeout`` for one result; notice a worker that died."""
        try:
            self._handle(self.results.get(timeout=timeout), accept)
        except queue.Empty:
            for w, p in enumerate(self.processes):
                if w not in self.finished and p.exitcode is not None:
                    try:  # a last message may still be in the pipe
                        while True:
                            self._handle(self.results.get(timeout=0.5), accept)
                    except queue.Empty:
                        pass
                    if w not in self.finished:
                        self.finished.add(w)
                        self.failure = self.failure or f"worker {w + 1} died (exit code {p.exitcode})"

    def finish(self, accept, stop: _Interrupt, interrupted: bool) -> bool:
        """No more batches: wait for the workers' last results and their closed part files.
        True if the run was (or is now) interrupted. A second Ctrl-C raises KeyboardInterrupt."""
        if interrupted or self.failure is not None:
            self.stop_event.set()  # workers skip the batches still queued
        for q in self.tasks:
            q.put(None)
        deadline = None
        while len(self.finished) < len(self.processes):
            if stop.requested and not interrupted:
                interrupted = True
                self.stop_event.set()
            if (interrupted or self.failure is not None) and deadline is None:
                deadline = time.monotonic() + 30.0
            if deadline is not None and time.monotonic() > deadline:
                break
            self.wait(accept)
        if not interrupted and self.failure is None and any(self.outstanding):
            self.failure = "workers finished with batches unaccounted for"
        return interrupted

    def stop(self) -> None:
        """Tell the workers to stop now (an error or a second Ctrl-C in the parent)."""
        self.stop_event.set()

    def close(self) -> None:
        """Make sure every worker has ended (waiting for a clean exit first) and free the queues."""
        quick = self.stop_event.is_set()
        if len(self.finished) < len(self.processes):
            self.stop_event.set()
            for q in self.tasks:
                try:
                    q.put(None)
                except (ValueError, OSError):
                    pass
        for p in self.processes:
            if p.is_alive():
                p.join(timeout=0.1 if quick else 5.0)
        for p in self.processes:
            if p.is_alive():
                p.terminate()
        for p in self.processes:
            p.join(timeout=5.0)
        for q in self.tasks + [self.results]:
            q.cancel_join_thread()
            q.close()


def run(paths, **options) -> RunResult:
    """Audit ``paths`` with :class:`Runner` (keyword options as its constructor's)."""
    return Runner(paths, **options).run()


def audit_to_parquet(paths, out_dir, rulebook: str = "tda-2026", jobs: int | None = None, overrides=(),
                     **options) -> Summary:
    """Audit every hand of ``paths`` into the Parquet report ``out_dir``; the run's :class:`Summary`.

    ``jobs``: worker processes (None: all cores; 1: in this process). Other options as
    :class:`Runner` (``write_valid=DIR``, ``write_invalid=DIR``, ``batch_size=...``).
    Raises :class:`~handaudit.grammar.sources.SourceError` for an input that cannot be read,
    ``RulebookError`` for a bad rulebook, :class:`RunError` when a worker fails, and
    ``KeyboardInterrupt`` when the run was interrupted (the report is then incomplete).
    """
    from .export import Subsets

    valid = options.pop("write_valid", None)
    invalid = options.pop("write_invalid", None)
    subsets = Subsets(valid, invalid) if (valid or invalid) else None
    result = Runner(paths, rulebook=rulebook, overrides=overrides, jobs=jobs, out_dir=out_dir,
                    subsets=subsets, **options).run()
    if result.error:
        raise RunError(result.error)
    if result.interrupted:
        raise KeyboardInterrupt("the run was interrupted; the report in %s is incomplete" % out_dir)
    return result.summary

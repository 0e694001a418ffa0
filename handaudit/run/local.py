"""The batch runner: audit many hands in ``jobs`` processes, in flat memory.

This process finds the input files and cuts them into hands (raw bytes, no parsing:
:func:`~handaudit.grammar.sources.read_chunks`) in batches of ``batch_size`` hands. It is one
of the ``jobs`` auditors: it sends a batch to one of ``jobs - 1`` worker processes that has room
for it and audits the batch itself otherwise, and of the input's last batches it gives a worker
only one that would otherwise sit idle (see :meth:`Runner._run_local`). A large ``.phhs`` file
is thus spread over all processes, not given to one. Each process reads, replays and settles
its hands and writes its own Parquet part files (one
:class:`~handaudit.reports.parquet.ReportWriter` each); a worker sends back a small
per-batch summary, the hands' statuses and, when asked, their JSONL lines. This process merges
the summaries, writes JSONL and the clean subsets in input order, and shows progress.

Memory stays flat: at most ``window`` batches are in flight or waiting to be written in order.
The result does not depend on ``jobs``: the same rows, only spread over other part files.
``jobs=1`` runs everything in the calling process (no worker).

Stopping: on SIGINT (Ctrl-C), SIGTERM or SIGHUP this process stops cutting batches, lets each
worker finish the batch it is on and close its part files, closes its own, removes any temporary
part, writes ``_manifest.json`` with status ``interrupted`` (no ``_SUCCESS``) and reports how many
hands are in the report (exit status 130 from ``handaudit check``). A second signal stops at once
(temporary parts are still removed). Workers ignore SIGINT and SIGHUP (this process decides) and
end when this process ends, however it ends (SIGKILL included): Linux delivers them SIGTERM
(``PR_SET_PDEATHSIG``), and elsewhere a worker notices its parent changed within a second.

Every hand once: a worker's rows are only counted once they are in finished part files. A worker
finishes its parts (all tables at once, between batches) every ``COMMIT_BYTES`` of hand text and
says so with the batch's result; this process keeps every batch it sent to a worker until then,
and counts a batch's summary only at that commit (its own batches when its own parts are
finished). If a worker dies, this process audits again every batch the worker had not committed
(the rows are written to this process's parts; the JSON lines, already written in order, are not
repeated). At the end every part of this run that no commit reported (a dead worker's, or one
finished while the run was stopping) is removed, so the tables, the summary and
``_manifest.json`` always hold the same hands, each exactly once.

The report directory is locked (``DIR/.handaudit.lock``, flock) for the whole run: a second run on
the same ``--out`` is refused. Each run's parts are named after its run id, and nothing of the
report directory is ever reached through a symbolic link (see :class:`~handaudit.reports.layout.ReportDir`).
"""

from __future__ import annotations

import itertools
import os
import time
import warnings

from ..findings.selection import EVERYTHING, Selection
from ..grammar.chunk import Chunk, SourceError, pack_chunks
from ..grammar.sources import drop_repeats
from ..importers.inputs import expand_inputs
from ..reports.layout import PART_PREFIX, TABLE_NAMES, OutputError, ReportDir, reason
from ..reports.sinks import CleanSubsets, JSONLStream, ReportSink
from ..reports.summary import Summary
from .batches import count_down, input_batches, input_bytes, read_ahead
from .common import (
    DEFAULT_BATCH,
    SMALL_INPUT_BYTES,
    Auditor,
    BatchResult,
    Interrupt,
    RunConfig,
    RunError,
    RunResult,
    build_manifest,
    default_jobs,
    report_metadata,
)
from .process import pyarrow_without_numpy, skip_pandas_in_pyarrow, worker_start_method, workers_without_main


class Runner:
    """One run of ``handaudit check``: see the module docstring.

    ``sinks``: where the reports go besides the Parquet report of ``out_dir``
    (:class:`~handaudit.reports.sinks.ReportSink`, each fed in input order). ``jsonl_stream`` (a
    text stream for the JSONL lines) and ``subsets`` (a :class:`~handaudit.reports.subsets.Subsets`)
    are shorthands for the two built-in sinks. ``progress``: a
    :class:`~handaudit.reports.text.Progress` or None.
    """

    auditor: Auditor | None  # this process's, while :meth:`_run` runs

    def __init__(self, paths, *, rulebook: str = "tda-2026", overrides=(), jobs: int | None = None,
                 out_dir: str | None = None, jsonl_stream=None, subsets=None, progress=None,
                 batch_size: int = DEFAULT_BATCH, window: int | None = None, batch_rows: int | None = None,
                 part_rows: int | None = None, sinks: list[ReportSink] | None = None,
                 selection: Selection = EVERYTHING, numpy: bool = True, sessions: bool = False):
        self.paths = list(paths)
        self.sessions = sessions  # the cross-hand pass (handaudit/sessions) after the report's parts
        # numpy=False: this process needs no numpy after the run either (``handaudit check``
        # without --html), so pyarrow is imported without it, as in the workers
        self.numpy = numpy
        self.selection = selection
        self.rulebook = rulebook
        self.overrides = tuple(overrides)
        self.jobs_requested = jobs
        self.out_dir = str(out_dir) if out_dir else None
        self.sinks: list[ReportSink] = list(sinks or ())
        if jsonl_stream is not None:
            self.sinks.append(JSONLStream(jsonl_stream))
        if subsets is not None and subsets.active:
            self.sinks.append(CleanSubsets(subsets))
        self.keep_chunks = any(sink.needs_chunks for sink in self.sinks)
        self.progress = progress
        self.batch_size = batch_size
        self.window = window
        self.batch_rows = batch_rows
        self.part_rows = part_rows
        self.report: ReportDir | None = None

    # -- set-up ------------------------------------------------------------------------------
    def _prepare(self) -> None:
        from ..rules.rulebook import load_rulebook

        sizes: dict[str, int] = {}
        files, self.repeats = drop_repeats(expand_inputs(self.paths), sizes)  # SourceError: exit status 2 first
        book = load_rulebook(self.rulebook, list(self.overrides))  # RulebookError likewise
        self.book_name = book.name
        self.files = files
        self.total_bytes = input_bytes(files, sizes)
        jobs = self.jobs_requested
        if jobs is None:
            jobs = default_jobs()
            if self.total_bytes is not None and self.total_bytes < SMALL_INPUT_BYTES:
                jobs = 1
        self.jobs = max(1, int(jobs))
        if self.progress is not None:
            self.progress.total = self.total_bytes
        self.summary = Summary(files=len(files), jobs=self.jobs, rulebook=book.name)
        self.run_id = os.urandom(6).hex()  # (as uuid4's first 12 hex digits, without importing uuid)
        self.config = RunConfig(
            rulebook=self.rulebook, overrides=self.overrides, out_dir=self.out_dir,
            outputs=tuple(dict.fromkeys(sink.output for sink in self.sinks)),
            batch_rows=self.batch_rows, part_rows=self.part_rows, metadata=report_metadata(book.name, self.overrides),
            run_id=self.run_id, selection=self.selection,
        )
        if self.out_dir:
            report = ReportDir(self.out_dir, create=True)
            try:
                report.lock()  # another run on this directory: refused, before anything is touched
                report.prepare()
            except BaseException:
                report.close()
                raise
            self.report = report

    # -- ordered output, counting --------------------------------------------------------------
    def _emit(self, result: BatchResult) -> None:
        """A batch's results, written in input order (JSONL, clean subsets, progress)."""
        self.done[result.seq] = result
        while self.next_emit in self.done:
            res = self.done.pop(self.next_emit)
            chunks, nbytes = self.held.pop(self.next_emit)
            self.bytes_done += nbytes
            self.hands_done += res.hands
            for sink in self.sinks:
                sink.accept(res.outputs.get(sink.output), chunks)
            self.next_emit += 1
        if self.progress is not None:
            self.progress.update(self.hands_done, self.bytes_done)

    def _emitted(self, seq: int) -> bool:
        return seq < self.next_emit or seq in self.done

    def _commit(self, summaries: list[Summary], files: dict) -> None:
        """Count batches whose rows are now in finished parts (``files``: the parts just finished)."""
        for s in summaries:
            self.summary.merge(s)
        summaries.clear()
        for table, parts in files.items():
            for name, rows in parts:
                self.kept[table, name] = rows

    def _here(self) -> Auditor:
        """This process's auditor (made on first use, never again once closed)."""
        if self.auditor is None:
            assert not self.closed_here
            if self.out_dir:
                if not self.numpy:
                    pyarrow_without_numpy()
                skip_pandas_in_pyarrow()  # this process writes Parquet parts too
            self.auditor = Auditor(self.config, 0)
        return self.auditor

    def _audit_here(self, seq: int, chunks: list[Chunk], nbytes: int, emit: bool = True) -> None:
        result = self._here().run(seq, chunks, nbytes)
        if emit:
            self._emit(result)
        self.pending_here.append(result.summary)
        if result.committed is not None:
            self._commit(self.pending_here, result.committed)

    def _close_here(self, commit_only: bool = False) -> None:
        """Finish this process's parts (and close its writer unless ``commit_only``); count them."""
        if not commit_only:
            self.closed_here = True
        if self.auditor is None:
            return
        if commit_only:
            files = self.auditor.commit()
        else:
            auditor, self.auditor = self.auditor, None
            files = auditor.close()
        self._commit(self.pending_here, files)

    def _recover(self, worker: int, batches: list, how: str) -> None:
        """Worker ``worker`` died: audit here again every batch it had not committed. A batch whose
        results were already written (in order) is audited for its rows and its count only; one
        that never came back is dropped if the run is stopping (it was never written or counted)."""
        redone = hands = 0
        stopping = self.stop.requested or self.closed_here
        for seq, (chunks, nbytes) in batches:
            emitted = self._emitted(seq)
            if not emitted and stopping:
                continue
            if self.closed_here:
                continue
            self._audit_here(seq, chunks, nbytes, emit=not emitted)
            redone += 1
            hands += len(chunks)
        self.notes.append(f"worker {worker} died ({how}); its {redone} unfinished batch{'es' if redone != 1 else ''} "
                          f"({hands:,} hands) {'were' if redone != 1 else 'was'} audited again by the main process")

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> RunResult:
        self._prepare()
        try:
            return self._run()
        finally:
            if self.report is not None:
                self.report.close()  # releases the lock
                self.report = None

    def _run(self) -> RunResult:
        self.done: dict[int, BatchResult] = {}
        self.held: dict[int, tuple[list[Chunk] | None, int]] = {}
        self.next_emit = 0
        self.bytes_done = 0
        self.hands_done = 0
        self.kept: dict[tuple[str, str], int] = {}  # (table, part) of this run that some commit reported: its rows
        self.pending_here: list[Summary] = []
        self.notes: list[str] = list(self.repeats)
        self.tournaments: list = []  # the tournament summaries read (importers/tournaments.py): no hands
        self.auditor = None
        self.closed_here = False  # this process's auditor closed: it audits no more batches
        started = time.monotonic()
        interrupted = False
        error = None
        raised: BaseException | None = None
        with Interrupt() as stop:
            self.stop = stop
            try:
                interrupted = self._run_local(stop)
            except KeyboardInterrupt:
                interrupted = True
            except RunError as err:
                error = str(err)
            except OutputError as err:  # a report file that cannot be written: the path and the cause
                error = str(err)
            except SourceError as err:  # mid-run: recorded, the report finished, then raised
                error = f"{type(err).__name__}: {err}"
                raised = err
            except OSError as err:  # the environment (too many open files, ...): one line, not a bug
                error = f"{err.filename + ': ' if err.filename else ''}{reason(err)}"
            except BaseException as err:  # a bug: record, clean up, re-raise
                error = f"{type(err).__name__}: {err}"
                raised = err
            finally:
                stop.hold()  # a signal from here on only asks: the report is being finished
                if self.progress is not None:
                    self.progress.close()
                try:
                    self._write_tournaments()
                except (OSError, OutputError) as err:
                    error = error or (str(err) if isinstance(err, OutputError) else reason(err))
                for sink in self.sinks:
                    try:
                        sink.close()
                    except (OSError, OutputError) as err:
                        error = error or (str(err) if isinstance(err, OutputError) else
                                          f"cannot write {sink.what}: {reason(err)}")
            self.summary.elapsed = time.monotonic() - started
            complete = not interrupted and error is None
            result = RunResult(self.summary, complete, interrupted, self.out_dir, error=error,
                               subsets=[line for sink in self.sinks for line in sink.describe()], notes=self.notes)
            if self.report is not None:
                try:
                    result.removed_temporaries, result.tables = self._finish_report(complete, interrupted, error)
                except (OutputError, OSError) as err:
                    result.complete = False
                    result.manifest_written = False
                    result.tables = getattr(self, "finished_tables", None) or {}
                    result.error = error or (str(err) if isinstance(err, OutputError) else reason(err))
        if raised is not None:
            raise raised
        return result

    def _write_tournaments(self) -> None:
        """The tournament summaries read: a JSONL record each (``"record": "tournament"``) after
        the hands, and ``tournaments.parquet`` in the report directory; a note saying how many."""
        from ..importers.tournaments import PARQUET_FILE as TOURNAMENTS_FILE
        from ..importers.tournaments import record, write_parquet

        found = self.tournaments
        if self.report is not None:
            self.report.unlink(None, TOURNAMENTS_FILE)  # (an earlier run's)
        if not found:
            return
        import json

        for sink in self.sinks:
            if isinstance(sink, JSONLStream):
                for t in found:
                    sink.stream.write(json.dumps(record(t), ensure_ascii=False) + "\n")
        if self.report is not None:
            import pyarrow as pa

            buf = pa.BufferOutputStream()
            write_parquet(buf, found)
            self.report.write_file(None, TOURNAMENTS_FILE, buf.getvalue().to_pybytes())
        self.notes.append(f"{len(found):,} tournament summar{'y' if len(found) == 1 else 'ies'} read (no hands: "
                          f"the tournaments output{', ' + TOURNAMENTS_FILE if self.report is not None else ''})")

    def _finish_report(self, complete: bool, interrupted: bool, error: str | None):
        """Remove what no commit reported, give an empty table its empty part, write the manifest.
        The rows of each table are the sum of what the writers' commits reported (a writer counts
        the rows of a part as it writes them, and a part is reported only once its footer is
        written and it has its final name), so no footer is read back; each table directory is
        listed once."""
        from ..reports.parquet import write_empty_part

        report = self.report
        assert report is not None
        removed = 0
        # A part of this run that no commit reported (a dead worker's, or one finished as the
        # run was stopped) holds rows that are not counted, or that were audited again: remove it;
        # so are this run's temporaries (a worker stopped mid-part).
        prefix = f"{PART_PREFIX}{self.run_id}-"
        tables = {}
        for table in TABLE_NAMES:
            for name in report.names(table):
                if name.startswith(prefix) and (table, name) not in self.kept:
                    report.unlink(table, name)
                else:
                    removed += report.remove_if_temporary(table, name, self.run_id)
            parts = {name: rows for (t, name), rows in self.kept.items() if t == table}
            if not parts and complete:  # every table reads, with its schema
                write_empty_part(report, table, dict(self.config.metadata), self.run_id)
                parts = {f"{PART_PREFIX}empty.parquet": 0}
            # each part by name with its rows: `summary` and `report` compare them with the files
            # there (a copy that lost a part must not read as a complete report of fewer hands)
            tables[table] = {"files": len(parts), "rows": sum(parts.values()), "parts": dict(sorted(parts.items()))}
        self.finished_tables = tables  # what the parts hold, even if the manifest cannot be written
        manifest = build_manifest(self.config, self.paths, self.files, self.book_name, self.jobs, tables,
                                  self.summary, complete, interrupted, error)
        manifest["run_id"] = self.run_id
        manifest["tournaments"] = len(self.tournaments)
        if self.sessions and complete:
            from ..sessions.stage import run_pass

            manifest["sessions"] = run_pass(report.path, self.rulebook, self.overrides, self.run_id,
                                            dict(self.config.metadata), self.jobs)
        report.write_manifest(manifest, complete)
        return removed, tables

    def _run_local(self, stop: Interrupt) -> bool:
        """Audit every batch, here or in one of ``jobs - 1`` worker processes; True if interrupted.

        This process is one of the ``jobs`` auditors: it sends a batch to a worker that has fewer
        than ``_Workers.PER_WORKER`` batches waiting and audits it itself otherwise. So the first
        batches are audited while the workers import handaudit and pyarrow, a worker slowed by
        another program simply gets fewer, and the run has one process fewer than a parent that
        only cuts and ships hands (as fast as that design on two cores, in less memory:
        docs/performance.md).
        """
        workers = None
        try:
            source = input_batches(self.files, self.batch_size, self.tournaments)
            if self.jobs > 1 and self.jobs_requested is None and self.total_bytes is None:
                # a pipe (`cat day.phhs | handaudit check -`): its first SMALL_INPUT_BYTES are read
                # before any worker starts, and an input that ends there is audited in this
                # process alone, as a small file is (a worker's start would cost more than it)
                first, whole = read_ahead(source, SMALL_INPUT_BYTES)
                if whole:
                    self.jobs = self.summary.jobs = 1
                source = itertools.chain(first, source)
            if self.jobs > 1:
                workers = _Workers(self.config, self.jobs - 1, self)
            if workers is None:
                self._here()
            # else made at this process's first batch: the workers get theirs first, and start
            # on them while this process imports pyarrow
            window = self.window or (2 * _Workers.PER_WORKER * self.jobs)
            # The input's end in view (the last TAIL batches), a worker gets a batch only when it
            # has nothing left to do, and never one of the last KEEP_HERE: this process audits them
            # while the workers empty their queues, and all end together.
            batches = count_down(source, _Workers.TAIL if workers else 0)
            for seq, ((chunks, nbytes), left) in enumerate(batches):
                if workers is not None:
                    # the ordered window is full: the oldest batch is still at a worker
                    while seq - self.next_emit >= window and not stop.requested and workers.failure is None:
                        workers.wait()
                    workers.collect()
                if stop.requested or (workers is not None and workers.failure is not None):
                    break
                self.held[seq] = (chunks if self.keep_chunks else None, nbytes)
                if workers is not None and left < _Workers.KEEP_HERE:
                    workers.end(False)  # no more batches for them: they close their parts meanwhile
                if (workers is None or left < _Workers.KEEP_HERE
                        or not workers.send(seq, chunks, nbytes, idle_only=left < _Workers.TAIL)):
                    self._audit_here(seq, chunks, nbytes)
            interrupted = stop.requested
            self._here()  # (if every batch went to a worker: the table directories, for the report's end)
            if workers is not None:
                workers.end(interrupted)  # the workers close their parts while this process commits
                if not interrupted and workers.failure is None:
                    # this process's last row groups are written while the workers finish; its
                    # writer stays open for the batches of a worker that would die now
                    self._close_here(commit_only=True)
                interrupted = workers.finish(stop, interrupted)
            self._close_here()  # what this process audited stays in the report, whatever the workers did
        except BaseException:
            self.closed_here = True
            if self.auditor is not None:
                self.auditor.abort()
                self.auditor = None
                self.pending_here.clear()
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
    busy auditing a batch of its own, cannot answer. Each sends its results over a pipe of its
    own, whose only writer it is: the pipe closes when the worker dies, and a message cut short by
    its death is never mistaken for a result.

    A batch sent to worker ``w`` is kept in ``sent[w]`` (with its summary, once back, in
    ``pending[w]``) until the worker reports its rows committed; if the worker dies, the runner
    audits those batches again (:meth:`Runner._recover`).
    """

    PER_WORKER = 3
    # The end of a run: a worker holds up to PER_WORKER batches when the last TAIL come into
    # view. Of those it gets one only when it is idle, and never one of the last KEEP_HERE (a
    # batch sent waits for this process's sending thread, which waits for the GIL while this
    # process audits, and comes back a batch or two later). So the workers empty their queues
    # while this process audits the last batches, and no process waits long for another.
    TAIL = 2 * PER_WORKER
    KEEP_HERE = 2

    def __init__(self, config: RunConfig, count: int, runner: Runner):
        self.method = worker_start_method()  # fork where safe: the workers start auditing at once
        forking = self.method == "fork"
        import multiprocessing as mp  # (here: a run in one process never imports it, nor the worker's module)

        from .worker import Sender, worker_main

        ctx = mp.get_context("fork") if forking else mp.get_context("spawn")
        self.runner = runner
        self.stop_flag = ctx.RawValue("b", 0)  # no lock: a worker killed while reading it blocks no one
        self.tasks: list = []
        self.conns: list = []
        self.processes: list = []
        self.outstanding = [0] * count
        self.sent: list[dict[int, tuple[list[Chunk], int]]] = [{} for _ in range(count)]
        self.pending: list[list[Summary]] = [[] for _ in range(count)]
        self.returned: list[list[int]] = [[] for _ in range(count)]
        self.finished: set[int] = set()
        self.ready: set[int] = set()  # the workers that have sent back a batch
        self.ended = False  # end() has told them there are no more batches
        self.failure: str | None = None
        writers: list = []  # each worker's batch pipe, given its Sender once every worker has started
        try:
            for w in range(count):
                task_reader, task_writer = ctx.Pipe(duplex=False)
                reader, writer = ctx.Pipe(duplex=False)
                writers.append(task_writer)
                self.conns.append(reader)
                # A forked worker closes its copies of this process's descriptors: the pipe ends
                # of every worker so far, its own included (the parent is the only writer of its
                # batches, so its death is an end of file), and the report's lock and directories.
                inherited = (tuple(runner.report.descriptors() if runner.report is not None else ())
                             + tuple(c.fileno() for c in self.conns + writers)) if forking else ()
                p = ctx.Process(target=worker_main,
                                args=(w + 1, config, task_reader, writer, self.stop_flag, os.getpid(), inherited),
                                name=f"handaudit-worker-{w + 1}", daemon=True)
                try:
                    with workers_without_main():  # a script without a __main__ guard: not re-run
                        p.start()
                finally:
                    writer.close()  # the worker holds the only writing end of its results ...
                    task_reader.close()  # ... and the only reading end of its batches
                self.processes.append(p)
            for task_writer in writers:  # threads only now: none may run while this process forks
                self.tasks.append(Sender(task_writer))
        except BaseException as err:  # e.g. too many open files: no worker is left behind
            for task_writer in writers[len(self.tasks):]:
                task_writer.close()  # (a worker waiting for batches sees the end of its pipe)
            self.stop_flag.value = 1
            self.finished.update(range(count))
            self.close()
            if isinstance(err, OSError):
                raise OutputError(f"cannot start the worker processes: {reason(err)}") from None
            raise

    def send(self, seq: int, chunks: list[Chunk], nbytes: int, idle_only: bool = False) -> bool:
        """Give batch ``seq`` to the least busy live worker; False if every worker has enough.
        ``idle_only``: only to a worker that has nothing to do and has audited a batch already
        (one still starting is not idle: this process would wait for it at the end)."""
        live = [w for w in range(len(self.tasks)) if w not in self.finished and (not idle_only or w in self.ready)]
        if not live:
            return False
        w = min(live, key=self.outstanding.__getitem__)
        if self.outstanding[w] >= (1 if idle_only else self.PER_WORKER):
            return False
        self.tasks[w].put((seq, pack_chunks(chunks), nbytes))
        self.sent[w][seq] = (chunks, nbytes)
        self.outstanding[w] += 1
        return True

    def _commit(self, w: int, files: dict) -> None:
        self.runner._commit(self.pending[w], files)
        for seq in self.returned[w]:
            self.sent[w].pop(seq, None)
        self.returned[w].clear()

    def _handle(self, w: int, message) -> None:
        kind, payload = message
        if kind == "batch":
            self.ready.add(w)
            self.outstanding[w] -= 1
            self.runner._emit(payload)
            self.pending[w].append(payload.summary)
            self.returned[w].append(payload.seq)
            if payload.committed is not None:
                self._commit(w, payload.committed)
        elif kind == "done":
            self._commit(w, payload)
            self.sent[w].clear()  # batches skipped while stopping: never written, never counted
            self.outstanding[w] = 0
            self._end(w)
        else:
            self._end(w)
            self.failure = self.failure or payload.strip()

    def _end(self, w: int) -> None:
        self.finished.add(w)
        try:
            self.conns[w].close()
        except OSError:  # pragma: no cover
            pass

    def _died(self, w: int) -> None:
        """Worker ``w``'s pipe closed without its last word: make sure it is gone (its part files
        no longer change), then audit its uncommitted batches here."""
        p = self.processes[w]
        p.join(timeout=5.0)
        if p.is_alive():  # pragma: no cover - closed its pipe and lives on
            p.kill()
            p.join(timeout=5.0)
        self._end(w)
        code = p.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        batches = sorted(self.sent[w].items())
        self.sent[w].clear()
        self.pending[w].clear()
        self.returned[w].clear()
        self.outstanding[w] = 0
        self.tasks[w].close(timeout=0)  # its sending thread ends as the pipe breaks
        self.runner._recover(w + 1, batches, how)

    def _poll(self, timeout: float) -> None:
        from multiprocessing.connection import wait

        live = {self.conns[w]: w for w in range(len(self.conns)) if w not in self.finished}
        if not live:
            if timeout:
                time.sleep(min(timeout, 0.05))
            return
        for ready in wait(list(live), timeout):
            w = live[ready]
            try:
                message = self.conns[w].recv()  # (wait() is typed as returning sockets too)
            except (EOFError, OSError):
                self._died(w)
                continue
            self._handle(w, message)

    def collect(self) -> None:
        """Handle every result already back, without waiting."""
        self._poll(0)

    def wait(self, timeout: float = 0.2) -> None:
        """Wait up to ``timeout`` for results (a worker's death is one)."""
        self._poll(timeout)

    def end(self, interrupted: bool) -> None:
        """No more batches: tell the workers to close their part files once their queues are done
        (at once if the run is interrupted or has failed). Once only."""
        if self.ended:
            return
        self.ended = True
        if interrupted or self.failure is not None:
            self.stop_flag.value = 1  # workers skip the batches still queued
        for q in self.tasks:
            q.put(None)

    def finish(self, stop: Interrupt, interrupted: bool) -> bool:
        """Wait for the workers' last results and their closed part files (:meth:`end` first).
        True if the run was (or is now) interrupted. A second signal raises KeyboardInterrupt."""
        if interrupted or self.failure is not None:
            self.stop_flag.value = 1  # workers skip the batches still queued (told after end)
        self.end(interrupted)
        deadline = None
        while len(self.finished) < len(self.processes):
            if stop.requested and not interrupted:
                interrupted = True
                self.stop_flag.value = 1
            if (interrupted or self.failure is not None) and deadline is None:
                deadline = time.monotonic() + 30.0
            if deadline is not None and time.monotonic() > deadline:
                break
            self.wait()
        if not interrupted and self.failure is None and any(self.outstanding):
            self.failure = "workers finished with batches unaccounted for"
        return interrupted

    def stop(self) -> None:
        """Tell the workers to stop now (an error or a second signal in the parent)."""
        self.stop_flag.value = 1

    def close(self) -> None:
        """Make sure every worker has ended (waiting for a clean exit first) and free the queues.
        What a worker had not reported committed when it ended is removed by the runner."""
        quick = bool(self.stop_flag.value)
        if len(self.finished) < len(self.processes):
            self.stop_flag.value = 1
            for sender in self.tasks:
                sender.put(None)
        for p in self.processes:
            if p.is_alive():
                p.join(timeout=0.1 if quick else 5.0)
        for p in self.processes:
            if p.is_alive():
                p.terminate()
        for p in self.processes:
            p.join(timeout=5.0)
            if p.is_alive():  # pragma: no cover
                p.kill()
                p.join(timeout=5.0)
        for conn in self.conns:
            try:
                conn.close()
            except OSError:  # pragma: no cover
                pass
        for sender in self.tasks:
            sender.close(timeout=1.0)  # the workers have ended: their pipes are broken or drained


def run(paths, **options) -> RunResult:
    """Audit ``paths`` with :class:`Runner` (keyword options as its constructor's)."""
    return Runner(paths, **options).run()


def audit_to_parquet(paths, out_dir, rulebook: str = "tda-2026", jobs: int | None = None, overrides=(),
                     **options) -> Summary:
    """Audit every hand of ``paths`` into the Parquet report ``out_dir``; the run's :class:`Summary`.

    ``jobs``: worker processes (None: all cores; 1: in this process). Other options as
    :class:`Runner` (``write_valid=DIR``, ``write_invalid=DIR``, ``batch_size=...``).
    Raises :class:`~handaudit.grammar.chunk.SourceError` for an input that cannot be read,
    ``RulebookError`` for a bad rulebook, :class:`RunError` when a worker fails, and
    ``KeyboardInterrupt`` when the run was interrupted (the report is then incomplete).
    """
    from ..reports.subsets import Subsets
    from .arguments import jobs_arg, path_arg, path_list, rulebook_arg, string_list

    paths = path_list(paths)
    out_dir = path_arg(out_dir, "out_dir")
    rulebook = rulebook_arg(rulebook)
    jobs = jobs_arg(jobs)
    overrides = string_list(overrides, "overrides")
    valid = options.pop("write_valid", None)
    invalid = options.pop("write_invalid", None)
    subsets = Subsets(valid, invalid) if (valid or invalid) else None
    result = Runner(paths, rulebook=rulebook, overrides=overrides, jobs=jobs, out_dir=out_dir,
                    subsets=subsets, **options).run()
    for note in result.notes:  # what the run recovered from (a worker that died), as check prints it
        warnings.warn(note, stacklevel=2)
    if result.error:
        raise RunError(result.error)
    if result.interrupted:
        raise KeyboardInterrupt("the run was interrupted; the report in %s is incomplete" % out_dir)
    return result.summary

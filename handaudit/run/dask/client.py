"""The Dask engine: ``handaudit check PATH... --engine dask [--scheduler ADDRESS]``.

The same audit as the local engine (:mod:`handaudit.run.local`), run by the workers of a Dask
distributed cluster: an existing one (``--scheduler tcp://host:8786``) or a local one started for
the run (``--jobs`` worker processes, default 2, listening on the loopback interface only).

Tasks
    The client cuts the input into tasks of about ``task_bytes`` of text (default: about four
    tasks per worker thread, each between 64 KiB and 4 MiB, i.e. at most some 6,000 hands; 1 MiB
    for standard input):

    * small files (``.phh``, compressed files, ``.phhs`` files no larger than a task) are packed
      whole, several to a task; a worker reads each with the reader's own
      :func:`~handaudit.grammar.sources.read_chunks`, exactly as the local engine does;
    * a large uncompressed ``.phhs`` file is cut into byte ranges that start on a hand's table
      header. The client reads the file once with ``read_chunks`` (the same splitter, so a hand is
      cut exactly where the local engine cuts it), takes a cut every ``task_bytes``, and finds the
      byte offset of each cut's header line by counting line ends (C speed). A task carries
      ``(path, start, end, first hand index, first line, hand count, first key, problems)``; the
      worker reads only its range (one seek, or one ranged GET on object storage), splits it
      with ``read_chunks`` (through a temporary file: the reader's public entry point), and
      shifts index and line numbers by the range's start. What depends on the hands before
      the range (a ``duplicate-hand`` seen earlier in the file) travels with the task as the
      client found it. The worker checks the first key and the hand count it finds against the
      client's, so a range that does not fit fails loudly instead of giving other rows.
      Re-reading a file from its start to skip to a range would cost each task the whole prefix
      (quadratic in the number of ranges); the client's scan costs one pass (the local engine's
      parent makes the same pass) and is overlapped with the workers: tasks are submitted as
      soon as they are cut.
    * standard input (``-``) cannot be read by the workers: the client reads it and sends its
      hands in tasks of ``task_bytes``.

    Local paths are sent to the workers as absolute paths (a worker may run in another working
    directory, or on another machine with the same shared file system); the rows keep the path
    as given, like the local engine's.

    At most a few tasks per worker thread are in flight, so the client's and the scheduler's
    memory stay flat however large the input.

Parts
    Task ``N`` writes ``DIR/<table>/part-tNNNNNN-<seq>.parquet`` with the local engine's writer
    (:class:`~handaudit.run.common.Auditor`, i.e. :class:`~handaudit.reports.parquet.ReportWriter`,
    whose worker name is ``tNNNNNN``). Part names depend only on the task, never on the worker or
    the attempt: a task that is run again (its worker died, or it raised and was retried) writes
    the same names and replaces its earlier parts, so no row is ever counted twice. Each attempt
    writes into a private staging directory (``DIR/_staging/tNNNNNN-<random>/``, on the same file
    system, with the writer's own temporary names and renames); only when the whole task has
    succeeded are its parts moved into the table directories, each by an atomic rename. On
    object storage (``s3://``, ``gs://``, ...) the staging directory is local to the worker and
    each finished part is uploaded to its final key (an object is visible only once complete);
    other fsspec file systems get a temporary name and a move. At the end the client removes the
    staging directory and any ``part-t...`` file that no successful task reported (a late copy
    from an attempt that was given up), so the report holds every hand exactly once.

Results
    A task returns only its :class:`~handaudit.reports.text.Summary` (counts, findings by code,
    payout checks, rake, worst hands), the names and row counts of its parts, and the site hand
    (venue, table, hand number) of each of its hands that names one. The client merges them,
    shows progress as futures complete, and writes the same ``_manifest.json`` and ``_SUCCESS``
    as the local engine (plus ``engine``, ``scheduler`` and ``tasks``).

Duplicate site hands
    The local engine reads a second copy of a site hand as an unreadable ``duplicate-hand``
    entry (:mod:`handaudit.grammar.duplicates`), which needs every hand's key in input order.
    The client checks each task's keys once every earlier task's are checked; a task holding a
    copy is run again with those hands unreadable (same part names: the second run replaces
    the first's parts), so the report is the local engine's. Copies are rare; the cost of one
    is a task run twice.

Stopping
    A task that raises is run again (``TASK_RETRIES``); a task whose worker dies is run again by
    Dask on another worker (``distributed.scheduler.allowed-failures``). The first Ctrl-C stops
    submitting, cancels the queued tasks and waits for those in progress; the second cancels
    everything. The report is then marked ``interrupted`` and holds exactly the hands of the tasks
    that finished. (A local cluster's workers ignore Ctrl-C, like the local engine's.) A cluster
    that has had no worker for ``NO_WORKER_SECONDS`` ends the run with an error.

Limits: ``--format jsonl`` and ``--write-valid``/``--write-invalid`` need every hand back in the
client, in input order; they are refused with ``--engine dask`` (use the local engine).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import queue
import sys
import time
import uuid

from ...findings.selection import EVERYTHING, Selection
from ...grammar.duplicates import SiteHands
from ...grammar.sources import drop_repeats
from ...reports.layout import OutputError
from ...reports.summary import Summary
from ..common import (
    Interrupt,
    RunConfig,
    RunError,
    RunResult,
    build_manifest,
    report_metadata,
)
from .inputs import expand_inputs, is_url
from .planning import (
    MAX_TASK_BYTES,
    MIN_TASK_BYTES,
    TASKS_PER_THREAD,
    UNKNOWN_SIZE_TASK_BYTES,
    Task,
    plan_tasks,
)
from .report_dir import report_dir
from .worker import TaskFailed, TaskResult, one_line_failures_plugin, run_task

DEFAULT_WORKERS = 2
IN_FLIGHT_PER_THREAD = 3  # tasks submitted ahead of the workers, per worker thread
WORKER_CHECK_SECONDS = 5.0
NO_WORKER_SECONDS = 60
TASK_RETRIES = 2  # a task that raises is run again this many times (a dead worker: Dask's allowed-failures)

class EngineError(Exception):
    """The Dask engine cannot run (not installed, no scheduler, no worker): exit status 2."""


# ---------------------------------------------------------------------------------------------
# the client


def _local_security():
    """TLS with a temporary self-signed certificate for every role (mutual: a client or worker
    must present it), so no other user of the machine can connect to the local cluster and run
    code as ours. None if ``cryptography`` is missing."""
    from distributed.security import Security

    try:
        return Security.temporary()
    except ImportError:
        return None


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise EngineError("--engine dask needs Dask: pip install 'handaudit[dask]'") from None
    return distributed


class DaskRunner:
    """One run of ``handaudit check --engine dask``; ``run()`` returns a :class:`~handaudit.run.common.RunResult`.

    ``scheduler``: the address of a running scheduler; None starts a local cluster of ``jobs``
    worker processes (default 2, one thread each, loopback only) for the run. ``client``: an
    existing ``distributed.Client`` to use instead (it is not closed). ``task_bytes``: the size
    of a task (default: automatic). ``status``: where the dashboard link and notes go (stderr).
    ``on_result``: called with each :class:`TaskResult` as it arrives (tests, tools).
    """

    def __init__(self, paths, *, rulebook: str = "tda-2026", overrides=(), jobs: int | None = None,
                 out_dir: str | None = None, scheduler: str | None = None, client=None, progress=None,
                 task_bytes: int | None = None, status=None, on_result=None, dashboard: bool = True,
                 selection: Selection = EVERYTHING, sessions: bool = False):
        self.paths = list(paths)
        self.sessions = sessions  # the cross-hand pass after the parts (a local report only)
        self.selection = selection
        self.rulebook = rulebook
        self.overrides = tuple(overrides)
        self.jobs_requested = jobs
        self.out_dir = str(out_dir) if out_dir else None
        self.scheduler = scheduler
        self.client = client
        self.progress = progress
        self.task_bytes = task_bytes
        self.status = status if status is not None else sys.stderr
        self.on_result = on_result
        self.dashboard = dashboard

    def _note(self, text: str) -> None:
        try:
            self.status.write(f"handaudit: {text}\n")
            self.status.flush()
        except (OSError, ValueError):
            pass

    # -- set-up ------------------------------------------------------------------------------
    def _prepare(self) -> None:
        from ...rules.rulebook import BUILTIN, load_rulebook

        self.files, self.sizes = expand_inputs(self.paths)  # SourceError: exit 2 before anything
        self.files, repeats = drop_repeats(self.files)  # a file named twice is read once, with a note
        for note in repeats:
            self._note(note)
        book = load_rulebook(self.rulebook, list(self.overrides))  # RulebookError likewise
        self.book_name = book.name
        known = [self.sizes.get(f) for f in self.files]
        self.known_bytes = sum(s for s in known if s)
        plain = all(f != "-" and not f.endswith(".gz") and s is not None for f, s in zip(self.files, known, strict=True))
        self.total_bytes = self.known_bytes if plain else None
        rulebook = self.rulebook
        if rulebook not in BUILTIN and not is_url(rulebook):
            rulebook = os.path.abspath(rulebook)  # a file: workers may have another working directory
        self.config = RunConfig(rulebook=rulebook, overrides=self.overrides,
                                metadata=report_metadata(book.name, self.overrides), selection=self.selection)
        self.report = None
        if self.out_dir:
            self.report = report_dir(self.out_dir)

    def _connect(self):
        """(client, cluster or None): the given client, the scheduler at ``scheduler``, or a new local cluster."""
        distributed = _import_distributed()
        if self.client is not None:
            return self.client, None
        if self.scheduler:
            try:
                client = distributed.Client(self.scheduler, set_as_default=False)
            except (OSError, TimeoutError, ValueError) as err:
                raise EngineError(f"cannot connect to the Dask scheduler at {self.scheduler}: {err}") from None
            return client, None
        import signal
        import threading
        import warnings

        security = _local_security()
        if security is None:
            self._note("the local Dask cluster runs without TLS (install cryptography): any user of this "
                       "machine can connect to it and run code as you")
        n = self.jobs_requested or DEFAULT_WORKERS
        # The workers ignore Ctrl-C (like the local engine's): the client decides how to stop.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            import dask

            # The statistical profiler samples the (deep, GIL-bound) audit every 10 ms, at a cost in
            # the worker's CPU. The dashboard's task stream and progress do not need it.
            with dask.config.set({"distributed.worker.profile.enabled": False}), warnings.catch_warnings():
                # A busy port 8787: Dask serves the dashboard on another port (the link says which)
                # and warns in four lines; that is not the user's business.
                warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
                cluster = distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address="127.0.0.1:8787" if self.dashboard else None,
                    silence_logs=logging.ERROR, security=security,
                )
        except Exception as err:
            raise EngineError(f"cannot start a local Dask cluster: {type(err).__name__}: {err}") from None
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        try:
            client = distributed.Client(cluster, set_as_default=False)
            client.register_plugin(one_line_failures_plugin())
        except BaseException:
            cluster.close()
            raise
        return client, cluster

    def _show_cluster(self, client, cluster) -> int:
        """Wait for a worker; say where the dashboard is; the number of worker threads."""
        try:
            client.wait_for_workers(1, timeout=60)
        except TimeoutError:
            raise EngineError(f"no Dask worker joined the scheduler at {self.scheduler} within 60 s") from None
        nthreads = sum(client.nthreads().values()) or 1
        workers = len(client.nthreads())
        where = self.scheduler or client.scheduler.address
        try:
            link = client.dashboard_link if self.dashboard else None
        except Exception:
            link = None
        dash = f"; dashboard {link}" if link else ""
        if link and cluster is not None:
            import importlib.util

            if importlib.util.find_spec("bokeh") is None:
                dash += " (install bokeh>=3.1 to see it)"
        self._note(f"Dask: {workers} worker{'s' if workers != 1 else ''} ({nthreads} thread{'s' if nthreads != 1 else ''}) "
                   f"at {where}{dash}")
        return nthreads

    def _auto_task_bytes(self, nthreads: int) -> int:
        if self.task_bytes:
            return max(1, int(self.task_bytes))
        if not self.known_bytes:
            return UNKNOWN_SIZE_TASK_BYTES
        per = self.known_bytes // max(1, TASKS_PER_THREAD * nthreads)
        return max(MIN_TASK_BYTES, min(MAX_TASK_BYTES, per))

    # -- the run -----------------------------------------------------------------------------
    def run(self) -> RunResult:
        self._prepare()
        client, cluster = self._connect()
        try:
            outcome = self._run(client, cluster)
        finally:
            # A local cluster is closed before the report is finished: no task can write after.
            # Its shutdown chatter (workers closing, comms closed) is not the user's business.
            log = logging.getLogger("distributed")
            level = log.level
            if cluster is not None:
                log.setLevel(logging.CRITICAL)
            try:
                if self.client is None:
                    client.close()
                if cluster is not None:
                    cluster.close()
            finally:
                log.setLevel(level)
        return self._finish(*outcome)

    def _run(self, client, cluster) -> tuple[Summary, int, bool, str | None, BaseException | None]:
        nthreads = self._show_cluster(client, cluster)
        if self.report is not None:
            try:
                self.report.prepare()
            except OutputError as err:  # another run holds DIR, a link, ...
                raise EngineError(str(err)) from None
            except OSError as err:
                raise EngineError(f"--out {self.out_dir}: {err.strerror or err}") from None
        self._reported: dict = {}
        task_bytes = self._auto_task_bytes(nthreads)
        summary = Summary(files=len(self.files), jobs=nthreads, rulebook=self.book_name)
        if self.progress is not None:
            self.progress.total = self.total_bytes
        window = max(2, IN_FLIGHT_PER_THREAD * nthreads)
        run_id = uuid.uuid4().hex[:8]
        started = time.monotonic()
        bytes_done = 0
        self.tasks_done = 0
        interrupted = False
        error = None
        raised: BaseException | None = None
        pending: dict = {}  # future -> task
        out = self.out_dir
        if out and not is_url(out):
            out = os.path.abspath(out)  # workers may have another working directory
        next_check = time.monotonic() + WORKER_CHECK_SECONDS
        no_worker_since: float | None = None

        def check_workers() -> None:
            """Never wait for ever: a cluster that has had no worker for a while ends the run."""
            nonlocal next_check, no_worker_since
            now = time.monotonic()
            if now < next_check:
                return
            next_check = now + WORKER_CHECK_SECONDS
            if client.nthreads():
                no_worker_since = None
            elif no_worker_since is None:
                no_worker_since = now
            elif now - no_worker_since > NO_WORKER_SECONDS:
                raise RunError(f"no Dask worker for {NO_WORKER_SECONDS} s: the cluster lost its workers")

        # Site hands in input order: results wait here until every earlier task's have been
        # checked; a task holding a copy of a hand read before is run again with it unreadable.
        site_hands = SiteHands()
        unchecked: dict[int, Task] = {}  # submitted tasks whose site hands are not checked yet
        arrived: dict[int, TaskResult] = {}
        next_to_check = 0
        summaries: dict[int, Summary] = {}
        files: dict[int, dict] = {}

        def submit(task: Task):
            fut = client.submit(run_task, task, self.config, out, key=f"handaudit-{run_id}-{task.name}"
                                + ("-again" if task.duplicates else ""), retries=TASK_RETRIES, pure=False)
            pending[fut] = task
            fut.add_done_callback(finished.put)

        def final(result: TaskResult) -> None:
            nonlocal bytes_done
            summaries[result.task] = result.summary
            files[result.task] = result.files
            summary.merge(result.summary)
            bytes_done += result.nbytes
            self.tasks_done += 1
            if self.on_result is not None:
                self.on_result(result)
            if self.progress is not None:
                self.progress.update(summary.hands, bytes_done)

        def accept(result: TaskResult, task: Task) -> None:
            nonlocal next_to_check
            if task.duplicates:  # the second run of a task with duplicates: checked already
                final(result)
                return
            arrived[result.task] = result
            while next_to_check in arrived:
                first = arrived.pop(next_to_check)
                checked = unchecked.pop(next_to_check)
                next_to_check += 1
                copies = []
                for key, source, hand_key, index in first.site_hands:
                    problem = site_hands.check_key(key, source, hand_key, index)
                    if problem is not None:
                        copies.append(((source, index), problem))
                if copies:
                    submit(dataclasses.replace(checked, duplicates=tuple(copies)))
                else:
                    final(first)

        finished: queue.SimpleQueue = queue.SimpleQueue()  # futures as they complete (done callbacks)

        def collect(timeout: float) -> None:
            if not pending:
                return
            done = []
            try:
                done.append(finished.get(timeout=timeout) if timeout else finished.get_nowait())
                while True:
                    done.append(finished.get_nowait())
            except queue.Empty:
                pass
            if not done:
                check_workers()
            for fut in done:
                task = pending.pop(fut, None)
                if task is None:  # cancelled by us
                    continue
                if fut.status == "finished":
                    accept(fut.result(), task)
                    continue
                try:
                    fut.result()
                except BaseException as err:  # noqa: BLE001 - the task's own error, reported
                    raise RunError(_task_error(task, err)) from None
                raise RunError(f"task {task.name} was {fut.status}")

        with Interrupt() as stop:
            try:
                for task in plan_tasks(self.files, self.sizes, task_bytes):
                    while len(pending) >= window and not stop.requested:
                        collect(0.2)
                    if stop.requested:
                        break
                    unchecked[task.id] = task
                    submit(task)
                if stop.requested:
                    # Like the local engine: what is running finishes (and is in the report),
                    # what is only queued is cancelled.
                    interrupted = True
                    running = {key for keys in client.processing().values() for key in keys}
                    queued = [fut for fut in pending if fut.key not in running]
                    if queued:
                        client.cancel(queued)
                        for fut in queued:
                            pending.pop(fut, None)
                    self._note(f"interrupted: finishing the {len(pending)} task{'s' if len(pending) != 1 else ''}"
                               " in progress (Ctrl-C again to stop at once)")
                while pending:
                    collect(0.2)
            except KeyboardInterrupt:  # second Ctrl-C: stop at once
                interrupted = True
            except RunError as err:
                error = str(err)
            except BaseException as err:  # SourceError mid-run, a bug: record, clean up, re-raise
                error = f"{type(err).__name__}: {err}"
                raised = err
            finally:
                if pending:
                    try:
                        client.cancel(list(pending))
                    except Exception:
                        pass
                if self.progress is not None:
                    self.progress.close()
        # Tasks that finished after one that never did (an interrupted or failed run): kept when
        # their site hands are new, else left out (their parts removed) rather than counted twice.
        for task_id in sorted(arrived):
            result = arrived[task_id]
            if all(site_hands.check_key(key, source, hand_key, index) is None
                   for key, source, hand_key, index in result.site_hands):
                final(result)
        # The report's summary: each task's final run once, in input order.
        summary = Summary(files=len(self.files), jobs=nthreads, rulebook=self.book_name)
        for task_id in sorted(summaries):
            summary.merge(summaries[task_id])
        for task_files in files.values():
            for table, parts in task_files.items():
                self._reported.setdefault(table, set()).update(name for name, _ in parts)
        summary.elapsed = time.monotonic() - started
        return summary, nthreads, interrupted, error, raised

    def _finish(self, summary: Summary, nthreads: int, interrupted: bool, error: str | None,
                raised: BaseException | None) -> RunResult:
        complete = not interrupted and error is None
        result = RunResult(summary, complete, interrupted, self.out_dir, error=error)
        if self.report is not None:
            try:
                result.removed_temporaries = self.report.cleanup(self._reported)
                result.tables = self.report.finish(dict(self.config.metadata), complete)
                manifest = build_manifest(self.config, self.paths, self.files, self.book_name, nthreads,
                                          result.tables, summary, complete, interrupted, error)
                manifest.update(engine="dask", scheduler=self.scheduler or "local", tasks=self.tasks_done)
                if self.sessions and complete and "://" not in str(self.out_dir):
                    from ...sessions.stage import run_pass

                    manifest["sessions"] = run_pass(str(self.out_dir), self.rulebook, self.overrides, None,
                                                    dict(self.config.metadata), nthreads)
                self.report.write_manifest(manifest, complete)
            finally:
                self.report.close()
        if raised is not None:
            raise raised
        return result


def _task_error(task: Task, err: BaseException) -> str:
    if isinstance(err, TaskFailed):
        return str(err)
    name = type(err).__name__
    text = str(err).strip().splitlines()[0] if str(err).strip() else name
    if isinstance(err, ImportError) and "handaudit" in str(err):
        return (f"a Dask worker cannot import handaudit ({text}): install it on every worker "
                "(pip install 'handaudit[dask]')")
    if name == "KilledWorker":
        return f"task {task.name} ({task.describe()}) killed its worker every time it ran: {text}"
    return f"task {task.name} ({task.describe()}) failed: {name}: {text}"


def run(paths, **options) -> RunResult:
    """Audit ``paths`` on Dask with :class:`DaskRunner` (keyword options as its constructor's)."""
    return DaskRunner(paths, **options).run()

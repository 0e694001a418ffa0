"""What runs on a Dask worker: one task's hands audited into staged parts, published to the
report; the once-per-process settling; and the log filter that makes a failed task one line.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass

from ...grammar.chunk import Chunk
from ...importers import site_hand_of
from ...reports.summary import Summary
from ..common import DEFAULT_BATCH, Auditor, RunConfig
from .inputs import OBJECT_STORES, is_url, url_fs
from .planning import Task, one_line, task_chunks

STAGING = "_staging"


class TaskFailed(Exception):
    """A task's error as one line: the task, its inputs, the exception's type and first line.

    ``run_task`` raises it in place of the error it caught, so that what Dask logs on the worker
    (``repr`` of the exception: here the line itself) and what the client reports say the same.
    """

    def __repr__(self) -> str:
        return str(self)


@dataclass
class TaskResult:
    task: int
    hands: int
    summary: Summary
    files: dict  # table -> [(part name, rows)]
    nbytes: int
    elapsed: float = 0.0
    worker: str | None = None
    site_hands: list = dataclasses.field(default_factory=list)  # (site hand key, source, hand key, index)


def publish(staging: str, out: str, written: dict) -> dict:
    """Move a finished task's parts from its staging directory to the report's tables."""
    files = {}
    remote = is_url(out)
    if remote:
        fs, root = url_fs(out)
        root = root.rstrip("/")
        atomic_put = bool({*(fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))} & OBJECT_STORES)
    for table, parts in written.items():
        files[table] = list(parts)
        for name, _rows in parts:
            src = os.path.join(staging, table, name)
            if not remote:
                os.replace(src, os.path.join(out, table, name))
            elif atomic_put:
                fs.put_file(src, f"{root}/{table}/{name}")
            else:
                tmp = f"{root}/{table}/.{name}.{uuid.uuid4().hex[:8]}.tmp"
                fs.put_file(src, tmp)
                fs.mv(tmp, f"{root}/{table}/{name}")
    return files


_SETTLED = False


def settle_worker() -> None:
    """Once per worker process, after the first Auditor is built (imports, grammar, rulebook):
    what the local engine's workers do at start (see :func:`~handaudit.run.worker.worker_main`)."""
    global _SETTLED
    if _SETTLED:
        return
    _SETTLED = True
    import gc

    from ..process import skip_pandas_in_pyarrow

    skip_pandas_in_pyarrow()
    gc.freeze()  # Dask, tornado, pyarrow, the grammar: never garbage; keep them out of every collection


def run_task(task: Task, config: RunConfig, out: str | None) -> TaskResult:
    """Audit one task's hands on a worker; write its parts; return its summary (see module doc).

    An error is raised again as :class:`TaskFailed`: one line naming the task, its inputs and the
    error (Dask runs the task again, ``TASK_RETRIES``; the client reports the last failure).
    """
    try:
        return _run_task(task, config, out)
    except Exception as err:
        raise TaskFailed(f"task {task.name} ({task.describe()}) failed: {one_line(err)}") from None


def _run_task(task: Task, config: RunConfig, out: str | None) -> TaskResult:
    from ...reports.layout import TABLE_NAMES

    started = time.monotonic()
    staging = None
    if out:
        if is_url(out):
            staging = tempfile.mkdtemp(prefix=f"handaudit-{task.name}-")
        else:
            staging = os.path.join(out, STAGING, f"{task.name}-{uuid.uuid4().hex[:12]}")
        for table in TABLE_NAMES:
            os.makedirs(os.path.join(staging, table), exist_ok=True)
    auditor = Auditor(config.replace(out_dir=staging), task.name)
    settle_worker()
    try:
        summary = Summary()
        hands = 0
        batch: list[Chunk] = []
        site_hands = []
        for chunk in task_chunks(task):
            if chunk.problem is None:
                key = site_hand_of(chunk.data)
                if key is not None:
                    site_hands.append((key, chunk.source, chunk.hand_key, chunk.index))
            batch.append(chunk)
            if len(batch) >= DEFAULT_BATCH:
                result = auditor.run(0, batch)
                summary.merge(result.summary)
                hands += result.hands
                batch = []
        if batch:
            result = auditor.run(0, batch)
            summary.merge(result.summary)
            hands += result.hands
        written = auditor.close()
        files = publish(staging, out, written) if out and staging else {}
    except BaseException:
        auditor.abort()
        raise
    finally:
        if staging:
            shutil.rmtree(staging, ignore_errors=True)
    return TaskResult(task.id, hands, summary, files, task.nbytes, time.monotonic() - started, f"pid {os.getpid()}",
                      site_hands)


class OneLineFailureFilter(logging.Filter):
    """On a worker of a local cluster: Dask's "Compute Failed" record of a handaudit task (six
    lines ending in a traceback, for every attempt) becomes one line on standard error, naming the
    task, its inputs, the error and the worker. Every other record passes."""

    def __init__(self, worker: str):
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        if not (isinstance(record.msg, str) and record.msg.startswith("Compute Failed")):
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        key = str(args[0]) if args else ""
        if not key.startswith("handaudit-"):
            return True
        text = " ".join(str(args[3]).split()) if len(args) > 3 else "an error"  # repr of the exception
        if not text.startswith("task "):  # not a TaskFailed (the task could not even start)
            text = f"task {key.rsplit('-', 1)[-1]} failed: {text}"
        try:
            sys.stderr.write(f"handaudit: {text} (on worker {self.worker})\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        return False


def one_line_failures_plugin():
    """A worker plugin that installs :class:`OneLineFailureFilter` on every worker, now and later."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class OneLineFailures(WorkerPlugin):
        name = "handaudit-one-line-failures"

        def setup(self, worker) -> None:
            log = logging.getLogger("distributed.worker")
            if not any(isinstance(f, OneLineFailureFilter) for f in log.filters):
                log.addFilter(OneLineFailureFilter(str(worker.address)))

    return OneLineFailures()

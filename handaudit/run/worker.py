"""A local worker process (:func:`worker_main`): batches in over a pipe, results out, until told
to end; and :class:`Sender`, the thread both ends use to send without waiting for the reader.
"""

from __future__ import annotations

import gc
import os
import queue
import signal
import threading
import traceback

from ..grammar.chunk import unpack_chunks
from ..reports.layout import OutputError, reason
from .common import COMMIT_BYTES, Auditor, RunConfig
from .process import (
    Stopped,
    close_inherited,
    die_with_parent,
    no_idle_blas_threads,
    pyarrow_without_numpy,
    skip_pandas_in_pyarrow,
    stop_worker,
)


class Sender:
    """Messages over one end of a pipe, sent by a thread (so that the sender never waits for the
    reader: a worker's results, the parent's batches). If the reader is gone, ``broken`` is set."""

    _END = object()

    def __init__(self, conn) -> None:
        self.conn = conn
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.broken = False
        self.thread = threading.Thread(target=self._run, name="handaudit-sender", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is Sender._END:
                return
            try:
                self.conn.send(item)
            except (OSError, ValueError):
                self.broken = True
                return

    def put(self, item) -> None:
        self.queue.put(item)

    def close(self, timeout: float | None = None) -> None:
        """Send what is queued (waiting up to ``timeout``), then close the pipe."""
        self.queue.put(self._END)
        self.thread.join(timeout)
        if not self.thread.is_alive():
            self.conn.close()


def worker_main(worker: int, config: RunConfig, tasks, conn, stop, parent: int, inherited: tuple[int, ...] = ()) -> None:
    """A worker process: batches in, results out, until ``None``; then close the part files.
    ``inherited``: the parent's descriptors a forked worker closes first (none when spawned)."""
    close_inherited(inherited)
    for name in ("SIGINT", "SIGHUP", "SIGXFSZ"):  # the parent decides how to stop; EFBIG, not death
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    signal.signal(signal.SIGTERM, stop_worker)
    no_idle_blas_threads()  # before pyarrow
    auditor = None
    sender = None
    try:
        die_with_parent(parent)
        sender = Sender(conn)
        if config.out_dir:
            pyarrow_without_numpy()
            skip_pandas_in_pyarrow()
        auditor = Auditor(config, worker, COMMIT_BYTES)
        gc.freeze()  # imports, grammar, rulebook: never garbage; keep them out of every collection
        while True:
            if not tasks.poll(1.0):
                if os.getppid() != parent or sender.broken:
                    raise Stopped(0)
                continue
            try:
                task = tasks.recv()
            except EOFError:  # the parent, the only writer, is gone
                raise Stopped(0) from None
            if task is None:
                break
            if stop.value:
                continue  # drain: the parent is stopping the run
            seq, packed, nbytes = task
            sender.put(("batch", auditor.run(seq, unpack_chunks(packed), nbytes)))
        files = auditor.close()
        auditor = None
        sender.put(("done", files))
        sender.close()
    except Stopped as stopped:
        if auditor is not None:
            auditor.abort()
        os._exit(128 + (stopped.args[0] or signal.SIGTERM))  # the parent sees the pipe close
    except BaseException as err:  # report, never hang the parent
        if auditor is not None:
            auditor.abort()
        if sender is None:
            sender = Sender(conn)
        if isinstance(err, OutputError):
            message = str(err)
        elif isinstance(err, OSError):
            message = f"{err.filename + ': ' if err.filename else ''}{reason(err)}"
        else:
            message = f"worker {worker} failed: {type(err).__name__}: {err}\n{traceback.format_exc()}"
        sender.put(("error", message))
        sender.close()

"""Per-process tweaks, in one place: the collector's threshold while auditing, one BLAS thread,
pyarrow kept from importing pandas (and, in a worker, numpy), how workers start (fork or spawn),
and a worker's signals (stop with its parent).
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# While a batch is audited, the garbage collector's youngest generation is collected after
# this many new container objects instead of Python's 700. Auditing a hand makes no reference
# cycles (runs over the real corpus with the collector off leave no unreachable object), so a
# collection only walks live objects (the hand at hand, the parse memo) and ages them into
# older generations that are walked again: at the default 700 those collections are wasted
# time, at 10,000 nearly none (docs/performance.md).
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


def no_idle_blas_threads() -> None:
    """handaudit does no linear algebra, but pyarrow imports numpy, whose OpenBLAS starts a thread
    per core that keeps polling for work (CPU taken from the audit). One thread is enough.
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

    blocker = _Unavailable("pandas")
    sys.meta_path.insert(0, blocker)
    try:
        pa.array([0], type=pa.int64())
    except ImportError:  # pragma: no cover - pyarrow versions that do not swallow it
        pass
    finally:
        sys.meta_path.remove(blocker)


def pyarrow_without_numpy() -> None:
    """Import pyarrow as if numpy were not installed, in a process that needs none of it.

    pyarrow imports numpy whenever it can (some 30 ms of CPU and 15 MB a process), but a worker
    only turns Python lists into Parquet, and ``handaudit check`` without ``--html`` only that
    and the report's footers. pyarrow then works without numpy for the rest of the process
    (``to_numpy`` and ``to_pandas`` would fail; neither calls them). Only handaudit's workers and
    a :class:`~handaudit.run.local.Runner` made with ``numpy=False`` (``check``'s) call this; a
    process that already has pyarrow or numpy is left alone.
    """
    if "pyarrow" in sys.modules or "numpy" in sys.modules:
        return
    blocker = _Unavailable("numpy")
    sys.meta_path.insert(0, blocker)
    try:
        import pyarrow.compute  # noqa: F401  (the modules the writer uses, imported now)
        import pyarrow.parquet  # noqa: F401
    finally:
        sys.meta_path.remove(blocker)


class _Unavailable:
    """An import hook that answers "not installed" for one package while it is in sys.meta_path."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, name, path=None, target=None):
        if name == self.package or name.startswith(self.package + "."):
            raise ImportError(f"{self.package} is not needed here")
        return None


def worker_start_method() -> str:
    """How this process starts its worker processes: ``fork`` where that is safe, ``spawn`` elsewhere.

    A forked worker has the parent's imports (handaudit, its grammar and rulebook code) and only
    imports pyarrow for its writer before it audits; a spawned one first starts an interpreter
    and imports all of them: some 0.1 s more before its first batch, in which the parent audits
    alone (docs/performance.md, "--jobs scaling"). Forking is safe only on Linux and only while this process runs a single thread:
    another thread's locks would be copied held. pyarrow's allocator starts a thread at import,
    so a process that has imported pyarrow (a library caller's, a test's) spawns its workers.
    ``HANDAUDIT_WORKER_START=spawn`` in the environment always spawns.
    """
    if os.environ.get("HANDAUDIT_WORKER_START", "").strip().lower() == "spawn" or not sys.platform.startswith("linux"):
        return "spawn"
    return "fork" if native_threads() == 1 else "spawn"


def native_threads() -> int:
    """The threads this process runs, the interpreter's and the libraries' alike (Linux: the
    entries of /proc/self/task; 0 if that cannot be read)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def close_inherited(fds) -> None:
    """In a forked worker: close the parent's descriptors it was given (its other workers' pipe
    ends, the report directory and its lock), so that only the parent holds them: a worker keeps
    neither the run's lock nor another worker's pipe open."""
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


class Stopped(BaseException):
    """A worker is told to stop now (SIGTERM, its parent gone): remove its temporary parts, exit."""


def stop_worker(signum, frame) -> None:
    raise Stopped(signum)


PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Have the kernel send this process SIGTERM when its parent ends (Linux); in any case stop
    if the parent is already gone. Elsewhere the worker's loop polls :func:`os.getppid`."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl: the poll remains
            pass
    if os.getppid() != parent:
        raise Stopped(0)


@contextmanager
def workers_without_main() -> Iterator[None]:
    """Start worker processes (``spawn``) without re-running the user's ``__main__``.

    A spawned child imports the parent's main module before it runs its target, so a plain script
    that calls ``handaudit.audit_to_parquet(..., jobs=2)`` at top level, without an
    ``if __name__ == "__main__":`` guard, would run again in each worker and fail there. The
    workers need nothing from it (their target and every hand sink are handaudit's own), so while
    they start, ``__main__`` shows multiprocessing neither a file nor a module name to import.
    """
    main = sys.modules.get("__main__")
    hidden: dict[str, object] = {}
    if main is not None:
        for name in ("__file__", "__spec__"):
            if name in main.__dict__:
                hidden[name] = main.__dict__[name]
        main.__dict__.pop("__file__", None)
        if "__spec__" in main.__dict__:
            main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        if main is not None:
            main.__dict__.update(hidden)

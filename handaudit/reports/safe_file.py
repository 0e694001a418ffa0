"""The one way handaudit writes a file a user names (``convert -o``, ``check --html``,
``report -o``, ``explain --html``): never through a link, never over what is not a file, never
a half file, nothing left behind.

:class:`SafeFile` refuses a target that exists and is not a regular file (a directory,
``/dev/null`` or another device, a FIFO, a socket, a symbolic link: ``lstat``, never followed),
creates a temporary file of a random name beside it with ``O_EXCL | O_NOFOLLOW`` (a link or
anything planted at that name is refused, not followed), writes it, and renames it over the
target only when it is whole. On any exit before that (an error, a full disk, Ctrl-C, SIGTERM,
SIGHUP: :func:`signals_raise`) the temporary file is removed. The report directory of ``--out``
follows the same rules through its directory descriptor (:mod:`handaudit.reports.layout`).
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from .layout import OutputError

_NEW: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_SIGNALS: Final = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


def _at(flag: str, path: str) -> str:
    return f"{flag} {path}" if flag else path


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link (handaudit never writes through a link)"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_target(path: str, flag: str, overwrite: bool = True) -> None:
    """Refuse, before any work, a target that cannot be written safely: an empty name, a missing
    folder or one that cannot be written, an existing entry that is not a regular file (see the
    module), or (``overwrite`` false) any existing entry."""
    if not path:
        raise OutputError(f"{flag or 'output'}: give a file name")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise OutputError(f"{_at(flag, path)}: cannot examine it: {err.strerror or err}") from None
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(f"{_at(flag, path)}: is {_kind(st.st_mode)}, not a regular file; give a file name")
        if not overwrite:
            raise OutputError(f"{_at(flag, path)}: exists (give --overwrite to replace it)")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OutputError(f"{_at(flag, path)}: no such directory: {folder}")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"{_at(flag, path)}: cannot write in {folder}: permission denied")


class SafeFile:
    """A file being written to replace ``path`` whole (see the module). Use as a context manager:
    the file is renamed into place when the block ends normally, removed otherwise."""

    def __init__(self, path: str, flag: str = "-o", overwrite: bool = True) -> None:
        check_target(path, flag, overwrite)
        self.path = path
        self.flag = flag
        folder = os.path.dirname(os.path.abspath(path))
        self.tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.urandom(8).hex()}.tmp")
        try:
            self.fd = os.open(self.tmp, _NEW, 0o644)
        except OSError as err:
            raise OutputError(f"{_at(flag, path)}: cannot create {self.tmp}: {err.strerror or err}") from None
        _LIVE.add(self.tmp)
        self.size = 0
        self.done = False

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
            except OSError as err:
                raise OutputError(f"{_at(self.flag, self.path)}: cannot write {self.tmp}: {err.strerror or err}"
                                  + (" (the disk is full)" if err.errno == errno.ENOSPC else "")) from None
            view = view[n:]
            self.size += n

    def commit(self) -> None:
        """The file is whole: rename it over the target (checked again: nothing but a regular
        file, or nothing, may be there now)."""
        try:
            os.fsync(self.fd)
        except OSError as err:
            if err.errno not in (errno.EINVAL, errno.ENOTSUP):
                self.abort()
                raise OutputError(f"{_at(self.flag, self.path)}: cannot write {self.tmp}: {err.strerror or err}") from None
        os.close(self.fd)
        self.fd = -1
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.abort()
            raise OutputError(f"{_at(self.flag, self.path)}: is now {_kind(st.st_mode)}, not a regular file; not replaced")
        try:
            os.replace(self.tmp, self.path)
        except OSError as err:
            self.abort()
            raise OutputError(f"{_at(self.flag, self.path)}: cannot rename {self.tmp} to it: {err.strerror or err}") from None
        _LIVE.discard(self.tmp)
        self.done = True

    def abort(self) -> None:
        """Remove the temporary file (any exit path that does not commit)."""
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = -1
        if not self.done:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            _LIVE.discard(self.tmp)
            self.done = True

    def __enter__(self) -> SafeFile:
        return self

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()


_LIVE: set[str] = set()  # the temporary files being written (removed however the process ends)


def write_file(path: str, data: bytes, flag: str = "-o") -> None:
    """``data`` written to ``path`` through a :class:`SafeFile`, with signals handled."""
    with signals_raise(), SafeFile(path, flag) as f:
        f.write(data)


@contextmanager
def signals_raise() -> Iterator[None]:
    """SIGTERM and SIGHUP raise KeyboardInterrupt for the block (as Ctrl-C does), so that the
    ``with`` blocks of :class:`SafeFile` remove their temporary files and the command ends with
    the exit status of an interrupt (130), not killed by the signal. In the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}

    def handle(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    for sig in _SIGNALS:
        previous[sig] = signal.signal(sig, handle)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)

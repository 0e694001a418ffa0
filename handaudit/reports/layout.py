"""A report directory: its layout (tables, parts, manifest, lock) and safe access to it.

:class:`ReportDir` opens the directory once and reaches every file through it, never through a
symbolic link; :data:`TABLE_NAMES` are the report's tables, defined here once (light: no pyarrow).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

TABLE_NAMES = ("hands", "actions", "findings", "pots", "players")
# The cross-hand pass's tables (handaudit/sessions: written after the per-hand parts, by the pass)
SESSION_TABLES = ("sessions", "session_hands", "session_players", "session_findings")

# The report directory's layout (no pyarrow needed: the parent process of a run uses these).
MANIFEST = "_manifest.json"
SUCCESS = "_SUCCESS"
LOCK = ".handaudit.lock"  # flock()ed by the run writing the report; left in place (empty but for a pid)
PART_PREFIX = "part-"
TMP_PREFIX = ".part-"
TMP_SUFFIX = ".parquet.tmp"

# Report files are never reached through a symbolic link: directories inside the report are
# opened with O_NOFOLLOW, files are created with O_EXCL | O_NOFOLLOW, and every create, rename
# and unlink is relative to a directory descriptor (a rename or unlink acts on the link itself,
# never on its target). Only DIR itself, the path the user named, is followed.
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
WRITE_BUFFER = 1 << 20


class OutputError(Exception):
    """An output file or directory that cannot be written (or a report that cannot be read): one
    line naming the path and the cause; exit status 2."""


def reason(err: OSError) -> str:
    """``[Errno 28] No space left on device`` -> ``no space left on device``."""
    text = err.strerror or str(err) or type(err).__name__
    return text[:1].lower() + text[1:]


def cannot(action: str, path: str, err: OSError) -> OutputError:
    return OutputError(f"cannot {action} {path}: {reason(err)}")


def _link_error(path: str) -> OutputError:
    return OutputError(f"{path} is a symbolic link: handaudit never writes, renames or deletes a report "
                       "file through a link (remove it)")


class ReportDir:
    """The report directory ``DIR``, opened once; its table directories opened without following
    links. Every file of the report is created, renamed and removed through these descriptors."""

    def __init__(self, path: str | os.PathLike, *, create: bool = False):
        self.path = str(path)
        if create:
            try:
                os.makedirs(self.path, exist_ok=True)
            except FileExistsError:
                raise OutputError(f"{self.path}: exists and is not a directory") from None
            except OSError as err:
                raise cannot("create", self.path, err) from None
        try:
            self.fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except NotADirectoryError:
            raise OutputError(f"{self.path}: exists and is not a directory") from None
        except OSError as err:
            raise cannot("open", self.path, err) from None
        self.tables: dict[str, int] = {}
        self.lock_fd: int | None = None

    def where(self, table: str | None, name: str | None = None) -> str:
        parts = [p for p in (table, name) if p]
        return os.path.join(self.path, *parts)

    # -- the lock ------------------------------------------------------------------------
    def lock(self) -> None:
        """Hold ``DIR/.handaudit.lock`` (flock, exclusive) until :meth:`close`; OutputError if
        another run holds it."""
        import fcntl

        where = self.where(LOCK)
        try:
            fd = os.open(LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644,
                         dir_fd=self.fd)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise _link_error(where) from None
            raise cannot("create the lock file", where, err) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OutputError(f"{where} is not a regular file: remove it")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise OutputError(f"{self.path}: another handaudit run is writing this report (it holds {where}); "
                                  "wait for it to end or choose another --out") from None
            except OSError as err:
                raise cannot("lock", where, err) from None
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        self.lock_fd = fd

    def descriptors(self) -> list[int]:
        """The descriptors this directory holds open (its own, its tables', the lock's)."""
        fds = [self.fd] if self.fd >= 0 else []
        return fds + list(self.tables.values()) + ([self.lock_fd] if self.lock_fd is not None else [])

    def close(self) -> None:
        for fd in self.tables.values():
            os.close(fd)
        self.tables = {}
        if self.lock_fd is not None:
            os.close(self.lock_fd)  # releases the flock
            self.lock_fd = None
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> ReportDir:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- entries -------------------------------------------------------------------------
    def _dir(self, table: str | None) -> int:
        return self.fd if table is None else self.table(table)

    def table(self, table: str, create: bool = False) -> int:
        """The descriptor of ``DIR/<table>`` (created if asked); never through a link."""
        fd = self.tables.get(table)
        if fd is not None:
            return fd
        where = self.where(table)
        if create:
            try:
                os.mkdir(table, 0o777, dir_fd=self.fd)
            except FileExistsError:
                pass
            except OSError as err:
                raise cannot("create", where, err) from None
        try:
            fd = os.open(table, _DIR_FLAGS, dir_fd=self.fd)
        except OSError as err:
            if err.errno == errno.ELOOP or stat.S_ISLNK(self.kind(None, table) or 0):
                raise _link_error(where) from None
            if err.errno == errno.ENOTDIR:
                raise OutputError(f"{where}: exists and is not a directory") from None
            raise cannot("open", where, err) from None
        self.tables[table] = fd
        return fd

    def names(self, table: str | None) -> list[str]:
        try:
            return os.listdir(self._dir(table))
        except OSError as err:
            raise cannot("list", self.where(table), err) from None

    def kind(self, table: str | None, name: str) -> int | None:
        """The entry's ``st_mode`` (of the entry itself, a link not followed), or None."""
        try:
            return os.stat(name, dir_fd=self._dir(table), follow_symlinks=False).st_mode
        except FileNotFoundError:
            return None

    def create(self, table: str | None, name: str, replace: bool = False, buffering: int = WRITE_BUFFER):
        """A new file ``DIR/[table/]name`` open for writing (buffered binary, ``buffering`` bytes).
        It must not exist (O_EXCL, O_NOFOLLOW); with ``replace``, an existing entry that is not a
        directory is removed first (a link itself, never its target)."""
        dfd = self._dir(table)
        try:
            if replace:
                self.unlink(table, name)
            fd = os.open(name, _NEW_FILE, 0o666, dir_fd=dfd)
        except OSError as err:
            if err.errno == errno.EEXIST and stat.S_ISLNK(self.kind(table, name) or 0):
                raise _link_error(self.where(table, name)) from None
            raise cannot("create", self.where(table, name), err) from None
        return os.fdopen(fd, "wb", buffering=buffering)

    def rename(self, table: str | None, src: str, dst: str) -> None:
        """Rename an entry within its directory; an entry at ``dst`` (a link too) is replaced."""
        dfd = self._dir(table)
        try:
            os.replace(src, dst, src_dir_fd=dfd, dst_dir_fd=dfd)
        except OSError as err:
            raise cannot("rename", f"{self.where(table, src)} to {dst}", err) from None

    def unlink(self, table: str | None, name: str) -> bool:
        """Remove an entry that is not a directory (a link itself); False if there was none."""
        dfd = self._dir(table)
        mode = self.kind(table, name)
        if mode is None:
            return False
        if stat.S_ISDIR(mode):
            raise OutputError(f"{self.where(table, name)}: is a directory, where handaudit keeps a file")
        try:
            os.unlink(name, dir_fd=dfd)
        except FileNotFoundError:
            return False
        except OSError as err:
            raise cannot("remove", self.where(table, name), err) from None
        return True

    def write_file(self, table: str | None, name: str, data: bytes) -> None:
        """Write ``data`` to ``name`` whole: a temporary file of this process, then a rename.
        A failure names ``name`` (the file the user knows), with the temporary file's name."""
        tmp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            with self.create(table, tmp) as f:
                try:
                    f.write(data)
                    f.flush()
                except OSError as err:
                    raise cannot("write", f"{self.where(table, name)} (as {tmp})", err) from None
            self.rename(table, tmp, name)
        except BaseException:
            try:
                self.unlink(table, tmp)
            except (OSError, OutputError):
                pass
            raise

    # -- the report's own steps --------------------------------------------------------------
    def prepare(self) -> None:
        """Create the table directories; remove the files of an earlier report (call it locked)."""
        for name in (SUCCESS, MANIFEST):
            self.unlink(None, name)
        for name in self.names(None):
            if name.startswith(f".{MANIFEST}") and name.endswith(".tmp"):
                self.unlink(None, name)
        for table in TABLE_NAMES:
            self.table(table, create=True)
            for name in self.names(table):
                if _is_part_or_temporary(name):
                    self.unlink(table, name)
        for table in SESSION_TABLES:  # an earlier run's cross-hand tables (created by the pass only)
            mode = self.kind(None, table)
            if mode is not None and stat.S_ISDIR(mode):
                for name in self.names(table):
                    if _is_part_or_temporary(name):
                        self.unlink(table, name)

    def remove_temporaries(self, run_id: str | None = None) -> int:
        """Delete unfinished (temporary) part files (of run ``run_id`` only, if given); how many."""
        removed = 0
        for table in TABLE_NAMES:
            try:
                names = self.names(table)
            except (OSError, OutputError):
                continue
            for name in names:
                removed += self.remove_if_temporary(table, name, run_id)
        return removed

    def remove_if_temporary(self, table: str, name: str, run_id: str | None = None) -> int:
        """Delete ``table/name`` if it is an unfinished part file (of run ``run_id``, if given):
        1 if it was removed, else 0 (one that cannot be removed is left for the next run)."""
        if not (name.startswith(f"{TMP_PREFIX}{run_id}-" if run_id else TMP_PREFIX) and name.endswith(TMP_SUFFIX)):
            return 0
        try:
            return int(self.unlink(table, name))
        except (OSError, OutputError):
            return 0

    def write_manifest(self, manifest: dict, complete: bool) -> None:
        self.write_file(None, MANIFEST, manifest_bytes(manifest))
        if complete:
            with self.create(None, SUCCESS, replace=True):
                pass


def manifest_bytes(manifest: dict) -> bytes:
    """``_manifest.json``'s content, as every engine writes it."""
    import json  # (here: a run without a report never imports json, some 4 ms of start-up)

    return (json.dumps(manifest, indent=2, default=str) + "\n").encode("utf-8")


def _is_part_or_temporary(name: str) -> bool:
    return name.startswith((PART_PREFIX, TMP_PREFIX)) and name.endswith((".parquet", TMP_SUFFIX))


def prepare_dir(out_dir: str | os.PathLike) -> Path:
    """Create DIR and its table directories; remove the files of an earlier report in it."""
    with ReportDir(out_dir, create=True) as report:
        report.prepare()
    return Path(out_dir)


def remove_temporaries(out_dir: str | os.PathLike, run_id: str | None = None) -> int:
    """Delete unfinished (temporary) part files left by a stopped worker; how many."""
    try:
        report = ReportDir(out_dir)
    except OutputError:
        return 0
    with report:
        return report.remove_temporaries(run_id)


def part_files(out_dir: str | os.PathLike, table: str) -> list[Path]:
    tdir = Path(out_dir) / table
    if not tdir.is_dir():
        return []
    return sorted(f for f in tdir.iterdir() if f.name.startswith(PART_PREFIX) and f.name.endswith(".parquet"))


def write_manifest(out_dir: str | os.PathLike, manifest: dict, complete: bool) -> None:
    with ReportDir(out_dir) as report:
        report.write_manifest(manifest, complete)


def read_manifest(out_dir: str | os.PathLike) -> dict | None:
    import json

    try:
        return json.loads((Path(out_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def is_report(out_dir: str | os.PathLike) -> bool:
    directory = Path(out_dir)
    return (directory / MANIFEST).exists() or (directory / "hands").is_dir()


def _refuse_if_locked(out_dir: str) -> None:
    """OutputError (as :meth:`ReportDir.lock` says it) if another run holds the directory's lock."""
    import fcntl

    where = os.path.join(out_dir, LOCK)
    try:
        fd = os.open(where, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return  # (a link or an unreadable lock: ReportDir.lock says so when the run takes it)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        raise OutputError(f"{out_dir}: another handaudit run is writing this report (it holds {where}); "
                          "wait for it to end or choose another --out") from None
    except OSError:
        return
    finally:
        os.close(fd)


def check_out_dir(out_dir: str, overwrite: bool) -> None:
    """Refuse an ``--out`` directory whose files a run would lose or mix with its own: a
    directory that is not empty and is not a handaudit report (someone's files), or, unless
    ``overwrite``, an earlier report (its tables would be replaced). Raises OutputError."""
    directory = Path(out_dir)
    try:
        names = sorted(os.listdir(directory))
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise OutputError(f"--out {out_dir}: exists and is not a directory") from None
    except OSError as err:
        raise OutputError(f"--out {out_dir}: cannot list the directory: {reason(err)}") from None
    if not names:
        return
    ours = {*TABLE_NAMES, *SESSION_TABLES, MANIFEST, SUCCESS, LOCK}
    if LOCK in names:
        _refuse_if_locked(out_dir)  # a run writing it now: that, not "holds a report", is the news
    if is_report(directory) or all(n in ours or n.startswith(f".{MANIFEST}") for n in names):
        if overwrite:
            return
        manifest = read_manifest(directory) or {}
        what = (f" ({manifest.get('hands', 0):,} hands, {manifest.get('status')})" if manifest else
                " (an unfinished one: no _manifest.json)")
        raise OutputError(f"--out {out_dir}: holds a handaudit report already{what}; give --overwrite to replace "
                          "it, or choose another directory")
    shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
    raise OutputError(f"--out {out_dir}: the directory is not empty and is not a handaudit report (it holds "
                      f"{shown}); choose an empty or a new directory")

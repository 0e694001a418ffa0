"""Find the input files and split them into hands, streaming.

A ``.phh`` file is one hand; a ``.phhs`` file is many, as TOML tables ``[1]``, ``[2]``, ...
(the table name is the hand key). Either may be gzip-compressed. A ``.phhs`` file is read line
by line, never whole, so a multi-gigabyte file costs the memory of one hand. A hand larger than
:data:`MAX_HAND_BYTES` is reported, not buffered, so garbage input stays within bounded memory.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
import typing
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

from .chunk import (  # noqa: F401  (Chunk, SourceError, pack/unpack: re-exported, the sources' values)
    BOM,
    MAX_HAND_BYTES,
    READ_LINE,
    UNREADABLE,
    Chunk,
    PackedChunks,
    SourceError,
    pack_chunks,
    read_problem,
    reason,
    unpack_chunks,
    unreadable_chunk,
)
from .splitter import BLANK_OR_COMMENT, HEADER, split_tables

PHH_SUFFIXES = (".phh", ".phhs", ".phh.gz", ".phhs.gz")
_MULTI_SUFFIXES = (".phhs", ".phhs.gz")  # many hands by name
_READ_FLAGS: Final = os.O_RDONLY | os.O_CLOEXEC  # as open(path, "rb") opens


def is_phh_path(path: str) -> bool:
    return path.endswith(PHH_SUFFIXES)


# ---------------------------------------------------------------------------------------------
# paths and names as reports write them


def report_path(path: str) -> str:
    """``path`` as every report writes it (the Chunk's ``source``): the path as given, except
    that what is not printable text is written as a backslash escape, so that the form is valid
    UTF-8 on one line, safe on a terminal, and tells different paths apart.

    - a byte of the name that is not UTF-8 (Python holds it as a lone surrogate, ``os.fsdecode``'s
      ``surrogateescape``): ``\\xNN`` (``b'bad\\xff.phh'`` -> ``bad\\xff.phh``);
    - a control character (C0, DEL): ``\\xNN`` (a newline: ``\\x0a``; tab too);
    - a C1 control, U+2028, U+2029, any other lone surrogate: ``\\uNNNN``;
    - a backslash: ``\\\\`` (so the escapes cannot be confused with a name's own text).

    Every other character is kept (accents, CJK, spaces). The form is reversible (the bytes of
    the name: ``\\\\`` -> ``\\``, ``\\xNN`` -> the byte NN, ``\\uNNNN`` -> that character in UTF-8)
    and a path needing none of it is returned as it is: two C calls, no copy.
    """
    if path.isprintable() and "\\" not in path:
        return path
    return _escaped(path, True)


def printable(text: str) -> str:
    """``text`` for one line of text output (a table name, a message): control characters, lone
    surrogates, U+2028 and U+2029 as in :func:`report_path`; backslashes and tabs kept (so a
    :func:`report_path` form passes unchanged)."""
    if text.isprintable():
        return text
    return _escaped(text, False)


def _escaped(text: str, path: bool) -> str:
    out: list[str] = []
    for ch in text:
        o = ord(ch)
        if o == 0x5C:  # backslash
            out.append("\\\\" if path else ch)
        elif o < 0x20 or o == 0x7F:
            out.append(ch if o == 9 and not path else f"\\x{o:02x}")
        elif 0xDC80 <= o <= 0xDCFF:  # an undecodable byte (surrogateescape)
            out.append(f"\\x{o - 0xDC00:02x}")
        elif 0x80 <= o <= 0x9F or o == 0x2028 or o == 0x2029 or 0xD800 <= o <= 0xDFFF:
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# finding the files


Accept = Callable[[str], bool]  # another input format's test of a file with another name (by content)


def _phh_files(top: str, accept: Accept | None = None) -> Iterator[str]:
    """The PHH files under a directory, as ``Path(top).rglob("*")`` filtered by ``is_file()``
    and name would give them (same path text; symlinked directories not entered), from
    ``os.scandir`` entries: no Path object or extra stat per file, which is per hand in a
    directory of .phh files (docs/performance.md).

    And what rglob would pass over without a word, each as its path followed by ``/`` (an entry
    to report, see :func:`expand_paths`): a subdirectory that cannot be listed, an entry whose
    type cannot be read, an entry with a PHH name that is not a file (a dangling symlink, a
    FIFO, a socket, a device). Raises OSError if ``top`` itself cannot be listed.

    ``accept``: files with other names are taken when it says so (another input format told by
    its content: the site logs of handaudit/importers/); the others are passed over.
    """
    with os.scandir(top) as it:
        entries = list(it)
    for entry in entries:
        path = entry.name if top == "." else entry.path
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:  # its type cannot be read (lstat refused): report it
            yield path + "/"
            continue
        if is_dir:
            try:
                found = list(_phh_files(path, accept))
            except OSError:
                yield path + "/"  # cannot be listed: report it
                continue
            yield from found
            continue
        if accept is not None and not is_phh_path(entry.name):
            try:
                regular = entry.is_file()
            except OSError:
                regular = False
            if regular and accept(path):
                yield path
            continue
        if is_phh_path(entry.name):
            try:
                is_file = entry.is_file()  # follows a symlink, as Path.is_file does
            except OSError:
                is_file = False
            if is_file:
                yield path
            elif not _is_dir_link(entry):  # a symlinked directory is not entered, as rglob
                yield path + "/"


def _is_dir_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def expand_paths(paths: list[str], accept: Accept | None = None) -> list[str]:
    """Files to read, in a stable order: directories are searched recursively, sorted.

    A path ending in ``/`` in the list is an entry of a searched directory that could not be
    taken as a file to read (a subdirectory that cannot be listed, a dangling symlink or FIFO
    with a PHH name, ...): :func:`read_chunks` reports it as one ``unreadable-input`` entry (or
    reads it, if it has become a directory that can be listed or a file since), so the run goes
    on and the entry is counted.

    Raises :class:`SourceError` for a path given here that is missing or unreadable, a file
    that is not PHH, or a directory that cannot be listed or holds no PHH file. ``accept``
    (see :func:`_phh_files`) also takes files of another format, in directories and as named.
    """
    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        if os.path.isdir(p):
            try:
                found = sorted(_phh_files(str(Path(p)), accept))
            except OSError as err:
                raise SourceError(f"{report_path(p)}: cannot list the directory: {reason(err)}") from None
            if not found:
                other = " or site log" if accept is not None else ""
                raise SourceError(f"{report_path(p)}: no .phh, .phhs, .phh.gz or .phhs.gz file{other} in this directory")
            out.extend(found)
        elif os.path.exists(p):
            if not is_phh_path(p) and (accept is None or not accept(p)):
                other = ", or a site's hand history" if accept is not None else ""
                raise SourceError(f"{report_path(p)}: not a PHH file (expected .phh, .phhs, .phh.gz or .phhs.gz{other})")
            if not os.access(p, os.R_OK):
                raise SourceError(f"{report_path(p)}: permission denied")
            out.append(p)
        else:
            raise SourceError(f"{report_path(p)}: no such file or directory")
    return out



def drop_repeats(files: list[str], sizes: dict[str, int] | None = None) -> tuple[list[str], list[str]]:
    """``files`` with each file kept once (the first name it was given by), and a note for every
    other name of it: ``a.phh ./a.phh`` or a directory and a file in it would otherwise read the
    same hands twice and give the report two entries for one hand. Two names are the same file
    when they are the same inode on the same device (a hard link too) or, where a name cannot be
    examined, the same absolute path.

    ``sizes``: if given, filled with each kept file's size from the same ``stat`` (the run's
    progress and its choice of ``--jobs`` read them: a second ``stat`` per file cost some 1.3 µs
    of system time, per hand in a directory of .phh files; docs/performance.md)."""
    seen: dict[object, str] = {}
    kept: list[str] = []
    notes: list[str] = []
    for f in files:
        if f == "-" or f.endswith("/"):
            kept.append(f)
            continue
        size = -1
        try:
            st = os.stat(f)
            key: object = (st.st_dev, st.st_ino)
            size = st.st_size
        except OSError:
            key = os.path.normpath(os.path.abspath(f))
        first = seen.get(key)
        if first is None:
            seen[key] = f
            kept.append(f)
            if sizes is not None and size >= 0:
                sizes[f] = size
        else:
            again = "is given twice" if f == first else f"is the same file as {report_path(first)}"
            notes.append(f"{report_path(f)} {again}: it is read once")
    return kept, notes


def _open(path: str) -> typing.BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    if path.endswith(".gz"):
        from .gz import open_gzip  # (here: a run of plain files never imports it)

        # Every member's text is given before what is wrong with the file's end (trailing
        # bytes, a cut): GzipTail, raised after the last byte that could be decompressed.
        return open_gzip(path)
    return open(path, "rb")


def _is_multi(path: str, head: bytes) -> bool:
    """A .phhs by name; for standard input, a text whose first content line is a table header."""
    if path != "-":
        return path.endswith(_MULTI_SUFFIXES)
    for line in (head[3:] if head.startswith(BOM) else head).splitlines(keepends=True):
        if BLANK_OR_COMMENT.match(line):
            continue
        return bool(HEADER.match(line))
    return False


NOT_PHH = "not-phh-file"
# A PHH file's start, in one match: past its blank and comment lines (any line end, as
# bytes.splitlines has them; possessive: skipped once, never tried again), either nothing but a
# comment, or a table (``[``), or a field (``key =``).
_PHH_START = re.compile(rb"(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*+"
                        rb"(?:[ \t]*(?:#[^\r\n]*)?\Z|[ \t\x0b\x0c]*\[|[ \t]*[A-Za-z0-9_\-\"'.]+[ \t]*=)")
_SKIP = re.compile(rb"(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*")  # the blank and comment lines alone
_EOL = re.compile(rb"[\r\n]")


def not_phh(head: bytes) -> str | None:
    """Why ``head`` (a file's first bytes) is not PHH at all, or None. Not PHH: the first line
    that is not blank or a comment neither starts a TOML table (``[``) nor is a ``key = value`` line
    (random bytes, an image, prose). Anything else, however broken (a NUL or a bad byte inside
    a value, an unclosed array), is PHH with a syntax error, reported on its hands; a file of
    blank and comment lines only is PHH too (the reader's own findings: no hands, missing fields).

    One pattern call for a PHH file, no copy and no list of lines: it runs once for every file."""
    start = 3 if head.startswith(BOM) else 0
    if _PHH_START.match(head, start) is not None:
        return None
    skipped = _SKIP.match(head, start)  # (matches the empty string: never None)
    pos = skipped.end() if skipped else start
    eol = _EOL.search(head, pos)
    if b"\0" in head[pos: eol.start() if eol else len(head)]:
        return "not a PHH file: binary data (a NUL byte) where the first table or field should be"
    return "not a PHH file: the first line is neither a TOML table nor a field assignment"


HEAD_BYTES: Final = 64 * 1024  # the bytes of a stream's start that tell PHH from other text


class _Replay(io.RawIOBase):
    """A stream's first bytes, read already, then the rest of it: what a pipe's reader sees after
    :func:`read_head` took its head (a pipe cannot seek back)."""

    def __init__(self, head: bytes, rest: typing.BinaryIO) -> None:
        self.head = head
        self.pos = 0
        self.rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: typing.Any) -> int:
        if self.pos < len(self.head):
            n = min(len(buffer), len(self.head) - self.pos)
            buffer[:n] = self.head[self.pos:self.pos + n]
            self.pos += n
            return n
        piece = self.rest.read1(len(buffer))  # type: ignore[attr-defined]
        buffer[:len(piece)] = piece
        return len(piece)


def read_head(reader: typing.BinaryIO, size: int) -> bytes:
    """The first ``size`` bytes of ``reader`` (fewer only at its end), however a pipe delivers
    them: a verdict on a stream's content must not depend on how its bytes arrive (a ``peek``
    returns what one read happened to get). Consumed: :func:`replay` gives them back."""
    parts: list[bytes] = []
    got = 0
    while got < size:
        piece = reader.read1(size - got)  # type: ignore[attr-defined]
        if not piece:
            break
        parts.append(piece)
        got += len(piece)
    return b"".join(parts)


def replay(head: bytes, rest: typing.BinaryIO) -> typing.BinaryIO:
    """A buffered stream of ``head`` then the rest of ``rest`` (see :func:`read_head`)."""
    return typing.cast(typing.BinaryIO, io.BufferedReader(_Replay(head, rest)))


def read_chunks(path: str, given: tuple[bytes, typing.BinaryIO] | None = None) -> Iterator[Chunk]:
    """Yield every hand of one file as a :class:`Chunk`; problems become chunks, not exceptions.

    The chunks' ``source`` is :func:`report_path` of ``path``; ``path`` itself is opened. A
    file that cannot be opened or read (permission, vanished, I/O error, a directory) is one
    chunk with an ``unreadable-input`` problem; so is an entry ``expand_paths`` could not take
    as a file (a path ending in ``/``).

    ``given``: for standard input, its head (:func:`read_head`) and the stream that gives it
    again, when the caller has read it already to tell a site log.
    """
    if path.endswith("/"):
        yield from _entry(path[:-1])
        return
    source = report_path(path)
    if path != "-" and not path.endswith(_MULTI_SUFFIXES) and not path.endswith(".gz"):
        yield _plain_phh(path, source)
        return
    try:
        stream = _open(path)
    except OSError as err:
        yield unreadable_chunk(source, f"cannot open {source}: {reason(err)}")
        return
    try:
        if path != "-" and not path.endswith(_MULTI_SUFFIXES):
            yield from _single_gz(source, stream)  # a .phh.gz: no look ahead needed
            return
        if given is not None:
            head, reader = given
        else:
            reader = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)  # type: ignore[type-var]
            try:
                head = read_head(reader, HEAD_BYTES) if path == "-" else reader.peek(HEAD_BYTES)[:HEAD_BYTES]
            except (OSError, EOFError, zlib.error) as err:
                yield Chunk(source, "", 0, b"", 1, read_problem(source, err))
                return
            if path == "-":
                reader = replay(head, reader)
        why = not_phh(head)
        if why is not None:
            yield Chunk(source, "", 0, b"", 1, (NOT_PHH, why))
        elif _is_multi(path, head):
            yield from split_tables(source, reader)
        else:
            yield _single(source, reader.read)
    finally:
        if path != "-":
            stream.close()


def _entry(path: str) -> Iterator[Chunk]:
    """An entry of a searched directory that was not a file to read (see :func:`expand_paths`):
    what it is now. A directory that can be listed now: its files; a file: its hands; else one
    ``unreadable-input`` chunk saying what the entry is and why it is not read."""
    source = report_path(path)
    try:
        found = sorted(_phh_files(path))
    except OSError as err:
        listing = err
    else:
        for f in found:
            yield from read_chunks(f)
        return
    try:
        st = os.stat(path)
    except OSError as err:
        if os.path.islink(path):
            what = "a symbolic link to a missing file" if err.errno == errno.ENOENT else "a symbolic link that cannot be followed"
            yield unreadable_chunk(source, f"{source}: {what}: {reason(err)}")
        else:
            yield unreadable_chunk(source, f"cannot read {source}: {reason(err)}")
        return
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        yield unreadable_chunk(source, f"cannot list the directory {source}: {reason(listing)}; its files are not read")
    elif stat.S_ISREG(mode):  # a file now, where the search found something else
        if is_phh_path(path):
            yield from read_chunks(path)
        else:
            yield unreadable_chunk(source, f"{source} could not be searched ({reason(listing)}) and is now a file, "
                                      "not a PHH file; not read")
    else:
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        yield unreadable_chunk(source, f"{source} is {kind}, not a regular file; not read")


def _plain_phh(path: str, source: str) -> Chunk:
    """A .phh file (not gzip), read with os.open and os.read: open()'s file object (its
    creation, an fstat, close through flush) is a cost per file, which is per hand in a
    directory of .phh files."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as err:
        return unreadable_chunk(source, f"cannot open {source}: {reason(err)}")
    try:
        return _single(source, lambda size: os.read(fd, size))
    finally:
        os.close(fd)


def _single_gz(source: str, stream: typing.BinaryIO) -> Iterator[Chunk]:
    """A .phh.gz: its hand; then, if the file goes on past its last whole gzip member with
    bytes that are no gzip data, one entry for that tail (the hand is whole and read)."""
    from .gz import GzipTail

    tail: list[GzipTail] = []

    def read(size: int) -> bytes:
        if tail:
            return b""
        try:
            return stream.read1(size)  # type: ignore[attr-defined,no-any-return]
        except GzipTail as err:
            if not err.complete:
                raise
            tail.append(err)
            return b""

    yield _single(source, read)
    if tail:
        yield Chunk(source, "", 1, b"", 1, ("syntax-error", f"cannot read the end of the file: {tail[0]}"))


def _single(source: str, read: Callable[[int], bytes]) -> Chunk:
    """A one-hand file, whole. ``read(size)``: up to ``size`` bytes, b"" at the end."""
    # Read in pieces up to the bound: read(MAX_HAND_BYTES + 1) would allocate 16 MiB for every
    # file, a cost per small .phh file (docs/performance.md).
    parts: list[bytes] = []
    size = 0
    try:
        while size <= MAX_HAND_BYTES:
            piece = read(READ_LINE)
            if not piece:
                break
            parts.append(piece)
            size += len(piece)
    except IsADirectoryError:  # os.open opens a directory, where open() refused it
        return unreadable_chunk(source, f"{source} is a directory, not a file; not read")
    except (OSError, EOFError, zlib.error) as err:
        return Chunk(source, "", 0, b"", 1, read_problem(source, err))
    if size > MAX_HAND_BYTES:
        return Chunk(source, "", 0, b"", 1, ("syntax-error", f"the hand is larger than {MAX_HAND_BYTES} bytes; not read"))
    data = parts[0] if len(parts) == 1 else b"".join(parts)
    why = not_phh(data[:64 * 1024])
    if why is not None:
        return Chunk(source, "", 0, b"", 1, (NOT_PHH, why))
    # A byte-order mark is no part of the text (toml-rs would skip it, tomllib refuse it).
    return Chunk(source, "", 0, data[3:] if data.startswith(BOM) else data, 1)

"""Find the input files and split them into hands, streaming.

A ``.phh`` file is one hand; a ``.phhs`` file is many, as TOML tables ``[1]``, ``[2]``, ...
(the table name is the hand key). Either may be gzip-compressed. A ``.phhs`` file is read line
by line, never whole, so a multi-gigabyte file costs the memory of one hand. A hand larger than
:data:`MAX_HAND_BYTES` is reported, not buffered, so garbage input stays within bounded memory.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import sys
import typing
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..values import init_args

PHH_SUFFIXES = (".phh", ".phhs", ".phh.gz", ".phhs.gz")
MAX_HAND_BYTES = 16 * 1024 * 1024
_READ_LINE = 1024 * 1024  # longest piece read at once; a longer line is read in pieces

# A hand's table header: [1], [ 12 ], ["7"], ['x'] with an optional comment after it.
# A NUL is never part of a table name (the reader refuses NUL in text, and the JSONL writer
# relies on no output string holding one), so a header holding one is not a header.
_HEADER = re.compile(rb"""^[ \t]*\[[ \t]*(?:"([^"\\\n\x00]*)"|'([^'\n\x00]*)'|([A-Za-z0-9_-]+))[ \t]*\][ \t]*(?:#[^\n]*)?\r?\n?$""")
_BLANK_OR_COMMENT = re.compile(rb"^[ \t]*(?:#[^\n]*)?\r?\n?$")


class SourceError(Exception):
    """A path that cannot be read at all (missing, unreadable, not PHH): exit status 2."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """The raw text of one hand and where it came from.

    ``hand_key`` is the table name ("" for a .phh file), ``index`` the hand's 0-based position in
    its file, ``line`` the 1-based line of the file where the hand's text starts. ``problem`` is
    set when the text could not even be cut out (too large, bad gzip, content outside tables):
    ``(code, message)``.
    """

    source: str
    hand_key: str
    index: int
    data: bytes
    line: int
    problem: tuple[str, str] | None = None

    def __reduce__(self) -> tuple:
        return (Chunk, init_args(self))  # see handaudit/values.py


def is_phh_path(path: str) -> bool:
    return path.endswith(PHH_SUFFIXES)


def _phh_files(top: str) -> Iterator[str]:
    """The PHH files under a directory, as ``Path(top).rglob("*")`` filtered by ``is_file()``
    and name would give them (same path text; symlinked directories not entered, unreadable
    ones skipped), from ``os.scandir`` entries: no Path object or extra stat per file (pathlib
    cost about 45 us per file, which is per hand in a directory of .phh files)."""
    try:
        with os.scandir(top) as it:
            entries = list(it)
    except PermissionError:
        return
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        path = entry.name if top == "." else entry.path
        if is_dir:
            yield from _phh_files(path)
            continue
        if is_phh_path(entry.name):
            try:
                is_file = entry.is_file()  # follows a symlink, as Path.is_file does
            except OSError:
                is_file = False
            if is_file:
                yield path


def expand_paths(paths: list[str]) -> list[str]:
    """Files to read, in a stable order: directories are searched recursively, sorted.

    Raises :class:`SourceError` for a missing path, a file that is not PHH, or a directory
    holding no PHH file.
    """
    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        if os.path.isdir(p):
            found = sorted(_phh_files(str(Path(p))))
            if not found:
                raise SourceError(f"{p}: no .phh, .phhs, .phh.gz or .phhs.gz file in this directory")
            out.extend(found)
        elif os.path.exists(p):
            if not is_phh_path(p):
                raise SourceError(f"{p}: not a PHH file (expected .phh, .phhs, .phh.gz or .phhs.gz)")
            if not os.access(p, os.R_OK):
                raise SourceError(f"{p}: permission denied")
            out.append(p)
        else:
            raise SourceError(f"{p}: no such file or directory")
    return out


def _open(path: str) -> typing.BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    if path.endswith(".gz"):
        # gzip.open owns the file it opens, so closing the GzipFile closes it too
        # (GzipFile(fileobj=f) would leave f open: one leaked descriptor per .gz file).
        return typing.cast(typing.BinaryIO, gzip.open(path, "rb"))
    return open(path, "rb")


def _is_multi(path: str, head: bytes) -> bool:
    """A .phhs by name; for standard input, a text whose first content line is a table header."""
    if path != "-":
        return path.endswith((".phhs", ".phhs.gz"))
    for line in head.splitlines(keepends=True):
        if _BLANK_OR_COMMENT.match(line):
            continue
        return bool(_HEADER.match(line))
    return False


def read_chunks(path: str) -> Iterator[Chunk]:
    """Yield every hand of one file as a :class:`Chunk`; problems become chunks, not exceptions."""
    try:
        stream = _open(path)
    except OSError as err:
        raise SourceError(f"{path}: {err.strerror or err}") from None
    try:
        reader = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)  # type: ignore[type-var]
        try:
            head = reader.peek(64 * 1024)[: 64 * 1024]
        except (OSError, EOFError, zlib.error) as err:
            yield Chunk(path, "", 0, b"", 1, ("syntax-error", f"cannot read the file: {err}"))
            return
        if _is_multi(path, head):
            yield from _split_tables(path, reader)
        else:
            yield _single(path, reader)
    finally:
        if path != "-":
            stream.close()


def _single(path: str, reader: typing.BinaryIO) -> Chunk:
    # Read in pieces up to the bound: read(MAX_HAND_BYTES + 1) would allocate 16 MiB for every
    # file (about 25 us per small .phh file, measured).
    parts: list[bytes] = []
    size = 0
    try:
        while size <= MAX_HAND_BYTES:
            piece = reader.read1(_READ_LINE)  # type: ignore[attr-defined]  # buffered streams all have read1
            if not piece:
                break
            parts.append(piece)
            size += len(piece)
    except (OSError, EOFError, zlib.error) as err:
        return Chunk(path, "", 0, b"", 1, ("syntax-error", f"cannot read the file: {err}"))
    if size > MAX_HAND_BYTES:
        return Chunk(path, "", 0, b"", 1, ("syntax-error", f"the hand is larger than {MAX_HAND_BYTES} bytes; not read"))
    return Chunk(path, "", 0, parts[0] if len(parts) == 1 else b"".join(parts), 1)


class SeenKeys:
    """The table names seen so far in one .phhs file, for ``duplicate-hand``, in little memory.

    A file of millions of hands must not cost a set entry per hand (about 90 bytes each). Names
    are nearly always ``[1]``, ``[2]``, ...: a canonical decimal name below 2**27 is one bit of a
    bytearray (at most 16 MiB, 125 KiB for a million hands); any other name goes in a set.
    """

    _BITMAP_LIMIT = 1 << 27

    def __init__(self) -> None:
        self.bits = bytearray()
        self.other: set[str] = set()

    def add(self, key: str) -> bool:
        """Record ``key``; whether it had been seen before."""
        if key.isdigit() and key.isascii() and (key == "0" or key[0] != "0") and len(key) < 10:
            n = int(key)
            if n < self._BITMAP_LIMIT:
                byte, bit = n >> 3, 1 << (n & 7)
                if byte >= len(self.bits):
                    self.bits.extend(bytes(max(byte + 1 - len(self.bits), len(self.bits))))
                seen = bool(self.bits[byte] & bit)
                self.bits[byte] |= bit
                return seen
        if key in self.other:
            return True
        self.other.add(key)
        return False


def _split_tables(path: str, reader: typing.BinaryIO) -> Iterator[Chunk]:
    seen = SeenKeys()
    index = 0
    key: str | None = None  # None: before the first header
    start_line = 1
    parts: list[bytes] = []
    size = 0
    overflow = False
    preamble_line = 0  # first line of non-comment content before any header
    in_string: bytes | None = None  # inside a ''' or \"\"\" multi-line string
    line_no = 0

    def flush() -> Chunk:
        nonlocal index
        data = b"".join(parts)
        problem = None
        again = seen.add(key or "")
        if overflow:
            problem = ("syntax-error", f"hand [{key}] is larger than {MAX_HAND_BYTES} bytes; not read")
            data = b""
        elif again:
            problem = ("duplicate-hand", f"table [{key}] appears again at line {start_line - 1}; this copy is not read")
        chunk = Chunk(path, key or "", index, data, start_line, problem)
        index += 1
        return chunk

    while True:
        try:
            piece = reader.readline(_READ_LINE)
        except (OSError, EOFError, zlib.error) as err:
            if key is not None:
                yield flush()
            yield Chunk(path, "", index, b"", line_no + 1, ("syntax-error", f"cannot read the rest of the file after line {line_no}: {err}"))
            return
        if not piece:
            break
        whole_line = piece.endswith(b"\n") or len(piece) < _READ_LINE
        if whole_line:
            line_no += 1
        # Only a line that starts with '[' (after blanks) can be a header: only it is matched.
        if in_string is None and whole_line and len(piece) < 4096 and piece.lstrip(b" \t").startswith(b"["):
            m = _HEADER.match(piece)
            if m:
                if key is not None:
                    yield flush()
                elif preamble_line:
                    yield Chunk(path, "", index, b"", preamble_line,
                                ("syntax-error", f"content before the first hand table, from line {preamble_line}; not read"))
                    index += 1
                raw = m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
                key = raw.decode("utf-8", "replace")
                start_line = line_no + 1
                parts, size, overflow = [], 0, False
                continue
        # where a multi-line string may open or close (find, not `in`: CPython 3.11's bytes
        # `in` first tries the operand as an integer and formats a TypeError for every call)
        if piece.find(b"''") >= 0 or piece.find(b'""') >= 0:
            for quote in (b"'''", b'"""'):
                if in_string in (None, quote):
                    if piece.count(quote) % 2:
                        in_string = None if in_string else quote
        if key is None:
            if not preamble_line and not _BLANK_OR_COMMENT.match(piece):
                preamble_line = line_no or 1
            continue
        if not overflow:
            size += len(piece)
            if size > MAX_HAND_BYTES:
                overflow, parts = True, []
            else:
                parts.append(piece)
    if key is not None:
        yield flush()
    elif preamble_line:
        yield Chunk(path, "", index, b"", preamble_line, ("syntax-error", "no hand table ([1], [2], ...) found; the text is not a .phhs hand list"))
    else:
        yield Chunk(path, "", index, b"", 1, ("no-hands", "the file holds no hand"))

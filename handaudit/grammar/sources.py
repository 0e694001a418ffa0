"""Find the input files and split them into hands, streaming.

A ``.phh`` file is one hand; a ``.phhs`` file is many, as TOML tables ``[1]``, ``[2]``, ...
(the table name is the hand key). Either may be gzip-compressed. A ``.phhs`` file is read line
by line, never whole, so a multi-gigabyte file costs the memory of one hand. A hand larger than
:data:`MAX_HAND_BYTES` is reported, not buffered, so garbage input stays within bounded memory.
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import re
import stat
import sys
import typing
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar, Final

from ..values import Value

PHH_SUFFIXES = (".phh", ".phhs", ".phh.gz", ".phhs.gz")
_MULTI_SUFFIXES = (".phhs", ".phhs.gz")  # many hands by name
_READ_FLAGS: Final = os.O_RDONLY | os.O_CLOEXEC  # as open(path, "rb") opens
MAX_HAND_BYTES: Final = 16 * 1024 * 1024
_READ_LINE: Final = 1024 * 1024  # longest line held whole; a longer one is cut into pieces of this size
_PIECE: Final = 64 * 1024  # bytes read from a .phhs stream at once
# A hand's table header: [1], [ 12 ], ["7"], ['x'] with an optional comment after it.
# A NUL is never part of a table name (the reader refuses NUL in text, and the JSONL writer
# relies on no output string holding one), so a header holding one is not a header.
_HEADER = re.compile(rb"""^[ \t]*\[[ \t]*(?:"([^"\\\n\x00]*)"|'([^'\n\x00]*)'|([A-Za-z0-9_-]+))[ \t]*\][ \t]*(?:#[^\n]*)?\r?\n?$""")
_BLANK_OR_COMMENT = re.compile(rb"^[ \t]*(?:#[^\n]*)?\r?\n?$")


class SourceError(Exception):
    """A path that cannot be read at all (missing, unreadable, not PHH): exit status 2."""


_CHUNK_FIELDS = ("source", "hand_key", "index", "data", "line", "problem")


class Chunk(Value):
    """The raw text of one hand and where it came from.

    ``hand_key`` is the table name ("" for a .phh file), ``index`` the hand's 0-based position in
    its file, ``line`` the 1-based line of the file where the hand's text starts. ``problem`` is
    set when the text could not even be cut out (too large, bad gzip, content outside tables):
    ``(code, message)``. A value (handaudit/values.py): one is made per hand, natively when
    compiled, where a frozen dataclass's constructor stays interpreted.
    """

    __slots__ = _CHUNK_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _CHUNK_FIELDS

    def __init__(self, source: str, hand_key: str, index: int, data: bytes, line: int,
                 problem: tuple[str, str] | None = None) -> None:
        self.source: Final = source
        self.hand_key: Final = hand_key
        self.index: Final = index
        self.data: Final = data
        self.line: Final = line
        self.problem: Final = problem


# A batch of chunks as it crosses to a worker process (batch.py): the texts joined into one bytes
# object, the other fields in flat lists. Pickling the Chunk objects themselves cost the parent
# about 9,900 instructions a hand (a reduce call, a tuple and memo entries per chunk); packing
# and pickling the lists, 4,400. The worker's side is about the same either way (3,500 / 3,200).
PackedChunks = tuple[list[str], list[str], list[int], bytes, list[tuple[str, str] | None]]


def pack_chunks(chunks: list[Chunk]) -> PackedChunks:
    """``chunks`` for pickling; :func:`unpack_chunks` gives them back, equal and in order."""
    sources: list[str] = []
    keys: list[str] = []
    numbers: list[int] = []  # index, line and text length of each chunk
    texts: list[bytes] = []
    problems: list[tuple[str, str] | None] = []
    for chunk in chunks:
        sources.append(chunk.source)
        keys.append(chunk.hand_key)
        numbers.append(chunk.index)
        numbers.append(chunk.line)
        numbers.append(len(chunk.data))
        texts.append(chunk.data)
        problems.append(chunk.problem)
    return sources, keys, numbers, b"".join(texts), problems


def unpack_chunks(packed: PackedChunks) -> list[Chunk]:
    """The chunks :func:`pack_chunks` packed."""
    sources, keys, numbers, text, problems = packed
    chunks: list[Chunk] = []
    start = 0
    for i in range(len(keys)):
        end = start + numbers[3 * i + 2]
        chunks.append(Chunk(sources[i], keys[i], numbers[3 * i], text[start:end], numbers[3 * i + 1], problems[i]))
        start = end
    return chunks


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


def _phh_files(top: str) -> Iterator[str]:
    """The PHH files under a directory, as ``Path(top).rglob("*")`` filtered by ``is_file()``
    and name would give them (same path text; symlinked directories not entered), from
    ``os.scandir`` entries: no Path object or extra stat per file (pathlib cost about 45 us per
    file, which is per hand in a directory of .phh files).

    And what rglob would pass over without a word, each as its path followed by ``/`` (an entry
    to report, see :func:`expand_paths`): a subdirectory that cannot be listed, an entry whose
    type cannot be read, an entry with a PHH name that is not a file (a dangling symlink, a
    FIFO, a socket, a device). Raises OSError if ``top`` itself cannot be listed.
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
                found = list(_phh_files(path))
            except OSError:
                yield path + "/"  # cannot be listed: report it
                continue
            yield from found
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


def expand_paths(paths: list[str]) -> list[str]:
    """Files to read, in a stable order: directories are searched recursively, sorted.

    A path ending in ``/`` in the list is an entry of a searched directory that could not be
    taken as a file to read (a subdirectory that cannot be listed, a dangling symlink or FIFO
    with a PHH name, ...): :func:`read_chunks` reports it as one ``unreadable-input`` entry (or
    reads it, if it has become a directory that can be listed or a file since), so the run goes
    on and the entry is counted.

    Raises :class:`SourceError` for a path given here that is missing or unreadable, a file
    that is not PHH, or a directory that cannot be listed or holds no PHH file.
    """
    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        if os.path.isdir(p):
            try:
                found = sorted(_phh_files(str(Path(p))))
            except OSError as err:
                raise SourceError(f"{report_path(p)}: cannot list the directory: {_reason(err)}") from None
            if not found:
                raise SourceError(f"{report_path(p)}: no .phh, .phhs, .phh.gz or .phhs.gz file in this directory")
            out.extend(found)
        elif os.path.exists(p):
            if not is_phh_path(p):
                raise SourceError(f"{report_path(p)}: not a PHH file (expected .phh, .phhs, .phh.gz or .phhs.gz)")
            if not os.access(p, os.R_OK):
                raise SourceError(f"{report_path(p)}: permission denied")
            out.append(p)
        else:
            raise SourceError(f"{report_path(p)}: no such file or directory")
    return out


# ---------------------------------------------------------------------------------------------
# reading


UNREADABLE: Final = "unreadable-input"


def _reason(err: OSError) -> str:
    """The OS's words for ``err`` and its errno name: "Permission denied (EACCES)"."""
    name = errno.errorcode.get(err.errno, "") if isinstance(err.errno, int) else ""
    text = err.strerror or str(err) or type(err).__name__
    return f"{text} ({name})" if name else text


def _unreadable(source: str, message: str) -> Chunk:
    return Chunk(source, "", 0, b"", 1, (UNREADABLE, message))


def _read_problem(source: str, err: BaseException) -> tuple[str, str]:
    """A read that failed: the system refused (unreadable-input), or the bytes are not what
    they claim to be (bad gzip: syntax-error)."""
    if isinstance(err, OSError) and not isinstance(err, gzip.BadGzipFile) and err.errno is not None:
        return (UNREADABLE, f"cannot read {source}: {_reason(err)}")
    return ("syntax-error", f"cannot read the file: {err}")


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
        return path.endswith(_MULTI_SUFFIXES)
    for line in head.splitlines(keepends=True):
        if _BLANK_OR_COMMENT.match(line):
            continue
        return bool(_HEADER.match(line))
    return False


def read_chunks(path: str) -> Iterator[Chunk]:
    """Yield every hand of one file as a :class:`Chunk`; problems become chunks, not exceptions.

    The chunks' ``source`` is :func:`report_path` of ``path``; ``path`` itself is opened. A
    file that cannot be opened or read (permission, vanished, I/O error, a directory) is one
    chunk with an ``unreadable-input`` problem; so is an entry ``expand_paths`` could not take
    as a file (a path ending in ``/``).
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
        yield _unreadable(source, f"cannot open {source}: {_reason(err)}")
        return
    try:
        if path != "-" and not path.endswith(_MULTI_SUFFIXES):
            yield _single(source, stream.read)  # a .phh.gz: no look ahead needed
            return
        reader = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)  # type: ignore[type-var]
        try:
            head = reader.peek(64 * 1024)[: 64 * 1024]
        except (OSError, EOFError, zlib.error) as err:
            yield Chunk(source, "", 0, b"", 1, _read_problem(source, err))
            return
        if _is_multi(path, head):
            yield from _split_tables(source, reader)
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
            yield _unreadable(source, f"{source}: {what}: {_reason(err)}")
        else:
            yield _unreadable(source, f"cannot read {source}: {_reason(err)}")
        return
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        yield _unreadable(source, f"cannot list the directory {source}: {_reason(listing)}; its files are not read")
    elif stat.S_ISREG(mode):  # a file now, where the search found something else
        if is_phh_path(path):
            yield from read_chunks(path)
        else:
            yield _unreadable(source, f"{source} could not be searched ({_reason(listing)}) and is now a file, "
                                      "not a PHH file; not read")
    else:
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        yield _unreadable(source, f"{source} is {kind}, not a regular file; not read")


def _plain_phh(path: str, source: str) -> Chunk:
    """A .phh file (not gzip), read with os.open and os.read: open()'s file object (its
    creation, an fstat, close through flush) cost some 9,000 instructions per file, which is
    per hand in a directory of .phh files."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as err:
        return _unreadable(source, f"cannot open {source}: {_reason(err)}")
    try:
        return _single(source, lambda size: os.read(fd, size))
    finally:
        os.close(fd)


def _single(source: str, read: Callable[[int], bytes]) -> Chunk:
    """A one-hand file, whole. ``read(size)``: up to ``size`` bytes, b"" at the end."""
    # Read in pieces up to the bound: read(MAX_HAND_BYTES + 1) would allocate 16 MiB for every
    # file (about 25 us per small .phh file, measured).
    parts: list[bytes] = []
    size = 0
    try:
        while size <= MAX_HAND_BYTES:
            piece = read(_READ_LINE)
            if not piece:
                break
            parts.append(piece)
            size += len(piece)
    except IsADirectoryError:  # os.open opens a directory, where open() refused it
        return _unreadable(source, f"{source} is a directory, not a file; not read")
    except (OSError, EOFError, zlib.error) as err:
        return Chunk(source, "", 0, b"", 1, _read_problem(source, err))
    if size > MAX_HAND_BYTES:
        return Chunk(source, "", 0, b"", 1, ("syntax-error", f"the hand is larger than {MAX_HAND_BYTES} bytes; not read"))
    return Chunk(source, "", 0, parts[0] if len(parts) == 1 else b"".join(parts), 1)


def _canonical_number(key: str) -> int:
    """``key``'s value if it is a canonical decimal of at most 9 ASCII digits ("0", or no
    leading zero), else -1. A native loop: str.isascii and int() are generic calls (~700
    instructions a key)."""
    if not 0 < len(key) < 10 or (key[0] == "0" and len(key) > 1):
        return -1
    n = 0
    for ch in key:
        digit = ord(ch) - 48
        if not 0 <= digit <= 9:
            return -1
        n = n * 10 + digit
    return n


class SeenKeys:
    """The table names seen so far in one .phhs file, for ``duplicate-hand``, in little memory.

    A file of millions of hands must not cost a set entry per hand (about 90 bytes each). Names
    are nearly always ``[1]``, ``[2]``, ...: a canonical decimal name below 2**27 is one bit of a
    bytearray (at most 16 MiB, 125 KiB for a million hands); any other name goes in a set.
    """

    _BITMAP_LIMIT: Final = 1 << 27

    def __init__(self) -> None:
        self.bits = bytearray()
        self.other: set[str] = set()

    def add(self, key: str) -> bool:
        """Record ``key``; whether it had been seen before."""
        n = _canonical_number(key)
        if 0 <= n < self._BITMAP_LIMIT:
            bits = self.bits
            byte, bit = n >> 3, 1 << (n & 7)
            if byte >= len(bits):
                bits.extend(bytes(max(byte + 1 - len(bits), len(bits))))
            seen = bool(bits[byte] & bit)
            bits[byte] |= bit
            return seen
        if key in self.other:
            return True
        self.other.add(key)
        return False


class _Splitter:
    """Cuts one ``.phhs`` file into hands, fed a piece of whole lines at a time.

    Only two kinds of line matter: a possible table header (``[`` first after blanks) and a
    line where a multi-line string may open or close (one holding a triple quote: a
    header-like line inside such a string is text). C searches find the ``[`` characters and
    the triple quotes; each ``[`` is checked natively for blanks back to its line's start, so
    a hand costs a few searches, one newline count and one header match, not a step per line.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.seen = SeenKeys()
        self.index = 0
        self.key: str | None = None  # None: before the first header
        self.start_line = 1  # the current hand's first line
        self.parts: list[bytes] = []
        self.size = 0
        self.overflow = False
        self.preamble_line = 0  # first line of non-comment content before any header
        self.in_string: str | None = None  # inside a multi-line string: its quote
        self.lines = 0  # newlines fed so far

    def feed(self, data: bytes, mid_line: bool) -> list[Chunk]:
        """Cut ``data``: whole lines (at the end of the file the last may lack its newline), or a
        piece of a line longer than :data:`_READ_LINE`. ``mid_line``: ``data`` begins inside a
        line, whose rest is never a header. The hands completed by ``data``."""
        done: list[Chunk] = []
        # Latin-1 is one character per byte, so offsets in text are offsets in data; compiled,
        # str.find and str.count are direct C calls, where bytes methods are generic method
        # calls with argument parsing (measured: a line split per piece cost twice as much).
        text = data.decode("latin-1")
        size = len(text)
        given = 0  # data[given:] is not yet given to the current hand
        counted, newlines = 0, 0  # newlines in text[:counted]
        single = text.find("'''")  # the next triple quotes (-1: none)
        # (from the first '"', found at memchr speed: most pieces hold none; searching for
        # the triple from the start cost ~2,000 instructions a hand)
        double = text.find('"')
        if double >= 0:
            double = text.find('"""', double)
        bracket = text.find("[")
        while bracket >= 0:
            start = bracket
            while start > 0 and (text[start - 1] == " " or text[start - 1] == "\t"):
                start -= 1
            if start > 0 and text[start - 1] != "\n" or start == 0 and mid_line:
                bracket = text.find("[", bracket + 1)  # not first on its line
                continue
            line_end = text.find("\n", bracket) + 1 or size
            while 0 <= single < start or 0 <= double < start:  # the quote lines before it
                end = self._quotes(text, single if double < 0 or 0 <= single < double else double)
                if 0 <= single < end:
                    single = text.find("'''", end)
                if 0 <= double < end:
                    double = text.find('"""', end)
            if self.in_string is None and line_end - start < 4096:
                header = _HEADER.match(data[start:line_end])  # (a slice: ^ is the string's start)
                if header is not None:
                    newlines += text.count("\n", counted, start)
                    counted = start
                    self._text(data, given, start)
                    self._open_hand(header, self.lines + newlines + 1, done)
                    given = line_end
                    # quotes in a header's comment open no string
                    if 0 <= single < line_end:
                        single = text.find("'''", line_end)
                    if 0 <= double < line_end:
                        double = text.find('"""', line_end)
                    bracket = text.find("[", line_end)
                    continue
            bracket = text.find("[", bracket + 1)
        while single >= 0 or double >= 0:
            end = self._quotes(text, single if double < 0 or 0 <= single < double else double)
            if 0 <= single < end:
                single = text.find("'''", end)
            if 0 <= double < end:
                double = text.find('"""', end)
        self._text(data, given, size)
        self.lines += newlines + text.count("\n", counted)
        return done

    def _quotes(self, text: str, at: int) -> int:
        """The line holding ``text[at]`` holds a triple quote: it may open or close a multi-line
        string. Where the line ends."""
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at) + 1 or len(text)
        line = text[start:end]
        for mark in ("'''", '"""'):
            if self.in_string is None or self.in_string == mark:
                if line.count(mark) % 2:
                    self.in_string = None if self.in_string else mark
        return end

    def _text(self, data: bytes, start: int, end: int) -> None:
        """``data[start:end]`` is text of the current hand (or, before the first header, of the
        file's preamble)."""
        if start >= end:
            return
        if self.key is None:
            if not self.preamble_line:
                first_line = self.lines + data.count(b"\n", 0, start) + 1
                for offset, line in enumerate(data[start:end].split(b"\n")):
                    if line and not _BLANK_OR_COMMENT.match(line):
                        self.preamble_line = first_line + offset
                        break
            return
        if not self.overflow:
            self.size += end - start
            if self.size > MAX_HAND_BYTES:
                self.overflow, self.parts = True, []
            else:
                self.parts.append(data[start:end] if start or end < len(data) else data)

    def _open_hand(self, header: re.Match[bytes], line: int, done: list[Chunk]) -> None:
        """A table header on ``line``: the hand before it is complete; the next begins."""
        if self.key is not None:
            done.append(self._flush())
        elif self.preamble_line:
            done.append(Chunk(self.path, "", self.index, b"", self.preamble_line,
                              ("syntax-error", f"content before the first hand table, from line {self.preamble_line}; not read")))
            self.index += 1
        quoted, literal, bare = header.groups()  # one call, not one per group
        raw = quoted if quoted is not None else literal if literal is not None else bare
        self.key = raw.decode("utf-8", "replace")
        self.start_line = line + 1
        self.parts, self.size, self.overflow = [], 0, False

    def _flush(self) -> Chunk:
        key = self.key or ""
        data = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
        problem = None
        again = self.seen.add(key)
        if self.overflow:
            problem = ("syntax-error", f"hand [{key}] is larger than {MAX_HAND_BYTES} bytes; not read")
            data = b""
        elif again:
            problem = ("duplicate-hand", f"table [{key}] appears again at line {self.start_line - 1}; this copy is not read")
        chunk = Chunk(self.path, key, self.index, data, self.start_line, problem)
        self.index += 1
        return chunk

    def finish(self) -> list[Chunk]:
        """The end of the file: the last hand, or what the file lacked."""
        if self.key is not None:
            return [self._flush()]
        if self.preamble_line:
            return [Chunk(self.path, "", self.index, b"", self.preamble_line,
                          ("syntax-error", "no hand table ([1], [2], ...) found; the text is not a .phhs hand list"))]
        return [Chunk(self.path, "", self.index, b"", 1, ("no-hands", "the file holds no hand"))]

    def broken(self, err: BaseException) -> list[Chunk]:
        """The file could not be read past the lines fed so far (bad gzip, I/O error)."""
        out = [self._flush()] if self.key is not None else []
        out.append(Chunk(self.path, "", self.index, b"", self.lines + 1,
                         ("syntax-error", f"cannot read the rest of the file after line {self.lines}: {err}")))
        return out


def _split_tables(path: str, reader: typing.BinaryIO, piece_size: int = _PIECE) -> Iterator[Chunk]:
    """Every hand of a ``.phhs`` stream, read ``piece_size`` bytes at a time (flat memory)."""
    splitter = _Splitter(path)
    carry = b""  # the start of a line whose end is not read yet
    mid_line = False
    while True:
        try:
            piece = reader.read1(piece_size)  # type: ignore[attr-defined]  # buffered streams all have read1
        except (OSError, EOFError, zlib.error) as err:
            yield from splitter.broken(err)
            return
        if not piece:
            if carry:
                yield from splitter.feed(carry, mid_line)
            break
        data = carry + piece if carry else piece
        cut = data.rfind(b"\n") + 1
        if cut == 0:  # no line ends here
            if len(data) < _READ_LINE:
                carry = data
                continue
            # a line longer than _READ_LINE: hand on this piece of it (memory stays bounded)
            chunks, carry, mid_line_next = splitter.feed(data, mid_line), b"", True
        else:
            chunks = splitter.feed(data if cut == len(data) else data[:cut], mid_line)
            carry, mid_line_next = data[cut:], False
        mid_line = mid_line_next
        yield from chunks
    yield from splitter.finish()

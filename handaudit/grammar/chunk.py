"""A hand's raw text as the sources cut it out (:class:`Chunk`), and the problems of reading it.

Shared by :mod:`.sources` (files, directories, streams) and :mod:`.splitter` (a ``.phhs``
stream cut into hands); the workers receive batches of chunks packed (:func:`pack_chunks`).
"""

from __future__ import annotations

import errno
from typing import ClassVar, Final

from ..core.value import Value

MAX_HAND_BYTES: Final = 16 * 1024 * 1024
READ_LINE: Final = 1024 * 1024  # longest line held whole; a longer one is cut into pieces of this size
BOM: Final = b"\xef\xbb\xbf"  # a UTF-8 byte-order mark, which some editors put first in a file
UNREADABLE: Final = "unreadable-input"


class SourceError(Exception):
    """A path that cannot be read at all (missing, unreadable, not PHH): exit status 2."""


_CHUNK_FIELDS = ("source", "hand_key", "index", "data", "line", "problem")


class Chunk(Value):
    """The raw text of one hand and where it came from.

    ``hand_key`` is the table name ("" for a .phh file), ``index`` the hand's 0-based position in
    its file, ``line`` the 1-based line of the file where the hand's text starts. ``problem`` is
    set when the text could not even be cut out (too large, bad gzip, content outside tables):
    ``(code, message)``. A value (handaudit/core/value.py): one is made per hand, natively when
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


# A batch of chunks as it crosses to a worker process (run/local.py): the texts joined into one bytes
# object, the other fields in flat lists: pickling the Chunk objects themselves costs the parent
# a reduce call, a tuple and memo entries per chunk, over twice as much (docs/performance.md).
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


def reason(err: OSError) -> str:
    """The OS's words for ``err`` and its errno name: "Permission denied (EACCES)"."""
    name = errno.errorcode.get(err.errno, "") if isinstance(err.errno, int) else ""
    text = err.strerror or str(err) or type(err).__name__
    return f"{text} ({name})" if name else text


def unreadable_chunk(source: str, message: str) -> Chunk:
    return Chunk(source, "", 0, b"", 1, (UNREADABLE, message))


def read_problem(source: str, err: BaseException) -> tuple[str, str]:
    """A read that failed: the system refused (unreadable-input), or the bytes are not what
    they claim to be (bad gzip: syntax-error)."""
    import gzip  # (here, on a failed read: a run of plain files never imports it)

    if isinstance(err, OSError) and not isinstance(err, gzip.BadGzipFile) and err.errno is not None:
        return (UNREADABLE, f"cannot read {source}: {reason(err)}")
    return ("syntax-error", f"cannot read the file: {err}")

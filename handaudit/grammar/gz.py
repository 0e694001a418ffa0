"""A gzip stream that gives every byte that can be decompressed before it says what is wrong.

Python's :mod:`gzip` raises at its next read when a member is followed by bytes that are no
gzip member (``echo >> f.gz``: "trailing garbage") or when the file is cut off, and what it had
decompressed in that read is lost to the reader (and a ``peek`` raises before the first hand).
:class:`GzipStream` decompresses member after member with :mod:`zlib`, delivers all of their
text, and only then raises :class:`GzipTail`: ``complete`` says whether every member was whole
(junk after the last: all the text is there) or the text is cut off (truncated or corrupt data).
Its memory is bounded whatever the input (decompression is capped per call: no zip bomb).
"""

from __future__ import annotations

import io
import typing
import zlib
from typing import Final

_IN: Final = 16 * 1024  # compressed bytes fed at once: on corrupt data, at most this much is lost
_OUT: Final = 256 * 1024  # decompressed bytes made at once
_MAGIC: Final = b"\x1f\x8b"


class GzipTail(OSError):
    """The end of a gzip file that is not a whole member: raised after all the text before it.

    ``complete``: every member was whole and the text ended with the last one (the problem is
    bytes after it); else the text is cut off where the problem is."""

    def __init__(self, message: str, complete: bool) -> None:
        super().__init__(message)
        self.complete = complete

    def __str__(self) -> str:
        return str(self.args[0])


class GzipStream(io.RawIOBase):
    """A raw, readable stream of the text of the gzip file ``raw`` (closed with it)."""

    def __init__(self, raw: typing.BinaryIO) -> None:
        self.raw = raw
        self.dec: typing.Any = None  # the current member's decompressor, None between members
        self.pending = b""  # compressed bytes read but not yet given to a decompressor
        self.out = b""
        self.out_pos = 0
        self.members = 0
        self.consumed = 0  # compressed bytes of the whole members
        self.tail: GzipTail | None = None
        self.eof = False

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed:
            self.raw.close()
        super().close()

    def readinto(self, buffer: typing.Any) -> int:
        while self.out_pos >= len(self.out):
            if self.eof:
                if self.tail is not None:
                    tail, self.tail = self.tail, None
                    raise tail
                return 0
            self.out, self.out_pos = self._step(), 0
        n = min(len(buffer), len(self.out) - self.out_pos)
        buffer[:n] = self.out[self.out_pos:self.out_pos + n]
        self.out_pos += n
        return n

    def _input(self) -> bytes:
        if self.pending:
            data, self.pending = self.pending, b""
            return data
        return self.raw.read(_IN)

    def _step(self) -> bytes:
        """The next decompressed bytes (maybe empty); sets ``eof`` and ``tail`` at the end."""
        dec = self.dec
        if dec is None:  # between members: another, the end, or bytes that are no member
            data = self._input()
            if not data:
                self.eof = True
                if self.members == 0:
                    self.tail = GzipTail("the file is empty, not gzip data", False)
                return b""
            if len(data) < 2 and self.members:
                data += self.raw.read(_IN)
            if not data.startswith(_MAGIC):
                if self.members == 0:
                    self.eof = True
                    self.tail = GzipTail("not gzip data (no gzip header at the start of the file)", False)
                    return b""
                self._trailing(data)
                return b""
            dec = self.dec = zlib.decompressobj(31)
            self.pending = data
            return b""
        if dec.unconsumed_tail:
            data = dec.unconsumed_tail
        else:
            data = self._input()
            if not data:  # the file ends inside a member
                self.eof = True
                self.tail = GzipTail(self._where() + "the file is cut off (truncated gzip data)", False)
                return b""
        try:
            text: bytes = dec.decompress(data, _OUT)
        except zlib.error as err:
            self.eof = True
            self.tail = GzipTail(self._where() + f"corrupt gzip data ({err})", False)
            return b""
        if dec.eof:
            self.members += 1
            self.pending = dec.unused_data
            self.dec = None
        return text

    def _where(self) -> str:
        return f"gzip member {self.members + 1}: " if self.members else ""

    def _trailing(self, data: bytes) -> None:
        """Bytes after the last whole member: counted (to the end, in bounded reads) and told."""
        size = len(data)
        while True:
            more = self.raw.read(1 << 20)
            if not more:
                break
            size += len(more)
        self.eof = True
        what = "byte" if size == 1 else "bytes"
        self.tail = GzipTail(f"{size} {what} after the end of the last gzip member (not gzip data: trailing garbage); "
                             "the text before them is read", True)


def open_gzip(path: str) -> typing.BinaryIO:
    """The text of the gzip file at ``path``, buffered (``read``, ``read1``, ``peek``)."""
    raw = open(path, "rb")  # noqa: SIM115  (closed with the stream)
    return typing.cast(typing.BinaryIO, io.BufferedReader(GzipStream(raw), 64 * 1024))

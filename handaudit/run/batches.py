"""The input of a local run cut into batches of hands, in input order (raw chunks, no parsing)."""

from __future__ import annotations

import os
import stat
from collections import deque

from ..grammar.chunk import Chunk
from ..grammar.duplicates import SiteHands
from ..importers import site_hand_of
from ..importers.inputs import read_inputs
from ..importers.tournaments import CHUNK_KIND as SUMMARY_CHUNK
from ..importers.tournaments import read_summary
from .common import MAX_BATCH_BYTES


def input_batches(files: list[str], batch_size: int, tournaments: list | None = None):
    """(chunks, bytes) batches over all files, in input order (a batch may span files).
    ``tournaments``: where the tournament summaries read go (they are no hands: never batched)."""
    batch: list[Chunk] = []
    size = 0
    site_hands = SiteHands(site_hand_of)  # a site hand given twice: the second copy is not read
    for path in files:
        for chunk in read_inputs(path):
            if chunk.problem is not None and chunk.problem[0] == SUMMARY_CHUNK and tournaments is not None:
                tournaments.append(read_summary(chunk.source, chunk.data.decode("utf-8", "replace"), chunk.line))
                continue
            chunk = site_hands.check(chunk)
            batch.append(chunk)
            size += len(chunk.data) + len(chunk.hand_key) + 3
            if len(batch) >= batch_size or size >= MAX_BATCH_BYTES:
                yield batch, size
                batch, size = [], 0
    if batch:
        yield batch, size


def read_ahead(batches, limit: int) -> tuple[list, bool]:
    """The first of ``batches`` (``(chunks, bytes)`` pairs) until they hold ``limit`` bytes, and
    whether those were all there is: how big a pipe's input is, known only by reading it."""
    first: list = []
    size = 0
    for batch in batches:
        first.append(batch)
        size += batch[1]
        if size >= limit:
            return first, False
    return first, True


def count_down(items, count: int):
    """``(item, left)`` for each of ``items``: ``left`` is how many items follow it, or ``count``
    when ``count`` or more do (known by reading ``count`` items ahead)."""
    ahead: deque = deque()
    for item in items:
        ahead.append(item)
        if len(ahead) > count:
            yield ahead.popleft(), count
    while ahead:
        item = ahead.popleft()
        yield item, len(ahead)


def input_bytes(files: list[str], sizes: dict[str, int] | None = None) -> int | None:
    """The input's size in the bytes the batches count (uncompressed text), for the progress
    bar's percentage and time left; None when some input's size cannot be known.

    A plain file counts its size; a ``.gz`` file the uncompressed size its gzip trailer records
    (ISIZE: exact for one member under 4 GiB; the bar stops short of 100% if it is less);
    standard input its size when it is a regular file (``< hands.phhs``), else (a pipe) None.
    ``sizes``: plain files' sizes already known (:func:`~handaudit.grammar.sources.drop_repeats`).
    """
    known = sizes or {}
    total = 0
    for f in files:
        if f == "-":
            size = _stdin_bytes()
        elif f.endswith(".gz"):
            size = _gzip_bytes(f)
        else:
            size = known.get(f)
            if size is None:
                size = _file_bytes(f)
        if size is None:
            return None
        total += size
    return total


def _file_bytes(path: str) -> int | None:
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def _gzip_bytes(path: str) -> int | None:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() < 18:  # shorter than a gzip header and trailer: let the reader report it
                return f.tell()
            f.seek(-4, os.SEEK_END)
            return int.from_bytes(f.read(4), "little")
    except OSError:
        return None


def _stdin_bytes() -> int | None:
    try:
        st = os.fstat(0)
        if not stat.S_ISREG(st.st_mode):
            return None
        return max(0, st.st_size - os.lseek(0, 0, os.SEEK_CUR))
    except OSError:
        return None

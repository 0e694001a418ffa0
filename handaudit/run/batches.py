"""The input of a local run cut into batches of hands, in input order (raw chunks, no parsing)."""

from __future__ import annotations

import os
from collections import deque

from ..grammar.chunk import Chunk
from ..grammar.sources import read_chunks
from .common import MAX_BATCH_BYTES


def input_batches(files: list[str], batch_size: int):
    """(chunks, bytes) batches over all files, in input order (a batch may span files)."""
    batch: list[Chunk] = []
    size = 0
    for path in files:
        for chunk in read_chunks(path):
            batch.append(chunk)
            size += len(chunk.data) + len(chunk.hand_key) + 3
            if len(batch) >= batch_size or size >= MAX_BATCH_BYTES:
                yield batch, size
                batch, size = [], 0
    if batch:
        yield batch, size


def flag_last(items, count: int):
    """``(item, last)`` for each of ``items``: ``last`` is True for the final ``count`` of them
    (known by reading ``count`` items ahead)."""
    ahead: deque = deque()
    for item in items:
        ahead.append(item)
        if len(ahead) > count:
            yield ahead.popleft(), False
    while ahead:
        yield ahead.popleft(), True


def input_bytes(files: list[str]) -> int | None:
    """Total size when every input is a plain (uncompressed, seekable) file; else None."""
    total = 0
    for f in files:
        if f == "-" or f.endswith(".gz"):
            return None
        try:
            total += os.path.getsize(f)
        except OSError:
            return None
    return total

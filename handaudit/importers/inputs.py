"""The inputs of a run, PHH and site logs mixed: which files to read, and their hands as chunks.

A file is a site log by its content, never by its name: its first line that is not blank starts
a hand of a known site (the registry, :mod:`.sites`), or it holds one of a site's marker lines (a
fragment of a log, reported unreadable with the reason rather than passed over). In a directory,
files with PHH names are PHH (:mod:`handaudit.grammar.sources`) and any other file is read when
it is a site log; other files (READMEs, notes, images) are passed over without a word. A file
named on the command line that is neither is refused (exit status 2), as for PHH.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import IO

from ..grammar.chunk import BOM, Chunk, read_problem, reason, unreadable_chunk
from ..grammar.sources import NOT_PHH, expand_paths, is_phh_path, read_chunks, report_path
from .common import SNIFF_BYTES, site_of_head, split_log, utf8_head
from .sites import MARKERS, SITES, SPLIT_MARKERS


def split_hook(head: bytes) -> Callable[[str, IO[bytes]], Iterator[Chunk]] | None:
    """The splitting function of the site whose file ``head`` (its first bytes) starts, for a
    site that is not a log of lines (:attr:`.sites.Site.split`), else None."""
    for marker, i in SPLIT_MARKERS:
        if marker in head:
            module = importlib.import_module(f"{__package__}.{SITES[i].module}")
            hook: Callable[[str, IO[bytes]], Iterator[Chunk]] = getattr(module, SITES[i].split)
            return hook
    return None



def is_site_head(head: bytes) -> bool:
    """``head`` (a file's first bytes, UTF-8 or UTF-16 with its byte-order mark) starts a site
    log, or holds a line only a site's log has."""
    head = utf8_head(head)
    if site_of_head(head) is not None:
        return True
    if head.startswith(BOM):
        head = head[3:]
    if b"\0" in head or head.lstrip().startswith((b"[", b"#")):
        return False
    for marker in MARKERS:
        if marker in head:
            return True
    return False


def is_site_file(path: str) -> bool:
    """``path`` holds a site's hand history (read: its first :data:`SNIFF_BYTES` bytes)."""
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return False  # (a file that cannot be read cannot be told a log: passed over, as other files)
    return is_site_head(head)


def expand_inputs(paths: list[str]) -> list[str]:
    """:func:`~handaudit.grammar.sources.expand_paths`, taking site logs too."""
    return expand_paths(paths, is_site_file)


def read_inputs(path: str) -> Iterator[Chunk]:
    """Every hand of one input as a chunk: a site log cut into its hands
    (:func:`.common.split_log`), anything else as :func:`~handaudit.grammar.sources.read_chunks`."""
    if path == "-":
        stream = sys.stdin.buffer
        head = stream.peek(SNIFF_BYTES)[:SNIFF_BYTES] if hasattr(stream, "peek") else b""
        if is_site_head(head):
            hook = split_hook(head)
            if hook is not None:
                yield from hook("-", stream)
                return
            yield from split_log("-", stream.read())
            return
        yield from read_chunks(path)
        return
    if path.endswith("/") or is_phh_path(path):
        for chunk in read_chunks(path):
            if chunk.problem is not None and chunk.problem[0] == NOT_PHH and not path.endswith("/") \
                    and is_site_file(path):
                yield from _site_file(path)  # a site log under a PHH name: read by its content
                return
            yield chunk
        return
    yield from _site_file(path)


def _site_file(path: str) -> Iterator[Chunk]:
    """A site log, read whole (a site writes a file per session: its memory is the file's size)."""
    source = report_path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as err:
        yield unreadable_chunk(source, f"cannot open {source}: {reason(err)}")
        return
    try:
        head = os.read(fd, SNIFF_BYTES)
        hook = split_hook(head)
        if hook is not None:  # a site that is not a log of lines: its own cutting, streamed
            os.lseek(fd, 0, os.SEEK_SET)
            with os.fdopen(fd, "rb") as f:  # (closes fd)
                yield from hook(source, f)
            return
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError as err:
        os.close(fd)
        yield Chunk(source, "", 0, b"", 1, read_problem(source, err))
        return
    try:
        parts: list[bytes] = []
        while True:
            piece = os.read(fd, 1 << 20)
            if not piece:
                break
            parts.append(piece)
    except OSError as err:
        yield Chunk(source, "", 0, b"", 1, read_problem(source, err))
        return
    finally:
        os.close(fd)
    yield from split_log(source, b"".join(parts))

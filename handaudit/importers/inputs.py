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
import sys
from collections.abc import Callable, Iterator
from typing import IO, Final

from ..grammar.chunk import BOM, Chunk, read_problem, reason, unreadable_chunk
from ..grammar.sources import HEAD_BYTES, NOT_PHH, expand_paths, is_phh_path, read_chunks, read_head, replay, report_path
from .common import SNIFF_BYTES, header_in, log_stream, site_of_head, split_log_stream, utf16_codec, utf8_head
from .sites import MARKERS, SITES, SPLIT_MARKERS


def split_hook(head: bytes) -> Callable[[str, IO[bytes]], Iterator[Chunk]] | None:
    """The splitting function of the site whose file ``head`` (its first bytes) starts, for a
    site that is not a log of lines (:attr:`.sites.Site.split`: iPoker's XML), else None."""
    for marker, i in SPLIT_MARKERS:
        if marker in head:
            module = importlib.import_module(f"{__package__}.{SITES[i].module}")
            hook: Callable[[str, IO[bytes]], Iterator[Chunk]] = getattr(module, SITES[i].split)
            return hook
    return None



def is_site_head(head: bytes, named: bool = False) -> bool:
    """``head`` (a file's first bytes, UTF-8 or UTF-16 with or without its byte-order mark)
    is a site log: its first line that is not blank is a site's hand header; or, unless that
    line starts like PHH (``[``, ``#``), some later line is one (blank lines, an export tool's
    preamble before it) or it holds a line only a site's log has. ``named``: a file whose name
    is not PHH's, where PHH is no other reading: any header line decides."""
    head = utf8_head(head)
    if site_of_head(head) is not None:
        return True
    if head.startswith(BOM):
        head = head[3:]
    phh_like = head.lstrip().startswith((b"[", b"#")) and not head.lstrip().startswith(b"#Game No :")
    if not named and phh_like:  # (a PHH file, or a comment; "#Game No :" starts an 888 hand)
        return False
    if header_in(head):
        return True
    if b"\0" in head or phh_like:
        return False
    for marker in MARKERS:
        if marker in head:
            return True
    from .foreign import looks_foreign

    return looks_foreign(head)  # another site's log: read, to say once per hand that it is not read


_FIRST_SNIFF: Final = 64 * 1024  # most logs are told by their first bytes; a preamble reads on


def is_site_file(path: str) -> bool:
    """``path`` holds a site's hand history, by its content alone: its first 64 KiB, and up to
    :data:`SNIFF_BYTES` of a text file whose header has not come yet (a long preamble)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)  # the usual log: its first line is a header (one small read)
            if site_of_head(head) is not None:
                return True
            if len(head) == 4096:
                head += f.read(_FIRST_SNIFF - 4096)
            if is_site_head(head, not is_phh_path(path)):
                return True
            if len(head) < _FIRST_SNIFF or (b"\0" in head and utf16_codec(head) is None):
                return False
            head += f.read(SNIFF_BYTES - _FIRST_SNIFF)
    except OSError:
        return False  # (a file that cannot be read cannot be told a log: passed over, as other files)
    return is_site_head(head, not is_phh_path(path))


def expand_inputs(paths: list[str]) -> list[str]:
    """:func:`~handaudit.grammar.sources.expand_paths`, taking site logs too."""
    return expand_paths(paths, is_site_file)


def read_inputs(path: str) -> Iterator[Chunk]:
    """Every hand of one input as a chunk: a site log cut into its hands, streamed
    (:func:`.common.split_log_stream`), anything else as
    :func:`~handaudit.grammar.sources.read_chunks`. Standard input is told by its first
    :data:`SNIFF_BYTES` bytes however the pipe delivers them (read whole, then given again)."""
    if path == "-":
        stdin = sys.stdin.buffer
        try:
            head = read_head(stdin, SNIFF_BYTES)
        except OSError as err:
            yield Chunk("-", "", 0, b"", 1, read_problem("-", err))
            return
        stream = replay(head, stdin)
        if is_site_head(head):
            hook = split_hook(head)
            if hook is not None:  # a site that is not a log of lines: its own cutting, streamed
                yield from hook("-", stream)
                return
            yield from split_log_stream("-", log_stream(stream, head))
            return
        yield from read_chunks(path, (head[:HEAD_BYTES], stream))
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
    """A site log, streamed a line at a time (the memory of one hand, as a .phhs file)."""
    source = report_path(path)
    try:
        f = open(path, "rb")  # noqa: SIM115  (closed below, after the generator's last chunk)
    except OSError as err:
        yield unreadable_chunk(source, f"cannot open {source}: {reason(err)}")
        return
    try:
        try:
            head = f.peek(4096)[:4096]
        except OSError as err:
            yield Chunk(source, "", 0, b"", 1, read_problem(source, err))
            return
        hook = split_hook(head)
        if hook is not None:  # a site that is not a log of lines: its own cutting, streamed
            yield from hook(source, f)
            return
        yield from split_log_stream(source, log_stream(f, head))
    finally:
        f.close()

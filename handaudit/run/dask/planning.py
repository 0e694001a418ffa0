"""Cutting the inputs of a Dask run into tasks: segments of files (whole files, or byte ranges of
a large .phhs file cut between hands), and the hands of a segment as the local reader yields them.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

from ...grammar.chunk import Chunk
from ...grammar.sources import read_chunks, report_path
from ...importers.inputs import is_site_file, read_inputs
from ..common import RunError
from .inputs import (
    download,
    is_url,
    local_location,
    read_range,
    suffix_of,
    unlink_quietly,
)

MAX_TASK_BYTES = 4 * 1024 * 1024
MIN_TASK_BYTES = 64 * 1024
TASKS_PER_THREAD = 4  # automatic task size: about this many tasks per worker thread
MAX_FILES_PER_TASK = 2000


UNKNOWN_SIZE_TASK_BYTES = 1024 * 1024  # standard input


@dataclass(frozen=True)
class Segment:
    """Part of one input: a whole file, a byte range of a .phhs file, or hands sent inline.

    A range starts on a hand's table header (or at byte 0) and ends before another one (or at
    the end of the file): ``first_index``/``first_line`` are the index and line of its first
    hand's header, ``hands`` the number of hands in it and ``first_key`` the first one's key, as
    the client's scan found them; ``problems`` the (index, problem) of its hands that have one.
    """

    path: str  # the path as the user gave it (the rows' ``source``)
    nbytes: int = 0
    start: int = 0
    end: int | None = None
    first_index: int = 0
    first_line: int = 1
    hands: int | None = None  # None: a whole file
    first_key: str | None = None
    problems: tuple = ()
    chunks: tuple | None = None  # inline hands (standard input)
    location: str | None = None  # where a worker reads it, if not ``path``: an absolute path

    @property
    def where(self) -> str:
        return self.location or self.path


@dataclass(frozen=True)
class Task:
    """One task's inputs. ``duplicates``: ``((source, hand index), problem)`` of its hands the
    client found to be copies of a site hand read earlier (see :func:`task_chunks`)."""

    id: int
    segments: tuple[Segment, ...]
    nbytes: int
    duplicates: tuple = ()

    @property
    def name(self) -> str:
        return f"t{self.id:06d}"

    def describe(self) -> str:
        """Its inputs, short: a file, a file's byte range and hands, or the first file and how many more."""
        if not self.segments:
            return "no input"
        seg = self.segments[0]
        where = "standard input" if seg.path == "-" else _quote(seg.path)
        if seg.chunks is not None:
            first = seg.chunks[0].index if seg.chunks else 0
            text = f"{where}, hands {first}-{first + len(seg.chunks) - 1}"
        elif seg.hands is not None:
            end = "end" if seg.end is None else str(seg.end)
            text = f"{where} bytes {seg.start}-{end}, hands {seg.first_index}-{seg.first_index + seg.hands - 1}"
        else:
            text = where
        more = len(self.segments) - 1
        return f"{text} and {more} more file{'s' if more != 1 else ''}" if more else text


def _quote(path: str) -> str:
    """A path for a one-line message: quoted, with control characters and undecodable bytes escaped."""
    return repr(path)


def one_line(err: BaseException) -> str:
    """An exception as ``Type: first line of its message``."""
    text = str(err).strip()
    first = " ".join(text.splitlines()[0].split()) if text else ""
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


class _LineOffsets:
    """Byte offsets of lines of a file, for line numbers asked in increasing order (one pass)."""

    def __init__(self, f, block: int = 1 << 20):
        self.f = f
        self.block_size = block
        self.line = 1  # the line that starts at block_start + pos
        self.block = b""
        self.block_start = 0
        self.pos = 0

    def offset(self, line: int) -> int:
        need = line - self.line
        if need < 0:
            raise ValueError("line numbers must be asked in increasing order")
        while need:
            if self.pos >= len(self.block):
                self.block_start += len(self.block)
                self.block = self.f.read(self.block_size)
                self.pos = 0
                if not self.block:
                    raise ValueError(f"line {line} is beyond the end of the file")
            n = self.block.count(b"\n", self.pos)
            if n < need:
                need -= n
                self.line += n
                self.pos = len(self.block)
                continue
            p = self.pos
            for _ in range(need):
                p = self.block.index(b"\n", p) + 1
            self.line += need
            self.pos = p
            need = 0
        return self.block_start + self.pos


def _cuttable(chunk: Chunk) -> bool:
    """May a range start at this hand? Only at a real table header (the splitter's state is then
    known: outside any string, after a header)."""
    return chunk.problem is None or chunk.problem[0] == "duplicate-hand"


def plan_ranges(path: str, task_bytes: int, local_copy: str | None = None):
    """Cut a .phhs file into :class:`Segment` ranges of about ``task_bytes`` (a generator).

    ``local_copy``: where the file's bytes are on this machine (a URL's download), else ``path``.
    """
    local = local_copy or path
    with open(local, "rb") as f:
        lines = _LineOffsets(f)
        start, first_index, first_line, first_key = 0, 0, 1, None
        count = acc = 0
        problems: list = []
        for chunk in read_chunks(local):
            if count and acc >= task_bytes and _cuttable(chunk):
                header_line = chunk.line - 1
                offset = lines.offset(header_line)
                yield Segment(path, offset - start, start, offset, first_index, first_line, count, first_key,
                              tuple(problems), location=local_location(path))
                start, first_index, first_line = offset, chunk.index, header_line
                count = acc = 0
                problems = []
            if not count:
                first_key = chunk.hand_key
            if chunk.problem is not None:
                problems.append((chunk.index, chunk.problem))
            count += 1
            acc += len(chunk.data) + len(chunk.hand_key) + 3
        end = os.path.getsize(local)
        yield Segment(path, end - start, start, None, first_index, first_line, count, first_key, tuple(problems),
                      location=local_location(path))


def plan_tasks(files: list[str], sizes: dict, task_bytes: int):
    """The run's :class:`Task` s, in input order, cut as late as possible (a generator)."""
    task_id = 0
    pending: list[Segment] = []
    pending_bytes = 0

    def make(segments, nbytes) -> Task:
        nonlocal task_id
        task = Task(task_id, tuple(segments), nbytes)
        task_id += 1
        return task

    for path in files:
        size = sizes.get(path)
        if path == "-" or path.endswith("/"):  # (an entry expand_paths could not take as a file: read here)
            if pending:  # the files before it first: tasks stay in input order
                yield make(pending, pending_bytes)
                pending, pending_bytes = [], 0
            batch, nbytes = [], 0
            for chunk in read_inputs(path):
                batch.append(chunk)
                nbytes += len(chunk.data) + len(chunk.hand_key) + 3
                if nbytes >= task_bytes:
                    yield make([Segment(path, nbytes, chunks=tuple(batch))], nbytes)
                    batch, nbytes = [], 0
            if batch:
                yield make([Segment(path, nbytes, chunks=tuple(batch))], nbytes)
            continue
        if path.endswith(".phhs") and size is not None and size > task_bytes \
                and (is_url(path) or not is_site_file(path)):  # (a site log under a PHH name: read whole)
            if pending:
                yield make(pending, pending_bytes)
                pending, pending_bytes = [], 0
            copy = download(path, ".phhs") if is_url(path) else None
            try:
                for seg in plan_ranges(path, task_bytes, copy):
                    yield make([seg], seg.nbytes)
            finally:
                if copy:
                    unlink_quietly(copy)
            continue
        pending.append(Segment(path, size or 0, location=local_location(path)))
        pending_bytes += size or 0
        if pending_bytes >= task_bytes or len(pending) >= MAX_FILES_PER_TASK:
            yield make(pending, pending_bytes)
            pending, pending_bytes = [], 0
    if pending:
        yield make(pending, pending_bytes)


def segment_chunks(seg: Segment):
    """The hands of one segment, as the local engine's reader yields them for the whole file."""
    if seg.chunks is not None:
        yield from seg.chunks
        return
    if seg.hands is None:  # a whole file
        if not is_url(seg.path):
            if seg.location is None:
                yield from read_inputs(seg.path)
            else:
                for chunk in read_inputs(seg.location):
                    yield chunk.replace(source=report_path(seg.path))
            return
        tmp = download(seg.path, suffix_of(seg.path))
        try:
            for chunk in read_inputs(tmp):
                yield chunk.replace(source=report_path(seg.path))
        finally:
            unlink_quietly(tmp)
        return
    data = read_range(seg.where, seg.start, seg.end)
    fd, tmp = tempfile.mkstemp(prefix="handaudit-range-", suffix=".phhs")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        del data
        problems = dict(seg.problems)
        base = seg.first_line - 1
        n = 0
        for chunk in read_chunks(tmp):
            if n == 0 and chunk.hand_key != seg.first_key:
                raise RunError(f"{seg.path}: the range at byte {seg.start} starts with hand [{chunk.hand_key}], "
                               f"expected [{seg.first_key}] (did the file change during the run?)")
            index = seg.first_index + n
            yield Chunk(report_path(seg.path), chunk.hand_key, index, chunk.data, chunk.line + base, problems.get(index))
            n += 1
        if n != seg.hands:
            raise RunError(f"{seg.path}: the range at byte {seg.start} holds {n} hands, expected {seg.hands} "
                           "(did the file change during the run?)")
    finally:
        unlink_quietly(tmp)


def task_chunks(task: Task):
    """The task's hands in input order; a hand the client named a duplicate is unreadable."""
    duplicates = dict(task.duplicates)
    for seg in task.segments:
        for chunk in segment_chunks(seg):
            if duplicates and chunk.problem is None:
                problem = duplicates.get((chunk.source, chunk.index))
                if problem is not None:
                    chunk = Chunk(chunk.source, chunk.hand_key, chunk.index, chunk.data, chunk.line, problem)
            yield chunk

"""Where a run's reports go: one pair of classes per output format.

Hands are audited in worker processes and written by the parent in input order, so an output
format has two halves:

* a :class:`HandSink` lives where the hands are audited: :meth:`HandSink.add` gets each hand's
  report (and its JSONL line, made once for every sink that wants it; a sink that wants the
  table rows has them appended to its ``buffer`` first), and
  :meth:`HandSink.take` hands over the batch's output, picklable, to travel in the
  :class:`~handaudit.run.common.BatchResult`;
* a :class:`ReportSink` lives in the parent: :meth:`ReportSink.accept` gets each batch's output,
  in input order, with the batch's chunks when it asks for them; :meth:`ReportSink.close` finishes.

:data:`HAND_SINKS` names the hand halves a :class:`~handaudit.run.common.RunConfig` may ask for
(``outputs``); a new output format is one entry there and its two classes here. The Parquet
report's hand half is :class:`RowSink` (the process's own part writer, made from ``out_dir``);
its parent half is the report directory (:mod:`.layout`), which commits parts, not batches.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from .hand_report import HandReport


class HandSink(ABC):
    """What one output format keeps of each hand of a batch, in the auditing process (an
    abstract base: a format implements :meth:`add`)."""

    name: ClassVar[str] = ""
    needs_line: ClassVar[bool] = False  # the hand's JSONL line (reports.jsonl.report_line)
    needs_rows: ClassVar[bool] = False  # the hand's table rows, added to self.buffer (reports.rows.add_hand)
    buffer: Any = None  # with needs_rows: the reports.buffer.ReportBuffer the rows go to

    @abstractmethod
    def add(self, report: HandReport, line: str | None, rows: bool) -> None:
        """Keep what this format needs of one hand (``line``: None unless asked for; ``rows``:
        with ``needs_rows``, True when the buffer has a batch's rows for some table)."""

    def take(self) -> object:
        """The batch's output (picklable), and a fresh start for the next batch."""
        return None


class LineSink(HandSink):
    """The JSONL lines of the batch, as one text."""

    name: ClassVar[str] = "jsonl"
    needs_line: ClassVar[bool] = True

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, report: HandReport, line: str | None, rows: bool) -> None:
        if line is not None:
            self.lines.append(line)

    def take(self) -> object:
        lines = self.lines
        self.lines = []
        return "\n".join(lines) + "\n" if lines else ""


class StatusSink(HandSink):
    """Each hand's status, in order (the clean subsets choose the hands by it)."""

    name: ClassVar[str] = "statuses"

    def __init__(self) -> None:
        self.statuses: list[str] = []

    def add(self, report: HandReport, line: str | None, rows: bool) -> None:
        self.statuses.append(report.status)

    def take(self) -> object:
        statuses = self.statuses
        self.statuses = []
        return statuses


class RowSink(HandSink):
    """The hand's rows of the Parquet tables, to this process's part writer
    (:class:`~handaudit.reports.parquet.ReportWriter`; it commits parts on its own)."""

    name: ClassVar[str] = "rows"
    needs_rows: ClassVar[bool] = True

    def __init__(self, writer: Any) -> None:
        self.writer = writer
        self.buffer = writer.buffer

    def add(self, report: HandReport, line: str | None, rows: bool) -> None:
        if rows:
            self.writer.take_rows()


HAND_SINKS: dict[str, type[HandSink]] = {LineSink.name: LineSink, StatusSink.name: StatusSink}


class ReportSink(ABC):
    """The parent's half of an output format: each batch's output in input order, then the end
    (an abstract base: a format implements :meth:`accept`)."""

    output: ClassVar[str] = ""  # the HandSink whose output it reads
    needs_chunks: ClassVar[bool] = False  # accept() gets the batch's chunks too
    what: ClassVar[str] = "the report"  # for a message: "cannot write <what>: <reason>"

    @abstractmethod
    def accept(self, output: object, chunks: list | None) -> None:
        """Write one batch's output (``chunks``: the batch's hands, when :attr:`needs_chunks`)."""

    def close(self) -> None:  # noqa: B027 (a format with nothing to finish keeps this)
        """Finish (flush, close files); an OSError here is the run's error."""

    def describe(self) -> list[str]:
        """Lines for the run's closing notes (what was written where)."""
        return []


class JSONLStream(ReportSink):
    """``--format jsonl``: the lines to a text stream (standard output), in input order."""

    output: ClassVar[str] = LineSink.name
    what: ClassVar[str] = "the JSONL output"

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def accept(self, output: object, chunks: list | None) -> None:
        if output:
            self.stream.write(output)

    def close(self) -> None:
        try:
            self.stream.flush()
        except (BrokenPipeError, ValueError):  # a closed pipe: the reader has gone
            pass


class CleanSubsets(ReportSink):
    """``--write-valid`` / ``--write-invalid``: each hand's text to the subset its status picks
    (:class:`~handaudit.reports.subsets.Subsets`)."""

    output: ClassVar[str] = StatusSink.name
    needs_chunks: ClassVar[bool] = True
    what: ClassVar[str] = "the clean subsets"

    def __init__(self, subsets: Any) -> None:
        self.subsets = subsets

    def accept(self, output: object, chunks: list | None) -> None:
        if chunks is None or not isinstance(output, list):
            return
        for chunk, status in zip(chunks, output, strict=True):
            self.subsets.add(chunk, status)

    def close(self) -> None:
        self.subsets.close()

    def describe(self) -> list[str]:
        return self.subsets.describe()

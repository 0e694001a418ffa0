"""The per-hand loop, compiled: read, replay, settle, report and count each hand in order.

:func:`audit_read` audits one read hand (replay, then settlement); :func:`audit_chunk` one raw
hand, isolated (a failure of handaudit itself becomes its ``internal-error`` finding);
:func:`audit_batch` a batch, for :class:`~handaudit.run.common.Auditor`. Interpreted in the
runner, the per-hand steps each cost a Python frame; compiled here, they are native calls
(docs/performance.md). The runners keep the orchestration: processes, order, files.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

from ..core.status import ERROR
from ..findings.finding import Finding
from ..findings.selection import EVERYTHING, Selection
from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from ..importers import read_any
from ..reports.hand_facts import currency
from ..reports.hand_report import HandReport
from ..reports.buffer import ReportBuffer
from ..reports.rows import add_hand
from ..reports.sinks import HandSink
from ..rules.rulebook import Rulebook
from ..settlement import Settlement, settle
from ..validator import replay
from ..validator.outcome import Replay


def debug() -> bool:
    """HANDAUDIT_DEBUG is set: a failure of handaudit itself raises instead of becoming a finding."""
    return os.environ.get("HANDAUDIT_DEBUG", "") not in ("", "0")


def internal_error(read: ReadResult, book_name: str, index: int, err: BaseException, stage: str,
                   selection: Selection = EVERYTHING) -> HandReport:
    """The hand's report with an ``internal-error`` finding: handaudit failed while ``stage``."""
    finding = Finding("internal-error", f"handaudit failed while {stage} this hand: {type(err).__name__}: {err}",
                      severity=ERROR)
    return _report(read, book_name, tuple(read.findings) + (finding,), None, None, index, selection)


def _report(read: ReadResult, book_name: str, findings: tuple[Finding, ...], rep: Replay | None,
            settlement: Settlement | None, index: int, selection: Selection) -> HandReport:
    """The hand's report, with the run's selection of findings applied (findings/selection.py)."""
    if not selection.active:
        return HandReport(read, book_name, findings, rep, settlement, index)
    kept, ignored = selection.apply(findings)
    return HandReport(read, book_name, kept, rep, settlement, index, ignored)


def audit_chunk(chunk: Chunk, book: Rulebook, selection: Selection = EVERYTHING) -> HandReport:
    """Read, replay and settle one hand. Never raises (unless debugging): a failure of handaudit
    itself on this hand becomes an ``internal-error`` finding and the run goes on."""
    try:
        read = read_any(chunk)  # a site log's hand to its importer, the rest to the PHH reader
    except Exception as err:
        if debug():
            raise
        read = ReadResult(chunk.source, chunk.hand_key, None, (), chunk.data.decode("utf-8", "replace"), chunk.line)
        return internal_error(read, book.name, chunk.index, err, "reading", selection)
    try:
        return audit_read(read, book, chunk.index, selection)
    except Exception as err:
        if debug():
            raise
        return internal_error(read, book.name, chunk.index, err, "auditing", selection)


def _outputs(report: HandReport, book_name: str, line_of: Callable[[HandReport], str] | None,
             rows: ReportBuffer | None, selection: Selection) -> tuple[HandReport, str | None, bool]:
    """(report, JSONL line or None, whether the row buffer is due), the hand's rows added to
    ``rows``; a failure here is the hand's finding (its rows taken back, the finding's added).
    ``line_of``: the JSONL writer when a sink wants the line (:func:`_jsonl_writer`)."""
    try:
        line = line_of(report) if line_of is not None else None
        return report, line, add_hand(rows, report) if rows is not None else False
    except Exception as err:
        if debug():
            raise
        report = internal_error(report.read, book_name, report.index, err, "reporting on", selection)
        return report, line_of(report) if line_of is not None else None, \
            add_hand(rows, report) if rows is not None else False


@functools.cache
def _jsonl_writer() -> Callable[[HandReport], str]:
    """``reports.jsonl.report_line``, imported by the first batch that wants JSONL lines: a run
    with text or Parquet output never loads it or the ``json`` module (about 1 ms of a start;
    docs/performance.md). Looked up once a batch, called once a hand."""
    from ..reports.jsonl import report_line

    return report_line


def audit_batch(chunks: list[Chunk], book: Rulebook, count: Callable[..., None], sinks: list[HandSink],
                selection: Selection = EVERYTHING) -> None:
    """Audit ``chunks`` in order. Each hand is counted with ``count`` (:meth:`Summary.add`) and
    given to every sink (:mod:`handaudit.reports.sinks`), with its JSONL line when some sink wants
    it (made once for all); a sink that wants the table rows has them added to its ``buffer``
    (:mod:`handaudit.reports.buffer`) and is told when the buffer is due."""
    book_name: str = book.name
    jsonl = False
    rows: ReportBuffer | None = None
    for sink in sinks:
        jsonl = jsonl or sink.needs_line
        if sink.needs_rows:
            rows = sink.buffer
    line_of = _jsonl_writer() if jsonl else None
    for chunk in chunks:
        report, line, due = _outputs(audit_chunk(chunk, book, selection), book_name, line_of, rows, selection)
        read = report.read
        hand = read.hand
        settlement = report.settlement
        count(report.status, report.findings, report.payout_check,
              settlement.rake if settlement is not None and hand is not None else None,
              hand.scale if hand is not None else None, read.source, chunk.index, read.hand_key, report.ignored,
              None if hand is None else hand.hand,
              None if hand is None or settlement is None or settlement.rake is None else currency(hand))
        for sink in sinks:
            sink.add(report, line, due)


def audit_read(read: ReadResult, rulebook: Rulebook, index: int = 0, selection: Selection = EVERYTHING) -> HandReport:
    """Replay and settle one read hand under a loaded :class:`Rulebook`, reporting the findings
    ``selection`` keeps (all of them by default)."""
    if read.hand is None:
        return _report(read, rulebook.name, read.findings, None, None, index, selection)
    rep = replay(read.hand, rulebook)
    settlement = settle(read.hand, rep, rulebook)
    findings = read.findings + rep.findings + tuple(settlement.findings)
    return _report(read, rulebook.name, findings, rep, settlement, index, selection)

"""The output seam (reports/sinks.py): a report sink gets every hand's output, in input order,
whatever the processes, and is closed once."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from handaudit.reports.sinks import JSONLStream, LineSink, ReportSink, StatusSink
from handaudit.run.local import Runner

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


class Collect(ReportSink):
    """A sink a user could write: each hand's (file, status), in order."""

    output = StatusSink.name
    needs_chunks = True

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self.closed = 0

    def accept(self, output, chunks) -> None:
        self.seen += [(Path(c.source).name, s) for c, s in zip(chunks, output, strict=True)]

    def close(self) -> None:
        self.closed += 1

    def describe(self) -> list[str]:
        return [f"collected {len(self.seen)} hands"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_report_sink_gets_every_hand_in_input_order(jobs):
    files = sorted(SAMPLES.glob("*.phh"))
    sink, out = Collect(), io.StringIO()
    result = Runner([str(f) for f in files], jobs=jobs, batch_size=3, window=2, sinks=[sink, JSONLStream(out)]).run()
    assert result.complete and sink.closed == 1
    assert [name for name, _ in sink.seen] == [f.name for f in files]  # one hand each, in input order
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(Path(d["source"]).name, d["status"]) for d in lines] == sink.seen
    assert result.summary.hands == len(files) and result.subsets == [f"collected {len(files)} hands"]


def test_a_hand_sink_hands_over_its_batch_and_starts_afresh():
    sink = LineSink()
    sink.lines += ["a", "b"]
    assert sink.take() == "a\nb\n" and sink.take() == ""

"""The HTML report draws each flagged session as a timeline of stacks, its findings marked."""

from __future__ import annotations

import pytest

from handaudit.run.local import Runner
from helpers import REPO

pytest.importorskip("plotly")
SAMPLES = REPO / "samples" / "sessions"


def test_timeline_of_a_flagged_session(tmp_path):
    import plotly.graph_objects as go

    from handaudit.reports.html.sessions import session_charts

    out = tmp_path / "r"
    assert Runner([str(SAMPLES / "stack-not-carried.phhs"), str(SAMPLES / "hand-number-gap.phhs")],
                  out_dir=str(out), jobs=1, sessions=True).run().complete
    charts = session_charts(out)
    assert [c["id"] for c in charts] == ["chart-session-1", "chart-session-2"]
    first = charts[0]  # the error (stack-not-carried) before the warning
    go.Figure(data=first["data"], layout=first["layout"])  # a valid Plotly figure
    lines = {d["name"]: (d["x"], d["y"]) for d in first["data"] if d["mode"] == "lines"}
    assert lines["ann"] == ([1, 2, 3], [200, 199, 189])  # starting stacks, hand after hand
    (marks,) = [d for d in first["data"] if d["mode"] == "markers"]
    assert (marks["name"], marks["x"], marks["y"]) == ("error findings", [3], [189])
    assert marks["text"][0].startswith("stack-not-carried: ann starts hand 103 with 189")


def test_report_html_has_the_timelines_and_none_without_the_pass(tmp_path):
    from handaudit.reports.html import render_report

    out = tmp_path / "r"
    Runner([str(SAMPLES / "stack-not-carried.phhs")], out_dir=str(out), jobs=1, sessions=True).run()
    html, _, _ = render_report(out)
    assert 'id="chart-session-1"' in html
    plain = tmp_path / "p"
    Runner([str(SAMPLES / "stack-not-carried.phhs")], out_dir=str(plain), jobs=1).run()
    html, _, _ = render_report(plain)
    assert "chart-session-" not in html

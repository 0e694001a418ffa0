"""A Settlement survives pickling (batch and Dask workers may ship reports between processes),
also when the settlement package is compiled with mypyc."""

from __future__ import annotations

import pickle
from pathlib import Path

from handaudit.reports.contract import settlement_members
from handaudit import audit

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_settlements_round_trip_through_pickle():
    reports = [r for r in audit([str(SAMPLES)]) if r.settlement is not None]
    assert reports
    for report in reports:
        s = report.settlement
        copy = pickle.loads(pickle.dumps(s))
        assert copy == s
        assert settlement_members(copy, report.hand) == settlement_members(s, report.hand)

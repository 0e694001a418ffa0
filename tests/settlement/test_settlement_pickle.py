"""A Settlement survives pickling (batch and Dask workers may ship reports between processes),
also when the settlement package is compiled with mypyc."""

from __future__ import annotations

import pickle
from pathlib import Path

from handaudit import audit

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_settlements_round_trip_through_pickle():
    reports = [r for r in audit([str(SAMPLES)]) if r.settlement is not None]
    assert reports
    for report in reports:
        s = report.settlement
        copy = pickle.loads(pickle.dumps(s))
        assert copy == s
        assert copy.to_json(report.hand) == s.to_json(report.hand)

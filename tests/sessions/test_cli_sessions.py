"""``handaudit check --out DIR --sessions``: the pass runs, its tables are written, the summary says so."""

from __future__ import annotations

import json

from helpers import REPO

SAMPLE = REPO / "samples" / "sessions" / "stack-not-carried.phhs"


def test_check_sessions_writes_the_tables_and_says_so(cli, tmp_path):
    out = tmp_path / "r"
    proc = cli("check", str(SAMPLE), "--out", str(out), "--sessions", "--jobs", "2", text=True)
    assert proc.returncode == 0, proc.stderr
    assert ("Across hands: 1 table sessions of 3 hands (0 hands without a table); findings: stack-not-carried 1"
            in proc.stdout)
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["sessions"]["findings"] == {"stack-not-carried": 1}
    for table in ("sessions", "session_hands", "session_players", "session_findings"):
        assert list((out / table).glob("part-*.parquet")), table
    # a second run on the directory replaces the pass's tables, and without --sessions leaves none
    proc = cli("check", str(SAMPLE), "--out", str(out), "--overwrite", text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Across hands" not in proc.stdout
    assert not list((out / "sessions").glob("part-*.parquet"))

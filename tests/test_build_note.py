"""`handaudit check` says which build ran, and warns once when it is the pure-Python one.

The suite runs the source tree (pure Python) with HANDAUDIT_PURE=1 (tests/conftest.py), which
silences the warning; these tests unset it.
"""

from __future__ import annotations

import os

from helpers import REPO, run_cli

from handaudit.buildinfo import PURE_WARNING, build_name, is_compiled


def _without_pure() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "HANDAUDIT_PURE"}
    env["PYTHONPATH"] = str(REPO)
    return env


def test_the_source_tree_is_the_pure_build():
    assert not is_compiled() and build_name() == "pure-Python build"


def test_a_pure_run_warns_once_and_names_its_build_in_the_summary(tmp_path):
    import subprocess
    import sys

    for jobs in ("1", "2"):
        proc = subprocess.run([sys.executable, "-m", "handaudit.cli", "check", str(REPO / "samples"), "--fail-on",
                               "never", "--jobs", jobs, "--out", str(tmp_path / f"out{jobs}")],
                              capture_output=True, text=True, cwd=REPO, env=_without_pure(), timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr.count("pure-Python build") == 1, proc.stderr
        assert f"handaudit: {PURE_WARNING}\n" in proc.stderr
        throughput = [line for line in proc.stdout.splitlines() if line.startswith("Throughput:")]
        assert len(throughput) == 1 and throughput[0].endswith(f"{jobs} job{'s' if jobs != '1' else ''}, "
                                                               "pure-Python build"), throughput


def test_handaudit_pure_set_means_no_warning():
    proc = run_cli("check", str(REPO / "samples"), "--fail-on", "never", env={"HANDAUDIT_PURE": "1"})
    assert proc.returncode == 0
    assert "warning" not in proc.stderr.decode()
    assert b"pure-Python build" in proc.stdout  # the summary still says which build ran

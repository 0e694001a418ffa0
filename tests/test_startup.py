"""What a run imports before and while it audits PHH hands: the start-up's budget, held by what
is *not* loaded (docs/performance.md, "Start-up"). Time is measured by benchmarks/startup.py,
never here; these tests fail when a change brings back an import or a dataclass a run paid for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "odd-chip-split.phh"
SITE_LOG = ROOT / "samples" / "pokerstars-cash-out.txt"

# Each was once imported by every run and cost it a millisecond or more.
NOT_IMPORTED = ("tomllib", "fractions", "textwrap", "csv", "queue", "gzip", "json", "handaudit.reports.jsonl",
                "handaudit.importers.pokerstars",
                "handaudit.run.worker", "handaudit.reports.subsets", "lark", "pyarrow", "pandas", "numpy")

_RUN = """
import dataclasses, sys
made = []
build = dataclasses._process_class
def recording(cls, *args, **kwargs):
    made.append(f"{cls.__module__}.{cls.__qualname__}")
    return build(cls, *args, **kwargs)
dataclasses._process_class = recording
from handaudit.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("DATACLASSES", *made, file=sys.stderr)
print("MODULES", *sorted(m for m in {names} if m in sys.modules), file=sys.stderr)
"""


def _run(*args: str) -> tuple[list[str], list[str]]:
    code = _RUN.replace("{names}", repr(NOT_IMPORTED))
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    lines = {line.split(" ", 1)[0]: line.split()[1:] for line in done.stderr.splitlines()
             if line.startswith(("DATACLASSES", "MODULES"))}
    assert set(lines) == {"DATACLASSES", "MODULES"}, done.stderr
    return lines["DATACLASSES"], lines["MODULES"]


def test_a_phh_run_builds_no_dataclass_and_skips_what_it_does_not_use():
    made, loaded = _run("check", str(SAMPLE))
    assert made == []
    assert loaded == []


def test_a_jsonl_run_loads_the_jsonl_writer_and_json_only():
    made, loaded = _run("check", str(SAMPLE), "--format", "jsonl", "--quiet")
    assert made == [] and loaded == ["handaudit.reports.jsonl", "json"]


def test_the_pokerstars_importer_is_loaded_by_a_site_log():
    made, loaded = _run("check", str(SITE_LOG))
    assert made == []
    assert loaded == ["handaudit.importers.pokerstars"]

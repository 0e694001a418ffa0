"""The compiled build (mypyc, as ``pip install .`` makes it) says exactly what pure Python says.

The rest of the suite runs on the editable install, which is pure Python. This test compiles
the modules setup.py lists in a copy of the project, then, in a fresh interpreter on that copy:
checks that they loaded as extensions, that the JSONL output over the shared corpora matches
the digest pinned before any optimisation (tests/data/corpus-jsonl.sha256), and that a
Parquet run with ``--jobs 1`` and ``--jobs 2`` (hands pickled between processes) writes the
same five tables as the pure-Python source does in this process. Building takes a minute or two.
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from handaudit.batch import Runner
from handaudit.reports.parquet import read_table
from handaudit.reports.schema import TABLE_NAMES

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
DIGEST = ROOT / "tests" / "data" / "corpus-jsonl.sha256"

CHECK = textwrap.dedent("""
    import hashlib, os, sys
    sys.path.insert(0, os.getcwd())  # the compiled copy, before the editable install
    import handaudit
    from handaudit import audit
    from handaudit.batch import Runner
    from handaudit.buildinfo import compiled_modules
    from handaudit.reports.jsonl import dumps, report_line

    assert handaudit.__file__.startswith(os.getcwd()), handaudit.__file__
    print("compiled", len(compiled_modules()), " ".join(compiled_modules()))
    os.chdir(sys.argv[1])  # sources as the pinned digest names them: "real/...", "generated/..."
    for book in ("tda-2026", "wsop-2023-live"):
        h = hashlib.sha256()
        for report in audit(["real", "generated"], rulebook=book):
            line = report_line(report)  # what the CLI writes
            assert line == dumps(report.to_json()), report.hand_key
            h.update(line.encode() + b"\\n")
        print("digest", book, h.hexdigest())
    for jobs in (1, 2):
        Runner(["real", "generated"], jobs=jobs, out_dir=os.path.join(sys.argv[2], f"jobs{jobs}")).run()
    print("parquet written")
""")


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory):
    pytest.importorskip("mypyc", reason="mypy (with mypyc) is in the test extra")
    work = tmp_path_factory.mktemp("compiled")
    for name in ("handaudit", "setup.py", "pyproject.toml", "README.md"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            shutil.copy2(src, work / name)
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "building pure Python" not in proc.stderr, proc.stderr[-4000:]
    return work


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_compiled_build_matches_the_pinned_digest_and_pure_python_tables(compiled_copy, tmp_path, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = tmp_path / "reports"
    proc = subprocess.run([sys.executable, "-c", CHECK, str(CORPUS), str(out)], cwd=compiled_copy, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = proc.stdout.splitlines()
    compiled = lines[0].split()
    setup_text = (ROOT / "setup.py").read_text()
    listed = [m for m in setup_text.split("COMPILED = [", 1)[1].split("]", 1)[0].split('"')[1::2]]
    assert int(compiled[1]) == len(listed), lines[0]  # every listed module loaded compiled
    pinned = set(DIGEST.read_text().splitlines())
    for line in lines[1:3]:
        _, book, digest = line.split()
        assert f"{book} {digest}" in pinned, line
    assert lines[3] == "parquet written"
    # The five tables of the compiled build (--jobs 1 and 2: hands pickled between processes)
    # equal those of this process, which runs the pure-Python source.
    monkeypatch.chdir(CORPUS)
    Runner(["real", "generated"], jobs=1, out_dir=str(tmp_path / "pure")).run()
    for table in TABLE_NAMES:
        pure = _sorted(read_table(tmp_path / "pure", table))
        assert pure.num_rows > 0, table
        for jobs in (1, 2):
            assert _sorted(read_table(out / f"jobs{jobs}", table)).equals(pure), (table, jobs)


def _sorted(table):
    keys = [c for c in ("source", "hand_index", "hand_key", "action_index", "finding_index", "pot_index", "player")
            if c in table.column_names]
    return table.sort_by([(k, "ascending") for k in keys])

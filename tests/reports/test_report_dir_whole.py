"""A report directory that lost a part or a table, holds a foreign part, or whose manifest is
damaged: `summary` and `report` say exactly what is wrong, in one line, exit status 2 (issue
#38, items 5 and 11); a disk that fills at the manifest names the path and does not claim 0
hands (item 10)."""

from __future__ import annotations

import os
import shutil

import pytest
from helpers import REPO, VALID_HAND

from handaudit.reports.layout import OutputError
from handaudit.reports.verify import verify_report


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    """A report of 30 hands in parts of 10 rows (several parts per table)."""
    from handaudit.run.local import Runner

    d = tmp_path_factory.mktemp("rep")
    (d / "in.phhs").write_text("".join(f"[{i}]\n{VALID_HAND}\n" for i in range(1, 31)))
    out = d / "out"
    result = Runner([str(d / "in.phhs")], jobs=1, out_dir=str(out), part_rows=10, batch_size=10).run()
    assert result.complete
    return out


def _copy(report_dir, tmp_path):
    target = tmp_path / "copy"
    shutil.copytree(report_dir, target)
    return target


def test_a_whole_report_verifies(report_dir):
    manifest = verify_report(str(report_dir))
    assert manifest is not None and manifest["tables"]["hands"]["rows"] == 30
    assert len(manifest["tables"]["hands"]["parts"]) == manifest["tables"]["hands"]["files"] >= 2


def test_a_lost_part_is_named(report_dir, tmp_path, cli):
    d = _copy(report_dir, tmp_path)
    victim = sorted((d / "hands").iterdir())[0]
    victim.unlink()
    with pytest.raises(OutputError, match=f"part files listed in _manifest.json are missing \\({victim.name}\\)"):
        verify_report(str(d))
    for cmd in (("summary", str(d)), ("report", str(d), "-o", str(tmp_path / "r.html"))):
        proc = cli(*cmd, text=True)
        assert proc.returncode == 2, proc.stdout
        assert victim.name in proc.stderr and "rows lost" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert not (tmp_path / "r.html").exists()


def test_a_lost_table_is_named(report_dir, tmp_path, cli):
    d = _copy(report_dir, tmp_path)
    shutil.rmtree(d / "hands")
    for cmd in (("summary", str(d)), ("report", str(d), "-o", str(tmp_path / "r.html"))):
        proc = cli(*cmd, text=True)
        assert proc.returncode == 2 and "lost its hands table" in proc.stderr, proc.stderr
        assert "0 hands" not in proc.stdout


@pytest.mark.parametrize("text,message", [
    ("[1, 2]", "JSON list, not an object"), ("not json {", "not JSON"), ('{"hands": "many"}', "'hands' is str"),
    ('{"tables": {"hands": 3}}', "tables.hands is not an object"),
])
def test_a_damaged_manifest_is_one_line(report_dir, tmp_path, cli, text, message):
    d = _copy(report_dir, tmp_path)
    (d / "_manifest.json").write_text(text)
    for cmd in (("summary", str(d)), ("report", str(d), "-o", str(tmp_path / "r.html"))):
        proc = cli(*cmd, text=True)
        assert proc.returncode == 2 and message in proc.stderr and "_manifest.json" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr


def test_a_part_of_another_schema_is_named(report_dir, tmp_path, cli):
    import pyarrow as pa
    import pyarrow.parquet as pq

    d = _copy(report_dir, tmp_path)
    victim = sorted((d / "hands").iterdir())[0]
    table = pq.read_table(victim)
    i = table.schema.get_field_index("status")
    table = table.set_column(i, "status", pa.array([1] * table.num_rows, pa.int64()))
    pq.write_table(table, victim)
    proc = cli("summary", str(d), text=True)
    assert proc.returncode == 2 and "column 'status' is int64" in proc.stderr and victim.name in proc.stderr
    victim.write_bytes(b"PAR1 not parquet")
    proc = cli("summary", str(d), text=True)
    assert proc.returncode == 2 and "not a whole Parquet file" in proc.stderr


def test_a_foreign_part_is_named(report_dir, tmp_path):
    d = _copy(report_dir, tmp_path)
    first = sorted((d / "hands").iterdir())[0]
    shutil.copy(first, d / "hands" / "part-zzzz-0-00000.parquet")
    with pytest.raises(OutputError, match="not listed in _manifest.json"):
        verify_report(str(d))


def test_a_disk_full_at_the_manifest_names_it_and_counts_the_parts(tmp_path, monkeypatch):
    """The manifest cannot be written (ENOSPC): the error names _manifest.json, and the result
    says what the parts hold, not 0 hands."""
    import errno

    from handaudit.reports import layout
    from handaudit.run.local import Runner

    (tmp_path / "in.phhs").write_text("".join(f"[{i}]\n{VALID_HAND}\n" for i in range(1, 6)))
    real = layout.ReportDir.create

    def full(self, table, name, *a, **kw):
        if name.startswith("._manifest.json"):
            f = real(self, table, name, *a, **kw)

            class Full:
                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    f.close()

                def write(self, data):
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

                def flush(self):
                    pass

            return Full()
        return real(self, table, name, *a, **kw)

    monkeypatch.setattr(layout.ReportDir, "create", full)
    result = Runner([str(tmp_path / "in.phhs")], jobs=1, out_dir=str(tmp_path / "out")).run()
    assert not result.complete and not result.manifest_written
    assert "_manifest.json" in result.error and "no space left on device" in result.error
    assert result.tables["hands"]["rows"] == 5
    assert not any(n.endswith(".tmp") for n in os.listdir(tmp_path / "out"))


def test_the_cli_says_what_the_parts_hold_when_the_manifest_fails(tmp_path, cli):
    """Through the command line: a manifest that cannot be created (a directory in its
    temporary's way is not possible to plant; a read-only report directory after the parts
    is): the message names the path and does not claim 0 hands."""
    script = tmp_path / "run.py"
    (tmp_path / "in.phhs").write_text("".join(f"[{i}]\n{VALID_HAND}\n" for i in range(1, 4)))
    script.write_text(f"""
import errno, os, sys
sys.path.insert(0, {str(REPO)!r})
from handaudit.reports import layout
real = layout.ReportDir.write_manifest
def full(self, manifest, complete):
    raise layout.cannot("write", self.where(None, layout.MANIFEST), OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
layout.ReportDir.write_manifest = full
from handaudit.cli import main
main(["check", {str(tmp_path / 'in.phhs')!r}, "--out", {str(tmp_path / 'out')!r}])
""")
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 2, proc.stderr
    assert "_manifest.json" in proc.stderr and "no space left" in proc.stderr
    assert "hold 3 hands" in proc.stderr and "no _manifest.json could be written" in proc.stderr
    assert "0 hands" not in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_an_interrupt_at_any_moment_of_a_run_never_kills_it(tmp_path, signame):
    """A signal at several moments of `check --out` (start, middle, near the end, after the run):
    the command ends with 0/1 (done) or 130 (interrupted), never killed by the signal, and the
    report is either whole or has an interrupted manifest whose parts hold what it says."""
    import signal
    import subprocess
    import sys
    import time

    from helpers import cli_env

    (tmp_path / "in.phhs").write_text("".join(f"[{i}]\n{VALID_HAND}\n" for i in range(1, 3001)))
    for k, delay in enumerate((0.0, 0.3, 0.6, 1.0, 1.5, 2.5)):
        out = tmp_path / f"out{k}"
        proc = subprocess.Popen([sys.executable, "-m", "handaudit.cli", "check", str(tmp_path / "in.phhs"), "--out",
                                 str(out), "--jobs", "1", "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=cli_env(None), cwd=REPO)
        deadline = time.time() + 60
        while not (out / "hands").is_dir() and time.time() < deadline and proc.poll() is None:
            time.sleep(0.01)  # the run has begun: its report directory is prepared
        time.sleep(delay)
        proc.send_signal(getattr(signal, signame))
        _, err = proc.communicate(timeout=120)
        assert proc.returncode in (0, 1, 130), (delay, proc.returncode, err)
        if (out / "_manifest.json").exists():
            manifest = verify_report(str(out))  # the parts are what the manifest says
            assert manifest is not None and manifest["status"] in ("complete", "interrupted")
            assert (proc.returncode == 130) == (manifest["status"] == "interrupted") or manifest["status"] == "complete"

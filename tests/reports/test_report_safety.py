"""The report survives its neighbours and signals: a lock on --out, no symlink followed, SIGTERM
and SIGHUP like SIGINT, workers that end with their parent, a dead worker's batches audited again,
and environment failures reported in one line."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from handaudit.reports.layout import (
    LOCK,
    MANIFEST,
    SUCCESS,
    TABLE_NAMES,
    OutputError,
    ReportDir,
)
from handaudit.reports.parquet import ReportWriter, read_table

from helpers import run_cli


def _batch_tests():
    """The helpers of test_report_batch.py (tests are imported by path: --import-mode=importlib)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_report_batch_helpers", Path(__file__).with_name("test_report_batch.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_b = _batch_tests()
CORPUS, REPO, synthetic, _env, _rows, _start = _b.CORPUS, _b.REPO, _b.synthetic, _b._env, _b._rows, _b._start
_assert_only_whole_parts, _assert_report_counts_agree = _b._assert_only_whole_parts, _b._assert_report_counts_agree
_wait_for_temporary_part, _worker_pids = _b._wait_for_temporary_part, _b._worker_pids

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not found")

SAMPLES = str(REPO / "samples")


def _cli(args: list[str], **kw) -> subprocess.CompletedProcess:
    return run_cli(*args, text=True, timeout=240, **kw)


@pytest.fixture(scope="module")
def medium_input(tmp_path_factory):
    return synthetic(tmp_path_factory.mktemp("medium") / "medium.phhs", 700)


@pytest.fixture(scope="module")
def long_input(tmp_path_factory):
    return synthetic(tmp_path_factory.mktemp("long") / "long.phhs", 10_000)


# ---------------------------------------------------------------------------------------------
# 1. two runs on one --out


def test_a_directory_another_run_holds_is_refused_untouched(tmp_path):
    out = tmp_path / "out"
    first = _cli(["check", SAMPLES, "--out", str(out), "--fail-on", "never"])
    assert first.returncode == 0, first.stderr
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    fd = os.open(out / LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running handaudit holds it
        second = _cli(["check", SAMPLES, "--out", str(out), "--overwrite"])
    finally:
        os.close(fd)
    assert second.returncode == 2
    assert second.stderr == (f"handaudit: {out}: another handaudit run is writing this report (it holds "
                             f"{out / LOCK}); wait for it to end or choose another --out\n")
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # not a file of the first run changed, not one added


@pytest.mark.slow
def test_two_concurrent_runs_the_second_is_refused_the_first_completes(long_input, tmp_path):
    out = tmp_path / "out"
    first = _start([str(long_input), "--out", str(out), "--jobs", "2"], tmp_path)
    try:
        _wait_for_temporary_part(first, out)
        second = _cli(["check", SAMPLES, "--out", str(out), "--jobs", "2"])
        assert first.poll() is None, "the first run ended before the second started"
        parts_during = {p.name for t in TABLE_NAMES for p in (out / t).iterdir()}
        stdout, stderr = first.communicate(timeout=240)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    assert second.returncode == 2
    assert second.stderr.startswith(f"handaudit: {out}: another handaudit run is writing this report")
    assert len(second.stderr.splitlines()) == 1
    assert first.returncode == 1, stderr.decode()  # complete (the input has broken hands)
    assert stderr == b""
    assert (out / SUCCESS).exists()
    manifest = _assert_report_counts_agree(out)
    assert manifest["status"] == "complete" and manifest["hands"] == 10_000
    assert manifest["inputs"] == [str(long_input)]
    assert _assert_only_whole_parts(out) == 10_000
    # every part the first run had finished when the second came is still there
    finished_during = {n for n in parts_during if n.startswith("part-")}
    assert finished_during <= {p.name for t in TABLE_NAMES for p in (out / t).iterdir()}


def test_parts_of_one_run_carry_its_run_id(medium_input, tmp_path):
    from handaudit.run.local import audit_to_parquet

    out = tmp_path / "out"
    audit_to_parquet([str(medium_input)], out, jobs=2, batch_size=40, part_rows=3000)
    run_id = json.loads((out / MANIFEST).read_text())["run_id"]
    assert re.fullmatch(r"[0-9a-f]{12}", run_id)
    for table in TABLE_NAMES:
        names = [p.name for p in (out / table).iterdir()]
        assert names and all(re.fullmatch(rf"part-{run_id}-[01]-\d{{5}}\.parquet", n) for n in names), names


# ---------------------------------------------------------------------------------------------
# 2. symbolic links inside the output directories


@pytest.fixture
def victim(tmp_path):
    """A file and a directory outside --out that no run may touch."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("precious")
    (outside / "part-0-00000.parquet").write_text("not a part")
    (outside / ".part-0-00000.parquet.tmp").write_text("not a part either")
    return outside


def _untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == [".part-0-00000.parquet.tmp", "part-0-00000.parquet",
                                                         "precious.txt"]
    assert (outside / "precious.txt").read_text() == "precious"
    assert (outside / "part-0-00000.parquet").read_text() == "not a part"
    assert (outside / ".part-0-00000.parquet.tmp").read_text() == "not a part either"


@pytest.mark.parametrize("name", ["._manifest.json.tmp", MANIFEST, SUCCESS, "hands/part-0-00000.parquet",
                                  "hands/.part-0-00000.parquet.tmp", "players/part-empty.parquet",
                                  "players/.part-empty.parquet.tmp"])
def test_a_planted_file_link_is_replaced_never_followed(tmp_path, victim, name):
    out = tmp_path / "out"
    for table in TABLE_NAMES:
        (out / table).mkdir(parents=True)
    (out / name).symlink_to(victim / "precious.txt")
    result = _cli(["check", SAMPLES, "--out", str(out), "--fail-on", "never", "--overwrite"])
    assert result.returncode == 0, result.stderr
    _untouched(victim)
    assert (out / SUCCESS).exists() and not (out / SUCCESS).is_symlink()
    assert json.loads((out / MANIFEST).read_text())["status"] == "complete"
    assert not any(p.is_symlink() for p in out.rglob("*"))


@pytest.mark.parametrize("table", ["hands", "pots"])
def test_a_table_directory_link_is_refused(tmp_path, victim, table):
    out = tmp_path / "out"
    out.mkdir()
    (out / table).symlink_to(victim, target_is_directory=True)
    result = _cli(["check", SAMPLES, "--out", str(out), "--overwrite"])
    assert result.returncode == 2
    assert result.stderr == (f"handaudit: {out / table} is a symbolic link: handaudit never writes, renames or "
                             "deletes a report file through a link (remove it)\n")
    _untouched(victim)


def test_a_lock_file_link_is_refused(tmp_path, victim):
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK).symlink_to(victim / "precious.txt")
    result = _cli(["check", SAMPLES, "--out", str(out), "--overwrite"])
    assert result.returncode == 2
    assert result.stderr == (f"handaudit: {out / LOCK} is a symbolic link: handaudit never writes, renames or "
                             "deletes a report file through a link (remove it)\n")
    _untouched(victim)


def test_a_link_at_a_part_s_own_names_is_never_followed(tmp_path, victim):
    """The run id makes a run's part names unknown in advance; with a known id, a link at the
    temporary name is refused (O_EXCL | O_NOFOLLOW) and one at the final name is replaced."""
    import handaudit

    hand = next(iter(handaudit.audit([str(CORPUS / "generated" / "NT" / "NT_0001.phh")])))
    out = tmp_path / "out"
    with ReportDir(out, create=True) as report:
        report.prepare()
    (out / "hands" / ".part-fixedrun-0-00000.parquet.tmp").symlink_to(victim / "precious.txt")
    writer = ReportWriter(out, 0, run_id="fixedrun")
    writer.add(hand)
    with pytest.raises(OutputError, match=re.escape(f"{out / 'hands' / '.part-fixedrun-0-00000.parquet.tmp'} is a "
                                                    "symbolic link")):
        writer.commit()
    writer.abort()
    _untouched(victim)
    assert os.readlink(out / "hands" / ".part-fixedrun-0-00000.parquet.tmp") == str(victim / "precious.txt")
    os.unlink(out / "hands" / ".part-fixedrun-0-00000.parquet.tmp")
    (out / "hands" / "part-fixedrun-0-00000.parquet").symlink_to(victim / "precious.txt")
    writer = ReportWriter(out, 0, run_id="fixedrun")
    writer.add(hand)
    files = writer.close()
    assert files["hands"] == [("part-fixedrun-0-00000.parquet", 1)]
    assert not (out / "hands" / "part-fixedrun-0-00000.parquet").is_symlink()
    _untouched(victim)


@pytest.mark.parametrize("name", ["valid.phhs", "valid.keys.csv", "invalid.phhs", "invalid.keys.csv"])
def test_a_clean_subset_link_is_replaced_never_followed(tmp_path, victim, name):
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / name).symlink_to(victim / "precious.txt")
    result = _cli(["check", SAMPLES, "--write-valid", str(clean), "--write-invalid", str(clean),
                   "--fail-on", "never"])
    assert result.returncode == 0, result.stderr
    _untouched(victim)
    assert sorted(p.name for p in clean.iterdir()) == ["invalid.keys.csv", "invalid.phhs", "valid.keys.csv",
                                                       "valid.phhs"]
    assert not any(p.is_symlink() for p in clean.iterdir())
    assert (clean / "valid.phhs").read_bytes().startswith(b"[1]  # source: ")


# ---------------------------------------------------------------------------------------------
# 3. SIGTERM, SIGHUP; workers end with their parent


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] in "ZX"  # a zombie has ended (waiting for init to reap it)


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = [p for p in pids if not _gone(p)]
        if not alive:
            return []
        time.sleep(0.05)
    return [p for p in pids if not _gone(p)]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_like_sigint(long_input, tmp_path, signum, jobs):
    out = tmp_path / "out"
    proc = _start([str(long_input), "--out", str(out), "--jobs", str(jobs)], tmp_path)
    try:
        _wait_for_temporary_part(proc, out)
        workers = _worker_pids(proc.pid)
        assert len(workers) == jobs - 1
        proc.send_signal(signum)  # to the parent only, as `kill -TERM pid`
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    stderr = stderr.decode()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    hands = _assert_only_whole_parts(out)  # no temporary part left
    assert 0 < hands < 10_000
    assert not (out / SUCCESS).exists()
    assert sorted(p.name for p in out.iterdir()) == sorted([LOCK, MANIFEST, *TABLE_NAMES])  # no manifest temporary
    manifest = _assert_report_counts_agree(out)
    assert manifest["status"] == "interrupted" and manifest["hands"] == hands
    assert stderr.splitlines()[0] == f"handaudit: interrupted: {hands:,} hands audited before stopping."
    assert "before stopping" not in stdout.decode()  # said once, on standard error
    assert _wait_gone(workers, 5.0) == []


_PARENT_KILLED = textwrap.dedent("""
    import sys
    from handaudit.run import local, process
    if sys.argv[1] == "poll":
        process.PR_SET_PDEATHSIG = 0  # prctl(0) is refused: only the worker's own check of its parent is left
    if __name__ == "__main__":
        local.Runner([sys.argv[2]], jobs=2, out_dir=sys.argv[3]).run()
""")


@pytest.mark.slow
@pytest.mark.parametrize("how", ["pdeathsig", "poll"])
def test_a_worker_ends_when_its_parent_is_killed(long_input, tmp_path, how):
    script = tmp_path / "run.py"
    script.write_text(_PARENT_KILLED)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, str(script), how, str(long_input), str(out)], env=_env(), cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _wait_for_temporary_part(proc, out)
        workers = _worker_pids(proc.pid)
        assert len(workers) == 1
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert _wait_gone(workers, 5.0) == [], f"worker {workers} outlived its parent"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# ---------------------------------------------------------------------------------------------
# 4. a worker that dies: its batches audited again, every hand once


# The patches go in a sitecustomize module: spawned workers import it at start (they do not run
# the parent's __main__, see handaudit.run.process.workers_without_main).
_DIES_AFTER_COMMIT = textwrap.dedent("""
    import multiprocessing, os, sys
    from handaudit.reports import parquet
    from handaudit.run import local, worker

    worker.COMMIT_BYTES = 40_000  # workers commit every few batches
    _commit = parquet.ReportWriter.commit
    commits = [0]
    dies_at = int(os.environ["HANDAUDIT_TEST_DIES_AT_COMMIT"])

    def commit(self):
        files = _commit(self)  # the parts are renamed ...
        if multiprocessing.current_process().name != "MainProcess" and any(files.values()):
            commits[0] += 1
            if commits[0] == dies_at:
                os._exit(9)  # ... and the worker dies before it can say so
        return files

    parquet.ReportWriter.commit = commit
    local._Workers.PER_WORKER = 100  # the main process sends the worker nearly every batch
""")

_RUN = textwrap.dedent("""
    import json, sys
    from handaudit.run import local

    r = local.Runner([sys.argv[1]], jobs=2, out_dir=sys.argv[2], batch_size=20, window=400).run()
    print(json.dumps({"complete": r.complete, "hands": r.summary.hands, "notes": r.notes,
                      "summary": r.summary.to_json()}))
""")


@pytest.mark.slow
@pytest.mark.parametrize("dies_at_commit", [1, 3])
def test_a_worker_dying_after_renaming_its_parts_counts_no_row_twice(medium_input, tmp_path, dies_at_commit):
    from handaudit.run.local import audit_to_parquet

    reference = tmp_path / "j1"
    expected = audit_to_parquet([str(medium_input)], reference, jobs=1).to_json()
    patches = tmp_path / "patches"
    patches.mkdir()
    (patches / "sitecustomize.py").write_text(_DIES_AFTER_COMMIT)
    script = tmp_path / "run.py"
    script.write_text(_RUN)
    out = tmp_path / "out"
    env = _env()
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(patches), env.get("PYTHONPATH")) if p)
    env["HANDAUDIT_TEST_DIES_AT_COMMIT"] = str(dies_at_commit)
    run = subprocess.run([sys.executable, str(script), str(medium_input), str(out)],
                         capture_output=True, text=True, env=env, cwd=REPO, timeout=240)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["complete"] and result["hands"] == 700
    assert len(result["notes"]) == 1 and result["notes"][0].startswith("worker 1 died (exit code 9); its ")
    for table in TABLE_NAMES:
        assert _rows(out, table) == _rows(reference, table), table
    manifest = _assert_report_counts_agree(out)
    assert manifest["status"] == "complete"
    for key in ("elapsed_seconds", "jobs"):
        expected.pop(key, None), result["summary"].pop(key, None), manifest["summary"].pop(key, None)
    assert result["summary"] == manifest["summary"] == expected


# ---------------------------------------------------------------------------------------------
# 5. environment failures: one line with the cause and the path


def _limit(kind: int, value: int):
    def apply():
        resource.setrlimit(kind, (value, value))
    return apply


def _assert_one_failure_line(result: subprocess.CompletedProcess, pattern: str) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    first = result.stderr.splitlines()[0]
    assert re.fullmatch(pattern, first), result.stderr
    return first


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_size_limit_is_one_line_efbig(medium_input, tmp_path, jobs):
    out = tmp_path / "out"
    result = _cli(["check", str(medium_input), "--out", str(out), "--jobs", str(jobs)],
                  preexec_fn=_limit(resource.RLIMIT_FSIZE, 40_000))
    _assert_one_failure_line(result, rf"handaudit: cannot write {re.escape(str(out))}/(actions|players|hands)/"
                                     r"\.part-[0-9a-f]{12}-[01]-00000\.parquet\.tmp: file too large")
    assert result.stderr.splitlines()[1:] == [
        "handaudit: stopped: 0 hands audited before stopping.",
        f"handaudit: The report in {out} is incomplete (no _SUCCESS; _manifest.json says failed): its complete "
        "part files hold 0 hands; no partial file was left."]
    _assert_only_whole_parts(out)
    manifest = _assert_report_counts_agree(out)
    assert manifest["status"] == "failed" and manifest["error"].endswith(": file too large")


@pytest.mark.parametrize("jobs, files", [(1, 9), (1, 13), (2, 14), (2, 22)])
def test_too_many_open_files_is_one_line_emfile(medium_input, tmp_path, jobs, files):
    out = tmp_path / "out"
    result = _cli(["check", str(medium_input), "--out", str(out), "--jobs", str(jobs)],
                  preexec_fn=_limit(resource.RLIMIT_NOFILE, files))
    _assert_one_failure_line(result, r"handaudit: (cannot (open|list|write|create) \S+|cannot start the worker "
                                     r"processes|\S+): [Tt]oo many open files")


@pytest.mark.slow
def test_a_full_disk_is_one_line_enospc(medium_input, tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({mounted.stderr.decode().strip()}); "
                    "test_a_failing_write_is_one_line_in_process covers ENOSPC")
    try:
        out = disk / "out"
        for jobs in (1, 2):
            result = _cli(["check", str(medium_input), "--out", str(out), "--jobs", str(jobs), "--overwrite"])
            _assert_one_failure_line(result, rf"handaudit: cannot write {re.escape(str(out))}/\w+/"
                                             r"\.part-[0-9a-f]{12}-[01]-00000\.parquet\.tmp: no space left on device")
            _assert_only_whole_parts(out)
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_a_failing_write_is_one_line_in_process(medium_input, tmp_path, monkeypatch, capsys):
    """ENOSPC without a small disk: every write to a report file fails as a full disk does."""
    from handaudit import cli

    real = ReportDir.create

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(self.f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(ReportDir, "create", lambda self, *a, **k: Full(real(self, *a, **k)))
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_:
        cli.main(["check", str(medium_input), "--out", str(out), "--jobs", "1"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert re.fullmatch(rf"handaudit: cannot write {re.escape(str(out))}/\w+/\.part-[0-9a-f]{{12}}-0-00000"
                        r"\.parquet\.tmp: no space left on device", err.splitlines()[0]), err
    # the manifest could not be written either: the run says so in the same words, no traceback
    assert not (out / MANIFEST).exists()
    assert not [p for p in out.rglob("*") if p.is_file() and p.name != LOCK]


def test_summary_of_a_truncated_part_is_one_line(tmp_path):
    out = tmp_path / "out"
    assert _cli(["check", SAMPLES, "--out", str(out), "--fail-on", "never"]).returncode == 0
    part = next((out / "hands").glob("part-*.parquet"))
    os.truncate(part, part.stat().st_size // 2)
    result = _cli(["summary", str(out)])
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (f"handaudit: cannot read {part}: not a whole Parquet file (Parquet magic bytes not "
                             "found in footer. Either the file is corrupted or this is not a parquet file.)\n")
    with pytest.raises(OutputError, match=re.escape(f"cannot read {part}: not a whole Parquet file")):
        read_table(out, "hands")


# 9. --out never loses or mixes files: someone's directory, an earlier report, an empty path


def test_out_refuses_a_directory_of_other_files(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    result = _cli(["check", SAMPLES, "--out", str(out)])
    assert result.returncode == 2
    assert result.stderr == (f"handaudit: --out {out}: the directory is not empty and is not a handaudit report "
                             "(it holds precious.txt); choose an empty or a new directory\n")
    assert sorted(p.name for p in out.iterdir()) == ["precious.txt"]  # nothing written
    assert _cli(["check", SAMPLES, "--out", str(out), "--overwrite"]).returncode == 2  # not a report: never


def test_out_replaces_an_earlier_report_only_with_overwrite(tmp_path):
    out = tmp_path / "report"
    assert _cli(["check", SAMPLES, "--out", str(out), "--fail-on", "never"]).returncode == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    again = _cli(["check", SAMPLES, "--out", str(out), "--fail-on", "never"])
    assert again.returncode == 2
    assert f"--out {out}: holds a handaudit report already (" in again.stderr and "give --overwrite" in again.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before  # untouched
    replaced = _cli(["check", str(REPO / "samples" / "out-of-turn.phh"), "--out", str(out), "--overwrite"])
    assert replaced.returncode == 1, replaced.stderr
    assert json.loads((out / MANIFEST).read_text())["hands"] == 1


@pytest.mark.parametrize("args,message", [
    (["--out", ""], "the report directory cannot be an empty path"),
    (["--out", "  "], "the report directory cannot be an empty path"),
    (["--overwrite"], "--overwrite needs --out DIR"),
])
def test_out_usage_errors(args, message):
    result = _cli(["check", SAMPLES, *args])
    assert result.returncode == 2 and message in result.stderr


def test_a_file_named_twice_is_read_once_with_a_note(tmp_path):
    hand = tmp_path / "a.phh"
    hand.write_text((REPO / "samples" / "out-of-turn.phh").read_text())
    dotted = os.path.join(str(tmp_path), ".", "a.phh")
    result = _cli(["check", str(hand), dotted, str(tmp_path), "--format", "jsonl"])
    assert [json.loads(line)["source"] for line in result.stdout.splitlines()] == [str(hand)]
    assert result.stderr.splitlines() == [
        f"handaudit: {dotted} is the same file as {hand}: it is read once",
        f"handaudit: {hand} is given twice: it is read once"]

"""The batch runner: same rows whatever --jobs, safe part files, interruption, a killed worker."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from handaudit.grammar.sources import expand_paths, read_chunks
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.parquet import MANIFEST, SUCCESS, prepare_dir, read_table
from handaudit.run.local import Runner, audit_to_parquet

from helpers import CORPUS, REPO, cli_env, run_cli

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not found")


def _templates() -> list[bytes]:
    out = []
    for path in expand_paths([str(CORPUS / "generated"), str(CORPUS / "real")]):
        for chunk in read_chunks(path):
            if chunk.data.strip():
                out.append(chunk.data if chunk.data.endswith(b"\n") else chunk.data + b"\n")
    return out


_HAND_NUMBER = re.compile(rb"^hand[ \t]*=.*$", re.M)


def synthetic(path: Path, n: int, broken_every: int = 97) -> Path:
    """``n`` corpus hands under keys 1..n (every ``broken_every``-th cut in half and made unreadable).

    Each copy's site hand number is made its key, so no copy is a ``duplicate-hand`` of another.
    """
    texts = _templates()
    with open(path, "wb") as f:
        for k in range(1, n + 1):
            text = _HAND_NUMBER.sub(b"hand = %d" % k, texts[(k * 7919) % len(texts)], count=1)
            if broken_every and k % broken_every == 0:
                text = text[: len(text) // 2] + b"\n= not TOML\n"
            f.write(b"[%d]\n" % k)
            f.write(text)
    return path


def _rows(out: Path, table: str) -> list[tuple]:
    t = read_table(out, table)
    rows = []
    for row in t.to_pylist():
        rows.append(tuple(json.dumps(v, sort_keys=True) if isinstance(v, (list, dict)) else v for v in row.values()))
    return sorted(rows, key=repr)


def _env() -> dict:
    return cli_env()


def _assert_only_whole_parts(out: Path) -> int:
    """No temporary part is left, every visible part reads; the hands rows in them."""
    hands = 0
    for table in TABLE_NAMES:
        for f in (out / table).iterdir():
            assert not f.name.endswith(".tmp"), f"temporary part left: {f}"
            assert f.name.startswith("part-") and f.name.endswith(".parquet"), f
            t = pq.read_table(f)  # a truncated file would raise here
            assert t.num_rows == pq.ParquetFile(f).metadata.num_rows
            if table == "hands":
                hands += t.num_rows
    return hands


@pytest.mark.slow
def test_jobs_1_2_and_3_give_identical_rows(tmp_path):
    src = synthetic(tmp_path / "mixed.phhs", 700)
    inputs = [str(src), str(CORPUS / "real")]
    outs = {}
    for jobs in (1, 2, 3):
        out = tmp_path / f"j{jobs}"
        audit_to_parquet(inputs, out, jobs=jobs, batch_size=40, batch_rows=500, part_rows=4000)
        outs[jobs] = out
    n_input = sum(1 for p in expand_paths(inputs) for _ in read_chunks(p))
    for jobs in (2, 3):
        for table in TABLE_NAMES:
            assert _rows(outs[1], table) == _rows(outs[jobs], table), (jobs, table)
        # every process audited some: this one writes part-<run>-0-*, worker w part-<run>-w-*
        parts = {f.name for f in (outs[jobs] / "actions").iterdir()}
        run_id = json.loads((outs[jobs] / MANIFEST).read_text())["run_id"]
        assert {n.split("-")[1] for n in parts} == {run_id}, sorted(parts)
        assert {n.split("-")[2] for n in parts} == {str(w) for w in range(jobs)}, sorted(parts)
        assert len(parts) > jobs  # parts were rotated
        assert read_table(outs[jobs], "hands").num_rows == n_input


_FORKED_RUN = """
import json, os, sys
from handaudit.run import local, worker
from handaudit.run.process import close_inherited

methods = []
choose = local.worker_start_method
local.worker_start_method = lambda: methods.append(choose()) or methods[-1]
worker_main = worker.worker_main

def recording_worker_main(w, config, tasks, conn, stop, parent, inherited=()):
    close_inherited(inherited)  # what a forked worker holds once it has closed the parent's
    fds = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            fds[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass
    with open(os.path.join(sys.argv[3], f"worker-{w}.json"), "w") as f:
        json.dump({"fds": fds, "tasks": f"pipe:[{os.fstat(tasks.fileno()).st_ino}]"}, f)
    worker_main(w, config, tasks, conn, stop, parent)

worker.worker_main = recording_worker_main  # local imports it when it starts workers
r = local.Runner([sys.argv[1]], jobs=3, out_dir=sys.argv[2], batch_size=40).run()
print(json.dumps({"complete": r.complete, "hands": r.summary.hands, "methods": methods}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_forked_workers_write_the_same_rows_and_hold_none_of_the_parent_s_descriptors(tmp_path):
    """A process that has not imported pyarrow (``handaudit check``'s) forks its workers. Each
    then holds neither the report's lock nor another worker's batch pipe, and the report has the
    rows of a run in one process."""
    src = synthetic(tmp_path / "mixed.phhs", 700)
    out, seen = tmp_path / "forked", tmp_path / "seen"
    seen.mkdir()
    run = subprocess.run([sys.executable, "-c", _FORKED_RUN, str(src), str(out), str(seen)], capture_output=True,
                         text=True, cwd=REPO, env=_env(), timeout=300)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result == {"complete": True, "hands": 700, "methods": ["fork"]}
    workers = {w: json.loads((seen / f"worker-{w}.json").read_text()) for w in (1, 2)}
    for w, held in workers.items():
        assert not [path for path in held["fds"].values() if path.endswith(".handaudit.lock")], w
        others = {workers[v]["tasks"] for v in workers if v != w}
        assert not others & set(held["fds"].values()), (w, held)
    audit_to_parquet([str(src)], tmp_path / "here", jobs=1)
    parts = {f.name.split("-")[2] for f in (out / "actions").iterdir()}
    assert parts == {"0", "1", "2"}  # every process audited some
    for table in TABLE_NAMES:
        assert _rows(tmp_path / "here", table) == _rows(out, table), table


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
@pytest.mark.parametrize("env, expected", [({}, ["fork", "spawn"]),
                                           ({"HANDAUDIT_WORKER_START": "spawn"}, ["spawn", "spawn"])])
def test_workers_are_forked_only_while_this_process_runs_one_thread(env, expected):
    """pyarrow's allocator starts a thread at import: from then on workers are spawned."""
    code = ("from handaudit.run.process import worker_start_method as m; a = m(); import pyarrow; "
            "print(a, m())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env={**_env(), **env}, timeout=120)
    assert out.stdout.split() == expected, out.stderr


def test_every_table_exists_even_when_empty(tmp_path):
    hand = (CORPUS / "generated" / "NT" / "NT_0001.phh")
    out = tmp_path / "out"
    audit_to_parquet([str(hand)], out, jobs=1)
    for table in TABLE_NAMES:
        assert list((out / table).glob("part-*.parquet")), table
        read_table(out, table)  # reads, with its schema, possibly empty
    assert (out / SUCCESS).exists()


def test_a_new_run_replaces_the_old_report_only(tmp_path):
    out = tmp_path / "out"
    audit_to_parquet([str(CORPUS / "real" / "wsop")], out, jobs=1)
    (out / "notes.txt").write_text("mine")
    (out / "hands" / "part-9-00000.parquet").write_bytes(b"old")
    (out / "hands" / ".part-9-00001.parquet.tmp").write_bytes(b"old")
    audit_to_parquet([str(CORPUS / "generated" / "NT" / "NT_0001.phh")], out, jobs=1)
    assert (out / "notes.txt").read_text() == "mine"
    assert read_table(out, "hands").num_rows == 1
    assert not (out / "hands" / "part-9-00000.parquet").exists()
    prepare_dir(out)
    assert not (out / SUCCESS).exists() and not (out / MANIFEST).exists()


def _start(args: list[str], tmp_path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "handaudit.cli", "check", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), cwd=REPO,
                            start_new_session=True)


def _wait_for_temporary_part(proc: subprocess.Popen, out: Path, timeout: float = 240.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the run finished before it could be interrupted"
        if any((out / t).is_dir() and any(f.name.endswith(".tmp") for f in (out / t).iterdir())
               for t in TABLE_NAMES):
            return
        time.sleep(0.05)
    pytest.fail("no part file was being written")


@pytest.fixture(scope="module")
def big_input(tmp_path_factory):
    return synthetic(tmp_path_factory.mktemp("big") / "big.phhs", 30_000)


@pytest.fixture(scope="module")
def mid_input(tmp_path_factory):
    return synthetic(tmp_path_factory.mktemp("mid") / "mid.phhs", 12_000)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [2, 1])
def test_sigint_leaves_no_partial_parquet_file(big_input, tmp_path, jobs):
    out = tmp_path / "out"
    proc = _start([str(big_input), "--out", str(out), "--jobs", str(jobs)], tmp_path)
    try:
        _wait_for_temporary_part(proc, out)
        proc.send_signal(signal.SIGINT)  # to the parent only, as `kill -INT pid`
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    stderr = stderr.decode()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted" in stderr
    hands = _assert_only_whole_parts(out)
    assert 0 < hands < 30_000
    assert not (out / SUCCESS).exists()
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["status"] == "interrupted" and manifest["hands"] == hands
    assert f"{hands:,} hands" in stderr  # the run says what it finished
    keys = read_table(out, "hands", ["source", "hand_index"]).to_pylist()
    assert len({(k["source"], k["hand_index"]) for k in keys}) == hands  # each at most once


def _worker_pids(parent: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if ppid == parent and b"resource_tracker" not in cmd:  # forked or spawned, every other child is a worker
            pids.append(int(entry))
    return pids


def _assert_report_counts_agree(out: Path) -> dict:
    """The manifest's table counts are the tables' row counts, and its summary counts the same hands."""
    manifest = json.loads((out / MANIFEST).read_text())
    for table in TABLE_NAMES:
        assert manifest["tables"][table]["rows"] == read_table(out, table).num_rows, table
    hands = read_table(out, "hands", ["source", "hand_index", "status"])
    summary = manifest["summary"]
    assert manifest["hands"] == hands.num_rows == summary["hands"]
    statuses = hands.column("status").to_pylist()
    assert [summary["valid"], summary["invalid"], summary["unreadable"]] == [
        statuses.count("valid"), statuses.count("invalid"), statuses.count("unreadable")]
    assert sum(f["findings"] for f in summary["findings"].values()) == manifest["tables"]["findings"]["rows"]
    keys = {(k["source"], k["hand_index"]) for k in hands.select(["source", "hand_index"]).to_pylist()}
    assert len(keys) == hands.num_rows  # each hand at most once
    return manifest


@pytest.mark.slow
def test_a_killed_worker_s_batches_are_audited_again(mid_input, tmp_path):
    """A worker killed mid-run: the main process audits again every batch the worker had not
    finished writing; the report holds every hand exactly once and the run completes."""
    out = tmp_path / "out"
    proc = _start([str(mid_input), "--out", str(out), "--jobs", "2"], tmp_path)
    try:
        _wait_for_temporary_part(proc, out)
        workers = _worker_pids(proc.pid)
        assert len(workers) == 1  # --jobs 2: this process and one worker
        time.sleep(1.0)  # the worker has started and sent results back
        assert proc.poll() is None
        os.kill(workers[0], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    stderr = stderr.decode()
    assert proc.returncode == 1, stderr  # complete; the broken hands are errors
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1 and re.fullmatch(
        r"handaudit: worker 1 died \(killed by signal 9\); its \d+ unfinished batch(es)? \([\d,]+ hands\) "
        r"(was|were) audited again by the main process", lines[0]), stderr
    assert _assert_only_whole_parts(out) == 12_000
    assert (out / SUCCESS).exists()
    manifest = _assert_report_counts_agree(out)
    assert manifest["status"] == "complete" and manifest["hands"] == 12_000
    assert manifest["summary"]["unreadable"] == 12_000 // 97
    assert "12,000 hands" in stdout.decode()


def test_in_process_run_with_small_batches_counts_every_hand(tmp_path):
    src = synthetic(tmp_path / "s.phhs", 300, broken_every=10)
    result = Runner([str(src)], jobs=1, out_dir=str(tmp_path / "out"), batch_size=16).run()
    assert result.complete and result.summary.hands == 300
    assert result.summary.unreadable == 30
    assert result.tables["hands"]["rows"] == 300
    statuses = read_table(tmp_path / "out", "hands", ["status"]).column("status")
    assert pa.compute.sum(pa.compute.equal(statuses, "unreadable")).as_py() == 30


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_parquet_run_does_not_import_pandas(tmp_path, jobs):
    """pyarrow imports pandas (about 55 MB) the first time it converts a list unless told not to;
    a run of the local engine, in process or as the parent of workers, leaves it out."""
    code = ("import sys; from handaudit.run.local import Runner; "
            f"r = Runner([{str(CORPUS / 'real' / 'handhq')!r}], jobs={jobs}, out_dir={str(tmp_path / 'out')!r}).run(); "
            "print(r.complete, r.summary.hands, 'pandas' in sys.modules, 'pyarrow' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.stdout.split() == ["True", "255", "False", "True"], out.stderr


def test_check_out_leaves_numpy_out_and_writes_the_same_tables(tmp_path):
    """``handaudit check --out`` (no --html) imports pyarrow without numpy, as its workers do; the
    tables are those of a run in a process with numpy."""
    code = ("import sys; from handaudit.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('numpy' in sys.modules, 'pyarrow' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, "check", str(CORPUS / "real"), "--out", str(tmp_path / "cli"),
                          "--quiet", "--jobs", "1"], capture_output=True, text=True, cwd=REPO, env=_env(), timeout=120)
    assert out.stdout.split()[-2:] == ["False", "True"], out.stderr
    Runner([str(CORPUS / "real")], jobs=1, out_dir=str(tmp_path / "usual")).run()
    for table in TABLE_NAMES:
        assert read_table(tmp_path / "cli", table).equals(read_table(tmp_path / "usual", table)), table


def test_a_worker_writes_the_same_parts_without_numpy(tmp_path):
    """A worker imports pyarrow as if numpy were not installed (run.process.pyarrow_without_numpy):
    its parts hold exactly what a process with numpy writes."""
    code = ("import sys; from handaudit.run.process import pyarrow_without_numpy; pyarrow_without_numpy(); "
            "from handaudit.run.local import Runner; "
            f"r = Runner([{str(CORPUS / 'real')!r}], jobs=1, out_dir={str(tmp_path / 'bare')!r}).run(); "
            "print(r.complete, r.summary.hands, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.stdout.split() == ["True", "404", "False"], out.stderr
    Runner([str(CORPUS / "real")], jobs=1, out_dir=str(tmp_path / "usual")).run()
    for table in TABLE_NAMES:
        assert read_table(tmp_path / "bare", table).equals(read_table(tmp_path / "usual", table)), table


@pytest.mark.parametrize("n, count", [(5, 2), (2, 2), (1, 2), (0, 2), (4, 0), (9, 6)])
def test_count_down_says_how_many_batches_follow_near_the_end(n, count):
    """Each batch, in order, with how many follow it (``count`` while that many or more do)."""
    from handaudit.run.batches import count_down

    counted = list(count_down(iter(range(n)), count))
    assert [item for item, _ in counted] == list(range(n))
    assert [left for _, left in counted] == [min(count, n - 1 - i) for i in range(n)]


class _Queue:
    def __init__(self):
        self.items = []

    def put(self, item):
        self.items.append(item)


def _bare_workers(count: int):
    """A _Workers with ``count`` fake batch queues and no process: for its bookkeeping alone."""
    from handaudit.run.local import _Workers

    w = object.__new__(_Workers)
    w.tasks = [_Queue() for _ in range(count)]
    w.finished, w.ready, w.ended, w.failure = set(), set(), False, None
    w.outstanding = [0] * count
    w.sent = [{} for _ in range(count)]
    return w


def test_near_the_end_a_batch_goes_only_to_an_idle_worker_that_has_started():
    """The last batches: a worker still starting, or with a batch in hand, gets none; an idle
    one that has sent a batch back gets it. Before the end, up to PER_WORKER each."""
    w = _bare_workers(2)
    assert not w.send(0, [], 0, idle_only=True)  # neither has started
    w.ready.add(1)
    w.outstanding[1] = 1
    assert not w.send(1, [], 0, idle_only=True)  # the started one is busy
    w.outstanding[1] = 0
    assert w.send(2, [], 0, idle_only=True) and len(w.tasks[1].items) == 1 and w.outstanding == [0, 1]
    assert w.send(3, [], 0) and w.outstanding == [1, 1]  # before the end: the least busy, started or not
    w.outstanding = [w.PER_WORKER, w.PER_WORKER]
    assert not w.send(4, [], 0)


def test_the_workers_are_told_the_end_once():
    w = _bare_workers(2)
    w.end(False)
    w.end(True)  # (again, as finish() does: no second end of input)
    assert [q.items for q in w.tasks] == [[None], [None]]


@pytest.mark.parametrize("before, inside", [((700, 10, 10), (10_000, 10, 10)), ((0, 10, 10), (0, 10, 10)),
                                            ((50_000, 5, 5), (50_000, 5, 5))])
def test_fewer_collections_raises_only_a_lower_young_threshold_and_restores_it(before, inside):
    import gc

    from handaudit.run.process import fewer_collections

    saved = gc.get_threshold()
    try:
        gc.set_threshold(*before)
        with fewer_collections(10_000):
            assert gc.get_threshold() == inside
        assert gc.get_threshold() == before
        with pytest.raises(KeyError):
            with fewer_collections(10_000):
                raise KeyError("a failure inside")
        assert gc.get_threshold() == before
    finally:
        gc.set_threshold(*saved)


@pytest.mark.parametrize("sizes, limit, taken, whole", [([5, 5, 5], 12, 3, False), ([5, 5, 5], 10, 2, False),
                                                         ([5, 5], 11, 2, True), ([], 10, 0, True)])
def test_read_ahead_takes_batches_until_the_limit_and_says_if_that_was_all(sizes, limit, taken, whole):
    from handaudit.run.batches import read_ahead

    batches = iter([([], size) for size in sizes])
    first, ended = read_ahead(batches, limit)
    assert [size for _, size in first] == sizes[:taken] and ended is whole
    assert [size for _, size in batches] == sizes[taken:]  # the rest is left to read


def _jobs_line(stdout: bytes) -> str:
    return next(line for line in stdout.decode().splitlines() if line.startswith("Throughput:"))


def test_a_small_pipe_is_audited_in_one_process_and_a_large_one_by_workers(tmp_path):
    from handaudit.run.common import SMALL_INPUT_BYTES, default_jobs

    small = synthetic(tmp_path / "small.phhs", 40).read_bytes()
    done = run_cli("check", "-", stdin=small)
    assert done.returncode in (0, 1), done.stderr
    assert _jobs_line(done.stdout).endswith(("1 job", "1 job, compiled build", "1 job, pure-Python build")), done.stdout
    if default_jobs() == 1:
        pytest.skip("one core: the default is one process for any input")
    n = 40
    while len(synthetic(tmp_path / "large.phhs", n, broken_every=0).read_bytes()) < SMALL_INPUT_BYTES * 1.2:
        n *= 2
    large = (tmp_path / "large.phhs").read_bytes()
    done = run_cli("check", "-", "--out", str(tmp_path / "out"), stdin=large, env={"HANDAUDIT_WORKER_START": "spawn"})
    assert done.returncode in (0, 1), done.stderr
    assert f"{default_jobs()} jobs" in _jobs_line(done.stdout), done.stdout
    assert f"{n:,} hands read" in done.stdout.decode(), done.stdout
    parts = list((tmp_path / "out" / "hands").glob("part-*.parquet"))
    assert len(parts) >= 2  # the parent's and a worker's
    assert sum(pq.ParquetFile(p).metadata.num_rows for p in parts) == n

"""The Dask engine: the same report as the local engine, exact range splitting, killed workers.

One local Dask cluster (2 worker processes, one thread each, loopback only) serves the module;
its teardown checks that no process is left behind.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import random
import re
import shutil
import socket
import ssl
import subprocess
import uuid
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

import pyarrow as pa  # noqa: E402

from handaudit.grammar.sources import expand_paths, read_chunks  # noqa: E402
from handaudit.reports.layout import TABLE_NAMES  # noqa: E402
from handaudit.reports.parquet import read_table  # noqa: E402
from handaudit.run.dask.client import TASK_RETRIES, DaskRunner  # noqa: E402
from handaudit.run.dask.planning import plan_tasks, segment_chunks  # noqa: E402
from handaudit.run.local import Runner  # noqa: E402

from helpers import CORPUS, REPO, run_cli  # noqa: E402

SITE_LOG = "sites/pokerstars/hhsmithy/CashGame/Tables/Table6.txt"

# A Dask cluster, killed workers and tasks retried: slow (skipped unless --slow or CI=true)
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not there")]


# ---------------------------------------------------------------------------------------------
# inputs


def _templates() -> list[bytes]:
    out = []
    for path in expand_paths([str(CORPUS / "generated"), str(CORPUS / "real" / "handhq")]):
        for chunk in read_chunks(path):
            if chunk.problem is None and chunk.data.strip():
                out.append(chunk.data if chunk.data.endswith(b"\n") else chunk.data + b"\n")
    return out


def _tricky_phhs(n: int, seed: int = 7) -> bytes:
    """A .phhs file with what makes splitting hard: content before the first table, header
    styles, duplicate keys near and far, a table-like line inside a multi-line string, CRLF
    lines, broken hands, no final newline."""
    rng = random.Random(seed)
    texts = _templates()
    parts = [b"# hands for the Dask engine's tests\n\ntitle = 'content before the first table'\n\n"]
    for i in range(1, n + 1):
        text = texts[rng.randrange(len(texts))]
        header = (b"[%d]\n" % i, b"[ %d ]  # a comment\n" % i, b'["k%d"]\n' % i, b"['q%d']\n" % i)[i % 4]
        if i in (n // 3, n // 3 + 2):
            header = b"[1]\n"  # a duplicate of the first hand's key, far from it
        if i == n // 2 + 1:  # a duplicate of a hand just before it
            header = b"[%d]\n" % next(k for k in range(i - 1, 0, -1) if k % 4 in (0, 1))
        if i % 37 == 0:
            text = text[: len(text) // 2] + b"\n"  # broken
        if i == n // 4:
            text += b"_note = '''\n[999]\nnot a table\n'''\n"
        if i == n // 5:
            header, text = header.replace(b"\n", b"\r\n"), text.replace(b"\n", b"\r\n")
        parts.append(header + text)
    data = b"".join(parts)
    return data.rstrip(b"\n")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    d = tmp_path_factory.mktemp("dask-inputs")
    big = d / "tricky.phhs"
    big.write_bytes(_tricky_phhs(240))
    (d / "tricky-copy.phhs.gz").write_bytes(gzip.compress(_tricky_phhs(30, seed=8)))
    (d / "small.phhs").write_bytes(_tricky_phhs(6, seed=9))
    # a PokerStars log the corpus holds, again: its hands are duplicate-hand entries
    (d / "again.txt").write_bytes((CORPUS / SITE_LOG).read_bytes())
    return [str(CORPUS), str(d)]


# ---------------------------------------------------------------------------------------------
# the cluster and the local engine's report


@pytest.fixture(scope="module")
def client():
    import psutil

    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, silence_logs=logging.ERROR)
    c = distributed.Client(cluster, set_as_default=False)
    try:
        yield c
    finally:
        c.close()
        cluster.close()
        # multiprocessing's resource tracker is this (pytest) process's own, for its lifetime
        left = [p for p in me.children(recursive=True) if p.pid not in before and not _tracker(p)]
        gone, alive = psutil.wait_procs(left, timeout=10)
        assert not alive, f"processes left behind: {alive}"


def _tracker(p) -> bool:
    try:
        return "resource_tracker" in " ".join(p.cmdline())
    except Exception:
        return False


def _tables(out: str | Path, rename_source=None) -> dict[str, pa.Table]:
    tables = {}
    for table in TABLE_NAMES:
        t = read_table(str(out), table)
        if rename_source is not None:
            t = t.set_column(0, "source", pa.array([rename_source(s) for s in t.column("source").to_pylist()],
                                                    type=t.schema.field("source").type))
            if "message" in t.schema.names:  # a duplicate-hand message names the first copy's source
                i = t.schema.names.index("message")
                t = t.set_column(i, "message", pa.array([rename_source(m) for m in t.column("message").to_pylist()],
                                                        type=t.schema.field("message").type))
        keys = [(c, "ascending") for c in t.schema.names[:5] if c != "hand_key" and not _nested(t, c)]
        tables[table] = t.sort_by(keys).replace_schema_metadata(None)
    return tables


def _nested(t: pa.Table, column: str) -> bool:
    return pa.types.is_nested(t.schema.field(column).type)


def _assert_same(actual: dict, expected: dict) -> None:
    for table in TABLE_NAMES:
        a, e = actual[table], expected[table]
        assert a.num_rows == e.num_rows, table
        assert a.schema.names == e.schema.names, table
        for name in a.schema.names:
            assert a.column(name).to_pylist() == e.column(name).to_pylist(), (table, name)


def _summary_json(summary) -> dict:
    return {k: v for k, v in summary.to_json().items() if k not in ("elapsed_seconds", "jobs")}


@pytest.fixture(scope="module")
def reference(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("local-engine") / "report"
    result = Runner(inputs, jobs=1, out_dir=str(out)).run()
    assert result.complete
    again = read_table(str(out), "findings", ["source", "code", "message"]).to_pylist()
    again = [f for f in again if f["source"].endswith("again.txt")]
    assert [f["code"] for f in again] == ["duplicate-hand"]  # the log's one hand
    assert all(str(CORPUS / SITE_LOG) in f["message"] for f in again)
    return result, _tables(out)


@pytest.fixture(scope="module")
def subset(inputs, tmp_path_factory):
    """A smaller input (the tricky files and the HandHQ .phhs files) and the local engine's report."""
    paths = [inputs[1], str(CORPUS / "real" / "handhq")]
    out = tmp_path_factory.mktemp("local-engine-subset") / "report"
    result = Runner(paths, jobs=1, out_dir=str(out)).run()
    assert result.complete
    return paths, result, _tables(out)


def _every_hand_once(out: Path, expected_hands: int) -> None:
    hands = read_table(str(out), "hands", ["source", "hand_index"])
    pairs = list(zip(hands.column("source").to_pylist(), hands.column("hand_index").to_pylist(), strict=True))
    assert len(pairs) == expected_hands
    assert len(set(pairs)) == expected_hands
    assert (out / "_SUCCESS").exists()
    assert not (out / "_staging").exists()
    for table in TABLE_NAMES:
        assert not [f for f in os.listdir(out / table) if not f.startswith("part-")], table


# ---------------------------------------------------------------------------------------------
# exact splitting (no cluster)


@pytest.mark.parametrize("task_bytes", [1, 3000, 20_000, 10**9])
def test_ranges_give_the_readers_hands_exactly(inputs, task_bytes):
    path = str(Path(inputs[1]) / "tricky.phhs")
    tasks = list(plan_tasks([path], {path: os.path.getsize(path)}, task_bytes))
    if task_bytes < 10**9:
        assert len(tasks) > 1 and all(seg.hands is not None for t in tasks for seg in t.segments)
    got = [chunk for task in tasks for seg in task.segments for chunk in segment_chunks(seg)]
    assert got == list(read_chunks(path))
    assert sum(t.nbytes for t in tasks) == os.path.getsize(path)


def test_a_range_that_does_not_fit_fails_loudly(inputs, tmp_path):
    import dataclasses

    path = str(Path(inputs[1]) / "tricky.phhs")
    tasks = list(plan_tasks([path], {path: os.path.getsize(path)}, 20_000))
    seg = tasks[2].segments[0]
    with pytest.raises(Exception, match="expected"):
        list(segment_chunks(dataclasses.replace(seg, start=seg.start + 1)))
    with pytest.raises(Exception, match="expected"):
        list(segment_chunks(dataclasses.replace(seg, hands=seg.hands + 1)))


# ---------------------------------------------------------------------------------------------
# the same report as the local engine


def test_same_report_as_the_local_engine(client, inputs, reference, tmp_path):
    local, expected = reference
    out = tmp_path / "report"
    results = []
    result = DaskRunner(inputs, out_dir=str(out), client=client, task_bytes=48 * 1024,
                        on_result=results.append).run()
    assert result.complete and not result.error
    _assert_same(_tables(out), expected)
    assert _summary_json(result.summary) == _summary_json(local.summary)
    assert result.exit_status("error") == local.exit_status("error")
    _every_hand_once(out, local.summary.hands)
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["engine"] == "dask"
    assert manifest["hands"] == local.summary.hands == sum(r.hands for r in results)
    assert manifest["tasks"] == len(results) > 4
    names = sorted(os.listdir(out / "hands"))
    assert names == sorted(f"part-t{r.task:06d}-00000.parquet" for r in results)


def test_urls_through_fsspec(client, inputs, tmp_path):
    """file:// URLs take the fsspec path (as s3:// or gs:// would): inputs and report."""
    d = Path(inputs[1])
    ref = tmp_path / "local"
    local = Runner([str(d)], jobs=1, out_dir=str(ref)).run()
    out = tmp_path / "remote-report"
    result = DaskRunner([d.as_uri()], out_dir=out.as_uri(), client=client, task_bytes=30_000).run()
    assert result.complete, result.error
    prefix = d.as_uri()[: -len(str(d))]  # "file://"
    _assert_same(_tables(out, rename_source=lambda s: s.replace(prefix, "")), _tables(ref))
    assert _summary_json(result.summary)["hands"] == local.summary.hands
    _every_hand_once(out, local.summary.hands)


# ---------------------------------------------------------------------------------------------
# a worker killed in the middle of the run


def _killer(marker: str, task: str, when: str):
    from distributed.diagnostics.plugin import WorkerPlugin

    class KillOnce(WorkerPlugin):
        """Kills its worker process the first time (over the whole cluster) ``task`` runs:
        ``during`` it (0.2 s in), or ``after`` it has written its parts but before the
        scheduler hears of it (so the task runs again and rewrites them)."""

        name = "handaudit-test-kill-once"

        def __init__(self):
            self.marker, self.task, self.when = marker, task, when

        def _claim(self) -> bool:
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                return True
            except FileExistsError:
                return False

        def transition(self, key, start, finish, **kwargs):
            if not str(key).endswith(self.task):
                return
            if self.when == "during" and finish == "executing" and self._claim():
                import threading

                threading.Timer(0.2, os._exit, (17,)).start()
            elif self.when == "after" and finish == "memory" and self._claim():
                os._exit(17)

    return KillOnce()


@pytest.mark.parametrize("when", ["during", "after"])
def test_a_killed_worker_loses_no_hand_and_duplicates_none(client, subset, tmp_path, when):
    paths, local, expected = subset
    marker = tmp_path / "killed"
    before = set(client.run(os.getpid).values())
    client.register_plugin(_killer(str(marker), "-t000003", when))
    try:
        out = tmp_path / "report"
        result = DaskRunner(paths, out_dir=str(out), client=client, task_bytes=32 * 1024).run()
    finally:
        client.unregister_worker_plugin("handaudit-test-kill-once")
    assert marker.exists(), "the plugin did not kill a worker"
    assert result.complete, result.error
    _every_hand_once(out, local.summary.hands)
    _assert_same(_tables(out), expected)
    assert _summary_json(result.summary) == _summary_json(local.summary)
    client.wait_for_workers(2, timeout=30)
    assert set(client.run(os.getpid).values()) != before  # a worker was replaced


# ---------------------------------------------------------------------------------------------
# the command line


def _cli(*args: str, env: dict | None = None, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return run_cli(*args, env=env, stdin=stdin, timeout=300)


def _without_throughput(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("Throughput:", "Report:")))


def _processes_with(mark: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if mark.encode() in f.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


def test_cli_with_a_local_cluster_prints_the_same_summary_and_leaves_no_process(inputs, tmp_path):
    small = [str(CORPUS / "real" / "handhq"), str(Path(inputs[1]) / "small.phhs")]
    local = _cli("check", *small, "--jobs", "1", "--out", str(tmp_path / "local"))
    mark = f"handaudit-test-{uuid.uuid4().hex}"
    proc = _cli("check", *small, "--engine", "dask", "--jobs", "2", "--out", str(tmp_path / "dask"),
                env={"HANDAUDIT_TEST_MARK": mark})
    assert proc.returncode == local.returncode, proc.stderr.decode()
    assert _without_throughput(proc.stdout.decode()) == _without_throughput(local.stdout.decode())
    err = proc.stderr.decode()
    assert "Dask: 2 workers" in err and "dashboard http://127.0.0.1:" in err and "Traceback" not in err, err
    assert "2 workers (2 threads) at tls://127.0.0.1:" in err, err
    _assert_same(_tables(tmp_path / "dask"), _tables(tmp_path / "local"))
    assert _processes_with(mark) == []


def test_cli_with_a_scheduler_address_relative_paths_and_standard_input(client, inputs, tmp_path):
    """Workers elsewhere have another working directory: relative paths are the client's."""
    data = (Path(inputs[1]) / "small.phhs").read_bytes()
    rel_input = os.path.relpath(CORPUS / "real" / "handhq", REPO)
    rel_out = os.path.relpath(tmp_path / "dask", REPO)
    (tmp_path / "book.toml").write_text('extends = "roberts-v11"\nlimit_raises = 2\n')
    rel_book = os.path.relpath(tmp_path / "book.toml", REPO)  # the workers must read the same file
    local = _cli("check", "-", rel_input, "--jobs", "1", "--out", str(tmp_path / "local"), "--rulebook", rel_book,
                 stdin=data)
    cwd = client.run(os.getcwd)
    elsewhere = tmp_path / "w1" / "w2" / "w3"  # deep enough that no relative path of the client's resolves
    elsewhere.mkdir(parents=True)
    client.run(os.chdir, str(elsewhere))
    try:
        proc = _cli("check", "-", rel_input, "--engine", "dask", "--scheduler", client.scheduler.address,
                    "--out", rel_out, "--rulebook", rel_book, stdin=data)
    finally:
        for worker, path in cwd.items():
            client.run(os.chdir, path, workers=[worker])
    assert proc.returncode == local.returncode, proc.stderr.decode()
    assert _without_throughput(proc.stdout.decode()) == _without_throughput(local.stdout.decode())
    assert "audited under book" in proc.stdout.decode()
    tables = _tables(tmp_path / "dask")
    _assert_same(tables, _tables(tmp_path / "local"))
    assert set(tables["hands"].column("source").to_pylist()) == {"-", *(
        os.path.join(rel_input, f) for f in os.listdir(CORPUS / "real" / "handhq"))}


@pytest.mark.parametrize("args, message", [
    (["--engine", "dask", "--format", "jsonl"], "need --engine local"),
    (["--engine", "dask", "--write-valid", "V"], "need --engine local"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --engine dask"),
    (["--engine", "dask", "--scheduler", "tcp://127.0.0.1:1"], "cannot connect to the Dask scheduler"),
])
def test_cli_usage_errors(inputs, tmp_path, args, message):
    args = [a if a != "V" else str(tmp_path / "v") for a in args]
    proc = _cli("check", str(Path(inputs[1]) / "small.phhs"), *args,
                env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert message in err and "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# a failing task: one line per failed attempt, no traceback; the local cluster speaks TLS only

# A worker preload (Dask runs it in every worker the CLI's local cluster starts): reading a file
# named one.phh fails with an I/O error; with HANDAUDIT_TEST_FAIL_ONCE=MARKER only the first time.
FAIL_PRELOAD = """
import os


def dask_setup(worker):
    import handaudit.run.dask.planning as de

    real = de.segment_chunks
    marker = os.environ.get("HANDAUDIT_TEST_FAIL_ONCE")

    def failing(seg):
        if seg.path.endswith("one.phh"):
            try:
                if marker:
                    os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                raise OSError(5, "Input/output error", seg.path)
            except FileExistsError:
                pass
        return real(seg)

    de.segment_chunks = failing
"""


def _failing_run(tmp_path, once: bool) -> tuple[subprocess.CompletedProcess, list[str], str]:
    preload = tmp_path / "fail_preload.py"
    preload.write_text(FAIL_PRELOAD)
    one = tmp_path / "one.phh"
    shutil.copy(REPO / "samples" / "bet-below-minimum.phh", one)
    env = {"DASK_DISTRIBUTED__WORKER__PRELOAD": json.dumps([str(preload)])}
    if once:
        env["HANDAUDIT_TEST_FAIL_ONCE"] = str(tmp_path / "failed-once")
    proc = _cli("check", str(one), "--engine", "dask", "--jobs", "2", env=env)
    err = proc.stderr.decode()
    assert "Traceback" not in err and "Compute Failed" not in err, err
    lines = err.splitlines()
    assert re.fullmatch(r"handaudit: Dask: 2 workers \(2 threads\) at tls://127\.0\.0\.1:\d+; dashboard .*", lines[0]), err
    failure = f"task t000000 ({str(one)!r}) failed: OSError: [Errno 5] Input/output error: {str(one)!r}"
    return proc, lines[1:], failure


def _attempt_line(failure: str, line: str) -> bool:
    return re.fullmatch(re.escape(f"handaudit: {failure} (on worker tls://127.0.0.1:") + r"\d+\)", line) is not None


def test_a_task_that_always_fails_is_one_line_per_attempt_and_fails_the_run(tmp_path):
    proc, lines, failure = _failing_run(tmp_path, once=False)
    assert proc.returncode == 2
    assert len(lines) == 1 + TASK_RETRIES + 2, lines  # each attempt, the cause, then the run's end
    assert all(_attempt_line(failure, line) for line in lines[:-2]), lines
    # as the local engine says it: the cause on a line of its own (cli.check), then how far the run got
    assert lines[-2:] == [f"handaudit: {failure}", "handaudit: stopped: 0 hands audited before stopping."], lines
    assert "before stopping" not in proc.stdout.decode(), proc.stdout.decode()  # said once, on standard error


def test_a_task_that_fails_once_is_one_line_and_the_run_goes_on(tmp_path):
    proc, lines, failure = _failing_run(tmp_path, once=True)
    assert (tmp_path / "failed-once").exists()
    assert len(lines) == 1 and _attempt_line(failure, lines[0]), lines
    local = _cli("check", str(tmp_path / "one.phh"), "--jobs", "1")
    assert proc.returncode == local.returncode == 1  # the sample's error finding, as without the failure
    assert _without_throughput(proc.stdout.decode()) == _without_throughput(local.stdout.decode())
    assert proc.stdout.decode().startswith("1 hands read from 1 file, audited under tda-2026\n")


def test_the_local_cluster_speaks_tls_only():
    runner = DaskRunner([str(REPO / "samples")], dashboard=False)
    client, cluster = runner._connect()
    try:
        security = cluster.security
        assert security.require_encryption and security.tls_ca_file and security.tls_client_cert
        assert client.security is security
        address = client.scheduler.address
        assert address.startswith("tls://127.0.0.1:")
        client.wait_for_workers(2, timeout=60)
        assert len(client.nthreads()) == 2 and all(w.startswith("tls://127.0.0.1:") for w in client.nthreads())
        host, port = address[len("tls://"):].rsplit(":", 1)
        # A plain connection gets nowhere; TLS without the cluster's certificate is refused.
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            raw.sendall(b"\x00" * 64)
            with pytest.raises((ConnectionError, socket.timeout)):
                if not raw.recv(64):
                    raise ConnectionResetError("closed")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            # The server's "certificate required" alert may come before or after our first write.
            with pytest.raises(ssl.SSLError), context.wrap_socket(raw) as s:
                s.sendall(b"\x00" * 64)
                s.recv(64)
        with pytest.raises(TypeError, match="TLS expects a `ssl_context`"):  # a Dask client without it
            distributed.Client(address, set_as_default=False, timeout=5)
    finally:
        client.close()
        cluster.close()


def test_without_cryptography_the_local_cluster_falls_back_to_tcp_and_says_so(monkeypatch):
    import io

    import handaudit.run.dask.client as engine

    monkeypatch.setattr(engine, "_local_security", lambda: None)
    status = io.StringIO()
    client, cluster = DaskRunner([str(REPO / "samples")], dashboard=False, jobs=1, status=status)._connect()
    try:
        assert client.scheduler.address.startswith("tcp://127.0.0.1:")
        assert status.getvalue() == ("handaudit: the local Dask cluster runs without TLS (install cryptography): any "
                                     "user of this machine can connect to it and run code as you\n")
    finally:
        client.close()
        cluster.close()


def test_a_report_directory_another_run_holds_is_refused_by_the_dask_engine_too(tmp_path):
    """The Dask engine takes the local engine's lock on a local --out: a directory another run
    holds is refused with the same line, and not a file of it changes."""
    import fcntl

    from handaudit.reports.layout import LOCK

    out = tmp_path / "out"
    first = _cli("check", str(REPO / "samples"), "--out", str(out), "--fail-on", "never")
    assert first.returncode == 0, first.stderr
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    fd = os.open(out / LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running handaudit holds it
        second = _cli("check", str(REPO / "samples"), "--out", str(out), "--overwrite", "--engine", "dask",
                      "--jobs", "1")
    finally:
        os.close(fd)
    assert second.returncode == 2, second.stderr
    assert (f"handaudit: {out}: another handaudit run is writing this report (it holds {out / LOCK}); "
            "wait for it to end or choose another --out") in second.stderr.decode()
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    third = _cli("check", str(REPO / "samples"), "--out", str(out), "--overwrite", "--engine", "dask", "--jobs", "1",
                 "--fail-on", "never")
    assert third.returncode == 0, third.stderr  # the Dask run released the lock it took
    assert (out / "_SUCCESS").exists()

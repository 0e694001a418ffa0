"""Scale benchmark: N synthetic hands through ``handaudit check --out`` with --jobs 1 and 2.

    python benchmarks/scale.py --hands 1000000            # the issue's run
    python benchmarks/scale.py --hands 20000 --jobs 1,2   # a quick one

Synthetic hands are real and generated hands used as templates: every hand of
``../shared/corpus/generated/*/*.phh`` (all eleven variants, many side pots, 10% illegal) and of
``../shared/corpus/real`` (.phh and .phhs), picked at random (seeded) and copied under new
table names ``[1]``, ``[2]``, ... into one or more ``.phhs`` files, each with a hand number of
its own (a site hand copied with its number would be a ``duplicate-hand``, never replayed;
otherwise unchanged). A small share
(``--broken``, default 0.1%) is cut in half, so that unreadable hands are part of the mix.
Generation streams to disk: N = 1,000,000 needs about 1 GB and no more memory than one hand.

Each run is ``python -m handaudit.cli check FILES --out DIR --jobs J`` in a fresh process. A
timed run reports wall time, hands/s, the CPU time of the whole process tree and the peak
resident memory of the largest single process (the parent or a worker), all from
``getrusage(RUSAGE_CHILDREN)`` of a wrapper process, and checks that the report's ``hands``
table holds exactly N rows (every hand counted once).

The peak memory of the whole process tree (parent, workers, helpers) is measured afterwards, in
one more run per ``--jobs`` value, by sampling /proc every 0.2 s: as PSS, which counts the pages
of shared libraries once (a plain RSS sum counts libarrow once per process; it is shown too).
It is not sampled during the timed runs: reading ``smaps_rollup`` costs this benchmark about
17 ms of CPU per sample, some 8% of a core, which a ``--jobs 1`` run leaves a free core for but
a ``--jobs 2`` run loses. On 2026-11-30, 100,000 hands, ``--jobs 2 / --jobs 1`` pairs timed
while sampling read 1.54-1.81x, and pairs of the same two runners timed without it 1.81-2.27x
(this host's drift is in both ranges).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"


def templates(corpus: Path = CORPUS) -> list[bytes]:
    """The text of every corpus hand (real and generated), each ending with a newline."""
    sys.path.insert(0, str(ROOT))
    from handaudit.grammar.sources import expand_paths, read_chunks

    out = []
    for path in expand_paths([str(corpus / "generated"), str(corpus / "real")]):
        for chunk in read_chunks(path):
            if chunk.problem or not chunk.data.strip():
                continue
            data = chunk.data if chunk.data.endswith(b"\n") else chunk.data + b"\n"
            out.append(data)
    return out


# A hand's own ``hand = ...`` line (at a line's start: the top level of a PHH hand).
_HAND_LINE = re.compile(rb"^hand[ \t]*=[^\r\n]*", re.MULTILINE)


def renumbered(text: bytes, number: int) -> bytes:
    """``text`` with its ``hand`` number (if it has one) set to ``number``. A template drawn twice
    keeps its venue and table: unchanged, every copy after the first would be a ``duplicate-hand``
    (read, never replayed), a cheaper hand than the template it copies."""
    return _HAND_LINE.sub(b"hand = %d" % number, text, count=1)


def generate(n: int, directory: Path, files: int = 1, seed: int = 1, broken: float = 0.001,
             corpus: Path = CORPUS) -> list[Path]:
    """Write ``n`` hands into ``files`` .phhs files in ``directory``; their paths. Each hand has a
    number of its own (:func:`renumbered`), so that none is another's duplicate."""
    rng = random.Random(seed)
    texts = templates(corpus)
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / f"synthetic-{i:03d}.phhs" for i in range(files)]
    per_file = [n // files + (1 if i < n % files else 0) for i in range(files)]
    serial = 0
    for path, count in zip(paths, per_file, strict=True):
        with open(path, "wb", buffering=1 << 20) as out:
            for key in range(1, count + 1):
                serial += 1
                text = renumbered(texts[rng.randrange(len(texts))], serial)
                if broken and rng.random() < broken:
                    text = text[: len(text) // 2] + b"\n"
                out.write(b"[%d]\n" % key)
                out.write(text)
    return paths


_WRAPPER = r"""
import json, resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
elapsed = time.perf_counter() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": rc, "elapsed": elapsed, "maxrss_kb": ru.ru_maxrss,
                  "cpu": ru.ru_utime + ru.ru_stime}))
"""


def _pss_kb(pid: int) -> int:
    """Proportional set size: private pages plus a share of pages shared with other processes
    (the libraries all workers map are counted once over the tree, not once per process)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _tree_memory_kb(root: int) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) over ``root`` and its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
            with open(f"/proc/{pid}/statm", "rb") as f:
                pages = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(pid)
        rss[pid] = pages * (os.sysconf("SC_PAGE_SIZE") // 1024)
    total_rss = total_pss = 0
    stack = [root]
    while stack:
        pid = stack.pop()
        total_rss += rss.get(pid, 0)
        total_pss += _pss_kb(pid)
        stack.extend(children.get(pid, ()))
    return total_rss, total_pss


def run_check(files: list[Path], out_dir: Path, jobs: int, extra: list[str] | None = None,
              tree: Path = ROOT, sample_memory: bool = False) -> dict:
    """One ``handaudit check`` run; with ``sample_memory``, the process tree's peak memory too
    (sampling costs CPU: do not time such a run)."""
    cmd = [sys.executable, "-c", _WRAPPER, sys.executable, "-m", "handaudit.cli", "check",
           *map(str, files), "--out", str(out_dir), "--jobs", str(jobs), "--fail-on", "never", *(extra or [])]
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env, cwd=str(tree))
    peak = [0, 0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            rss, pss = _tree_memory_kb(proc.pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    if sample_memory:
        sampler.start()
    out, _ = proc.communicate()
    done.set()
    if sample_memory:
        sampler.join()
    result = json.loads(out.decode().strip().splitlines()[-1])
    manifest = json.loads((out_dir / "_manifest.json").read_text())
    result.update(jobs=jobs, hands=manifest["hands"], status=manifest["status"], tables=manifest["tables"])
    if sample_memory:
        result.update(tree_rss_peak_kb=peak[0], tree_pss_peak_kb=peak[1])
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000, help="number of synthetic hands (default 100000)")
    ap.add_argument("--files", type=int, default=1, help="number of .phhs files to spread them over")
    ap.add_argument("--jobs", default="1,2", help="comma-separated --jobs values to run (default 1,2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--broken", type=float, default=0.001, help="share of hands cut in half (unreadable)")
    ap.add_argument("--dir", help="work directory (default: a temporary one, removed afterwards)")
    ap.add_argument("--keep", action="store_true", help="keep the inputs and reports")
    ap.add_argument("--no-memory", dest="memory", action="store_false",
                    help="skip the untimed runs that sample the process tree's peak memory")
    ap.add_argument("--build", choices=("compiled", "pure"), default="compiled",
                    help="run the compiled build (as pip install . makes it; built in benchmarks/.build) or the "
                         "pure-Python source")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from buildtree import tree

    code = tree(args.build)
    build = subprocess.run([sys.executable, "-m", "handaudit.cli", "--version"], cwd=str(code), capture_output=True,
                           text=True, env=dict(os.environ, PYTHONPATH=str(code))).stdout.strip()
    print(build, flush=True)

    work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="handaudit-scale-"))
    try:
        t = time.perf_counter()
        files = generate(args.hands, work / "input", args.files, args.seed, args.broken)
        size = sum(f.stat().st_size for f in files)
        print(f"generated {args.hands:,} hands in {len(files)} file(s), {size / 1e6:,.0f} MB, "
              f"in {time.perf_counter() - t:,.1f} s", flush=True)
        rows = []
        for jobs in [int(j) for j in args.jobs.split(",") if j]:
            out_dir = work / f"report-j{jobs}"
            r = run_check(files, out_dir, jobs, tree=code)
            rows.append(r)
            ok = "ok" if r["hands"] == args.hands and r["status"] == "complete" else "MISSING HANDS"
            print(f"--jobs {jobs}: {r['elapsed']:,.1f} s, {args.hands / r['elapsed']:,.0f} hands/s, "
                  f"CPU {r['cpu']:,.1f} s ({r['cpu'] / r['elapsed']:.2f} cores busy), "
                  f"largest process RSS {r['maxrss_kb'] / 1024:,.0f} MB; hands in report {r['hands']:,} ({ok}); "
                  f"rows: " + ", ".join(f"{t} {v['rows']:,}" for t, v in r["tables"].items()), flush=True)
            if not args.keep:
                shutil.rmtree(out_dir, ignore_errors=True)
        memory = []
        if args.memory:
            for jobs in sorted({r["jobs"] for r in rows}):
                out_dir = work / f"report-j{jobs}-memory"
                r = run_check(files, out_dir, jobs, tree=code, sample_memory=True)
                memory.append(r)
                print(f"--jobs {jobs}, peak memory (an untimed run): whole process tree PSS "
                      f"{r['tree_pss_peak_kb'] / 1024:,.0f} MB (RSS sum {r['tree_rss_peak_kb'] / 1024:,.0f} MB), "
                      f"largest process RSS {r['maxrss_kb'] / 1024:,.0f} MB; hands in report {r['hands']:,}",
                      flush=True)
                if not args.keep:
                    shutil.rmtree(out_dir, ignore_errors=True)
        # Each back-to-back (--jobs 1, --jobs 2) pair gives one ratio; with several pairs
        # (--jobs 1,2,1,2,...) the median of theirs, since this machine's speed drifts by tens of
        # percent between runs (as vs_pokerkit.py takes ratios within its rounds).
        # (strict=False: an odd last run has no partner)
        ratios = [a["elapsed"] / b["elapsed"] for a, b in zip(rows[::2], rows[1::2], strict=False)
                  if (a["jobs"], b["jobs"]) == (1, 2)]
        if ratios:
            each = f" (pairs: {', '.join(f'{r:.2f}x' for r in ratios)})" if len(ratios) > 1 else ""
            print(f"--jobs 2 / --jobs 1: {statistics.median(ratios):.2f}x{each}", flush=True)
        print(json.dumps({"hands": args.hands, "build": build, "runs": rows, "memory": memory}, default=str))
        return 0 if all(r["hands"] == args.hands and r["rc"] == 0 for r in rows + memory) else 1
    finally:
        if not args.keep and not args.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""CPU time of the command line's start: to its first hand, and for a whole one-hand run.

Two measures per round, on each interpreter given (alternating, so that the machine's drift
falls on all of them alike):

- **to the first hand**: ``handaudit check -`` is started with a pipe for its standard input
  and nothing written to it; the CPU time the process has used when it first waits to read
  that pipe (its one thread asleep in ``read`` on descriptor 0, ``/proc/PID/syscall``) is what
  it spent before it could take a hand: the interpreter's start, the imports, the rulebook,
  the run's set-up. Then one hand is written, the pipe closed and the run left to finish.
- **the whole run**: ``handaudit check FILE`` of one hand, text output, the CPU time of the
  whole process from its start to its exit (its teardown included).

CPU times are the kernel's per-task accounting (``/proc/PID/schedstat``, nanoseconds) for the
first and ``getrusage`` of the finished child for the second. Linux only.

    python benchmarks/startup.py                          # this interpreter
    python benchmarks/startup.py --python A/bin/python --python B/bin/python --rounds 11

Each ``--python`` should have handaudit installed (a fresh ``pip install .`` is what users get);
the script runs from a temporary directory so that no source tree shadows the installed one.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "samples" / "odd-chip-split.phh"


def _cpu_ns(pid: int) -> int:
    with open(f"/proc/{pid}/schedstat", encoding="ascii") as f:
        return int(f.read().split()[0])


def _waits_on_stdin(pid: int) -> bool:
    """Whether the process sleeps in read(0, ...) (syscall 0 on x86-64, 63 on arm64)."""
    try:
        with open(f"/proc/{pid}/syscall", encoding="ascii") as f:
            words = f.read().split()
    except OSError:
        return False
    return len(words) > 1 and words[0] in ("0", "63") and int(words[1], 16) == 0


def to_first_hand(python: str, hand: bytes, cwd: str) -> float:
    """Milliseconds of CPU until ``check -`` first waits for its input."""
    process = subprocess.Popen([python, "-m", "handaudit.cli", "check", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    assert process.stdin is not None
    try:
        deadline = time.monotonic() + 30
        while not _waits_on_stdin(process.pid):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{python}: check - never waited for its input")
            time.sleep(0.0005)
        used = _cpu_ns(process.pid)
        process.stdin.write(hand)
    finally:
        process.stdin.close()
        process.wait()
    return used / 1e6


def whole_run(python: str, path: str, cwd: str) -> float:
    """Milliseconds of CPU of ``check PATH`` from start to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-m", "handaudit.cli", "check", path], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=cwd, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def bare(python: str, cwd: str) -> float:
    """Milliseconds of CPU of ``python -c pass``: the interpreter's own start."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-c", "pass"], cwd=cwd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def build_of(python: str, cwd: str) -> str:
    done = subprocess.run([python, "-c", "import handaudit.buildinfo as b; print(b.describe())"], cwd=cwd,
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="an interpreter with handaudit installed (repeatable)")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--hand", default=str(SAMPLE), help="the one-hand PHH file (default: %(default)s)")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        raise SystemExit("startup.py reads /proc: Linux only")
    pythons = args.python or [sys.executable]
    hand = Path(args.hand).read_bytes()
    times: dict[str, dict[str, list[float]]] = {p: {"bare": [], "first": [], "whole": []} for p in pythons}
    with tempfile.TemporaryDirectory() as cwd:
        for python in pythons:
            print(f"{python}: {build_of(python, cwd)}")
        for _ in range(args.rounds):
            for python in pythons:
                times[python]["bare"].append(bare(python, cwd))
                times[python]["first"].append(to_first_hand(python, hand, cwd))
                times[python]["whole"].append(whole_run(python, args.hand, cwd))
    print(f"\nCPU ms, best / median of {args.rounds} rounds")
    print(f"{'interpreter':<40} {'python -c pass':>16} {'to first hand':>16} {'whole 1-hand run':>18}")
    for python in pythons:
        cells = [f"{min(v):.1f} / {statistics.median(v):.1f}" for v in times[python].values()]
        print(f"{python:<40} {cells[0]:>16} {cells[1]:>16} {cells[2]:>18}")


if __name__ == "__main__":
    main()

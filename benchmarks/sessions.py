"""The cross-hand pass's cost: a run's time and peak memory with and without ``--sessions``.

    python benchmarks/sessions.py [--tables 200] [--hands 100] [--bucket-hands N]

Times are CPU seconds of this process (the run with one job audits here). Writes a generated cash-game dataset (``--tables`` tables of ``--hands`` hands, six players who
fold to the big blind), audits it into a Parquet report once, then times the pass over it
(``audit_sessions``) and reports its share of the run and the pass's peak Python memory
(the process's peak resident set, before and after; and the pass alone in a fresh process, its
peak resident set). ``--bucket-hands`` below the hand count makes the pass partition on disk: the
peak then stays near that many hands' records, whatever the dataset's size.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import resource
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "sessions"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--bucket-hands", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=1, help="processes checking the buckets (wall time then)")
    args = ap.parse_args(argv)
    from build import session

    from handaudit.rules.rulebook import load_rulebook
    from handaudit.run.local import Runner
    from handaudit.sessions import audit_sessions

    seats = [1, 2, 3, 4, 5, 6]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data.phhs"
        with data.open("w") as f:
            key = 0
            for t in range(args.tables):
                text = session([{} for _ in range(args.hands)], seats, {s: f"t{t}p{s}" for s in seats},
                               {s: 200 for s in seats}, table=f"T{t}")
                for block in text.split("\n\n"):
                    key += 1
                    head, _, rest = block.partition("\n")
                    f.write(f"[{key}]\n{rest}\n\n")
        out = Path(tmp) / "out"
        started = time.process_time()
        result = Runner([str(data)], out_dir=str(out), jobs=1).run()
        run = time.process_time() - started
        book = load_rulebook("tda-2026", [])
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.process_time()
        options: dict = {"bucket_hands": args.bucket_hands} if args.bucket_hands else {}
        if args.jobs > 1:  # the pool's CPU is in other processes: wall time then
            options["jobs"] = args.jobs
            started = time.perf_counter()
        r = audit_sessions(out, book, **options)
        passed = (time.perf_counter() if args.jobs > 1 else time.process_time)() - started
        peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
        # the pass alone in a fresh process: its own peak resident set
        import subprocess

        code = ("import resource, sys; from handaudit.rules.rulebook import load_rulebook; "
                "from handaudit.sessions import audit_sessions; "
                f"audit_sessions(sys.argv[1], load_rulebook('tda-2026', []), **{options!r}); "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        alone = int(subprocess.run([sys.executable, "-c", code, str(out)], check=True, capture_output=True, text=True,
                                   cwd=Path(__file__).resolve().parents[1]).stdout.split()[-1]) * 1024
    hands = result.summary.hands
    print(f"hands {hands:,}; run {run:.2f} s ({hands / run:,.0f} hands/s); cross-hand pass {passed:.2f} s "
          f"({hands / passed:,.0f} hands/s) = {100 * passed / run:.1f}% of the run; {r.sessions:,} sessions, "
          f"{r.buckets} bucket(s), {sum(r.codes.values())} findings; peak memory grew {peak / 2**20:.1f} MiB in the pass; the pass alone in a fresh process: peak RSS "
          f"{alone / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

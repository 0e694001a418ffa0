"""A site's logs imported and audited, beside the PHH path on the same hands converted: hands/s.

    python benchmarks/site_logs.py --site 888             # compiled build, 10,000 distinct hands
    python benchmarks/site_logs.py --site partypoker --hands 20000 --build pure

(a) the site path: ``handaudit check DIR --jobs 1 --format jsonl`` as the library runs it
    (``run.local.Runner``, JSONL to a null sink): detection, splitting, the import of each hand,
    replay under TDA 2026, settlement, the site's figures reconciled, the JSON line. Input: the
    site's shared samples (../shared/corpus/sites/SITE), every file byte for byte but for its hand
    numbers (each hand header's number replaced by a count, so that every hand of the run is a
    distinct site hand, not a duplicate-hand entry), copied as many times as make ``--hands``.
(b) the PHH path: the same hands written as one ``.phhs`` by ``handaudit convert`` (what
    converts), audited the same way.

Both in CPU seconds of this process; the report gives hands/s of each and their ratio (the issue
asks the site path for at least 10,000 hands/s/core and at most 1.5x the PHH path's cost).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
CORPUS = ROOT.parent / "shared" / "corpus" / "sites"

# Each site: its samples' folder and the hand number of its hand header (renumbered per hand).
SITES: dict[str, tuple[str, re.Pattern]] = {
    "888": ("888", re.compile(rb"(Hand History for Game )(\d+)")),
    "partypoker": ("partypoker", re.compile(rb"(Hand History [Ff]or Game )(\d+)")),
    "pokerstars": ("pokerstars", re.compile(rb"(^(?:\xef\xbb\xbf)?(?:PokerStars(?: Zoom)? (?:Hand|Game)|PPPoker Hand) #)"
                                            rb"(\d+)", re.M)),
}


def copies(site: str, dest: Path, hands: int) -> tuple[int, int]:
    """The site's samples copied into ``dest`` until they hold at least ``hands`` hands: (copies,
    hands read per copy)."""
    from handaudit.importers.inputs import expand_inputs, read_inputs

    folder, number = SITES[site]
    samples = CORPUS / folder
    files = expand_inputs([str(samples)])
    per_copy = sum(1 for f in files for _ in read_inputs(f))
    n = math.ceil(hands / per_copy)
    count = itertools.count(10_000_000)
    for i in range(n):
        target = dest / f"copy{i:05d}"
        for f in files:
            out = target / Path(f).relative_to(samples)
            out.parent.mkdir(parents=True, exist_ok=True)
            data = Path(f).read_bytes()
            out.write_bytes(number.sub(lambda m: m.group(1) + b"%d" % next(count), data))
    return n, per_copy


def time_run(path: Path, min_seconds: float) -> tuple[float, int, dict]:
    from handaudit.run.local import Runner

    seconds, hands, statuses = 0.0, 0, {}
    while not hands or seconds < min_seconds:
        with open(os.devnull, "w") as sink:
            start = time.process_time()
            result = Runner([str(path)], jobs=1, jsonl_stream=sink).run()
            seconds += time.process_time() - start
        hands += result.summary.hands
        statuses = dict(result.summary.statuses) if hasattr(result.summary, "statuses") else {}
    return seconds, hands, statuses


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", choices=sorted(SITES), required=True)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--min-seconds", type=float, default=2.0)
    ap.add_argument("--build", choices=("compiled", "pure"), default="compiled")
    args = ap.parse_args(argv)
    from buildtree import tree

    where = tree(args.build)
    sys.path.insert(0, str(where))
    import handaudit
    from handaudit.buildinfo import describe

    print(f"handaudit {handaudit.__version__}, {describe()}; site {args.site}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp) / "logs"
        n, per_copy = copies(args.site, logs, args.hands)
        phhs = Path(tmp) / "hands.phhs"
        env = dict(os.environ, PYTHONPATH=str(where), HANDAUDIT_PURE="1")
        subprocess.run([sys.executable, "-m", "handaudit.cli", "convert", str(logs), "-o", str(phhs)], env=env,
                       check=False, capture_output=True)
        site_s, site_hands, _ = time_run(logs, args.min_seconds)
        phh_s, phh_hands, _ = time_run(phhs, args.min_seconds)
    site_rate, phh_rate = site_hands / site_s, phh_hands / phh_s
    print(f"input: {n} copies of the {args.site} samples, {per_copy} hands a copy ({per_copy * n:,} hands)")
    print(f"site path (import + audit, --jobs 1, JSONL): {site_hands:,} hands in {site_s:.2f} s CPU = "
          f"{site_rate:,.0f} hands/s")
    print(f"PHH path (the same hands converted, --jobs 1, JSONL): {phh_hands:,} hands in {phh_s:.2f} s CPU = "
          f"{phh_rate:,.0f} hands/s")
    print(f"site path cost / PHH path cost: {phh_rate / site_rate:.2f}x per hand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

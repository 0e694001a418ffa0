"""The GGPoker and Winamax importers plus the whole audit, against the PHH path on the same hands.

    python benchmarks/ggpoker_winamax.py                        # compiled build, 20,000 hands a site
    python benchmarks/ggpoker_winamax.py --site winamax --hands 50000 --build pure

For each site: its shared samples (../shared/corpus/sites/<site>) copied into a temporary
directory, byte for byte but for their hand ids (renumbered, so that no hand of the run is a
duplicate-hand), as many times as make ``--hands`` distinct hands. Then, in this process:

(a) the site path: ``handaudit check DIR --jobs 1 --format jsonl`` as the library runs it
    (``run.local.Runner``, JSONL to a null sink): detection, splitting, the import of each hand,
    replay under TDA 2026, settlement, the site's figures reconciled, the JSON line;
(b) the PHH path on the same hands: the hands read in (a) written as one ``.phhs`` file
    (``handaudit convert``), then checked the same way.

Both timed in CPU seconds of this process; the report gives hands/s of each (of all hands, and
of the hands read: a sample the site path reports unreadable costs it little), and (a)'s cost
per hand read over (b)'s: the issue's bound is 1.5x.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import re
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
CORPUS = ROOT.parent / "shared" / "corpus" / "sites"

# The hand id of each header, renumbered per copy: GGPoker's "#HD23847510:" keeps its letters,
# Winamax's "#5285192-1130-1382664338 -" its first and last parts.
_IDS = {
    "ggpoker": (re.compile(rb"^((?:\xef\xbb\xbf)?Poker Hand #[A-Z]*)\d+:", re.M), rb":"),
    "winamax": (re.compile(rb"(HandId: #\d+-)\d+(?=-\d+ - )"), rb""),
}


def copies(site: str, dest: Path, hands: int) -> tuple[int, int]:
    """The site's sample files copied into ``dest`` until they hold ``hands`` hands: (copies, hands a copy)."""
    from handaudit.importers.inputs import expand_inputs, read_inputs

    samples = CORPUS / site
    files = expand_inputs([str(samples)])
    per_copy = sum(1 for f in files for _ in read_inputs(f))
    n = math.ceil(hands / per_copy)
    pattern, tail = _IDS[site]
    count = itertools.count(1)
    for i in range(n):
        target = dest / f"copy{i:05d}"
        for f in files:
            out = target / Path(f).relative_to(samples)
            out.parent.mkdir(parents=True, exist_ok=True)
            data = Path(f).read_bytes()
            out.write_bytes(pattern.sub(lambda m: m.group(1) + b"%09d" % next(count) + tail, data))
    return n, per_copy


def check(paths: list[str]) -> tuple[float, int, int]:
    """(CPU seconds, hands, hands read) of one ``check --jobs 1 --format jsonl`` of ``paths``."""
    from handaudit.run.local import Runner

    with open(os.devnull, "w") as sink:
        start = time.process_time()
        result = Runner(paths, jobs=1, jsonl_stream=sink).run()
        seconds = time.process_time() - start
    return seconds, result.summary.hands, result.summary.hands - result.summary.unreadable


def convert(directory: Path, output: Path) -> int:
    from handaudit.grammar.writer import phhs
    from handaudit.importers import read_any
    from handaudit.importers.inputs import expand_inputs, read_inputs

    hands = [r.hand for f in expand_inputs([str(directory)]) for c in read_inputs(f)
             if (r := read_any(c)).hand is not None]
    with open(output, "w", encoding="utf-8", newline="\n") as out:
        for piece in phhs(hands):
            out.write(piece)
    return len(hands)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", choices=("ggpoker", "winamax", "all"), default="all")
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--build", choices=("compiled", "pure"), default="compiled")
    args = ap.parse_args(argv)
    from buildtree import tree

    sys.path.insert(0, str(tree(args.build)))
    import handaudit
    from handaudit.buildinfo import describe

    print(f"handaudit {handaudit.__version__}, {describe()}", file=sys.stderr)
    for site in (("ggpoker", "winamax") if args.site == "all" else (args.site,)):
        with tempfile.TemporaryDirectory() as tmp:
            logs = Path(tmp) / "logs"
            n, per_copy = copies(site, logs, args.hands)
            site_s, site_hands, site_read = check([str(logs)])
            phh = Path(tmp) / "same.phhs"
            converted = convert(logs, phh)
            phh_s, phh_hands, phh_read = check([str(phh)])
        print(f"{site}: {per_copy} hands a copy x {n} copies = {site_hands:,} hands, {site_read:,} read "
              f"({converted:,} converted)")
        print(f"  site path (import + audit, --jobs 1, JSONL): {site_s:.2f} s CPU = {site_hands / site_s:,.0f} hands/s "
              f"({site_read / site_s:,.0f} hands read/s)")
        print(f"  PHH path, the same hands read:                {phh_s:.2f} s CPU = {phh_hands / phh_s:,.0f} hands/s")
        if site_read and phh_hands:
            print(f"  site path / PHH path, per hand read: {(site_s / site_read) / (phh_s / phh_hands):.2f}x "
                  "(bound: 1.5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

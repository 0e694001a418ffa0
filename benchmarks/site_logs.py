"""Reading site text against reading PHH: the same hands, both paths, in one run.

    python benchmarks/site_logs.py                     # compiled build, 10,000 hands, PokerStars
    python benchmarks/site_logs.py --hands 2000 --build pure
    python benchmarks/site_logs.py --site 888          # (or partypoker)

Input: the site's shared logs (PokerStars: ../shared/corpus/sites/pokerstars, pokerstars-hhp,
pokerstars-pokerdf; 888: sites/888; partypoker: sites/partypoker), every file byte for byte but
for its hand numbers, renumbered so that no hand of the run is a duplicate-hand, copied into a
temporary directory until it holds ``--hands`` distinct hands. The PHH path: the same hands converted (the library's reading and
:func:`handaudit.grammar.writer.hand_text`, one ``.phhs`` a copy).

Measured, each in CPU seconds of this process (``Runner``, ``--jobs 1``, as ``handaudit check``
runs it): (1) site logs, JSONL to a null sink; (2) site logs, ``--out`` (Parquet); (3) and (4)
the converted PHH, the same two ways. Printed: hands/s of each, and the site path's cost per
hand over the PHH path's (issue #39: at least 10,000 hands/s JSONL and 7,000 with --out,
compiled, and at most 1.5 times the PHH path's cost).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
_SITES_DIR = ROOT.parent / "shared" / "corpus" / "sites"
# Each site: its shared logs, and its hand header's number (group 1 before it, group 2 the number)
SITES: dict[str, tuple[list[Path], re.Pattern]] = {
    "pokerstars": ([_SITES_DIR / name for name in ("pokerstars", "pokerstars-hhp", "pokerstars-pokerdf")],
                   re.compile(rb"^((?:\xef\xbb\xbf)?(?:PokerStars(?: Zoom| Home Game)? (?:Hand|Game)|PPPoker Hand) #)(\d+):",
                              re.M)),
    "888": ([_SITES_DIR / "888"], re.compile(rb"(Hand History for Game )(\d+)")),
    "partypoker": ([_SITES_DIR / "partypoker"], re.compile(rb"(Hand History [Ff]or Game )(\d+)")),
}
LOGS: list[Path] = SITES["pokerstars"][0]
_HEADER_NUMBER: re.Pattern = SITES["pokerstars"][1]


def copies(dest: Path, hands: int) -> tuple[int, int]:
    """The logs copied into ``dest/site`` (a subdirectory a copy), renumbered, until they hold at
    least ``hands`` hands: (copies, hands a copy)."""
    from handaudit.importers.inputs import expand_inputs, read_inputs

    roots = [str(p) for p in LOGS if p.is_dir()]
    files = expand_inputs(roots)
    per_copy = sum(1 for f in files for _ in read_inputs(f))
    n = math.ceil(hands / per_copy)
    count = itertools.count()
    for i in range(n):
        for f in files:
            root = next(Path(r) for r in roots if f.startswith(r + os.sep))
            out = dest / "site" / f"copy{i:05d}" / root.name / Path(f).relative_to(root)
            out.parent.mkdir(parents=True, exist_ok=True)
            data = Path(f).read_bytes()
            if _HEADER_NUMBER is SITES["pokerstars"][1]:
                data = _HEADER_NUMBER.sub(lambda m: m.group(1) + b"%07d:" % next(count), data)
            else:
                data = _HEADER_NUMBER.sub(lambda m: m.group(1) + b"%d" % (10_000_000 + next(count)), data)
            out.write_bytes(data)
    return n, per_copy


def convert(site: Path, phh: Path) -> int:
    """Each copy's readable hands as one .phhs (what ``handaudit convert`` writes); how many."""
    from handaudit.grammar.writer import phhs
    from handaudit.importers import read_any
    from handaudit.importers.inputs import expand_inputs, read_inputs

    phh.mkdir(parents=True, exist_ok=True)
    total = 0
    for copy in sorted(site.iterdir()):
        hands = [r.hand for f in expand_inputs([str(copy)]) for c in read_inputs(f)
                 if (r := read_any(c)).hand is not None]
        (phh / f"{copy.name}.phhs").write_text("".join(phhs(hands)), encoding="utf-8")
        total += len(hands)
    return total


def timed(directory: Path, out: Path | None) -> tuple[float, int]:
    """(CPU seconds, hands) of one ``check --jobs 1`` run: JSONL to a null sink, or ``--out``."""
    from handaudit.run.local import Runner

    if out is not None and out.exists():
        shutil.rmtree(out)
    with open(os.devnull, "w") as sink:
        start = time.process_time()
        if out is None:
            result = Runner([str(directory)], jobs=1, jsonl_stream=sink).run()
        else:
            result = Runner([str(directory)], jobs=1, out_dir=str(out), numpy=False).run()
        seconds = time.process_time() - start
    return seconds, result.summary.hands


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--build", choices=("compiled", "pure"), default="compiled")
    ap.add_argument("--site", choices=sorted(SITES), default="pokerstars")
    args = ap.parse_args(argv)
    global LOGS, _HEADER_NUMBER
    LOGS, _HEADER_NUMBER = SITES[args.site]
    from buildtree import tree

    sys.path.insert(0, str(tree(args.build)))
    import handaudit
    from handaudit.buildinfo import describe

    print(f"handaudit {handaudit.__version__}, {describe()}; site {args.site}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        n, per_copy = copies(base, args.hands)
        converted = convert(base / "site", base / "phh")
        timed(base / "site", None)  # (warm: imports, the grammar's first use)
        rows = []
        for label, directory, out in (("site logs, JSONL", base / "site", None),
                                      ("site logs, --out", base / "site", base / "out-site"),
                                      ("PHH (converted), JSONL", base / "phh", None),
                                      ("PHH (converted), --out", base / "phh", base / "out-phh")):
            seconds, hands = timed(directory, out)
            rows.append((label, seconds, hands))
    print(f"input: {per_copy} hands a copy x {n} copies = {per_copy * n:,} site hands "
          f"({converted:,} readable, converted to PHH)")
    for label, seconds, hands in rows:
        print(f"  {label:26} {hands:7,} hands in {seconds:6.2f} s CPU = {hands / seconds:8,.0f} hands/s, "
              f"{seconds / hands * 1e6:6.1f} us a hand")
    site_j, site_o, phh_j, phh_o = [(s / h) for _, s, h in rows]
    print(f"site path / PHH path, cost a hand: JSONL {site_j / phh_j:.2f}x, --out {site_o / phh_o:.2f}x "
          "(target: at most 1.5x)")
    print(f"targets (compiled, --jobs 1): JSONL >= 10,000 hands/s ({1 / site_j:,.0f}); "
          f"--out >= 7,000 hands/s ({1 / site_o:,.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

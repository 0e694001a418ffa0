"""The PokerStars importer plus the whole audit, against PokerKit's PokerStarsParser, same files, same run.

    python benchmarks/pokerstars.py                  # compiled build, 100,000 hands
    python benchmarks/pokerstars.py --hands 20000 --build pure

(a) handaudit: ``handaudit check DIR --jobs 1 --format jsonl`` as the library runs it
    (``run.local.Runner``, JSONL to a null sink): detection, splitting, the import of each hand,
    replay under TDA 2026, settlement, the site's totals reconciled, the JSON line. Input: the
    shared samples (../shared/corpus/sites/pokerstars, every file byte for byte but for its hand
    numbers, renumbered so that no hand is a duplicate-hand) copied into a temporary directory as
    many times as make ``--hands`` hands.
(b) PokerKit 0.7.7: ``PokerStarsParser()(text)`` on each of the same files (decoded as UTF-8, the
    byte-order mark dropped), every hand history it yields; a file it fails on counts the hands
    yielded before the failure. Parsing only: it neither replays nor settles.

Both are timed in CPU seconds of this process (each repeated for at least ``--min-seconds``), and
the report gives the hands each reads and hands/s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import math
import os
import re
import sys
import tempfile
import time
import warnings
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
SAMPLES = ROOT.parent / "shared" / "corpus" / "sites" / "pokerstars"


# A hand's header and its number: each copy's hands get numbers of their own (the number followed
# by a 7-digit count), or every copy after the first would be duplicate-hand entries, not imported.
_HEADER_NUMBER = re.compile(rb"^((?:\xef\xbb\xbf)?(?:PokerStars(?: Zoom)? (?:Hand|Game)|PPPoker Hand) #\d+):", re.M)


def copies(dest: Path, hands: int) -> tuple[int, int]:
    """The sample files copied into ``dest`` (one subdirectory a copy) until they hold at least
    ``hands`` hands: (copies, hands per copy). Each copy is the samples byte for byte but for
    the hand numbers, renumbered so that no two hands of the run are the same site hand (the
    samples themselves repeat hands: the multiple-hands tests)."""
    from handaudit.importers.inputs import expand_inputs, read_inputs

    files = expand_inputs([str(SAMPLES)])
    per_copy = sum(1 for f in files for _ in read_inputs(f))
    n = math.ceil(hands / per_copy)
    count = itertools.count()
    for i in range(n):
        target = dest / f"copy{i:05d}"
        for f in files:
            out = target / Path(f).relative_to(SAMPLES)
            out.parent.mkdir(parents=True, exist_ok=True)
            data = Path(f).read_bytes()
            out.write_bytes(_HEADER_NUMBER.sub(lambda m: m.group(1) + b"%07d:" % next(count), data))
    return n, per_copy


def time_handaudit(directory: Path, min_seconds: float) -> tuple[float, int, dict[str, int]]:
    from handaudit.run.local import Runner

    seconds, hands, statuses = 0.0, 0, {}
    while not hands or seconds < min_seconds:
        with open(os.devnull, "w") as sink:
            start = time.process_time()
            result = Runner([str(directory)], jobs=1, jsonl_stream=sink).run()
            seconds += time.process_time() - start
        hands += result.summary.hands
        statuses = dict(result.summary.statuses) if hasattr(result.summary, "statuses") else {}
    return seconds, hands, statuses


def time_pokerkit(files: list[Path]) -> tuple[float, int]:
    """(CPU seconds, hands read) for one pass of PokerKit over ``files``. Its parser logs each
    hand it cannot parse (a traceback) and goes on; the log is silenced, not its cost."""
    import logging

    from pokerkit import PokerStarsParser

    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    parser = PokerStarsParser()
    texts = [f.read_bytes().decode("utf-8", "replace").lstrip("\ufeff") for f in files]
    read = 0
    with contextlib.redirect_stderr(io.StringIO()):  # it prints a traceback for each hand it refuses
        start = time.process_time()
        for text in texts:
            try:
                for _ in parser(text):
                    read += 1
            except Exception:  # (a failure that stops the file: the hands before it count)
                pass
        seconds = time.process_time() - start
    return seconds, read


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--min-seconds", type=float, default=1.0)
    ap.add_argument("--build", choices=("compiled", "pure"), default="compiled")
    args = ap.parse_args(argv)
    from buildtree import tree

    sys.path.insert(0, str(tree(args.build)))
    import handaudit
    from handaudit.buildinfo import describe

    print(f"handaudit {handaudit.__version__}, {describe()}; samples {SAMPLES}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        n, per_copy = copies(Path(tmp), args.hands)
        ha_seconds, ha_hands, _ = time_handaudit(Path(tmp), 0.0)  # (100,000 hands: one run is long enough)
        sample = sorted(p for p in (Path(tmp) / "copy00000").rglob("*") if p.is_file())
        pk_seconds, pk_read, rounds = 0.0, 0, 0
        while not rounds or pk_seconds < args.min_seconds:
            s, pk_read = time_pokerkit(sample)
            pk_seconds += s
            rounds += 1
    print(f"input: {len(sample)} files a copy x {n} copies, {per_copy} hands a copy ({per_copy * n:,} hands)")
    print(f"handaudit (import + audit, --jobs 1, JSONL): {ha_hands:,} hands in {ha_seconds:.2f} s CPU = "
          f"{ha_hands / ha_seconds:,.0f} hands/s ({ha_hands // n} a copy)")
    print(f"PokerKit 0.7.7 PokerStarsParser (parse only): {pk_read} hands of a copy read; "
          f"{pk_read * rounds / pk_seconds:,.0f} hands/s over {rounds} passes of a copy ({pk_seconds:.2f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

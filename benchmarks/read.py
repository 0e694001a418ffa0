"""Reading throughput (hands/s) on the shared real corpus: handaudit's reader vs a tomllib baseline.

    python benchmarks/read.py [--repeat K] [--runs N] [--corpus DIR]

The 404 hands of ``<repo>/../shared/corpus/real`` are cut into raw hand texts once (file I/O is
not measured), then each timed run reads all of them K times in memory:

(a) handaudit: ``read_chunk`` per hand: UTF-8 decode, toml-rs, field checks per variant, every action
    through the memoised Lark grammar, exact integer amounts. The action cache is cleared at the
    start of each run, so every run pays for its first parses.
(b) baseline: the naive pure-Python way: ``tomllib.loads(text, parse_float=Decimal)`` and each
    action parsed with ``str.split`` (amounts as Decimal, cards cut in pairs), no field checks.

Each figure is the median of N runs (default 5). Also printed: the TOML parse alone per hand,
toml-rs vs tomllib (with and without ``parse_float=Decimal``), and vs rtoml and pytomlpp when
they are installed (they are not handaudit's dependencies: ``pip install rtoml pytomlpp``).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tomllib
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import toml_rs  # noqa: E402

from handaudit.grammar.actions import parse_action  # noqa: E402
from handaudit.grammar.reader import read_chunk  # noqa: E402
from handaudit.grammar.sources import expand_paths, read_chunks  # noqa: E402

DEFAULT_CORPUS = (ROOT / "../shared/corpus/real").resolve()


def load_chunks(corpus: Path):
    chunks = []
    for path in expand_paths([str(corpus)]):
        chunks.extend(read_chunks(path))
    bad = [c for c in chunks if c.problem]
    if bad:
        raise SystemExit(f"corpus chunks with problems: {[(c.source, c.hand_key, c.problem) for c in bad]}")
    return chunks


# -- (b) the naive baseline --------------------------------------------------------------------


def naive_action(text: str):
    body = text.split("#", 1)[0].split()
    if not body:
        return ("noop",)
    if body[0] == "d":
        if body[1] == "db":
            return ("db", [body[2][i:i + 2] for i in range(0, len(body[2]), 2)])
        return ("dh", int(body[2][1:]) - 1, [body[3][i:i + 2] for i in range(0, len(body[3]), 2)])
    player = int(body[0][1:]) - 1
    kind = body[1]
    if kind == "cbr":
        return (kind, player, Decimal(body[2]))
    if kind in ("sd", "sm") and len(body) > 2:
        return (kind, player, body[2] if body[2] == "-" else [body[2][i:i + 2] for i in range(0, len(body[2]), 2)])
    return (kind, player)


def naive_read(data: bytes):
    doc = tomllib.loads(data.decode("utf-8"), parse_float=Decimal)
    return doc, [naive_action(a) for a in doc["actions"]]


# -- timing ------------------------------------------------------------------------------------


def timed(fn, runs: int) -> float:
    """Median seconds of ``runs`` calls of ``fn`` (garbage collection off while timing)."""
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        finally:
            gc.enable()
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=10, help="passes over the corpus per run (default 10)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs; the median is reported (default 5)")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="PHH files to read (default: shared real corpus)")
    args = ap.parse_args(argv)

    chunks = load_chunks(args.corpus)
    datas = [c.data for c in chunks]
    texts = [d.decode("utf-8") for d in datas]
    n_actions = sum(len(tomllib.loads(t)["actions"]) for t in texts)
    k = args.repeat
    total = len(chunks) * k

    # Sanity: both ways read every hand.
    assert all(read_chunk(c).hand is not None for c in chunks)
    for d in datas:
        naive_read(d)

    def run_handaudit():
        parse_action.cache_clear()
        for _ in range(k):
            for c in chunks:
                read_chunk(c)

    def run_baseline():
        for _ in range(k):
            for d in datas:
                naive_read(d)

    def toml_only(loads, **kw):
        def run():
            for _ in range(k):
                for t in texts:
                    loads(t, **kw)
        return run

    ha = timed(run_handaudit, args.runs)
    base = timed(run_baseline, args.runs)
    t_toml_rs = timed(toml_only(toml_rs.loads), args.runs)
    t_tomllib_dec = timed(toml_only(tomllib.loads, parse_float=Decimal), args.runs)
    t_tomllib = timed(toml_only(tomllib.loads), args.runs)
    others = []  # other TOML readers, when installed: is there a faster well-kept one?
    for name in ("rtoml", "pytomlpp"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        others.append((f"{name}.loads", timed(toml_only(module.loads), args.runs)))

    print(f"corpus: {args.corpus}")
    print(f"{len(chunks)} hands ({n_actions} actions, {n_actions / len(chunks):.1f} per hand) x {k} passes "
          f"= {total} hands per run; median of {args.runs} runs; Python {sys.version.split()[0]}")
    print()
    print(f"{'reader':<52} {'hands/s':>10} {'µs/hand':>9}")
    print(f"{'-' * 52} {'-' * 10} {'-' * 9}")
    print(f"{'(a) handaudit read_chunk (toml-rs + Lark, memoised)':<52} {total / ha:>10,.0f} {ha / total * 1e6:>9.1f}")
    print(f"{'(b) baseline tomllib(Decimal) + str.split actions':<52} {total / base:>10,.0f} {base / total * 1e6:>9.1f}")
    print(f"{'ratio (a)/(b)':<52} {base / ha:>10.2f}x")
    print()
    print(f"{'TOML parse only':<52} {'µs/hand':>10}")
    print(f"{'-' * 52} {'-' * 10}")
    print(f"{'toml_rs.loads':<52} {t_toml_rs / total * 1e6:>10.1f}")
    print(f"{'tomllib.loads(parse_float=Decimal)':<52} {t_tomllib_dec / total * 1e6:>10.1f}")
    print(f"{'tomllib.loads':<52} {t_tomllib / total * 1e6:>10.1f}")
    for name, t in others:
        print(f"{name:<52} {t / total * 1e6:>10.1f}")
    print(f"{'ratio tomllib(Decimal)/toml_rs':<52} {t_tomllib_dec / t_toml_rs:>9.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

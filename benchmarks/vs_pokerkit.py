"""handaudit against PokerKit, side by side, on the same hands in the same run.

    python benchmarks/vs_pokerkit.py                      # real + generated + 200,000 synthetic
    python benchmarks/vs_pokerkit.py --synthetic 20000 --runs 3
    python benchmarks/vs_pokerkit.py --build pure     # the pure-Python source instead of the compiled build

For each input it times, on one process:

(a) PokerKit 0.7.7: ``HandHistory.loads`` of each hand's text plus a full replay (iterating its
    states) -- the reference PHH implementation, which checks fewer rules and settles nothing
    beyond its own payoffs. The texts are cut out and read into memory before the clock starts;
(a') the same from the input's files, as handaudit (b) and (c) take them and as a PokerKit user
    loads them: each file opened and ``HandHistory.load`` (a .phh) or ``load_all`` (a .phhs)
    with the replay. (a) leaves out what (b) and (c) pay for: the files' system calls (some 7 µs
    a file here: a Pluribus or WSOP hand is a file of its own) and cutting a .phhs into hands.
    Both are printed, and the ratios against each;
(b) handaudit: read, replay under TDA 2026, settle, verify payouts, and write each hand's JSONL
    object to a null sink (the library path the CLI uses: ``run.local.Runner`` with ``--jobs 1``);
(c) the same with the Parquet report (``--out``) instead of JSONL.

Before its rounds, each input is audited once to each output, untimed (the first Parquet run
imports pyarrow, some 0.2 s, which would otherwise fall in the first input's first round). The
last column, cost (c):(b), is (b)'s hands/s over (c)'s: the CPU a hand of the Parquet report
costs against JSONL, the report's fixed cost of a run (some 5 ms) included.

Each figure is the median of ``--runs`` rounds; a round times (a), (b) and (c) back to back,
and each ratio is the median of the rounds' own ratios, so the machine's drift over minutes
stays out of it. Within a round, each is repeated until it has run for ``--min-seconds`` of CPU
(one run of (b) over the real corpus is about 40 ms). Before every run handaudit's parse memo
is cleared and its action templates put back to the shipped shapes: each run starts as a new
process does, and none profits from an earlier one. PokerKit is slow on large inputs, so on the
synthetic mix it is timed on its first ``--pokerkit-sample`` hands (hands/s is per hand either
way). Hands PokerKit refuses (the illegal generated ones) are timed up to the refusal.

Inputs: the shared real corpus taken apart (site logs with hidden cards: HandHQ; Pluribus, six
players, all cards known; WSOP and historical hands, eleven variants), the shared generated
corpus (all variants, known cards), "new text" (the real corpus copied ``--new-text`` times with
every amount of each copy multiplied by its own factor: the same hands, legal as before, but no
action string with an amount repeats across hands, so the parse memo and the action templates
help only as much as real logs let them), and a synthetic mix (benchmarks/scale.py: corpus hands
copied under new keys, a few cut in half). ``--input PATH`` adds a file or directory of your
own (repeatable): the full Pluribus set of 10,000 hands, say, to measure at the size of a real
batch, where the Parquet report's fixed cost of a run is spread over more hands.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

# As `handaudit check` does (run.process.no_idle_blas_threads): no idle OpenBLAS threads once pyarrow has
# imported numpy. Set before anything imports numpy; it applies to PokerKit's side too.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
CORPUS = ROOT.parent / "shared" / "corpus"


AMOUNT_FIELDS = ("antes", "blinds_or_straddles", "min_bet", "small_bet", "big_bet", "bring_in", "starting_stacks",
                 "winnings", "finishing_stacks")
_FIELD = re.compile(r"^(%s)(\s*=\s*)(\[[^\]]*\]|[^\n]+)" % "|".join(AMOUNT_FIELDS), re.M)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_BET = re.compile(r"(cbr )(\d+(?:\.\d+)?)")
_TABLE = re.compile(r"^\[[^\]]+\]\s*$", re.M)


def _scaled(text: str, k: int) -> str:
    """The hand's text with every amount multiplied by ``k`` (exact decimals; ``inf`` kept)."""
    from decimal import Decimal

    def times(m: re.Match) -> str:
        return str(Decimal(m.group(0)) * k)

    text = _FIELD.sub(lambda m: m.group(1) + m.group(2) + _NUMBER.sub(times, m.group(3)), text)
    return _BET.sub(lambda m: m.group(1) + str(Decimal(m.group(2)) * k), text)


def _new_hand(text: str, k: int) -> str:
    """The hand with its amounts times ``k`` and, if it has a ``hand`` number, ``k`` for it
    (:func:`scale.renumbered`: a copy keeps its venue and table, and with its number too it
    would be a ``duplicate-hand``, read and not replayed)."""
    from scale import renumbered

    return renumbered(_scaled(text, k).encode("utf-8"), k).decode("utf-8")


def new_text(source: Path, copies: int, dest: Path) -> list[str]:
    """``copies`` copies of every file under ``source``, each hand's amounts multiplied by a factor
    of its own (1,001, 1,002, ...), so that no two hands share an amount's text, and that factor
    its hand number, so that no copy is another's duplicate."""
    k = 1000
    for copy in range(copies):
        for path in sorted(source.rglob("*.phh*")):
            text = path.read_text(encoding="utf-8")
            pieces = _TABLE.split(text)  # .phhs: the text before the first table, then each table
            heads = _TABLE.findall(text)
            out = [pieces[0] if not heads else pieces[0]]
            if not heads:
                k += 1
                out = [_new_hand(text, k)]
            else:
                for head, body in zip(heads, pieces[1:], strict=True):
                    k += 1
                    out.append(head + _new_hand(body, k))
            target = dest / f"{copy}" / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("".join(out), encoding="utf-8")
    return [str(dest)]


def hand_texts(paths: list[str]) -> list[str]:
    from handaudit.grammar.sources import expand_paths, read_chunks

    return [c.data.decode("utf-8", "replace") for p in expand_paths(paths) for c in read_chunks(p)]


def _repeated(run, min_seconds: float) -> tuple[float, int]:
    """(CPU seconds, hands) over as many calls of ``run`` (which returns both for one pass) as
    fill ``min_seconds``; at least one."""
    seconds, hands = 0.0, 0
    while not hands or seconds < min_seconds:
        s, h = run()
        seconds += s
        hands += h
    return seconds, hands


def time_pokerkit(texts: list[str], min_seconds: float = 0.0) -> tuple[float, int]:
    """(CPU seconds, hands) for PokerKit to load and replay every hand, repeated until at least
    ``min_seconds`` (refused hands count until refused)."""
    from pokerkit import HandHistory

    warnings.simplefilter("ignore")

    def once() -> tuple[float, int]:
        start = time.process_time()
        for text in texts:
            try:
                for _ in HandHistory.loads(text):
                    pass
            except Exception:  # an illegal hand: PokerKit stops there
                pass
        return time.process_time() - start, len(texts)

    return _repeated(once, min_seconds)


def time_pokerkit_files(paths: list[str], min_seconds: float = 0.0) -> tuple[float, int]:
    """(CPU seconds, hands) for PokerKit to load every hand from the input's files and replay it:
    a .phh by ``HandHistory.load``, a .phhs by ``load_all``. A hand PokerKit refuses counts until
    refused; in a .phhs, ``load_all`` stops there, so the file's later hands are loaded one by one
    from their texts (cut by handaudit's splitter before the clock starts)."""
    from pokerkit import HandHistory

    from handaudit.grammar.sources import expand_paths, read_chunks

    warnings.simplefilter("ignore")
    files = expand_paths(paths)
    counts = {f: [c.data.decode("utf-8", "replace") for c in read_chunks(f)] for f in files}

    def replay(history) -> None:
        for _ in history:
            pass

    def once() -> tuple[float, int]:
        start = time.process_time()
        for path in files:
            with open(path, "rb") as f:
                if not path.endswith(".phhs"):
                    try:
                        replay(HandHistory.load(f))
                    except Exception:
                        pass
                    continue
                done = 0
                try:
                    for history in HandHistory.load_all(f):
                        done += 1
                        replay(history)
                except Exception:  # the rest of the file, hand by hand
                    for text in counts[path][done:]:
                        try:
                            replay(HandHistory.loads(text))
                        except Exception:
                            pass
        return time.process_time() - start, sum(len(t) for t in counts.values())

    return _repeated(once, min_seconds)


def _clear_memo() -> None:
    """Back to what a new process starts with: the parse memo empty, and the action templates
    only the shapes shipped in action_shapes.py (the templates learned since are forgotten;
    ``use_templates`` re-seeds them, as the import does). Clearing the templates without
    re-seeding them made every run colder than a new process: each shipped shape was learned
    again by a full Lark parse (some 12,000 instructions a hand on Pluribus)."""
    from handaudit.grammar import actions

    actions.use_templates(actions._TEMPLATES.enabled)


def time_handaudit(paths: list[str], parquet: bool, min_seconds: float = 0.0) -> tuple[float, int]:
    """(CPU seconds of this process, hands) for the full audit with JSONL to a null sink, or
    Parquet, repeated until at least ``min_seconds``; the parse memo is cleared before each run."""
    from handaudit.run.local import Runner

    def once() -> tuple[float, int]:
        _clear_memo()
        with tempfile.TemporaryDirectory() as tmp, open(os.devnull, "w") as sink:
            start = time.process_time()
            result = Runner(paths, jobs=1, jsonl_stream=None if parquet else sink,
                            out_dir=os.path.join(tmp, "report") if parquet else None).run()
            return time.process_time() - start, result.summary.hands

    return _repeated(once, min_seconds)


def interleaved(sample: list[str], paths: list[str], runs: int, min_seconds: float,
                files: bool = True) -> tuple[float, ...]:
    """Hands/s of (a), (a'), (b), (c), the ratios (b)/(a), (c)/(a), (b)/(a'), (c)/(a'), and what a
    hand costs in (c) against (b) (the Parquet report's CPU a hand over JSONL's), each the median
    over ``runs`` rounds (``files`` False: no (a'), its figures NaN). Each round times (a), (a'), (b) and (c) back to back, and a ratio is taken within its
    round: this machine's speed drifts by tens of percent over minutes, so timing all runs of
    (a) before all runs of (b) would put the drift into the ratio. Within a round each is
    repeated for at least ``min_seconds`` of CPU: one run of (b) over the real corpus takes
    about 40 ms, short enough for a passing slowdown to move a round's ratio."""
    # untimed, once: the first Parquet run imports pyarrow (some 0.2 s), which a round would count
    time_handaudit(paths, False)
    time_handaudit(paths, True)
    rounds = []
    for _ in range(runs):
        seconds, hands = time_pokerkit(sample, min_seconds)
        pk = hands / seconds
        pkf = float("nan")
        if files:
            seconds, hands = time_pokerkit_files(paths, min_seconds)
            pkf = hands / seconds
        seconds, hands = time_handaudit(paths, False, min_seconds)
        jl = hands / seconds
        seconds, hands = time_handaudit(paths, True, min_seconds)
        pq = hands / seconds
        rounds.append((pk, pkf, jl, pq, jl / pk, pq / pk, jl / pkf, pq / pkf, jl / pq))
    return tuple(statistics.median(r[i] for r in rounds) for i in range(9))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--synthetic", type=int, default=200_000, help="synthetic hands (0: skip)")
    ap.add_argument("--new-text", type=int, default=5, metavar="N",
                    help="copies of the real corpus with new amounts in every hand (0: skip)")
    ap.add_argument("--only", help="only the inputs whose name contains this text")
    ap.add_argument("--input", action="append", default=[], metavar="PATH",
                    help="also measure this file or directory of hands (repeatable)")
    ap.add_argument("--pokerkit-sample", type=int, default=3000)
    ap.add_argument("--min-seconds", type=float, default=0.5,
                    help="repeat each measurement within a round for at least this much CPU time (default 0.5)")
    ap.add_argument("--build", choices=("compiled", "pure"), default="compiled",
                    help="measure the compiled build (as pip install . makes it; built in benchmarks/.build) "
                         "or the pure-Python source")
    ap.add_argument("--tree", metavar="DIR", help="measure the handaudit package in DIR instead (e.g. an older "
                    "checkout built with `setup.py build_ext --inplace`): a before/after on the same inputs")
    args = ap.parse_args(argv)
    for path in args.input:  # before the build and the inputs made: a mistyped path fails at once
        if not Path(path).exists():
            ap.error(f"--input {path}: no such file or directory")
    from buildtree import existing_tree, tree

    sys.path.insert(0, existing_tree(args.tree) if args.tree else str(tree(args.build)))
    from handaudit.buildinfo import describe

    build = describe()

    real = CORPUS / "real"
    inputs = [("real: site logs (HandHQ)", [str(real / "handhq")]), ("real: Pluribus", [str(real / "pluribus")]),
              ("real: WSOP + historical", [str(real / "wsop"), str(real / "historical")]),
              ("real corpus (all)", [str(real)]), ("generated corpus", [str(CORPUS / "generated")])]
    tmp = tempfile.TemporaryDirectory()
    if args.new_text:
        inputs.append((f"new text (real x{args.new_text})", new_text(real, args.new_text, Path(tmp.name) / "new")))
    if args.synthetic:
        from scale import generate

        files = generate(args.synthetic, Path(tmp.name) / "in")
        inputs.append((f"synthetic mix ({args.synthetic:,})", [str(f) for f in files]))

    for path in args.input:
        inputs.append((Path(path).name or path, [path]))

    rows = []
    for name, paths in inputs:
        if args.only and args.only not in name:
            continue
        texts = hand_texts(paths)
        sample = texts[: args.pokerkit_sample] if len(texts) > args.pokerkit_sample else texts
        rows.append((name, len(texts), *interleaved(sample, paths, args.runs, args.min_seconds,
                                                      files=len(sample) == len(texts))))
        print(f"{name}: done", file=sys.stderr)

    out = io.StringIO()
    heads = ("input", "hands", "(a) PokerKit", "(a') files", "(b) JSONL", "(c) Parquet", "(b)/(a)", "(c)/(a)",
             "(b)/(a')", "(c)/(a')", "cost (c):(b)")
    widths = (28, 8, 13, 11, 11, 12, 8, 8, 8, 8, 13)
    out.write(" ".join(f"{h:{'<' if i == 0 else '>'}{w}}" for i, (h, w) in enumerate(zip(heads, widths, strict=True))) + "\n")
    for name, n, pk, pkf, jl, pq, jl_ratio, pq_ratio, jl_files, pq_files, cost in rows:
        out.write(f"{name:28} {n:>8,} {pk:>11,.0f}/s {pkf:>9,.0f}/s {jl:>9,.0f}/s {pq:>10,.0f}/s "
                  f"{jl_ratio:>7.1f}x {pq_ratio:>7.1f}x {jl_files:>7.1f}x {pq_files:>7.1f}x {cost:>12.2f}x\n")
    out.write(f"hands/s per core (CPU time of this process), median of {args.runs} rounds of (a), (a'), (b), "
              f"(c) back to back, each repeated for at least {args.min_seconds:g} s; each ratio is the median of "
              f"the rounds' ratios; (a): PokerKit from the hands' texts in memory, (a'): from the input's files "
              f"(nan: not timed, PokerKit sampled); cost (c):(b) is CPU a hand of the Parquet report over "
              f"JSONL's (the report's fixed cost of a run included); "
              f"PokerKit timed on up to {args.pokerkit_sample:,} hands per input; handaudit {build}\n")
    print(out.getvalue(), end="")
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

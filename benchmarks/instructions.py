"""Instructions per hand, by stage: a measure of handaudit's cost that the machine's noise cannot move.

    python benchmarks/instructions.py                         # real corpus, compiled build
    python benchmarks/instructions.py --corpus generated --runs 3
    python benchmarks/instructions.py --build pure --cold
    python benchmarks/instructions.py --corpus PATH --output parquet --generic   # + generic calls

Timings on a shared 2-core machine drift by 30% or more from one run to the next, so an A/B of
a change that saves 5% is lost in them. Valgrind's callgrind counts the instructions the CPU
executes instead: the same count for the same code and input, whatever else the machine is
doing. This script runs itself under callgrind with instrumentation off, audits the corpus
once to warm up (imports, the grammar, the parse memo), switches instrumentation on
(``callgrind_control -i on``), audits it ``--runs`` more times exactly as
``benchmarks/vs_pokerkit.py`` (b) does (``run.local.Runner``, ``--jobs 1``, JSONL to a null sink),
and switches it off again. It prints the total instructions per hand and, for the compiled
build, the inclusive instructions per hand of each stage's compiled function.

``--cold`` clears the parse memo before each measured run and puts the action templates back to
the shipped shapes, as a new process has them (as vs_pokerkit.py does). Expect
about 40 seconds for the real corpus (callgrind runs code some 50 times slower).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(ROOT / "benchmarks"))

# (label, compiled function whose inclusive count is the stage's cost)
STAGES = [
    ("split into hands", "CPyDef_sources___read_chunks_gen_____mypyc_generator_helper__"),
    ("read (TOML + fields + actions)", "CPyDef_reader___read_chunk"),
    ("  of which HandBuilder.build", "CPyDef_reader____HandBuilder___build"),
    ("cut a site log into hands", "CPyDef_common___split_log"),
    ("import a site hand (PokerStars)", "CPyDef_pokerstars___read_hand"),
    ("replay", "CPyDef_engine___replay"),
    ("settle", "CPyDef_settlement___settle"),
    ("contract.hand_json (the JSON object)", "CPyDef_contract___hand_json"),
    ("jsonl.dumps", "CPyDef_jsonl___dumps"),
]


def _child(path: str, runs: int, cold: bool, output: str) -> None:
    from handaudit.grammar import actions
    from handaudit.run.local import Runner

    def run() -> int:
        if cold:  # as a new process starts (vs_pokerkit._clear_memo)
            actions.use_templates(actions._TEMPLATES.enabled)
        if output == "parquet":
            with tempfile.TemporaryDirectory() as tmp:
                return Runner([path], jobs=1, out_dir=os.path.join(tmp, "report")).run().summary.hands
        with open(os.devnull, "w") as sink:
            return Runner([path], jobs=1, jsonl_stream=sink).run().summary.hands

    hands = run()  # warm up: imports, grammar, rulebook
    toggle = ["callgrind_control", "-i"]
    subprocess.run([*toggle, "on", str(os.getpid())], check=True, capture_output=True)
    for _ in range(runs):
        run()
    subprocess.run([*toggle, "off", str(os.getpid())], check=True, capture_output=True)
    print(f"HANDS {hands * runs}")


def _inclusive(out_file: str) -> tuple[int, dict[str, int]]:
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out_file],
                          capture_output=True, text=True, check=True).stdout
    total = 0
    m = re.search(r"^\s*([\d,]+) \(100\.0+%\)\s+PROGRAM TOTALS", text, re.M)
    if m:
        total = int(m.group(1).replace(",", ""))
    counts: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*?:(\w+)(?:'\d+)? ", line)
        if m:
            name = m.group(2)
            counts[name] = max(counts.get(name, 0), int(m.group(1).replace(",", "")))
    return total, counts


# CPython's generic entry points: compiled code calls them where mypyc could not make a native
# operation of a call, an attribute, an index or a comparison (a value typed Sequence, an
# instance called through __call__, an i64 passed where an int is taken, a bytes method).
GENERIC = ("PyObject_Vectorcall", "PyObject_VectorcallMethod", "PyObject_GetAttr", "PyObject_GetItem",
           "PyObject_SetItem", "PyObject_RichCompare", "PyNumber_Add")


def generic_calls(out_file: str, hands: int, top: int = 25) -> list[tuple[float, float, str, str]]:
    """The compiled functions (``CPyDef_*``) that call one of :data:`GENERIC`, as (calls a hand,
    instructions a hand inclusive of the callee, caller, entry point), most calls first: where a
    native operation was lost. Read from callgrind's caller tree."""
    text = subprocess.run(["callgrind_annotate", "--tree=caller", "--inclusive=yes", "--threshold=100", out_file],
                          capture_output=True, text=True, check=True).stdout
    found: dict[tuple[str, str], list[int]] = {}
    for block in text.split("\n\n"):
        callee = re.search(r"^\s*[\d,]+ \([ \d.]+%\)\s+\*\s+\S*?:(\w+)(?:'\d+)? ", block, re.M)
        if callee is None or callee.group(1) not in GENERIC:
            continue
        for m in re.finditer(r"^\s*([\d,]+) \([ \d.]+%\)\s+<\s+\S*?:(CPyDef_\w+)(?:'\d+)? .*?\(([\d,]+)x\)",
                             block, re.M):
            entry = found.setdefault((m.group(2), callee.group(1)), [0, 0])
            entry[0] += int(m.group(3).replace(",", ""))
            entry[1] += int(m.group(1).replace(",", ""))
    rows = [(calls / hands, cost / hands, caller, callee) for (caller, callee), (calls, cost) in found.items()]
    return sorted(rows, reverse=True)[:top]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="real", help="real, generated, or a path (file or directory)")
    ap.add_argument("--runs", type=int, default=2, help="measured runs after the warm-up run")
    ap.add_argument("--cold", action="store_true", help="clear the parse memo before each measured run")
    ap.add_argument("--build", choices=("compiled", "pure"), default="compiled")
    ap.add_argument("--output", choices=("jsonl", "parquet"), default="jsonl",
                    help="JSONL to a null sink (default) or the Parquet report (--out) of vs_pokerkit.py (c)")
    ap.add_argument("--keep", metavar="FILE", help="also save callgrind's output there (for callgrind_annotate)")
    ap.add_argument("--generic", action="store_true",
                    help="also list the compiled functions that make generic Python calls, per hand")
    ap.add_argument("--tree", metavar="DIR", help="measure the compiled package in DIR (an older checkout built "
                    "with `setup.py build_ext --inplace`) instead of this tree's build")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    path = str(CORPUS / args.corpus) if args.corpus in ("real", "generated") else args.corpus

    from buildtree import existing_tree, tree

    src = existing_tree(args.tree) if args.tree else tree(args.build)
    sys.path.insert(0, str(src))
    if args.child:
        _child(path, args.runs, args.cold, args.output)
        return 0
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is needed (Debian package valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}",
               sys.executable, __file__, "--child", "--corpus", path, "--runs", str(args.runs), "--build", args.build,
               "--output", args.output] + (["--tree", args.tree] if args.tree else [])
        if args.cold:
            cmd.append("--cold")
        proc = subprocess.run(cmd, capture_output=True, text=True)
        m = re.search(r"^HANDS (\d+)$", proc.stdout, re.M)
        if proc.returncode != 0 or not m:
            raise SystemExit(f"the measured run failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
        hands = int(m.group(1))
        total, counts = _inclusive(out_file)
        if args.keep:
            shutil.copyfile(out_file, args.keep)
        generic = generic_calls(out_file, hands) if args.generic else []
    from handaudit.buildinfo import describe

    print(f"{path}: {hands // args.runs} hands x {args.runs} runs, {args.output}, memo {'cold' if args.cold else 'warm'}, "
          f"handaudit {describe() if args.build == 'pure' else 'compiled build'}")
    print(f"{'total':34} {total / hands:>12,.0f} instructions/hand")
    if args.build == "compiled":
        staged = 0
        for label, fn in STAGES:
            if fn in counts:
                print(f"{label:34} {counts[fn] / hands:>12,.0f}")
                staged += counts[fn] if not label.startswith(" ") else 0
        print(f"{'rest (runner, summary, HandReport)':34} {(total - staged) / hands:>12,.0f}")
    if generic:
        print("\ngeneric calls from compiled code (calls a hand, instructions a hand with the callee's, caller -> entry):")
        for calls, cost, caller, callee in generic:
            print(f"{calls:8.2f} {cost:10,.0f}  {caller.removeprefix('CPyDef_')} -> {callee}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

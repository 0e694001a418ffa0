"""The compiled build (mypyc, as ``pip install .`` makes it) says exactly what pure Python says.

The rest of the suite runs on the editable install, which is pure Python. This test compiles
the modules setup.py lists in a copy of the project, then, in a fresh interpreter on that copy:
checks that they loaded as extensions, that the JSONL output over the shared corpora matches
the digest pinned before any optimisation (tests/data/corpus-jsonl.sha256), that a
Parquet run with ``--jobs 1`` and ``--jobs 2`` (hands pickled between processes) writes the
same five tables as the pure-Python source does in this process, and that a fuzz corpus of
hostile hands (:func:`fuzz_corpus`: empty arrays, wrong types, huge and odd numbers, nesting,
unicode, broken actions, truncated text) gets byte-for-byte the same JSONL from both builds:
mypyc checks types at run time where pure Python does not (``cast``, annotated variables), so
the two can part on inputs no real hand holds (``actions = []`` once did). Building takes a
minute or two.
"""

import os
import random
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from handaudit import audit
from handaudit.reports.jsonl import report_line
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.parquet import read_table
from handaudit.run.local import Runner

from helpers import CORPUS
from helpers import REPO as ROOT

DIGEST = ROOT / "tests" / "data" / "corpus-jsonl.sha256"
pytestmark = pytest.mark.slow  # a mypyc build of the per-hand modules: over a minute

CHECK = textwrap.dedent("""
    import hashlib, os, sys
    sys.path.insert(0, os.getcwd())  # the compiled copy, before the editable install
    import handaudit
    from handaudit import audit
    from handaudit.run.local import Runner
    from handaudit.buildinfo import compiled_modules
    from handaudit.reports.jsonl import dumps, report_line

    assert handaudit.__file__.startswith(os.getcwd()), handaudit.__file__
    print("compiled", len(compiled_modules()), " ".join(compiled_modules()))
    os.chdir(sys.argv[1])  # sources as the pinned digest names them: "real/...", "generated/..."
    for book in ("tda-2026", "wsop-2023-live"):
        h = hashlib.sha256()
        for report in audit(["real", "generated"], rulebook=book):
            line = report_line(report)  # what the CLI writes
            assert line == dumps(report.to_json()), report.hand_key
            h.update(line.encode() + b"\\n")
        print("digest", book, h.hexdigest())
    for jobs in (1, 2):
        Runner(["real", "generated"], jobs=jobs, out_dir=os.path.join(sys.argv[2], f"jobs{jobs}")).run()
    print("parquet written")
    with open(sys.argv[4], "w", encoding="utf-8") as out:
        for report in audit([sys.argv[3]]):
            out.write(report_line(report) + "\\n")
    print("fuzz written")
""")


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory):
    pytest.importorskip("mypyc", reason="mypy (with mypyc) is in the test extra")
    work = tmp_path_factory.mktemp("compiled")
    for name in ("handaudit", "setup.py", "pyproject.toml", "README.md"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            shutil.copy2(src, work / name)
    env = {k: v for k, v in os.environ.items() if k != "HANDAUDIT_PURE"}  # conftest sets it for the suite
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "building pure Python" not in proc.stderr, proc.stderr[-4000:]
    return work


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_compiled_build_matches_the_pinned_digest_and_pure_python_tables(compiled_copy, tmp_path, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = tmp_path / "reports"
    fuzz = tmp_path / "fuzz"
    fuzz_corpus(fuzz)
    fuzz_out = tmp_path / "fuzz.jsonl"
    proc = subprocess.run([sys.executable, "-c", CHECK, str(CORPUS), str(out), str(fuzz), str(fuzz_out)],
                          cwd=compiled_copy, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = proc.stdout.splitlines()
    compiled = lines[0].split()
    from handaudit.buildinfo import COMPILED as listed  # the one list, which setup.py reads
    assert int(compiled[1]) == len(listed), lines[0]  # every listed module loaded compiled
    pinned = set(DIGEST.read_text().splitlines())
    for line in lines[1:3]:
        _, book, digest = line.split()
        assert f"{book} {digest}" in pinned, line
    assert lines[3] == "parquet written"
    assert lines[4] == "fuzz written"
    # The fuzz corpus: the compiled build's JSONL, line for line, is this process's (pure Python).
    pure_lines = [report_line(report) for report in audit([str(fuzz)])]
    compiled_lines = fuzz_out.read_text(encoding="utf-8").splitlines()
    assert len(compiled_lines) == len(pure_lines) == FUZZ_HANDS
    for pure_line, compiled_line in zip(pure_lines, compiled_lines, strict=True):
        assert compiled_line == pure_line
    # The five tables of the compiled build (--jobs 1 and 2: hands pickled between processes)
    # equal those of this process, which runs the pure-Python source.
    monkeypatch.chdir(CORPUS)
    Runner(["real", "generated"], jobs=1, out_dir=str(tmp_path / "pure")).run()
    for table in TABLE_NAMES:
        pure = _sorted(read_table(tmp_path / "pure", table))
        assert pure.num_rows > 0, table
        for jobs in (1, 2):
            assert _sorted(read_table(out / f"jobs{jobs}", table)).equals(pure), (table, jobs)


def _sorted(table):
    keys = [c for c in ("source", "hand_index", "hand_key", "action_index", "finding_index", "pot_index", "player")
            if c in table.column_names]
    return table.sort_by([(k, "ascending") for k in keys])


# -- the fuzz corpus ---------------------------------------------------------------------------

FUZZ_HANDS = 400
SEEDS = sorted((ROOT / "samples").glob("*.phh"))
# TOML values of every kind and size, to put in place of a field's value.
ODD_VALUES = [
    "[]", "[[]]", "[[], []]", "''", "'x'", "'\u00e9\u2028\U0001F0A1'", "0", "-1", "1", "2", "32768", str(2**63),
    str(-2**63), "1" + "0" * 5000, "1.5", "-0.0", "+1.5", "1_000.5", "inf", "-inf", "nan", "1e400", "1e-400",
    "3.0000000000000001", "0." + "0" * 127 + "1", "true", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
    "{a = 1}", "[1, 'a']", "[1.5, 2]", "[inf, inf]", "[0, 0]", "[-1, 2]", "[1e400, 2]", "['p1 f']",
    "[" + "[" * 20 + "1" + "]" * 20 + "]", "[" + ", ".join(["1"] * 40) + "]", "[" + ", ".join(["0.5"] * 3) + "]",
]
ODD_ACTIONS = [
    "", " ", "#", "# only a comment", "p1", "p1 cbr", "p1 cbr -5", "p1 cbr 1e5", "p1 cbr 0", "p1 cbr 0.000",
    "p1 cbr " + "9" * 60, "p1 cbr 1." + "0" * 30, "p99 f", "p0 f", "p1 f f", "d dh p1", "d dh p1 AsAs",
    "d dh p1 ??????", "d db", "d db 1x2y3z", "d db AsKsQs # ok", "p1 sm", "p1 sm -", "p1 sd", "p1 pb",
    "p1 cc # \u00e9\u2028", "P1 CC", "p1\tcc", "p1  cc", "p1 cbr 3.", "p1 cbr .5", "d  db AsKs",
]


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _mutate(rng: random.Random, text: str) -> str:
    """One hostile variation of a sample hand (one or two mutations)."""
    lines = _lines(text)
    for _ in range(rng.choice((1, 1, 2))):
        fields = [i for i, line in enumerate(lines) if " = " in line and not line.startswith((" ", "#"))]
        kind = rng.randrange(11)
        if kind <= 1 and fields:  # a field's value replaced by an odd one
            i = rng.choice(fields)
            key = lines[i].split(" = ", 1)[0]
            value = rng.choice(ODD_VALUES)
            # a multi-line array: drop its continuation lines
            j = i + 1
            if lines[i].rstrip().endswith("["):
                while j < len(lines) and not lines[j].startswith("]"):
                    j += 1
                j += 1
            lines[i:j] = [f"{key} = {value}"]
        elif kind == 2 and fields:  # a field removed
            i = rng.choice(fields)
            if not lines[i].rstrip().endswith("["):
                del lines[i]
        elif 3 <= kind <= 6:  # an action replaced, added or removed
            actions = [i for i, line in enumerate(lines) if line.startswith("  '")]
            if actions:
                i = rng.choice(actions)
                odd = rng.choice(ODD_ACTIONS)
                choice = rng.randrange(3)
                if choice == 0:
                    lines[i] = f"  {odd!r},"
                elif choice == 1:
                    lines.insert(i, f'  "{odd}",')
                else:
                    del lines[i]
        elif kind == 7:  # unknown, user and duplicate-looking fields
            lines.append(rng.choice(["rake = 0.5", "_x = [1, [2, [3]]]", "_y = 'é'", "currency = 5",
                                     "players = ['a', 'b']", "seats = [1, 2]", "hand = -1", "level = 1e400"]))
        elif kind == 8:  # the text cut somewhere
            joined = "\n".join(lines)
            cut = rng.randrange(1, max(2, len(joined)))
            lines = _lines(joined[:cut])
        else:  # amounts made odd in place
            lines = [re.sub(r"\b\d+(\.\d+)?\b", lambda m: _odd_amount(rng, m.group(0)), line)
                     if line.startswith(("starting_stacks", "blinds", "antes", "min_bet", "finishing", "winnings"))
                     else line for line in lines]
    return "\n".join(lines) + "\n"


def _odd_amount(rng: random.Random, number: str) -> str:
    """An amount changed a little or a lot, still TOML."""
    more = number + ("00001" if "." in number else ".00001")
    return rng.choice([number, number, "0", "1e-400", more, "-" + number, number + "e3", "inf",
                       number.split(".")[0] + ".123456789012345678901", str(2**62)])


# Every one of these values in every one of these fields (of a sample each), then random mutations.
SYSTEMATIC_KEYS = ["actions", "antes", "blinds_or_straddles", "starting_stacks", "min_bet", "seats", "players",
                   "finishing_stacks", "winnings", "hand"]
SYSTEMATIC_VALUES = ["[]", "[[]]", "''", "0", "inf", "1e400", "-0.0", "[0.5, 1e-400]"]


def _set_field(text: str, key: str, value: str) -> str:
    """``text`` with field ``key`` (one line or a multi-line array) set to ``value``."""
    lines = _lines(text)
    for i, line in enumerate(lines):
        if line.startswith(key + " ="):
            j = i + 1
            if line.rstrip().endswith("["):
                while j < len(lines) and not lines[j].startswith("]"):
                    j += 1
                j += 1
            lines[i:j] = [f"{key} = {value}"]
            break
    else:
        lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def fuzz_corpus(directory: Path) -> None:
    """FUZZ_HANDS deterministic hostile hands, one .phh file each, from the samples: each of
    SYSTEMATIC_VALUES in each of SYSTEMATIC_KEYS (``actions = []`` among them), then random
    mutations."""
    rng = random.Random(14)
    directory.mkdir()
    texts = [path.read_text(encoding="utf-8") for path in SEEDS]
    hands = [_set_field(texts[(k * 7 + v) % len(texts)], key, value)
             for k, key in enumerate(SYSTEMATIC_KEYS) for v, value in enumerate(SYSTEMATIC_VALUES)]
    while len(hands) < FUZZ_HANDS:
        hands.append(_mutate(rng, rng.choice(texts)))
    for k, text in enumerate(hands):
        (directory / f"fuzz-{k:04d}.phh").write_text(text, encoding="utf-8")

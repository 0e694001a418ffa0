"""Every file of the shared corpus reads with no reading error, and with the right hand count.

The corpus lives next to the repository: ``<repo>/../shared/corpus`` (``real/``: 404 hands in 155
files, counted in its README's file table; ``generated/``: 440 ``.phh`` files of one hand each).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from handaudit.grammar.reader import read_hands
from handaudit.grammar.sources import expand_paths

from helpers import CORPUS as SHARED_CORPUS

CORPUS = SHARED_CORPUS.resolve()
REAL = CORPUS / "real"
GENERATED = CORPUS / "generated"

READING_ERRORS = {"syntax-error", "missing-field", "invalid-field", "unknown-variant",
                  # the reader's other error codes: none may occur on the corpus either
                  "invalid-card", "unknown-player", "duplicate-hand", "no-hands"}

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"shared corpus not found at {CORPUS}")

# | `handhq/abs-100nl-handhq_1-part.phhs` | repo | `path` | commit | 41 (hands [1]..[41]) | NT x41 |
_ROW = re.compile(r"^\|\s*`([^`]+\.phhs?)`\s*\|[^|]*\|[^|]*\|[^|]*\|\s*(\d+)[^|]*\|")


def readme_counts() -> dict[str, int]:
    counts = {}
    for line in (REAL / "README.md").read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            assert m.group(1) not in counts, f"{m.group(1)} listed twice in the README"
            counts[m.group(1)] = int(m.group(2))
    return counts


def read_all(root: Path) -> dict[str, list]:
    by_file: dict[str, list] = {}
    for r in read_hands([str(root)]):
        by_file.setdefault(str(Path(r.source).relative_to(root)), []).append(r)
    return by_file


def reading_errors(results) -> list[str]:
    return [f"{r.source} [{r.hand_key}] {f.code} line {f.line} col {f.column} action {f.action_index}: {f.message}"
            for r in results for f in r.findings if f.code in READING_ERRORS]


@pytest.fixture(scope="module")
def real():
    return read_all(REAL)


@pytest.fixture(scope="module")
def generated():
    return read_all(GENERATED)


def test_readme_table_is_complete():
    counts = readme_counts()
    assert len(counts) == 155
    assert sum(counts.values()) == 404


def test_real_files_are_the_readme_files(real):
    on_disk = {str(Path(p).relative_to(REAL)) for p in expand_paths([str(REAL)])}
    assert on_disk == set(readme_counts())
    assert set(real) == on_disk


def test_real_hand_count_per_file(real):
    expected = readme_counts()
    got = {name: len(results) for name, results in real.items()}
    wrong = {name: (got.get(name), n) for name, n in expected.items() if got.get(name) != n}
    assert not wrong, f"(read, README) per file: {wrong}"
    assert sum(got.values()) == 404


def test_real_corpus_reads_without_reading_errors(real):
    results = [r for rs in real.values() for r in rs]
    assert not reading_errors(results)
    unread = [(r.source, r.hand_key) for r in results if r.hand is None]
    assert not unread


def test_real_phhs_hand_keys_are_1_to_n(real):
    for name, results in real.items():
        if name.endswith(".phhs"):
            assert [r.hand_key for r in results] == [str(i) for i in range(1, len(results) + 1)], name
        else:
            assert [r.hand_key for r in results] == [""], name


def test_real_variant_counts(real):
    # The README's counts table, by variant.
    variants = Counter(r.hand.variant for rs in real.values() for r in rs)
    assert variants == {"NT": 363, "F2L3D": 4, "F7S": 7, "F7S/8": 4, "FO/8": 7, "FR": 5, "FT": 4,
                        "N2L1D": 4, "PO": 4, "FB": 1, "NS": 1}


def test_real_corpus_only_expected_warnings(real):
    # The real data has negative blinds (IPN, ONG, PS); nothing else is flagged on reading.
    found = Counter(f.code for rs in real.values() for r in rs for f in r.findings)
    assert set(found) <= {"negative-blind", "unknown-field"}
    assert found["negative-blind"] >= 3


def test_real_amounts_are_exact_integers(real):
    for rs in real.values():
        for r in rs:
            h = r.hand
            for value in (*h.antes, *h.blinds_or_straddles, *h.starting_stacks, h.min_bet, h.small_bet,
                          h.big_bet, h.bring_in, *(h.winnings or ()), *(h.finishing_stacks or ()),
                          *(a.amount for a in h.actions)):
                assert value is None or type(value) is int, (r.source, r.hand_key, value)


def test_real_inf_stacks_are_unknown(real):
    ipn = real["handhq/ipn-100nl-handhq_1-part.phhs"]
    assert any(None in r.hand.starting_stacks for r in ipn)


def test_generated_corpus(generated):
    files = sorted(GENERATED.rglob("*.phh"))
    assert len(files) == 440
    assert len(generated) == 440
    for name, results in generated.items():
        assert name.endswith(".phh")
        assert len(results) == 1, name
        assert results[0].hand_key == ""
    results = [rs[0] for rs in generated.values()]
    assert not reading_errors(results)
    assert all(r.hand is not None for r in results)
    assert Counter(r.hand.variant for r in results) == {code: 40 for code in
                                                        ["FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8",
                                                         "FR", "N2L1D", "F2L3D", "FB"]}


def test_generated_finishing_stacks_match_the_file(generated):
    # The reader keeps recorded finishing stacks as exact integers (generated amounts are integers).
    for rs in generated.values():
        h = rs[0].hand
        if h.finishing_stacks is not None:
            assert h.scale == 0
            assert len(h.finishing_stacks) == h.players
